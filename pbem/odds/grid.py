"""The numeric kernel of the land fast path: pairs of loss chains solved as grids, with NumPy.

Cell (i, j) of a grid is one side at position i of its chain of losses (the rows) and the other
side at position j of its own (the columns).  From a cell the column side scores h hits with
probability P[j][h] (moving to row i + h) and the row side k hits with probability A[i][k]
(moving to column j + k); hits past a chain's end stop at its end.  A round that moves neither
side is summed in closed form, so every cell is solved once, rows in order:

- the mass reaching row r from earlier rows is a convolution along j with A[r].  Instead of one
  convolution per pair of rows, the mass pending for every later row is kept in `pending`
  already divided by A[r]: when A[r] = A[r+1] * B[r] (one more casualty removes dice whose hit
  distribution is B[r]), moving on a row convolves `pending` with the short B[r] only (Horner's
  scheme), O(n^2) per row and O(n^3) in all for n units a side.  Where no such B exists (Low
  Luck, a casualty that changes other units' values) the pending mass is convolved with A[r]
  at once and kept apart (`direct`);
- within row r the column side misses and the row side's hits move right: the expected rounds
  started at each cell of the row solve one lower-triangular system.

Grids that share their rows (one defender against attackers that lost different aircraft to
AA fire) are solved together, each step one NumPy call for all of them: a row costs a few dozen
calls whatever its length, so the calls, not the arithmetic, set the time of all but the
largest battles.  A grid narrower than the widest is padded with cells that hold no mass.

A round that is not yet steady (before an attacker's retreat after round N) is played forward
instead, one round for the whole grid (`forward`), with the same Horner's scheme down the columns.

Which cells end the battle is the caller's question (`over_row`): the engine's own end phase
answers it, so no rule is restated here.  Only the arithmetic lives here.  Every sum is taken in
one fixed order with elementwise operations (no BLAS, whose order differs between processors),
so the same battle gives the same bits on every machine.  NumPy is imported only by the odds,
never at start-up.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np


def solve_grids(
    A: Sequence[Sequence[float]],
    B: Sequence[Sequence[float] | None],
    P: Sequence[Sequence[Sequence[float]]],
    fresh: Sequence[np.ndarray],
    arriving: Sequence[np.ndarray | None],
    over_row: Callable[[int, int], np.ndarray],
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Where the battle ends and how long it lasts, for grids that share their rows.

    `A[i]`: the row side's hit distribution at row i; `B[i]`: the distribution with
    A[i] = A[i+1] * B[i], or None; for grid g, `P[g][j]`: the column side's hit distribution at
    column j, `fresh[g][i, j]`: mass that starts a round at (i, j), `arriving[g][i, j]` (or None):
    mass arriving at (i, j) after a round's casualties, before its end phase; `over_row(g, i)`:
    the cells of grid g's row i whose end phase ends the battle.

    Returns, per grid, `ending[i, j]`, the probability that the battle ends at cell (i, j) (its
    end phase then says how), and `started[i, j]`, the expected number of rounds started there.
    """
    G = len(P)
    na = fresh[0].shape[0]
    widths = [len(p) for p in P]
    nd = max(widths)
    W = np.array(widths) - 1  # each grid's column chain end
    grids = np.arange(G)
    padding = np.arange(nd)[None, :] > W[:, None]  # cells past a grid's chain end: no mass ever
    hmax = max(max(len(q) for p in P for q in p), na + 1)
    PT = np.zeros((G, hmax, nd))  # PT[g, h, j] = P[g][j][h]
    for g, p in enumerate(P):
        for j, q in enumerate(p):
            PT[g, : len(q), j] = q
    PT[:, 0][padding] = 1.0
    SUF = np.cumsum(PT[:, ::-1], axis=1)[:, ::-1]  # SUF[g, h, j]: the column side at j scores h hits or more
    F = np.zeros((G, na, nd))
    direct = np.zeros((G, na, nd))
    for g in range(G):
        F[g, :, : widths[g]] = fresh[g]
        if arriving[g] is not None:
            direct[g, :, : widths[g]] = arriving[g]
    pending = np.zeros((G, na, nd))
    ending = np.zeros((G, na, nd))
    started = np.zeros((G, na, nd))
    ones = np.ones((G, nd))
    shifts = _Along(W, nd, max(len(x) for x in A))
    ends = grids * nd + W  # each grid's chain end in a flattened row of every grid
    # the column side's hits leave the row unchanged (`keep`), on every row but the last; at a chain
    # end the row side's hits move nothing along the row (`moving`)
    keep_row = PT[:, 0]
    moving_row, moving_last = keep_row.copy(), ones.copy()
    moving_row.reshape(-1)[ends] = 0.0
    moving_last.reshape(-1)[ends] = 0.0
    over = np.ones((G, nd), dtype=bool)  # the row's cells that end (padding cells too: they take no mass)
    for r in range(na):
        room = na - 1 - r  # the column side's hits beyond this all stop at the row chain's end
        a = np.asarray(A[r], dtype=float)
        along = shifts.use(a)
        inflow = direct[:, r] + along.moved(pending[:, r], stays=True)
        keep = keep_row if room else ones
        stay = keep * a[0]
        stay.reshape(-1)[ends] = keep.reshape(-1)[ends]  # at a chain end every hit of the row side changes nothing
        for g in range(G):
            over[g, : widths[g]] = over_row(g, r)
        fresh_r = F[:, r]
        rhs = np.where(over, fresh_r, fresh_r + inflow)
        lead = np.where(over, 1.0, 1.0 - stay)  # a cell that ends plays the one round its fresh mass starts
        moving = moving_row if room else moving_last
        S, moved = _row_solve(along, moving, lead, rhs, over) if rhs.any() else (rhs, rhs)
        started[:, r] = S
        ending[:, r] = np.where(over, inflow + moved + S * stay, 0.0)
        if not room:
            break
        if S.any():
            if room > 1:
                pending[:, r + 1 : na - 1] += S[:, None, :] * PT[:, 1:room]
            pending[:, na - 1] += S * SUF[:, room]
        b = B[r]
        block = pending[:, r + 1 :]
        if b is None:
            direct[:, r + 1 :] += _capped_rows(block, a, W)
            block[:] = 0.0
        elif len(b) == 2:  # one die: the usual step, done in place
            b0, b1 = b
            hit = b1 * block
            block *= b0
            at_end = hit[grids, :, W]  # a hit at the chain end stays there, not past it
            hit[grids, :, W] = 0.0
            block[:, :, 1:] += hit[:, :, :-1]
            block[grids, :, W] += at_end
        else:
            pending[:, r + 1 :] = _capped_rows(block, b, W)
    return [ending[g, :, : widths[g]] for g in range(G)], [started[g, :, : widths[g]] for g in range(G)]


