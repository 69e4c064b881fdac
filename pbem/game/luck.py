"""Luck statistics: how far each power's hits strayed from expectation, and whether the dice look fair.

Players of a long play-by-email game ask two questions the dice log can answer: "was I unlucky?"
(expected hits vs actual hits, per power and per battle) and "are these dice honest?" (a
chi-square goodness-of-fit test that all six faces are equally frequent).  The p-value comes
from the regularised upper incomplete gamma function implemented here with the standard library,
so the report needs no scientific stack.  Results are frozen values; reports format them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

FACES = 6
DEGREES_OF_FREEDOM = FACES - 1
MIN_RELIABLE_DICE = 5 * FACES  # the usual rule: at least 5 expected per face


@dataclass(frozen=True)
class LuckRecord:
    """One roll with its thresholds: die k hits when `values[k] <= hit_on[k]` (A&A combat)."""

    power: str
    battle: str
    values: tuple[int, ...]
    hit_on: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", tuple(self.values))
        object.__setattr__(self, "hit_on", tuple(self.hit_on))
        if len(self.values) != len(self.hit_on):
            raise ValueError(
                f"{self.battle}: {len(self.values)} dice but {len(self.hit_on)} hit thresholds"
            )
        if any(not 1 <= v <= FACES for v in self.values):
            raise ValueError(f"{self.battle}: die values must be 1..6, got {self.values}")
        if any(not 0 <= h <= FACES for h in self.hit_on):
            raise ValueError(f"{self.battle}: hit thresholds must be 0..6, got {self.hit_on}")


@dataclass(frozen=True)
class HitTally:
    """Dice thrown, hits expected (sum of hit_on/6), hits scored, and the variance of the count."""

    dice: int = 0
    expected: float = 0.0
    actual: int = 0
    variance: float = 0.0

    @property
    def luck(self) -> float:
        """Hits above (+) or below (-) expectation."""
        return self.actual - self.expected

    @property
    def z(self) -> float:
        """Luck in standard deviations; 0 when the outcome was certain (variance 0)."""
        return self.luck / math.sqrt(self.variance) if self.variance > 0 else 0.0

    def __add__(self, other: "HitTally") -> "HitTally":
        return HitTally(
            self.dice + other.dice,
            self.expected + other.expected,
            self.actual + other.actual,
            self.variance + other.variance,
        )


def tally(record: LuckRecord) -> HitTally:
    """The tally of one roll."""
    probabilities = [h / FACES for h in record.hit_on]
    return HitTally(
        dice=len(record.values),
        expected=math.fsum(probabilities),
        actual=sum(1 for v, h in zip(record.values, record.hit_on) if v <= h),
        variance=math.fsum(p * (1 - p) for p in probabilities),
    )


@dataclass(frozen=True)
class PowerLuck:
    power: str
    tally: HitTally


@dataclass(frozen=True)
class BattleLuck:
    battle: str
    power: str
    tally: HitTally


@dataclass(frozen=True)
class FaceTest:
    """Chi-square goodness of fit of the face counts against a fair d6 (5 degrees of freedom).

    `reliable` is False below 30 dice, where the chi-square approximation is poor and the
    report should not draw conclusions.
    """

    counts: tuple[int, ...]
    total: int
    chi_square: float
    dof: int
    p_value: float

    @property
    def reliable(self) -> bool:
        return self.total >= MIN_RELIABLE_DICE


@dataclass(frozen=True)
class LuckReport:
    """Per power and per (battle, power) tallies in first-seen order, a game total, the face test."""

    powers: tuple[PowerLuck, ...]
    battles: tuple[BattleLuck, ...]
    total: HitTally
    faces: FaceTest


def luck_report(records: Iterable[LuckRecord]) -> LuckReport:
    """Aggregate a game's (or a turn's) rolls; first-seen order keeps reports in play order."""
    by_power: dict[str, HitTally] = {}
    by_battle: dict[tuple[str, str], HitTally] = {}
    values: list[int] = []
    total = HitTally()
    for record in records:
        t = tally(record)
        by_power[record.power] = by_power.get(record.power, HitTally()) + t
        key = (record.battle, record.power)
        by_battle[key] = by_battle.get(key, HitTally()) + t
        total += t
        values.extend(record.values)
    return LuckReport(
        powers=tuple(PowerLuck(p, t) for p, t in by_power.items()),
        battles=tuple(BattleLuck(b, p, t) for (b, p), t in by_battle.items()),
        total=total,
        faces=face_test(values),
    )


def face_test(values: Iterable[int]) -> FaceTest:
    """Pearson's chi-square of the face counts; with no dice, nothing is evidence: p = 1."""
    counts = [0] * FACES
    for v in values:
        if not 1 <= v <= FACES:
            raise ValueError(f"die values must be 1..6, got {v}")
        counts[v - 1] += 1
    n = sum(counts)
    if n == 0:
        return FaceTest(tuple(counts), 0, 0.0, DEGREES_OF_FREEDOM, 1.0)
    expected = n / FACES
    chi2 = math.fsum((c - expected) ** 2 / expected for c in counts)
    return FaceTest(tuple(counts), n, chi2, DEGREES_OF_FREEDOM, chi_square_sf(chi2, DEGREES_OF_FREEDOM))


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with `dof` degrees of freedom: Q(dof/2, x/2)."""
    if dof < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if x <= 0:
        return 1.0
    return regularized_upper_gamma(dof / 2, x / 2)


_EPS = 1e-15
_MAX_ITER = 10_000


def regularized_upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a).

    Below x = a + 1 the power series for P converges fast and Q = 1 - P; above it the continued
    fraction for Q converges fast and keeps small tail probabilities accurate.
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must be non-negative")
    if x == 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x, log_prefix))
    return min(1.0, _upper_fraction(a, x, log_prefix))


def _lower_series(a: float, x: float, log_prefix: float) -> float:
    """P(a, x) = x^a e^-x / Γ(a+1) * Σ x^n / ((a+1)...(a+n))."""
    term = 1.0 / a
    total = term
    denominator = a
    for _ in range(_MAX_ITER):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPS:
            return total * math.exp(log_prefix)
    raise ArithmeticError(f"incomplete gamma series did not converge for a={a}, x={x}")


def _upper_fraction(a: float, x: float, log_prefix: float) -> float:
    """Q(a, x) by the Legendre continued fraction, evaluated with the modified Lentz method."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            return math.exp(log_prefix) * h
    raise ArithmeticError(f"incomplete gamma fraction did not converge for a={a}, x={x}")
