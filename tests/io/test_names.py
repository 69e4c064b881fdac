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