class _Along:
    """What the row side's hits move along a row of every grid: mass at column j goes to j + k
    with chance a[k] (`use` sets a row's distribution), stopping at its grid's chain end W[g].

    The products of every k with every column are rows, each shifted one place further right
    (read with one column fewer per row), summed down: elementwise additions in one fixed order.
    Hits past the widest chain end all stop at a chain end: one entry holds them.  The buffers
    are made once for all rows (a row's sweeps call this a few times each)."""

    def __init__(self, W: np.ndarray, nd: int, longest: int):
        self.W = W
        self.most = max(int(W.max()), 1)
        G, self.nd = len(W), nd
        k = min(longest, self.most + 1)
        span = nd + k  # a grid's stretch of a product row: its columns, then room to shift
        self.width = G * span
        self.products = np.zeros((k, G, span))  # only the columns are written: the room stays 0
        self.full = np.zeros(self.width + 1)  # the last two entries are never reached: they stay 0
        self.grid_full = self.full[: self.width].reshape(G, span)
        ends = np.arange(G) * span + W  # where each grid's chain end lies in `full`
        self.bounds = np.ravel(np.column_stack((ends, np.arange(1, G + 1) * span)))
        self.ends = np.arange(G) * nd + W  # each grid's chain end in a flattened row of every grid
        self.head = self.full[: self.width - 1]
        self.columns_of_full = self.grid_full[:, :nd]
        self.outside = (np.arange(nd)[None, :] > W[:, None]) if (W < nd - 1).any() else None

    def use(self, a: np.ndarray) -> "_Along":
        most = self.most
        a = np.array(a[: most + 1], dtype=float) if len(a) <= most + 1 else np.append(a[:most], a[most:].sum())
        self.a = a[:, None, None]
        self.hop = self.a.copy()
        self.hop[0] = 0.0  # no hit: the cell's stay, not a move
        k = len(a)
        self.columns = self.products[:k, :, : self.nd]
        self.skewed = self.products.reshape(-1)[: k * (self.width - 1)].reshape(k, self.width - 1)  # row t from column t
        return self

    def moved(self, h: np.ndarray, stays: bool = False) -> np.ndarray:
        """Where mass `h` (grids x columns) is after the row side's hits: moved only
        (`stays`=False, the mass of no hit dropped), or all of it."""
        np.multiply(self.a if stays else self.hop, h[None], out=self.columns)
        self.skewed.sum(axis=0, out=self.head)  # grid_full[g, t]: the mass reaching column t
        out = self.columns_of_full.copy()
        out.reshape(-1)[self.ends] = np.add.reduceat(self.full, self.bounds)[::2]  # what reaches the end or passes it
        if self.outside is not None:
            out[self.outside] = 0.0
        return out


