"""1940 Global's data: the import reproduces the committed files, the opening treasuries are the
guide's starting IPCs, and every territory the rules name is on the map."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem.io.triplea import import_triplea

REPO = Path(__file__).resolve().parents[3]
XML = REPO.parent / "shared" / "data" / "triplea" / "global_1940" / "ww2global40_2nd_edition.xml"
COMMITTED = REPO / "pbem" / "rulesets" / "global_1940"


@pytest.mark.skipif(not XML.is_file(), reason="shared TripleA data not present")
@pytest.mark.parametrize("name", ["map.yaml", "setup.yaml"])
def test_import_reproduces_committed_file(tmp_path: Path, name: str) -> None:
    import_triplea(XML, tmp_path, ruleset_id="global-1940")
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()


def test_starting_ipcs_are_the_guides() -> None:
    """DIGEST §1.2, from the AMS set-up: "Germany 30, USSR 37, Italy 10, Japan 26, ANZAC 10, UK
    Europe 28, China 12, France 19, UK Pacific 17, United States 52"."""
    setup = yaml.safe_load((COMMITTED / "setup.yaml").read_text())
    assert setup["treasury"] == {"ANZAC": 10, "China": 12, "France": 19, "Germany": 30, "Italy": 10, "Japan": 26,
                                 "Soviet Union": 37, "UK Europe": 28, "UK Pacific": 17, "United States": 52}


def test_the_united_kingdoms_units_are_one_powers() -> None:
    """DIGEST §1.2: the UK is "one power with two economies": control by country, units by power."""
    setup = yaml.safe_load((COMMITTED / "setup.yaml").read_text())
    owners = {o for by in setup["units"].values() for o in by}
    assert "United Kingdom" in owners and not {"UK Europe", "UK Pacific"} & owners
    assert {"UK Europe", "UK Pacific"} <= set(setup["control"].values())


def test_every_space_the_rules_name_is_on_the_map() -> None:
    """A misspelt territory in an objective, a victory group or a political rule would silently
    never count."""
    from pbem.io.rulesets import load_ruleset
    from pbem.rulesets.global_1940.objectives import OBJECTIVES
    from pbem.rulesets.global_1940.politics import NORTH_AMERICA

    spaces = load_ruleset("global-1940").board.spaces
    named = set(NORTH_AMERICA)
    for o in OBJECTIVES:
        named |= {*o.controls, *o.not_held, *o.no_enemy_ships_in, *o.land_unit_in}
    assert sorted(n for n in named if n not in spaces) == []


def test_kamikaze_zones_are_the_six_of_the_xml_trigger() -> None:
    """P16: kamikaze "only in sea zones with a kamikaze symbol"; TripleA's game-start trigger marks
    6, 17, 19, 20, 22 and 35 Sea Zone, which the importer's corrections set (pbem/io/triplea.py)."""
    from pbem.io.rulesets import load_ruleset

    spaces = load_ruleset("global-1940").board.spaces
    assert sorted(n for n, s in spaces.items() if s.kamikaze) == ["SZ 17", "SZ 19", "SZ 20", "SZ 22", "SZ 35", "SZ 6"]


def test_japans_declaration_on_the_commonwealth_is_unprovoked_and_remembered() -> None:
    """Political rules, Japan (DIGEST §1.2): "An unprovoked DOW on UK/ANZAC lets the US declare war
    on any Axis power": the declaration leaves a fact in the state that the United States' rule reads."""
    from dataclasses import replace

    from pbem import dice
    from pbem.engine.turn import run_turn
    from pbem.game.game import rules_for
    from pbem.io.orders import read_orders_text
    from pbem.io.rulesets import load_ruleset
    from pbem.io.state import initial_state
    from pbem.rulesets.global_1940.politics import UNPROVOKED

    ruleset = load_ruleset("global-1940")
    rules, combat = rules_for(ruleset)
    state = replace(initial_state(ruleset), turn_index=ruleset.turn_order.index("Japan"))
    _, orders = read_orders_text("power: Japan\nround: 1\ndeclare_war: [ANZAC]\n", "orders.yaml", ruleset)
    after = run_turn(ruleset, rules, combat, state, orders, {}, {}, dice.SeededDice(dice.local_seed("g40"))).state
    assert UNPROVOKED in after.pending["facts"]
    wars = {frozenset(p) for p in after.pending["war"]}
    assert {frozenset({"Japan", "ANZAC"}), frozenset({"Japan", "United Kingdom"})} <= wars
