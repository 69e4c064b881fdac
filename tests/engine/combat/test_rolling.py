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
