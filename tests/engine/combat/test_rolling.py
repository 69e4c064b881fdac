"""Hit distributions of dice groups (pbem.engine.combat.rolling)."""

from __future__ import annotations

import random

from pbem.engine.combat import rolling


def plain(x, y):  # type: ignore[no-untyped-def]
    out = [0.0] * (len(x) + len(y) - 1)
    for i, px in enumerate(x):
        if px:
            for j, py in enumerate(y):
                out[i + j] += px * py
    return tuple(out)


def test_large_convolutions_are_the_plain_sums_to_the_last_bit():
    """Stored odds must not move when a distribution is computed a row at a time (audit compares
    reports byte for byte): every output is summed in the same order as the plain loop."""
    rng = random.Random(7)
    for _ in range(50):
        x = tuple(rng.random() if rng.random() < 0.9 else 0.0 for _ in range(rng.randint(1, 200)))
        y = tuple(rng.random() for _ in range(rng.randint(1, 200)))
        assert rolling.convolve(x, y) == plain(x, y)
    big = rolling.binomial(300, 1), rolling.binomial(120, 3)
    assert len(big[0]) * len(big[1]) > rolling._ROW_AT_ONCE
    assert rolling.convolve(*big) == plain(*big)
    assert abs(sum(rolling.convolve(*big)) - 1.0) < 1e-12
