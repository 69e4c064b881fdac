"""How a volley's dice become hits: rolled (for the adjudicator) or enumerated (for the odds).

Both answers live here so that Low Luck, grouping and fire classes mean the same thing to `fight`
and to the odds calculator.

Ordinary dice: one call `dice.roll(label, n)` for the whole volley, split over the groups in
their stable order (hit value ascending, then unit name), so a report reads "3 dice at 1: 1 5 6".

Low Luck (a game option, not a rule of any rulebook): within one volley, the strength of all
units whose hits go to the same targets (one fire class) is pooled: hits = strength // 6, plus
one die for the remainder that hits on `strength % 6` or less.  In a land battle that is the
whole side, the usual club reading.  A unit that keeps the best of several dice (AMS Heavy Bombers)
has no whole strength to pool: it rolls its own dice, after the remainders'.
"""

from __future__ import annotations

from functools import lru_cache

from pbem.engine.combat.engine import Hits, Volley
from pbem.engine.combat.model import REMAINDER, DiceGroup, DiceRolled, DiceSource, FireClass, RolledGroup


def battle_label(space: str, round_number: int, step: str) -> str:
    return f"battle/{space}/round-{round_number}/{step}"


def roll_volley(
    volley: Volley, dice: DiceSource, label: str, round_number: int, low_luck: bool
) -> tuple[dict[FireClass, int], DiceRolled]:
    """Roll one volley; returns hits per fire class and the event for the report."""
    hits: dict[FireClass, int] = {}
    if not low_luck:
        total = sum(g.count * g.best_of for g in volley.groups)
        faces = dice.roll(label, total)
        if len(faces) != total:
            raise ValueError(f"dice source gave {len(faces)} dice for {label}, wanted {total}")
        rolled: list[RolledGroup] = []
        at = 0
        for g in volley.groups:
            mine = tuple(faces[at : at + g.count * g.best_of])
            at += g.count * g.best_of
            # a unit rolling several dice and keeping the best hits once at most
            h = sum(1 for i in range(g.count) if min(mine[i * g.best_of : (i + 1) * g.best_of]) <= g.value)
            hits[g.fire_class] = hits.get(g.fire_class, 0) + h
            rolled.append(RolledGroup(g, mine, h))
        event = DiceRolled(round_number, volley.step, volley.side, label, tuple(rolled), sum(hits.values()))
        return hits, event
    # units keeping the best of several dice (AMS Heavy Bombers) have no whole strength to pool:
    # they roll their own dice after the remainders'
    pooled = tuple(g for g in volley.groups if g.best_of == 1)
    apart = tuple(g for g in volley.groups if g.best_of > 1)
    pools = _pools(pooled)
    remainders = [(cls, strength % 6) for cls, strength in pools if strength % 6]
    own = sum(g.count * g.best_of for g in apart)
    faces = dice.roll(label, len(remainders) + own) if remainders or own else ()
    guaranteed = 0
    groups: list[RolledGroup] = []
    for cls, strength in pools:
        hits[cls] = strength // 6
        guaranteed += strength // 6
    for (cls, rest), face in zip(remainders, faces):
        h = 1 if face <= rest else 0
        hits[cls] += h
        groups.append(RolledGroup(DiceGroup(REMAINDER, rest, 1, cls), (face,), h))
    at = len(remainders)
    for g in apart:
        mine = tuple(faces[at : at + g.count * g.best_of])
        at += g.count * g.best_of
        h = sum(1 for i in range(g.count) if min(mine[i * g.best_of : (i + 1) * g.best_of]) <= g.value)
        hits[g.fire_class] = hits.get(g.fire_class, 0) + h
        groups.append(RolledGroup(g, mine, h))
    event = DiceRolled(
        round_number,
        volley.step,
        volley.side,
        label,
        tuple(RolledGroup(g, (), 0) for g in pooled) + tuple(groups),
        sum(hits.values()),
        low_luck=True,
        guaranteed_hits=guaranteed,
    )
    return hits, event


def _pools(groups: tuple[DiceGroup, ...]) -> list[tuple[FireClass, int]]:
    strength: dict[FireClass, int] = {}
    for g in groups:
        strength[g.fire_class] = strength.get(g.fire_class, 0) + g.count * g.value
    return sorted(strength.items())


