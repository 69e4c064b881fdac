"""A power answers to the names players bring from other boxes of the family."""

from __future__ import annotations

import pytest

from pbem.io.orders import read_orders_text
from pbem.io.rulesets import load_ruleset


@pytest.mark.parametrize("ruleset_id, typed, power", [
    ("europe-1999", "United Kingdom", "Great Britain"),
    ("pacific-2001", "UK", "Great Britain"),
    ("1942-2e", "Great Britain", "United Kingdom"),
    ("revised", "U.S.S.R.", "Soviet Union"),
    ("global-1940", "Italians", "Italy"),
])
def test_common_names_of_a_power(ruleset_id: str, typed: str, power: str) -> None:
    assert load_ruleset(ruleset_id).power(typed).name == power


def test_a_countrys_own_name_keeps_its_meaning() -> None:
    """Pacific's "USA" is the United States' country, and stays one: the common name does not
    override the ruleset's own."""
    pacific = load_ruleset("pacific-2001")
    assert pacific.country("USA").name == "USA"
    assert "usa" not in pacific.names_of("United States")


def test_orders_take_a_common_name_for_their_power() -> None:
    europe = load_ruleset("europe-1999")
    _, orders = read_orders_text("game: g\npower: United Kingdom\nround: 1\n", "o.yaml", europe)
    assert orders.power == "Great Britain"