def _row_solve(along: _Along, moving: np.ndarray, lead: np.ndarray, rhs: np.ndarray, over: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """x with lead * x - along(moving * x) = rhs in every grid's row, where cells that end
    (`over`) take no mass along the row (`moving`: the chance that the column side misses), and
    along(moving * x), the mass the rounds started move along the row (into cells that end too).

    `along` is strictly causal (mass moves right only), so Jacobi sweeps reach the exact answer in at
    most one sweep per cell; in a large battle a side that scores no hit at all is rare and a few
    sweeps reach the floating-point fixed point.  Past a few sweeps each grid's row is solved as
    the lower-triangular system it is, by forward substitution."""
    if (lead <= 0.0).any():
        raise RuntimeError("a battle state cannot progress")  # the engine ends such battles
    x = rhs / lead
    for _ in range(SWEEPS):
        moved = along.moved(moving * x)
        y = (rhs + moved) / lead
        np.copyto(y, rhs, where=over)
        if x.tobytes() == y.tobytes():  # (no NaN, and no -0.0: every term is a product of chances)
            return y, moved  # (moved from x, which is y)
        x = y
    G, nd = rhs.shape
    out = np.zeros((G, nd))
    for g in range(G):
        units = _Along(np.full(nd, along.W[g]), nd, len(along.a)).use(along.a[:, 0, 0])  # one grid's row, a cell at a time
        M = units.moved(np.diag(moving[g])).T  # M[i, j]: the mass cell i receives from cell j
        M[over[g]] = 0.0
        # forward substitution, each sum correctly rounded: LAPACK's solve sums in an order that
        # differs from one processor to another
        x = out[g]
        for j in range(nd):
            x[j] = (rhs[g, j] + math.fsum((M[j, :j] * x[:j]).tolist())) / lead[g, j]
    return out, along.moved(moving * out)


SWEEPS = 12


def _capped_rows(block: np.ndarray, a: Sequence[float], W: np.ndarray) -> np.ndarray:
    """Every row of every grid's `block` (grids x rows x columns) convolved with `a`, the mass
    past a grid's chain end W[g] kept there."""
    G, rows, nd = block.shape
    out = np.zeros((G, rows, nd + len(a)))
    for k, q in enumerate(a):  # one hit count after the other: the same order everywhere
        if q:
            out[:, :, k : k + nd] += q * block
    past = np.arange(nd + len(a))[None, :] >= W[:, None]
    capped = np.where((np.arange(nd)[None, :] < W[:, None])[:, None, :], out[:, :, :nd], 0.0)
    capped[np.arange(G), :, W] = np.where(past[:, None, :], out, 0.0).sum(axis=2)
    return capped


def forward(
    mass: np.ndarray,
    A: Sequence[Sequence[float]],
    D: Sequence[Sequence[float]],
    B: Sequence[Sequence[float] | None],
    charge: Callable[[int], None],
) -> np.ndarray:
    """Where one round moves `mass` (attacker's chain positions x defender's): from (i, j) the
    defender scores h hits with probability D[j][h] (to row i + h) and, at the same time, the
    attacker k hits with probability A[i][k] (to column j + k); hits past a chain's end stop at
    its end.  `B[j]`: the defender's factors, D[j] = D[j+1] * B[j], or None.  `charge` is told
    the elementwise steps to come, before any is taken.

    The mass of column j, moved along the row by the attacker's hits, is Y_j; the round's result
    is the sum over j of Y_j convolved down the columns with D[j].  By Horner's scheme on the
    factors, ((Y_j0 * B[j0] + Y_j0+1) * B[j0+1] + ...) * D[j1], each step a convolution with a
    short B (one die: two terms), so a round costs columns x cells, not columns x cells x hits;
    where no factor exists the sum so far is convolved with D[j] at once.  Mass past a chain's
    end stays at its end at every step (moves only go down and right, so that is exact)."""
    na, nd = mass.shape
    rows, columns = np.flatnonzero(mass.any(axis=1)), np.flatnonzero(mass.any(axis=0))
    out = np.zeros((na, nd))
    if not len(rows):
        return out
    i0, j0, j1 = int(rows[0]), int(columns[0]), int(columns[-1])
    block = mass[i0:, :]  # rows from the first that holds mass: the others stay empty
    ni = na - i0
    room = nd - j0  # columns from j0 on
    longest = min(max(len(A[i]) for i in range(i0, na)), room)
    hits = np.zeros((ni, longest))  # hits[n, k]: the attacker at row i0 + n scores k hits (k < room)
    past = np.zeros((ni, room))  # past[n, t]: it scores t hits or more
    for n in range(ni):
        a = np.asarray(A[i0 + n], dtype=float)
        hits[n, : min(len(a), longest)] = a[:longest]
        tail = np.cumsum(a[::-1])[::-1]
        past[n, : min(len(tail), room)] = tail[:room]
    steps = sum(1 if B[j] is not None and len(B[j]) == 2 else len(D[j]) for j in range(j0, j1))
    charge(ni * room * (steps + len(D[j1]) + 1))
    total = np.zeros((ni, room))  # the sum so far, in columns j0...
    for j in range(j0, j1 + 1):
        if j > j0:
            b = B[j - 1]
            if b is None:  # no factor: the sum so far goes down with D[j - 1] at once
                out[i0:, j0:] += _down(total, D[j - 1])
                total[:] = 0.0
            else:
                total = _down(total, b)
        m = block[:, j]
        if m.any():  # Y_j: column j's mass moved along the row by the attacker's hits
            c = j - j0
            short = min(longest, room - 1 - c)  # hit counts that stop short of the chain's end
            total[:, c : c + short] += m[:, None] * hits[:, :short]
            total[:, room - 1] += m * past[:, room - 1 - c]
    out[i0:, j0:] += _down(total, D[j1])
    return out


def _down(x: np.ndarray, dist: Sequence[float]) -> np.ndarray:
    """x convolved down its rows with `dist`, mass past the last row kept there: rows move by
    the defender's hits, one count after the other (the same order everywhere)."""
    n = x.shape[0]
    out = np.zeros_like(x)
    for h, q in enumerate(dist):
        if not q:
            continue
        if h >= n - 1:
            out[n - 1] += q * x.sum(axis=0)
            continue
        out[h:] += q * x[: n - h]
        if h:
            out[n - 1] += q * x[n - h :].sum(axis=0)
    return out


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
    if n == 2:  # one more die (a loss chain's step): the same two terms, added in the same order
        out = np.zeros(m + 1)
        np.multiply(x, y[0], out=out[:m])
        out[1:] += x * y[1]
        return out
    rows = np.zeros((n, m + n))
    np.multiply.outer(y, x, out=rows[:, :m])
    return rows.ravel()[: n * (m + n - 1)].reshape(n, m + n - 1).sum(axis=0)
