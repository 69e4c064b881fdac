"""1940 Global with the AMS house rules, groundwork (issue 18): the folder extends global-1940 (its map
and geometry), holds the guide's set-up and its facility tiers, and the engine enforces what each
production facility mobilizes."""

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
    Military Base"); "French Indo China: 1 Infantry each" (France); no US ships in SZ 101."""
    units = AMS.setup.units
    assert units["SZ 6"]["Japan"]["destroyer"] == 3 and "destroyer" not in units["SZ 33"]["Japan"]
    assert dict(units["Novgorod"]["Soviet Union"]) == {"air strip": 1, "antiaircraft artillery": 2, "artillery": 1, "fighter": 1,
                                                       "infantry": 6, "major factory": 1, "naval base": 1}
    assert dict(units["West India"]["United Kingdom"]) == {"infantry": 1, "military base": 1}
    assert dict(units["French Indo China"]["France"]) == {"infantry": 1}
    assert "SZ 101" not in units
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
