"""Europe (1999) standing orders: who of the Allies pays the Middle East IPCs."""

from __future__ import annotations

import pytest

from pbem.engine.problems import ProblemsError
from pbem.io.orders import read_orders_text
from pbem.io.rulesets import load_ruleset


def test_only_a_power_of_the_same_side_may_pay() -> None:
    """Collect Income, The Middle East: "The Allies must decide among themselves who will pay Germany"
    - naming Germany is refused with the file position and the rule."""
    ruleset = load_ruleset("europe-1999")
    text = "power: Great Britain\nstanding_orders:\n  tribute_payers: [United States, Germany]\n"
    with pytest.raises(ProblemsError) as err:
        read_orders_text(text, "gb-standing.yaml", ruleset)
    (problem,) = err.value.problems
    assert problem.code == "standing.tribute-payer" and problem.line == 3
    assert "Germany is not on Great Britain's side" in problem.message


def test_payers_are_read_in_order() -> None:
    ruleset = load_ruleset("europe-1999")
    text = "power: Great Britain\nstanding_orders:\n  tribute_payers: [US, Soviet Union]\n"
    _, standing = read_orders_text(text, "gb-standing.yaml", ruleset)
    assert standing.tribute_payers == ("United States", "Soviet Union")
