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


def test_a_payer_may_pay_at_most_a_sum() -> None:
    """Middle East Movement Example: "The U.S. agrees to pay Germany 3 IPCs, while Great Britain pays
    Germany 1 IPC": a payer written {United States: 3} pays at most 3; a malformed one is a clear
    error at its line."""
    text = "power: Great Britain\nstanding_orders:\n  tribute_payers: [{United States: 3}, Great Britain]\n"
    _, standing = read_orders_text(text, "s.yaml", load_ruleset("europe-1999"))
    assert standing.tribute_payers == ("United States", "Great Britain")
    assert standing.tribute_caps == {"United States": 3}
    bad = "power: Great Britain\nstanding_orders:\n  tribute_payers: [{United States: lots}]\n"
    with pytest.raises(ProblemsError) as err:
        read_orders_text(bad, "s.yaml", load_ruleset("europe-1999"))
    problem = err.value.problems[0]
    assert problem.line == 3 and "not a whole number" in problem.message
