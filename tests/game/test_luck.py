"""Luck statistics: the incomplete gamma against known quantiles, and the hit tallies by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.game.luck import (
    HitTally,
    LuckRecord,
    chi_square_sf,
    face_test,
    luck_report,
    regularized_upper_gamma,
)

# (chi-square value, degrees of freedom, upper-tail probability) from standard tables.
QUANTILES = [
    (11.0705, 5, 0.05),
    (15.0863, 5, 0.01),
    (20.5150, 5, 0.001),
    (9.2364, 5, 0.10),
    (1.1455, 5, 0.95),
    (0.5543, 5, 0.99),
    (3.8415, 1, 0.05),
    (6.6349, 1, 0.01),
    (18.3070, 10, 0.05),
    (124.3421, 100, 0.05),
]


@pytest.mark.parametrize("x, dof, p", QUANTILES)
def test_chi_square_matches_table_quantiles(x: float, dof: int, p: float) -> None:
    assert chi_square_sf(x, dof) == pytest.approx(p, rel=2e-4)


@settings(max_examples=200)
@given(st.floats(min_value=1e-6, max_value=200.0))
def test_two_degrees_of_freedom_is_an_exponential(x: float) -> None:
    assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9, abs=1e-300)


@settings(max_examples=200)
@given(st.floats(min_value=1e-6, max_value=60.0))
def test_one_degree_of_freedom_is_erfc(x: float) -> None:
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9, abs=1e-300)


@settings(max_examples=200)
@given(st.integers(min_value=1, max_value=30), st.floats(min_value=1e-3, max_value=80.0))
def test_integer_shape_is_a_poisson_tail(a: int, x: float) -> None:
    # Q(a, x) = P(Poisson(x) < a) for integer a
    poisson = math.fsum(math.exp(-x + k * math.log(x) - math.lgamma(k + 1)) for k in range(a))
    assert regularized_upper_gamma(a, x) == pytest.approx(poisson, rel=1e-9, abs=1e-300)


def test_gamma_edges() -> None:
    assert chi_square_sf(0.0, 5) == 1.0
    assert regularized_upper_gamma(2.5, 0.0) == 1.0
    assert 0 < chi_square_sf(200.0, 5) < 1e-35
    with pytest.raises(ValueError):
        regularized_upper_gamma(0, 1.0)
    with pytest.raises(ValueError):
        chi_square_sf(1.0, 0)


def test_face_test_on_perfect_and_loaded_dice() -> None:
    fair = face_test([1, 2, 3, 4, 5, 6] * 10)
    assert fair.counts == (10,) * 6 and fair.chi_square == 0.0 and fair.p_value == 1.0
    assert fair.reliable and fair.dof == 5
    loaded = face_test([6] * 40 + [1, 2, 3, 4, 5] * 4)
    assert loaded.p_value < 1e-6
    assert not face_test([1, 2, 3]).reliable
    assert face_test([]).p_value == 1.0
    with pytest.raises(ValueError):
        face_test([7])


def test_tallies_by_power_and_battle() -> None:
    records = [
        LuckRecord("Germany", "battle/Ukraine", (1, 2, 3, 6), (1, 1, 3, 3)),  # 2 hits, 8/6 expected
        LuckRecord("Russia", "battle/Ukraine", (2, 2), (2, 2)),  # 2 hits, 4/6 expected
        LuckRecord("Germany", "battle/Egypt", (4,), (4,)),  # 1 hit, 4/6 expected
        LuckRecord("Germany", "battle/Ukraine", (5,), (0,)),  # cannot hit: no effect but a die
    ]
    report = luck_report(records)
    assert [p.power for p in report.powers] == ["Germany", "Russia"]
    germany = report.powers[0].tally
    assert germany.dice == 6 and germany.actual == 3
    assert germany.expected == pytest.approx(12 / 6)
    assert germany.variance == pytest.approx(2 * (1 / 6 * 5 / 6) + 2 * (3 / 6 * 3 / 6) + 4 / 6 * 2 / 6)
    assert germany.luck == pytest.approx(1.0)
    assert [(b.battle, b.power) for b in report.battles] == [
        ("battle/Ukraine", "Germany"),
        ("battle/Ukraine", "Russia"),
        ("battle/Egypt", "Germany"),
    ]
    assert report.battles[0].tally.dice == 5 and report.battles[0].tally.actual == 2
    assert report.total.actual == 5 and report.total.dice == 8
    assert report.faces.counts == (1, 3, 1, 1, 1, 1)


def test_z_score_and_certain_outcomes() -> None:
    certain = luck_report([LuckRecord("UK", "b", (3, 6), (6, 6))]).total
    assert certain.actual == 2 and certain.expected == 2 and certain.variance == 0 and certain.z == 0.0
    t = HitTally(dice=36, expected=6.0, actual=11, variance=5.0)
    assert t.z == pytest.approx(5 / math.sqrt(5))


def test_records_are_validated() -> None:
    with pytest.raises(ValueError, match="2 dice but 1"):
        LuckRecord("UK", "b", (1, 2), (3,))
    with pytest.raises(ValueError, match="1..6"):
        LuckRecord("UK", "b", (0,), (3,))
    with pytest.raises(ValueError, match="0..6"):
        LuckRecord("UK", "b", (1,), (7,))
    assert LuckRecord("UK", "b", [1], [2]).values == (1,)  # type: ignore[arg-type]


@settings(max_examples=100)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 6)), max_size=60))
def test_expected_hits_is_the_sum_of_probabilities(dice: list[tuple[int, int]]) -> None:
    record = LuckRecord("X", "b", tuple(v for v, _ in dice), tuple(h for _, h in dice))
    total = luck_report([record]).total
    assert total.expected == pytest.approx(sum(h for _, h in dice) / 6)
    assert total.actual == sum(1 for v, h in dice if v <= h)
