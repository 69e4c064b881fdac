"""Names as players write them (issue 14): what the map draws on unit stacks, and city names."""

from __future__ import annotations

import pytest

from pbem.io.orders import names_for, read_orders_text
from pbem.io.rulesets import load_ruleset
from pbem.report.mapsvg import abbreviate


@pytest.mark.parametrize("ruleset_id", ["1942-2e", "revised"])
def test_every_short_name_the_map_draws_is_understood_in_orders(ruleset_id: str) -> None:
    """A player reads "2 tnk" or "1 aa" on the board; writing it back must name the same unit."""
    ruleset = load_ruleset(ruleset_id)
    names = names_for(ruleset)
    for unit in ruleset.units:
        assert names.units.resolve(abbreviate(unit)).name == unit, (unit, abbreviate(unit))


def test_short_unit_names_and_city_names_in_an_orders_file() -> None:
    ruleset = load_ruleset("1942-2e")
    text = ("power: Soviet Union\nround: 1\n"
            "combat_move:\n  - {units: 1 tnk, from: Moscow, to: West Russia}\n")
    _, orders = read_orders_text(text, "orders.yaml", ruleset)
    move = orders.combat_moves[0]
    assert (move.frm, dict(move.units)) == ("Russia", {"tank": 1})


def test_a_city_name_resolves_to_its_territory_not_a_look_alike() -> None:
    names = names_for(load_ruleset("1942-2e"))
    assert names.spaces.resolve("Moscow").name == "Russia"
    assert names.spaces.resolve("moscow").name == "Russia"


@pytest.mark.parametrize("ruleset_id", ["1942-2e", "revised", "europe-1999", "pacific-2001", "global-1940", "global-1940-ams"])
def test_the_common_names_of_a_unit_work_whatever_its_rulebook_calls_it(ruleset_id: str) -> None:
    """Europe's rulebook says "AA gun", 1942's "antiaircraft artillery", players write "AAA" or
    "strategic bomber" in every game: each names the ruleset's one unit of that kind."""
    ruleset = load_ruleset(ruleset_id)
    units = names_for(ruleset).units
    aa = next(u for u in ruleset.units.values() if u.name.startswith("antiaircraft"))
    for word in ("AAA", "AA gun", "anti-aircraft gun", "Anti Aircraft Artillery", "antiaircraft gun"):
        assert units.resolve(word).name == aa.name, word
    for word in ("strategic bomber", "strat bombers", "Bombers"):
        assert units.resolve(word).name == "bomber", word
    for word in ("subs", "U-boats", "armour", "carrier"):
        assert units.resolve(word).name in ruleset.units, word


def test_a_name_common_to_two_units_stays_unknown_and_names_both() -> None:
    """1940 has minor and major complexes and the upgrade of one to the other: "industrial complex" is
    none of them, and the hint offers all three."""
    units = names_for(load_ruleset("global-1940")).units
    assert units.resolve("industrial complex").name is None
    assert set(units.resolve("industrial complex").suggestions) == {"minor industrial complex", "major industrial complex",
                                                                    "major industrial complex upgrade"}


def test_hyphens_and_spaces_do_not_matter_in_a_space_name() -> None:
    spaces = names_for(load_ruleset("revised")).spaces
    assert spaces.resolve("West-Russia").name == spaces.resolve("west russia").name == "West Russia"
    assert spaces.resolve("Anglo Egypt").name == spaces.resolve("AngloEgypt").name == "Anglo-Egypt"
