"""1940 Global with the AMS house rules: the folder extends global-1940 (its map and geometry), holds
the guide's set-up, facility tiers, objective tables and technology charts as data, and the engine
enforces what each production facility mobilizes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pbem.engine.turn import run_turn
from pbem.io.orders import read_orders_text
from pbem.io.rulesets import load_ruleset, load_ruleset_dir
from pbem.io.state import initial_state
from pbem.rulesets.global_1940.combat_rules import COMBAT_RULES
from pbem.rulesets.global_1940.rules import RULES

FOLDER = Path(__file__).resolve().parents[3] / "pbem" / "rulesets" / "global_1940_ams"
AMS = load_ruleset_dir(FOLDER)


def test_the_folder_extends_the_box_for_its_map() -> None:
    """ruleset.yaml `extends: global-1940`: the map is the box's, read from that folder."""
    assert not (FOLDER / "map.yaml").exists() and not (FOLDER / "geometry.json").exists()
    assert dict(AMS.board.adjacency) == dict(load_ruleset("global-1940").board.adjacency)


def test_the_guides_set_up() -> None:
    """DIGEST §3.2, the guide's INITIAL SET-UP: Ω3.0 "moving Japanese destroyer from SZ33 to SZ6"; the
    facility tiers ("Novgorod: ... 1 Airstrip, 1 Naval Base, Major Factory"; "West India: 1 Infantry, 1
    Military Base"); "French Indo China: 1 Infantry each" (France); "Sea Zone 101: 1 Cruiser, 1 Transport", the guide's
    last line, which the DIGEST's transcription leaves out (the guide wins)."""
    units = AMS.setup.units
    assert units["SZ 6"]["Japan"]["destroyer"] == 3 and "destroyer" not in units["SZ 33"]["Japan"]
    assert dict(units["Novgorod"]["Soviet Union"]) == {"air strip": 1, "antiaircraft artillery": 2, "artillery": 1, "fighter": 1,
                                                       "infantry": 6, "major factory": 1, "naval base": 1}
    assert dict(units["West India"]["United Kingdom"]) == {"infantry": 1, "military base": 1}
    assert dict(units["French Indo China"]["France"]) == {"infantry": 1}
    assert dict(units["SZ 101"]["United States"]) == {"cruiser": 1, "transport": 1}
    assert dict(AMS.setup.treasury) == dict(load_ruleset("global-1940").setup.treasury)


def test_the_production_facilities_table() -> None:
    """Production Facilities (the guide's table): cost, units, max damage, disabled at, territory."""
    u = AMS.units
    table = {"industrial complex": (30, 10, 20, 10, 3), "major factory": (20, 5, 10, 5, 3),
             "minor factory": (15, 3, 6, 3, 2), "military base": (9, 2, 6, 3, 0)}
    for name, (cost, made, cap, disabled, ipc) in table.items():
        assert (u[name].cost, u[name].production, u[name].max_damage, u[name].inoperable_at, u[name].min_territory_ipc) == \
            (cost, made, cap, disabled, ipc), name
    assert u["industrial complex"].original_territory_only
    assert set(u["minor factory"].places_not) == {"battleship", "aircraft carrier", "bomber"}
    assert set(u["military base"].places) == {"infantry", "transport"}
    # "Capturing an enemy facility immediately downgrades it one level."
    assert [u["industrial complex"].captured_as, u["major factory"].captured_as, u["minor factory"].captured_as] == \
        ["major factory", "minor factory", "military base"]


def _turn(power: str, orders: str, **state_changes: object):  # type: ignore[no-untyped-def]
    state = replace(initial_state(AMS), turn_index=AMS.turn_order.index(power), **state_changes)  # type: ignore[arg-type]
    _, parsed = read_orders_text(f"power: {power}\nround: 1\n{orders}", "orders.yaml", AMS)
    return run_turn(AMS, RULES, COMBAT_RULES, state, parsed, {}, {}, None)


def test_a_minor_factory_mobilizes_no_capital_ship() -> None:
    """Production Facilities: a minor factory builds "All except capital ships & strat bombers"."""
    result = _turn("Soviet Union", "purchase: {battleship: 1}\nplace:\n  SZ 100: {battleship: 1}\n")
    assert [p.code for p in result.problems] == ["place.facility-type"]


def test_a_military_base_mobilizes_infantry_and_transports_only() -> None:
    """Production Facilities: a military base builds "2 infantry or 1 transport" ("Infantry/Transport")."""
    refused = _turn("United Kingdom", "purchase: {UK Pacific: {artillery: 1}}\nplace:\n  West India: {artillery: 1}\n")
    assert [p.code for p in refused.problems] == ["place.facility-type"]
    placed = _turn("United Kingdom", "purchase: {UK Pacific: {infantry: 2}}\nplace:\n  West India: {infantry: 2}\n")
    assert not placed.problems


