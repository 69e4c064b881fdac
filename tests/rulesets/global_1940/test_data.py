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
    from pbem.rulesets.global_1940.politics import (BESIDE_MONGOLIA, CHINA, MONGOLIA, NORTH_AMERICA, SOVIET_BESIDE_MONGOLIA, US_MAINLAND,
                                                    US_WARSHIPS_ALSO_IN)
    from pbem.rulesets.global_1940.special import BURMA_ROAD, CHINA_AREA

    spaces = load_ruleset("global-1940").board.spaces
    named = {*NORTH_AMERICA, *CHINA, *MONGOLIA, *SOVIET_BESIDE_MONGOLIA, *BESIDE_MONGOLIA, *US_MAINLAND, US_WARSHIPS_ALSO_IN, *BURMA_ROAD, *CHINA_AREA}
    for o in OBJECTIVES:
        named |= {*o.controls, *o.not_held, *o.no_enemy_ships_in, *o.land_unit_in}
    assert sorted(n for n in named if n not in spaces) == []


def test_japan_at_peace_keeps_two_zones_from_the_us_mainland_on_both_boards() -> None:
    """P37: Japan "may not end the movement of its sea units within 2 sea zones of the US's mainland
    territories".  TripleA lists SZ 1, 2, 3, 8, 9, 10, 11 and 12 only (the Pacific board); the rule
    counts the Atlantic coast too, and the rule wins."""
    from pbem.io.rulesets import load_ruleset
    from pbem.rulesets.global_1940.politics import near_the_us

    near = near_the_us(load_ruleset("global-1940").board)
    assert {f"SZ {n}" for n in (1, 2, 3, 8, 9, 10, 11, 12)} < near
    assert near - {f"SZ {n}" for n in (1, 2, 3, 8, 9, 10, 11, 12)} == {"SZ 89", "SZ 101", "SZ 102", "SZ 106"}


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


def test_order_of_play_and_powers() -> None:
    """DIGEST §1.2, Order of play: "1 Germany, 2 USSR, 3 Japan, 4 United States, 5 China, 6 UK, 7 Italy,
    8 ANZAC, 9 France"; Axis Germany, Japan, Italy; the UK "one power with two economies"."""
    from pbem.io.rulesets import load_ruleset

    ruleset = load_ruleset("global-1940")
    assert list(ruleset.turn_order) == ["Germany", "Soviet Union", "Japan", "United States", "China", "United Kingdom", "Italy",
                                  "ANZAC", "France"]
    assert sorted(p.name for p in ruleset.powers if p.side == "Axis") == ["Germany", "Italy", "Japan"]
    assert list(ruleset.countries_of("United Kingdom")) == ["UK Europe", "UK Pacific"]


def test_unit_profiles() -> None:
    """The AMS guide's unit table, restating the box (DIGEST §1.2): attack, defence, move, cost; and
    the facilities of TripleA's XML (no seed states the box's)."""
    from pbem.io.rulesets import load_ruleset

    units = load_ruleset("global-1940").units
    table = {
        "infantry": (1, 2, 1, 3), "mechanized infantry": (1, 2, 2, 4), "artillery": (2, 2, 1, 4), "tank": (3, 3, 2, 6),
        "antiaircraft artillery": (0, 0, 1, 5), "fighter": (3, 4, 4, 10), "tactical bomber": (3, 3, 4, 11),
        "bomber": (4, 1, 6, 12), "battleship": (4, 4, 2, 20), "aircraft carrier": (0, 2, 2, 16), "cruiser": (3, 3, 2, 12),
        "destroyer": (2, 2, 2, 8), "submarine": (2, 1, 2, 6), "transport": (0, 0, 2, 7),
    }
    for name, (attack, defense, move, cost) in table.items():
        u = units[name]
        assert (u.attack, u.defense, u.move, u.cost) == (attack, defense, move, cost), name
    assert units["battleship"].hits == units["aircraft carrier"].hits == 2
    assert (units["major industrial complex"].production, units["major industrial complex"].max_damage) == (10, 20)
    assert (units["minor industrial complex"].production, units["minor industrial complex"].max_damage) == (3, 6)
    assert units["air base"].max_damage == units["naval base"].max_damage == 6


