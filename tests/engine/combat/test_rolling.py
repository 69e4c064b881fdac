"""Hit distributions of dice groups (pbem.engine.combat.rolling)."""

from __future__ import annotations

import random

from pbem.engine.combat import rolling


def test_large_convolutions_are_the_plain_sums_to_the_last_bit():
    """Stored odds must not move when a distribution is computed a row at a time (audit compares
    reports byte for byte): every output is summed in the same order as the plain loop."""
    rng = random.Random(7)
    for _ in range(50):
        x = tuple(rng.random() if rng.random() < 0.9 else 0.0 for _ in range(rng.randint(1, 200)))
        y = tuple(rng.random() for _ in range(rng.randint(1, 200)))
        assert rolling._convolve_rows(x, y) == rolling._convolve_plain(x, y)
    big = rolling.binomial(300, 1), rolling.binomial(120, 3)
    assert len(big[0]) * len(big[1]) > rolling._ROW_AT_ONCE
    assert rolling.convolve(*big) == rolling._convolve_plain(*big)
    assert abs(sum(rolling.convolve(*big)) - 1.0) < 1e-12


def test_binomial_is_exact_to_rounding_for_any_number_of_units():
    """P(k hits) of n units equals comb(n, k) p^k q^(n-k) (computed here in exact fractions) to
    rounding, also with "best of" dice (a miss needs every die to miss), and a stack past about
    1,030 units, whose comb(n, k) no float holds, still has a distribution that sums to one."""
    from fractions import Fraction
    from math import comb

    for n, value, best_of in ((0, 3, 1), (1, 1, 1), (2, 2, 2), (7, 2, 1), (60, 1, 1), (61, 5, 1), (200, 4, 1), (33, 3, 3)):
        p = 1 - (1 - Fraction(value, 6)) ** best_of
        got = rolling.binomial(n, value, best_of)
        assert len(got) == n + 1
        for k, g in enumerate(got):
            exact = float(comb(n, k) * p**k * (1 - p) ** (n - k))
            assert abs(g - exact) <= 1e-13 * exact + 1e-300, (n, value, best_of, k)
    huge = rolling.binomial(1100, 1)
    assert len(huge) == 1101 and abs(sum(huge) - 1.0) < 1e-12
    assert max(range(1101), key=huge.__getitem__) == 183  # the mode of 1,100 dice at 1 in 6