@lru_cache(maxsize=None)
def binomial(n: int, value: int, best_of: int = 1) -> tuple[float, ...]:
    """P(k hits) for n units, each rolling `best_of` dice hitting on `value` or less, k = 0..n.

    Made from single units by convolution (two halves, each from its own halves), not from
    comb(n, k) p^k q^(n-k): `**` is the C library's pow, whose last bit differs between libraries
    and processors, and audit replays the odds in reports byte for byte; and comb(n, k) past
    about 1,030 units is too large for a float.  Products and sums only: the same bits anywhere."""
    if n > 1:
        half = n // 2
        return convolve(binomial(half, value, best_of), binomial(n - half, value, best_of))
    miss = 1 - min(max(value, 0), 6) / 6
    all_miss = 1.0
    for _ in range(max(best_of, 1)):  # a miss needs every die to miss
        all_miss *= miss
    return (1.0,) if n <= 0 else (all_miss, 1 - all_miss)


def convolve(x: tuple[float, ...], y: tuple[float, ...]) -> tuple[float, ...]:
    if len(x) * len(y) > _ROW_AT_ONCE:
        return _convolve_rows(x, y)
    return _convolve_plain(x, y)


def _convolve_plain(x: tuple[float, ...], y: tuple[float, ...]) -> tuple[float, ...]:
    out = [0.0] * (len(x) + len(y) - 1)
    for i, px in enumerate(x):
        if px:
            for j, py in enumerate(y):
                out[i + j] += px * py
    return tuple(out)


def _convolve_rows(x: tuple[float, ...], y: tuple[float, ...]) -> tuple[float, ...]:
    """`convolve` for hundreds of dice: the products of each entry of x with y are rows, each
    shifted one place further right (read with one column fewer per row), summed down the
    columns - every sum taken in the plain loop's order, elementwise, so the result is the same
    to the last bit.  NumPy is imported only here (start-up stays fast)."""
    import numpy as np

    m, n = len(x), len(y)
    rows = np.zeros((m, m + n))
    np.multiply.outer(np.asarray(x, dtype=float), np.asarray(y, dtype=float), out=rows[:, :n])
    return tuple(rows.ravel()[: m * (m + n - 1)].reshape(m, m + n - 1).sum(axis=0).tolist())


_ROW_AT_ONCE = 256  # products: below this the plain loop is faster


@lru_cache(maxsize=None)
def class_distribution(groups: tuple[tuple[int, ...], ...], low_luck: bool) -> tuple[float, ...]:
    """P(k hits) for dice groups (count, value[, best_of]) that share one fire class."""
    if low_luck:
        strength = sum(g[0] * g[1] for g in groups if len(g) == 2)
        sure, rest = divmod(strength, 6)
        pool = [0.0] * (sure + 2)
        pool[sure] = 1 - rest / 6
        pool[sure + 1] = rest / 6
        out: tuple[float, ...] = tuple(pool) if rest else tuple(pool[: sure + 1])
        for g in groups:
            if len(g) > 2:  # best of several dice: rolled apart from the pool (roll_volley)
                out = convolve(out, binomial(*g))
        return out
    dist: tuple[float, ...] = (1.0,)
    for g in groups:
        dist = convolve(dist, binomial(*g))
    return dist


def class_distributions(volley: Volley, low_luck: bool) -> list[tuple[FireClass, tuple[float, ...]]]:
    """A volley's fire classes, sorted, each with P(k hits) for its dice (the classes are independent)."""
    per_class: dict[FireClass, list[tuple[int, int]]] = {}
    for g in volley.groups:
        per_class.setdefault(g.fire_class, []).append((g.count, g.value) if g.best_of == 1 else (g.count, g.value, g.best_of))
    return [(cls, class_distribution(tuple(sorted(per_class[cls])), low_luck)) for cls in sorted(per_class)]


def volley_distribution(volley: Volley, low_luck: bool) -> list[tuple[Hits, float]]:
    """Every hits-per-class outcome of a volley with its exact probability: the product of its
    classes' distributions, the first class outermost (`pbem.odds.sea` builds the same product
    with NumPy, in the same order and with the same multiplications)."""
    out: list[tuple[Hits, float]] = [((), 1.0)]
    for cls, dist in class_distributions(volley, low_luck):
        out = [(h + ((cls, k),), p * q) for h, p in out for k, q in enumerate(dist) if q > 0.0]
    return out
