"""The combat model refuses values its engine would misread."""

import pytest

from pbem.engine.combat.model import RetreatCondition


def test_an_unknown_retreat_kind_is_refused() -> None:
    """A kind outside the four the engine checks must not act as the last of them
    (`Engine._wants_retreat` reads any other kind as `when_defenders_outnumber`)."""
    with pytest.raises(ValueError, match="unknown retreat condition 'after_rounds'"):
        RetreatCondition("after_rounds", 2)  # type: ignore[arg-type]


def test_a_negative_retreat_value_is_refused() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        RetreatCondition("when_attackers_at_most", -1)


def test_every_known_kind_is_accepted() -> None:
    for kind in ("never", "after_round", "when_attackers_at_most", "when_defenders_outnumber"):
        assert RetreatCondition(kind, 1).kind == kind  # type: ignore[arg-type]
