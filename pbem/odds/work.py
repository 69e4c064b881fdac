"""The work an exact odds computation may spend (`pbem.odds.STATE_BUDGET` and the budgets)."""

from __future__ import annotations


class _TooBig(Exception):
    pass


class _Work:
    """The work units spent so far against a budget (None: unbounded)."""

    def __init__(self, budget: int | None):
        self.budget = budget
        self.spent = 0

    def add(self, units: int) -> None:
        self.spent += units
        if self.budget is not None and self.spent > self.budget:
            raise _TooBig

    def ahead(self, units: int) -> None:
        """Stop before a step that may cost up to `units` more, where that would pass the budget,
        rather than find out once it is paid: the states a fleet's fire phase makes, each of which
        may meet the end phase.  Nothing is charged; the step charges what it did."""
        if self.budget is not None and self.spent + units > self.budget:
            raise _TooBig
