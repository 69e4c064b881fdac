"""The numeric kernel of the land fast path: one pair of loss chains solved as a grid, with NumPy.

Cell (i, j) is the attacker at position i of its chain of losses and the defender at position j
of its own.  From a cell the defender scores h hits with probability P[j][h] (the attacker moves
to row i + h) and the attacker k hits with probability A[i][k] (the defender moves to column
j + k); hits past a chain's end stop at its end.  A round that moves neither side is summed in
closed form, so every cell is solved once, rows in order:

- the mass reaching row r from earlier rows is a convolution along j with A[r].  Instead of one
  convolution per pair of rows, the mass pending for every later row is kept in `pending`
  already divided by A[r]: when A[r] = A[r+1] * B[r] (one more casualty removes dice whose hit
  distribution is B[r]), moving on a row convolves `pending` with the short B[r] only (Horner's
  scheme), O(n^2) per row and O(n^3) in all for n units a side.  Where no such B exists (Low
  Luck, a casualty that changes other units' values) the pending mass is convolved with A[r]
  at once and kept apart (`direct`);
- within row r the defender misses and the attacker's hits move right: the expected rounds
  started at each cell of the row solve one lower-triangular system.

Which cells end the battle is the caller's question (`over_row`): the engine's own end phase
answers it, so no rule is restated here.  Only the arithmetic lives here.  NumPy is imported
only by the odds, never at start-up.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np


def solve_grid(
    A: Sequence[Sequence[float]],
    B: Sequence[Sequence[float] | None],
    P: Sequence[Sequence[float]],
    fresh: np.ndarray,
    arriving: np.ndarray | None,
    over_row: Callable[[int], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """Where the battle ends and how long it lasts, from the grid's starting mass.

    `A[i]`, `P[j]`: the hit distributions of the attacker at row i and the defender at column j;
    `B[i]`: the distribution with A[i] = A[i+1] * B[i], or None; `fresh[i, j]`: mass that starts
    a round at (i, j); `arriving[i, j]`: mass arriving at (i, j) after a round's casualties, before
    its end phase; `over_row(i)`: the cells of row i whose end phase ends the battle.

    Returns `ending[i, j]`, the probability that the battle ends at cell (i, j) (its end phase
    then says how), and `started[i, j]`, the expected number of rounds started there.
    """
    na, nd = fresh.shape
    W = nd - 1  # the defender's chain end
    hmax = max(max(len(p) for p in P), na + 1)
    PT = np.zeros((hmax, nd))  # PT[h, j] = P[j][h]
    for j, p in enumerate(P):
        PT[: len(p), j] = p
    SUF = np.cumsum(PT[::-1], axis=0)[::-1]  # SUF[h, j] = P(defender at j scores at least h hits)
    pending = np.zeros((na, nd))
    direct = np.zeros((na, nd)) if arriving is None else np.array(arriving, dtype=float)
    ending = np.zeros((na, nd))
    started = np.zeros((na, nd))
    ones = np.ones(nd)
    for r in range(na):
        a = np.asarray(A[r], dtype=float)
        room = na - 1 - r  # the defender's hits beyond this all stop at the attacker's chain end
        inflow = direct[r] + _capped(pending[r], a)
        keep = PT[0] if room else ones  # the defender's hits leave the row unchanged
        hop = a.copy()  # the attacker's hits that move along the row (when the defender misses)
        hop[0] = 0.0
        stay = keep * a[0]
        if W:
            stay[W] = keep[W]  # at the chain end every hit of the attacker changes nothing
        over = over_row(r)
        ends = bool(over.any())
        rhs = fresh[r] + inflow
        lead = 1.0 - stay
        if ends:
            lead[over] = 1.0  # a cell that ends plays the one round its fresh mass starts
            rhs[over] = fresh[r][over]
        S = _row_solve(hop, keep, lead, rhs, over if ends else None) if rhs.any() else rhs
        started[r] = S
        if ends:
            ending[r] = np.where(over, inflow + _along(S, _moving(keep), hop) + S * stay, 0.0)
        if not room:
            break
        if S.any():
            if room > 1:
                pending[r + 1 : na - 1] += S * PT[1:room]
            pending[na - 1] += S * SUF[room]
        b = B[r]
        block = pending[r + 1 :]
        if b is None:
            direct[r + 1 :] += _capped_rows(block, a)
            block[:] = 0.0
        elif len(b) == 2 and W:  # one die: the usual step, done in place
            b0, b1 = b
            block[:, W] = b0 * block[:, W] + b1 * (block[:, W - 1] + block[:, W])
            block[:, 1:W] = b0 * block[:, 1:W] + b1 * block[:, : W - 1]
            block[:, 0] *= b0
        else:
            pending[r + 1 :] = _capped_rows(block, b)
    return ending, started


def _along(x: np.ndarray, moving: np.ndarray, hop: np.ndarray) -> np.ndarray:
    """The mass that rounds started at `x` move along their row: the defender misses (`moving` is
    that chance, 0 at the chain end, where a hit changes nothing: it is part of the cell's stay),
    the attacker hits (`hop`)."""
    return _capped(moving * x, hop)


def _moving(keep: np.ndarray) -> np.ndarray:
    """`keep` with the chain end's entry 0: the factor `_along` applies to the mass it moves."""
    out = keep.copy()
    out[-1] = 0.0
    return out


def _row_solve(hop: np.ndarray, keep: np.ndarray, lead: np.ndarray, rhs: np.ndarray, over: np.ndarray | None) -> np.ndarray:
    """x with lead * x - along(x) = rhs, where cells that end (`over`) take no mass along the row.

    `along` is strictly causal (mass moves right only), so Jacobi sweeps reach the exact answer in at
    most one sweep per cell; in a large battle a side that scores no hit at all is rare and a few
    sweeps reach the floating-point fixed point.  A sweep is one short convolution.  Past a few
    sweeps the row is solved as a dense lower-triangular system, by forward substitution."""
    if (lead <= 0.0).any():
        raise RuntimeError("a battle state cannot progress")  # the engine ends such battles
    moving = _moving(keep)
    x = rhs / lead
    for _ in range(SWEEPS):
        y = (rhs + _along(x, moving, hop)) / lead
        if over is not None:
            np.copyto(y, rhs, where=over)
        if (x == y).all():
            return y
        x = y
    nd = len(rhs)
    M = np.zeros((nd, nd))
    for j in range(nd - 1):  # column j: where the mass leaving cell j along the row lands
        e = np.zeros(nd)
        e[j] = 1.0
        M[:, j] = -_along(e, moving, hop)
    if over is not None:
        M[over] = 0.0
    # forward substitution (mass moves right only, so M is lower triangular), each sum correctly
    # rounded: LAPACK's solve sums in an order that differs from one processor to another
    x = np.zeros(nd)
    for j in range(nd):
        x[j] = (rhs[j] - math.fsum((M[j, :j] * x[:j]).tolist())) / lead[j]
    return x


SWEEPS = 12


def convolve(x: np.ndarray | Sequence[float], y: np.ndarray | Sequence[float]) -> np.ndarray:
    """x convolved with y, every sum taken in the same order on every machine.

    np.convolve sums each term with BLAS, whose order, and so the last bit, differs between
    processors (AVX2, AVX-512, ARM): the example game, adjudicated on one, failed audit on
    another over a battle's odds.  Here the shorter one's terms are added one after the other:
    its outer product with the longer one, each row shifted one place further right (read with
    one column fewer per row), summed down the columns - elementwise additions only."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) < len(y):
        x, y = y, x
    m, n = len(x), len(y)
    rows = np.zeros((n, m + n))
    np.multiply.outer(y, x, out=rows[:, :m])
    return rows.ravel()[: n * (m + n - 1)].reshape(n, m + n - 1).sum(axis=0)


def _capped(h: np.ndarray, a: np.ndarray) -> np.ndarray:
    """h convolved with a, the mass past the last column kept in the last column."""
    full = convolve(h, a)
    n = len(h)
    past = full[n - 1 :].sum()
    out = full[:n]
    out[-1] = past
    return out


def _capped_rows(block: np.ndarray, a: Sequence[float]) -> np.ndarray:
    """`_capped` for every row of `block` at once."""
    rows, nd = block.shape
    W = nd - 1
    out = np.zeros((rows, nd))
    if not rows:
        return out
    for k, q in enumerate(a):
        if not q:
            continue
        if k < W:
            out[:, k:W] += q * block[:, : W - k]
            out[:, W] += q * block[:, W - k :].sum(axis=1)
        else:
            out[:, W] += q * block.sum(axis=1)
    return out
