"""Powers that are not at war (Rules.politics, the groundwork of 1940 Global's political rules):
only powers at war fight; a territory of a power at peace with the mover is closed to it, entered
and flown over by none of its units; its ships in a sea zone are ignored; a declaration of war at
the start of the combat move changes that, and the state keeps it.

The 1942 board stands in for 1940 Global's here, with Japan and the United States at peace
(DIGEST §1.2: the US "starts neutral"; "Only powers at war take part in combat move and combat";
"A territory is neutral if ... controlled by a power on the other side with which you are not yet
at war"; "A DOW is made at the beginning of the combat move phase of any turn")."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from pbem import dice
from pbem.engine.rules import Politics
from pbem.engine.turn import run_turn
from pbem.game.game import rules_for
from pbem.io.orders import read_orders_text
from pbem.io.rulesets import load_ruleset, ruleset_dir
from pbem.io.state import initial_state

RULESET = load_ruleset("1942-2e")
RULESET_DIR = ruleset_dir("1942-2e")
BASE, COMBAT = rules_for(RULESET)
AXIS = [p.name for p in RULESET.powers if p.side == "Axis"]
ALLIES = [p.name for p in RULESET.powers if p.side == "Allies"]
WARS = frozenset(frozenset({a, b}) for a in AXIS for b in ALLIES if {a, b} != {"Japan", "United States"})


def politics(**kw: object) -> Politics:
    return Politics(at_war=WARS, **kw)  # type: ignore[arg-type]


def turn(orders: str, *, rules_politics: Politics | None = None, units: dict | None = None,  # type: ignore[type-arg]
         control: dict | None = None, pending: dict | None = None, validate: bool = False):  # type: ignore[type-arg]
    rules = replace(BASE, politics=politics() if rules_politics is None else rules_politics)
    state = initial_state(RULESET)
    new_units = {s: dict(by) for s, by in state.units.items()}
    new_units.update(units or {})
    state = replace(state, turn_index=RULESET.turn_order.index("Japan"), units=new_units,
                    control={**state.control, **(control or {})}, pending=dict(pending or {}))
    _, parsed = read_orders_text(f"power: Japan\nround: 1\n{orders}", "orders.yaml", RULESET)
    source = None if validate else dice.SeededDice(dice.local_seed("politics"))  # None: validation, refusals are problems
    return run_turn(RULESET, rules, COMBAT, state, parsed, {}, {}, source)


def codes(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [p.code for p in result.problems]


NEAR_US = {"Alaska": {"Japan": {"infantry": 2, "fighter": 1}}}


def test_a_territory_of_a_power_at_peace_is_closed_to_land_units() -> None:
    result = turn("combat_move:\n  - {units: 1 infantry, from: Alaska, to: Western Canada}\n"
                  "noncombat_move:\n  - {units: 1 infantry, from: Alaska, to: Western Canada}\n",
                  units=NEAR_US, control={"Alaska": "Japan", "Western Canada": "United States"}, validate=True)
    assert "move.at-peace" in codes(result)


def test_nor_may_aircraft_fly_over_it() -> None:
    result = turn("noncombat_move:\n  - {units: 1 fighter, from: Alaska, to: Western United States, via: [Western Canada]}\n",
                  units=NEAR_US, control={"Alaska": "Japan", "Western Canada": "United States", "Western United States": "Japan"},
                  validate=True)
    assert "move.at-peace" in codes(result)


def test_ships_of_powers_at_peace_share_a_sea_zone_without_a_battle() -> None:
    result = turn("noncombat_move:\n  - {units: 1 destroyer, from: SZ 55, to: SZ 56}\n",
                  units={"SZ 55": {"Japan": {"destroyer": 1}}, "SZ 56": {"United States": {"battleship": 1}}})
    assert not result.problems
    assert result.state.units["SZ 56"] == {"Japan": {"destroyer": 1}, "United States": {"battleship": 1}}
    assert not result.log.battles


def test_a_declaration_of_war_opens_the_territory_to_attack_and_is_kept() -> None:
    result = turn("declare_war: [United States]\ncombat_move:\n  - {units: 2 infantry, from: Alaska, to: Western Canada}\n",
                  units={**NEAR_US, "Western Canada": {}}, control={"Alaska": "Japan", "Western Canada": "United States"})
    assert not result.problems, result.problems
    assert result.state.control["Western Canada"] == "Japan"
    assert ["Japan", "United States"] in result.state.pending["war"]
    assert "Japan declares war on United States" in result.log.declarations


def test_the_war_declared_lasts_into_later_turns() -> None:
    kept = sorted(sorted(p) for p in WARS | {frozenset({"Japan", "United States"})})
    result = turn("combat_move:\n  - {units: 2 infantry, from: Alaska, to: Western Canada}\n",
                  units={**NEAR_US, "Western Canada": {}}, control={"Alaska": "Japan", "Western Canada": "United States"},
                  pending={"war": kept})
    assert not result.problems and result.state.control["Western Canada"] == "Japan"


def test_war_is_declared_only_on_a_power_of_the_other_side() -> None:
    assert "politics.not-at-peace" in codes(turn("declare_war: [Germany]\n"))


def test_a_declaration_on_a_power_already_at_war_is_allowed_and_changes_nothing() -> None:
    """1940, Declaration of War (E12): "it does not need to make a return DOW, but it can"."""
    result = turn("declare_war: [United Kingdom]\n")
    assert not result.problems
    assert [w.code for w in result.warnings] == ["politics.already-at-war"]


def test_a_powers_own_restrictions_may_refuse_a_declaration() -> None:
    def not_before_round_3(options, power, target, *, round, at_war, **_):  # type: ignore[no-untyped-def]
        return None if round >= 3 else "not before round 3"

    result = turn("declare_war: [United States]\n", rules_politics=politics(may_declare_war=not_before_round_3))
    assert "politics.refused" in codes(result)


def test_where_the_sides_are_always_at_war_there_is_nothing_to_declare() -> None:
    rules = BASE
    state = replace(initial_state(RULESET), turn_index=RULESET.turn_order.index("Japan"))
    _, parsed = read_orders_text("power: Japan\nround: 1\ndeclare_war: [United States]\n", "orders.yaml", RULESET)
    result = run_turn(RULESET, rules, COMBAT, state, parsed, {}, {}, None)
    assert [p.code for p in result.problems] == ["politics.always-at-war"]
    assert "war" not in result.state.pending


def test_every_pair_at_war_by_default_keeps_the_old_rules() -> None:
    """Politics with every opposing pair at war behaves as no politics: Japan attacks as before."""
    every = Politics(at_war=frozenset(frozenset(p) for p in combinations(AXIS + ALLIES, 2)
                                      if RULESET.side_of(p[0]) != RULESET.side_of(p[1])))
    result = turn("combat_move:\n  - {units: 2 infantry, from: Alaska, to: Western Canada}\n", rules_politics=every,
                  units={**NEAR_US, "Western Canada": {}}, control={"Alaska": "Japan", "Western Canada": "United States"})
    assert not result.problems and result.state.control["Western Canada"] == "Japan"


def test_bystanders_own_territories_and_armies_and_take_no_turn(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """1940 Global's neutrals (DIGEST §1.2, E10/E11/P14) own territories and standing armies but play
    no turn: a ruleset lists them as bystanders; each is a side of its own, at peace with every
    power under Rules.politics, so its territories are closed until the rules make war."""
    import shutil

    import yaml

    from pbem.engine.world import World
    from pbem.io.rulesets import load_ruleset_dir

    for name in ("ruleset", "units", "map", "setup"):
        shutil.copy(RULESET_DIR / f"{name}.yaml", tmp_path / f"{name}.yaml")
    rs = yaml.safe_load((tmp_path / "ruleset.yaml").read_text())
    rs["bystanders"] = [{"name": "Strict Neutral", "kind": "strict", "aliases": ["neutral"]}]
    (tmp_path / "ruleset.yaml").write_text(yaml.safe_dump(rs, sort_keys=False))
    board = yaml.safe_load((tmp_path / "map.yaml").read_text())
    del board["spaces"]["Afghanistan"]["impassable"]
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(board, sort_keys=False))
    setup = yaml.safe_load((tmp_path / "setup.yaml").read_text())
    setup["control"]["Afghanistan"] = "Strict Neutral"
    setup["units"]["Afghanistan"] = {"Strict Neutral": {"infantry": 2}}
    (tmp_path / "setup.yaml").write_text(yaml.safe_dump(setup, sort_keys=False))
    ruleset = load_ruleset_dir(tmp_path)
    assert ruleset.turn_order == RULESET.turn_order and ruleset.power("neutral").bystander == "strict"
    state = initial_state(ruleset)
    assert state.units["Afghanistan"] == {"Strict Neutral": {"infantry": 2}} and "Strict Neutral" not in state.treasury
    world = World(ruleset, replace(BASE, politics=politics()), state)
    assert world.relation("Strict Neutral") == "peace" and world.is_closed("Afghanistan")
    assert not world.is_enemy("Strict Neutral") and not world.is_friendly("Strict Neutral")