def test_convoy_zones_are_the_xmls_blockade_zones() -> None:
    """Convoy Disruption (E24): "a sea zone has a convoy image"; TripleA marks 34 zones blockadeZone."""
    from pbem.io.rulesets import load_ruleset

    spaces = load_ruleset("global-1940").board.spaces
    zones = sorted(int(n.split()[1]) for n, s in spaces.items() if s.convoy_zone)
    assert zones == [1, 6, 10, 19, 20, 26, 35, 36, 37, 39, 41, 42, 43, 44, 54, 62, 63, 70, 71, 72, 80, 82, 85, 89, 93, 97, 98, 99,
                     101, 105, 106, 109, 119, 125]


def test_chinas_capital_can_never_be_taken() -> None:
    """China (P10): "China has no capital, so it keeps its treasury even if fully conquered": its
    capital marker stands in the impassable Himalayas, which no unit may enter (README.md)."""
    from pbem.io.rulesets import load_ruleset

    ruleset = load_ruleset("global-1940")
    capital = ruleset.power("China").capital
    assert capital == "Himalayas" and ruleset.board.spaces[capital].impassable


@pytest.mark.parametrize("ruleset_id", ["global-1940", "global-1940-ams"])
def test_orders_know_the_boards_names_where_triplea_differs(ruleset_id: str) -> None:
    """The rulebook's names win over TripleA's (names.py): the AMS guide's objectives name the
    victory cities ("Control Moscow", "Liberate Paris", "Control Calcutta and West India") and
    the islands "Marianas Islands, Palau"; TripleA names only territories and spells "Paulau
    Island" and "Suiyuyan".  Orders take either; no name is taken from another space."""
    from pbem.io.orders import names_for
    from pbem.io.rulesets import load_ruleset
    from pbem.rulesets.global_1940.names import SPACE_NAMES

    ruleset = load_ruleset(ruleset_id)
    spaces = names_for(ruleset).spaces
    assert set(SPACE_NAMES) <= set(ruleset.board.spaces)
    wanted = {"Moscow": "Russia", "Paris": "France", "Calcutta": "India", "London": "United Kingdom", "Sydney": "New South Wales",
              "Berlin": "Germany", "Rome": "Southern Italy", "Tokyo": "Japan", "Ottawa": "Ontario", "Leningrad": "Novgorod",
              "Stalingrad": "Volgograd", "Palau": "Paulau Island", "Palau Island": "Paulau Island", "Suiyuan": "Suiyuyan",
              "Marianas Islands": "Marianas", "Western US": "Western United States", "Paulau Island": "Paulau Island"}
    assert {name: spaces.resolve(name, suggest=False).name for name in wanted} == wanted
    taken = {n.casefold() for n in ruleset.board.spaces}
    assert not [a for others in SPACE_NAMES.values() for a in others if a.casefold() in taken]


def test_the_territories_beside_mongolia_are_the_boards() -> None:
    """Mongolian Rule (P39): the Soviet territories and the Japan-held ones "bordering the Mongolian
    territories" are read off the map, so the lists in politics.py must be the board's."""
    from pbem.io.rulesets import load_ruleset
    from pbem.rulesets.global_1940.politics import BESIDE_MONGOLIA, MONGOLIA, SOVIET_BESIDE_MONGOLIA

    ruleset = load_ruleset("global-1940")
    beside = {n for t in MONGOLIA for n in ruleset.board.neighbours(t)} - set(MONGOLIA)
    assert sorted(BESIDE_MONGOLIA) == sorted(beside)
    assert sorted(SOVIET_BESIDE_MONGOLIA) == sorted(t for t in beside if ruleset.setup.control.get(t) == "Soviet Union")