def test_starting_ipcs_are_the_guides() -> None:
    """Initial Set-Up: "Germany - 30 IPC", "USSR - 37", "Italy - 10", "Japan - 26", "ANZAC - 10", "UK: Europe -
    28", "China - 12", "France - 19", "UK: Pacific - 17", "United States - 52" (DIGEST §5 AMS.1: the treasury)."""
    from pbem.engine.economy import income
    from pbem.game.game import rules_for

    rs = load_ruleset("global-1940-ams")
    guide = {"Germany": 30, "Soviet Union": 37, "Italy": 10, "Japan": 26, "ANZAC": 10, "UK Europe": 28,
             "China": 12, "France": 19, "UK Pacific": 17, "United States": 52}
    assert dict(rs.setup.treasury) == guide
    rules, _ = rules_for(rs)
    state = initial_state(rs, rs.option_defaults(), rules)
    assert {c: income(rs, rules.economy, state.control, c) for c in rs.countries} == guide  # the income matches too


def test_the_sixteen_victory_objectives() -> None:
    """Victory objectives: eight for each side, each with the nation that gets the technology and its chart
    (Axis: Moscow 1, Calcutta and West India 1, 6 Pacific cities Either, 7 Europe cities Either, London 2,
    Sydney 2, no Allied warships in the Atlantic or Mediterranean - Germany 2, no US surface warships in
    the Pacific - Japan 2; Allies: Berlin 1, Africa - UK 1, Paris 1, the Burma Road, Hong Kong and
    Shanghai - UK 1, Rome 2, Tokyo 2, no Japanese capital ships - US 2, the Japanese islands - US 2)."""
    from pbem.rulesets.global_1940_ams.objectives import TOKENS

    table = {(o.side, o.name): (o.tech_to, o.chart) for o in TOKENS.objectives}
    assert sum(1 for s, _ in table if s == "Axis") == 8 and sum(1 for s, _ in table if s == "Allies") == 8
    assert table[("Axis", "Moscow")] == ("taker", "1") and table[("Axis", "London")] == ("taker", "2")
    assert table[("Axis", "6 victory cities of the Pacific board")] == ("most", "either")
    assert table[("Axis", "no Allied warships in the Atlantic or the Mediterranean")] == ("Germany", "2")
    assert table[("Axis", "no US surface warships in the Pacific")] == ("Japan", "2")
    assert table[("Allies", "Africa")] == ("United Kingdom", "1")
    assert table[("Allies", "Paris liberated")] == ("mover", "1")
    assert table[("Allies", "no Japanese capital ships")] == ("United States", "2")
    assert (TOKENS.at_least, TOKENS.lead) == (4, 2)


def test_the_two_technology_charts() -> None:
    """R&D Breakthrough Charts, by die face: Chart 1 Heavy Artillery, Rockets, Improved Production, Jet
    Fighters, Propaganda, Blitz Tactics; Chart 2 Super Submarines, Detection Radar, Nautical Engineering,
    Long-Range Aircraft, Super Carrier Decks, Heavy Bombers."""
    from pbem.rulesets.global_1940_ams.technology import CHARTS, NAMES

    assert [NAMES[d] for d in CHARTS["1"]] == ["Heavy Artillery", "Rockets", "Improved Production", "Jet Fighters", "Propaganda",
                                               "Blitz Tactics"]
    assert [NAMES[d] for d in CHARTS["2"]] == ["Super Submarines", "Detection Radar", "Nautical Engineering", "Long-Range Aircraft",
                                               "Super Carrier Decks", "Heavy Bombers"]


def test_the_national_objective_tables() -> None:
    """National Objective Bonuses: every nation's table, row by row, with its bonus."""
    from pbem.rulesets.global_1940_ams.objectives import OBJECTIVES

    bonuses: dict[str, list[int]] = {}
    for o in OBJECTIVES:
        bonuses.setdefault(o.country, []).append(o.bonus)
    assert sorted(bonuses["Germany"]) == [2, 2, 3, 3, 5, 5]  # peace 5; Novgorod/Volgograd/Russia 5 each; Egypt 3; London 3; Iraq/Persias 2 each; W. hemisphere 2 each
    assert sorted(bonuses["Japan"]) == [2, 3, 3, 5, 5, 5, 5, 5, 6, 10]
    assert sorted(bonuses["Italy"]) == [2, 2, 2, 3, 5, 5]
    assert sorted(bonuses["Soviet Union"]) == [2, 2, 2, 3, 4, 4, 10]  # the two Lend-Lease lanes, 2 or 4 each
    assert sorted(bonuses["United States"]) == [2, 2, 3, 3, 5, 5, 5, 10]
    assert sorted(bonuses["UK Europe"]) == [2, 3, 3, 3, 5] and sorted(bonuses["UK Pacific"]) == [3, 5]
    assert bonuses["China"] == [3] and sorted(bonuses["ANZAC"]) == [3, 3, 5]


def test_every_space_the_rules_name_is_on_the_map() -> None:
    """The objectives, tokens and political rules name only spaces of the map."""
    from pbem.rulesets.global_1940_ams.objectives import OBJECTIVES, TOKENS
    from pbem.rulesets.global_1940_ams.politics import ASIA
    from pbem.rulesets.global_1940_ams.special import CHINESE_TERRITORIES

    spaces = set(AMS.board.spaces)
    named: set[str] = set(ASIA) | set(CHINESE_TERRITORIES)
    for o in (*OBJECTIVES, *(v.condition for v in TOKENS.objectives)):
        named |= {*o.controls, *o.not_held, *o.no_enemy_ships_in, *o.land_unit_in, *o.controls_one_of}
    assert named <= spaces, sorted(named - spaces)
