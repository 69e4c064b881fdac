"""Exact battle odds, walking the very step functions `fight` uses (`pbem.engine.combat.engine`).

A state is what is left of each side under its order of loss (plus the round, while the round
still matters: AA and bombardment fire in round 1 only, "retreat after round N").  From each
state one round is enumerated phase by phase: every volley's hits per fire class come with their
exact probability (convolutions of binomials, or Low Luck's one die), and the engine applies them.
A round that changes nothing returns to its own state; that self-loop is summed in closed form,
so the states form a DAG and each is expanded once, in order of decreasing hit points.

Land battles after the special first round take a fast path: with a single fire class each side's
losses form a chain (the state after k casualties), so states are pairs of chain positions and a
round is an outer product of two hit distributions.  The grid of positions is solved row by row,
the mass bound for later rows carried with Horner's scheme (see `_FastLand._grid`): O(n^3) list
operations for n units a side instead of O(n^4).  In the general walk each fire volley's outcomes
are applied once and combined, and dice-free phases are remembered across rounds.

Every computation has a bound, so that no battle can stall a turn: a budget of *work* (round
outcomes enumerated), the same on every machine so that audit reproduces each figure byte for
byte.  Past it the battle is sampled instead - the same step functions, the dice drawn from the
exact per-volley distributions by a generator seeded from the battle itself - and the result is
flagged as simulated, with its 95 % confidence half-width.
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import itertools
import math
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Mapping

from pbem.engine.combat.engine import Engine, State
from pbem.engine.combat.fight import captured
from pbem.engine.combat.model import Battle, Orders
from pbem.engine.combat.rolling import class_distribution, volley_distribution

if TYPE_CHECKING:
    import numpy as np  # imported by the land fast path only, not at start-up

STATE_BUDGET = 200_000
# Work units (round outcomes enumerated) an exact computation may spend.  REPORT_BUDGET bounds the
# odds that `validate`, `adjudicate`, reports and `audit` print (about a tenth of a second on a
# laptop core); `pbem odds` allows COMMAND_BUDGET (about a second) unless told `--exact`.  A unit
# is deterministic, unlike a clock, so every machine makes the same choice between exact and sampled.
REPORT_BUDGET = 15_000
COMMAND_BUDGET = 100_000
SIMULATIONS = 2_000
TOP = 5


@dataclass(frozen=True)
class FinalState:
    """One way the battle can end: who won and what is left (unit -> count, per side)."""

    probability: float
    winner: str
    attacker: Mapping[str, int]
    defender: Mapping[str, int]


@dataclass(frozen=True)
class Odds:
    attacker_win: float  # attacker units left, no defender
    defender_win: float  # defender units left, no attacker
    draw: float  # both destroyed
    retreat: float  # the attacker retreated by its standing order
    stalemate: float  # both sides left with units that cannot hit each other (subs vs air)
    capture: float | None  # land battles: an attacking land unit survives and no defender
    expected_survivors: Mapping[str, Mapping[str, float]]  # side -> unit -> expected count
    expected_ipc_loss: Mapping[str, float]  # side -> expected cost of units lost
    expected_rounds: float
    most_likely: tuple[FinalState, ...]
    exact: bool = True
    confidence: float | None = None  # simulation only: 95 % half-width on the win probabilities
    states: int = 0
    neglected: float = 0.0  # probability of branches dropped as negligible (< 1e-16 each)


def battle_odds(
    battle: Battle,
    attacker_orders: Orders = Orders(hold_territory=True),
    defender_orders: Orders = Orders(),
    *,
    low_luck: bool = False,
    budget: int | None = REPORT_BUDGET,
) -> Odds:
    """The exact distribution of the battle's outcomes (see the module docstring), or, past
    `budget` work units (None: no bound), a sample of it flagged `exact=False`."""
    engine = Engine(battle, attacker_orders, defender_orders)
    try:
        finals, rounds, states, neglected = _solve(engine, low_luck, budget=budget)
    except _TooBig:
        return _sample(engine, battle, attacker_orders, defender_orders, low_luck)
    odds = _summarise(engine, finals, rounds, states, exact=True, confidence=None)
    return replace(odds, neglected=neglected)


class _TooBig(Exception):
    pass


# ------------------------------------------------------------------------------------------
# the exact walk


def _hp(engine: Engine, state: State) -> int:
    total = 0
    for n, c in zip(state.a, engine.a_cats):
        total += n * (c.profile.hits if not c.damaged else 1)
    for n, c in zip(state.d, engine.d_cats):
        total += n * (c.profile.hits if not c.damaged else 1)
    return total


class _Work:
    """The work units spent so far against a budget (None: unbounded)."""

    def __init__(self, budget: int | None):
        self.budget = budget
        self.spent = 0

    def add(self, units: int) -> None:
        self.spent += units
        if self.budget is not None and self.spent > self.budget:
            raise _TooBig


def _round(
    engine: Engine, state: State, low_luck: bool, memo: dict[tuple[str, State], State] | None = None,
    work: _Work | None = None, defer: "_FastLand | None" = None,
) -> dict[State, float]:
    """The distribution of the state after one full round from `state` (a round start).

    `memo` keeps the outcome of phases without dice (mostly the end phase) across calls: many
    rounds reach the same states.  With `defer`, a fire phase whose end phase leads into the land
    fast path hands its outcomes to it instead (`_FastLand.arrive`): they are not in the result."""
    if memo is None:
        memo = {}
    dist: dict[State, float] = {state: 1.0}
    for phase in engine.phases:
        nxt: dict[State, float] = {}
        for st, p in dist.items():
            if st.over:
                nxt[st] = nxt.get(st, 0.0) + p
                continue
            volleys = engine.volleys(st, phase)
            if not volleys:
                after = memo.get((phase, st))
                if after is None:
                    after = memo[(phase, st)] = engine.apply(st, phase, [])
                nxt[after] = nxt.get(after, 0.0) + p
                continue
            if phase == "fire":
                if defer is not None and defer.takes(st, volleys):
                    defer.arrive(st, p, volleys)
                    continue
                hit_a, hit_d = _fire_sides(engine, st, volleys, low_luck)
                if work is not None:
                    work.add(len(hit_d) * len(hit_a) + len(hit_a) + len(hit_d))
                rest = (st.a_submerged, st.d_submerged, st.a_retreated, st.over, st.no_combat)
                for (a, a_pending), pa in hit_a:
                    q = p * pa
                    for (d, d_pending), pd in hit_d:
                        after = State(st.round, a, d, a_pending, d_pending, *rest)
                        nxt[after] = nxt.get(after, 0.0) + q * pd
                continue
            options = [volley_distribution(v, low_luck) for v in volleys]
            if work is not None:
                work.add(math.prod(len(o) for o in options))
            for combo in itertools.product(*options):
                q = p
                hits = []
                for h, pr in combo:
                    q *= pr
                    hits.append(dict(h))
                after = engine.apply(st, phase, hits)
                nxt[after] = nxt.get(after, 0.0) + q
        dist = nxt
    cap = engine.steady_round
    out: dict[State, float] = {}
    for st, p in dist.items():
        st = st._replace(round=0) if st.over else st._replace(round=min(st.round, cap))
        out[st] = out.get(st, 0.0) + p
    return out


Outcomes = list[tuple[tuple[tuple[int, ...], tuple[int, ...]], float]]  # (counts, pending) -> probability


def _fire_sides(engine: Engine, st: State, volleys, low_luck: bool) -> tuple[Outcomes, Outcomes]:
    """The fire phase from `st`, per side hit: each volley's outcomes are applied once
    (`Engine.fire_casualties`: a volley changes only the side it hits), to be combined after,
    instead of once per combination.  Returns the attacker's and the defender's outcomes."""
    sides: dict[str, Outcomes] = {}
    for v in volleys:
        got: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        for h, pr in volley_distribution(v, low_luck):
            after = engine.fire_casualties(st, v, dict(h))
            key = (after.d, after.d_pending) if v.side == "attacker" else (after.a, after.a_pending)
            got[key] = got.get(key, 0.0) + pr
        sides[v.side] = list(got.items())
    hit_a = sides.get("defender", [((st.a, st.a_pending), 1.0)])
    hit_d = sides.get("attacker", [((st.d, st.d_pending), 1.0)])
    return hit_a, hit_d


def _solve(
    engine: Engine, low_luck: bool, *, fast_path: bool = True, budget: int | None = None
) -> tuple[dict[State, float], float, int, float]:
    """Finals, expected rounds, states expanded, mass neglected; `fast_path=False` walks every
    state with `_round` (the reference the tests hold the land fast path to)."""
    start = engine.initial()
    if start.over:
        return {start._replace(round=0): 1.0}, 0.0, 1, 0.0
    finals: dict[State, float] = {}
    mass: dict[State, float] = {start: 1.0}
    counter = itertools.count()
    heap: list[tuple[int, int, int, State]] = [(-_hp(engine, start), start.round, next(counter), start)]
    rounds = 0.0
    expanded = 0
    fast = _FastLand.maybe(engine, low_luck) if fast_path else None
    memo: dict[tuple[str, State], State] = {}
    steady = engine.steady_round
    work = _Work(budget)
    while heap:
        _, _, _, state = heapq.heappop(heap)
        m = mass.pop(state)
        if fast is not None and state.round >= engine.steady_round:
            fast.add(state, m)
            continue
        expanded += 1
        if budget is not None and expanded > STATE_BUDGET:
            raise _TooBig
        succ = _round(engine, state, low_luck, memo, work, fast)
        stay = succ.pop(state, 0.0)
        if stay >= 1.0 - 1e-15:
            raise RuntimeError("a battle state cannot progress")  # the engine ends such battles
        scale = m / (1.0 - stay)
        rounds += scale
        for st, p in succ.items():
            if st.over:
                finals[st] = finals.get(st, 0.0) + scale * p
            elif fast is not None and st.round >= steady:
                fast.add(st, scale * p)  # never expanded here: no need to queue it
            elif st in mass:
                mass[st] += scale * p
            else:
                mass[st] = scale * p
                heapq.heappush(heap, (-_hp(engine, st), st.round, next(counter), st))
    neglected = 0.0
    if fast is not None:
        f_finals, f_rounds, f_states = fast.solve(work)
        for st, p in f_finals.items():
            finals[st] = finals.get(st, 0.0) + p
        rounds += f_rounds
        expanded += f_states
        neglected = fast.neglected
    return finals, rounds, expanded, neglected


# ------------------------------------------------------------------------------------------
# the land fast path


class _FastLand:
    """Steady-state land rounds: each side's losses follow a chain, a round is an outer product.

    Valid when every volley of a steady round has the single fire class "any" (true on land: no
    submarines), casualties are removed together at step 5 and nothing depends on the round
    number any more.  The chain of a side is built with the engine's own casualty solver, its hit
    distribution from the engine's own volley, and each grid cell's fate (ended? retreat?) by
    running the engine's end-of-round phase on the real state, so no rule is restated here.
    """

    def __init__(self, engine: Engine, low_luck: bool):
        self.engine = engine
        self.low_luck = low_luck
        self.entries: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        # fire phases whose casualties and end phase are left to the grid:
        # (state, mass, distribution of the hits on the attacker, of the hits on the defender)
        self.arrivals: list[tuple[State, float, tuple[float, ...], tuple[float, ...]]] = []
        self.neglected = 0.0
        self._dist_memo: dict[tuple[str, tuple[int, ...], int], tuple[list, list]] = {}
        # The end phase of the last special round may be left to the grid when it is the grid's own:
        # no retreat (the end phase does not depend on the round) and nothing but the end phase
        # after the fire phase.
        phases = engine.phases
        self._defers = (engine.orders["attacker"].retreat.kind == "never"  # type: ignore[index]
                        and phases[phases.index("fire") + 1 :] == ("end",))

    @classmethod
    def maybe(cls, engine: Engine, low_luck: bool) -> "_FastLand | None":
        if engine.kind != "land":
            return None
        if any(c.seaborne for c in engine.a_cats) and engine.orders["attacker"].retreat.kind != "never":
            return None  # a partial retreat leaves seaborne units fighting: use the general walk
        return cls(engine, low_luck)

    def add(self, state: State, m: float) -> None:
        key = (state.a, state.d)
        self.entries[key] = self.entries.get(key, 0.0) + m

    def takes(self, st: State, volleys) -> bool:  # type: ignore[no-untyped-def]
        """May the fire phase from `st` hand its volleys to the grid (`arrive`)?  Yes when its end
        phase is the grid's own and its hits go to any unit: k hits are then k steps down a chain."""
        return (self._defers and st.round + 1 >= self.engine.steady_round and not any(st.a_pending)
                and not any(st.d_pending) and not any(st.a_retreated)
                and all(g.fire_class == "any" for v in volleys for g in v.groups))

    def arrive(self, st: State, m: float, volleys) -> None:  # type: ignore[no-untyped-def]
        """The fire phase from `st` (mass `m`) rolls these volleys; the grid plays their casualties
        and the end phase."""
        dists = {"attacker": (1.0,), "defender": (1.0,)}
        for v in volleys:
            groups = tuple(sorted((g.count, g.value) if g.best_of == 1 else (g.count, g.value, g.best_of) for g in v.groups))
            dists[v.side] = class_distribution(groups, self.low_luck)
        self.arrivals.append((st, m, dists["defender"], dists["attacker"]))  # hits on the attacker, on the defender

    # Work units of the grids (see STATE_BUDGET's comment: a unit is about one outcome of the general
    # walk, a few microseconds): a row costs a few dozen array operations whatever its length, a
    # chain position one volley of the engine, the outer products of `arrive` almost nothing.
    ROW_UNITS = 12
    CHAIN_UNITS = 4
    CELLS_PER_UNIT = 200

    # chains -----------------------------------------------------------------
    def _chain(self, side: str, start: tuple[int, ...]) -> list[tuple[int, ...]]:
        plan = self.engine.plans[side]  # type: ignore[index]
        chain = [start]
        counts = start
        while any(counts):
            taken = plan.assign(counts, {"any": 1})
            if not taken:
                break
            nxt = list(counts)
            for t in taken:
                nxt[t.category] -= t.count
            counts = tuple(nxt)
            chain.append(counts)
        return chain

    def solve(self, work: _Work) -> tuple[dict[State, float], float, int]:
        """The grids' finals, expected rounds and cells, once `work` allows their cost."""
        import numpy as np

        finals: dict[State, float] = {}
        totals = [0.0, 0.0]  # expected rounds, cells expanded
        # group the mass by pairs of chains (usually one attacker and one defender chain)
        a_chains: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        d_chains: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        pos_a: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
        pos_d: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
        grids: dict[tuple[tuple[int, ...], tuple[int, ...]], list[np.ndarray]] = {}  # fresh, arriving

        def place(a: tuple[int, ...], d: tuple[int, ...]) -> tuple[list[np.ndarray], int, int]:
            if a not in pos_a:
                chain = a_chains[a] = self._chain("attacker", a)
                for i, s in enumerate(chain):
                    pos_a.setdefault(s, (a, i))
            if d not in pos_d:
                chain = d_chains[d] = self._chain("defender", d)
                for j, s in enumerate(chain):
                    pos_d.setdefault(s, (d, j))
            (ka, i), (kd, j) = pos_a[a], pos_d[d]
            grid = grids.get((ka, kd))
            if grid is None:
                shape = (len(a_chains[ka]), len(d_chains[kd]))
                grid = grids[(ka, kd)] = [np.zeros(shape), np.zeros(shape)]
            return grid, i, j

        for st, m, on_a, on_d in self.arrivals:
            grid, i0, j0 = place(st.a, st.d)
            vectors = []
            for dist, start, size in ((on_a, i0, grid[1].shape[0]), (on_d, j0, grid[1].shape[1])):
                vec = np.zeros(size)  # k hits: k steps down the chain, the rest stop at its end
                room = size - start
                vec[start : start + min(room, len(dist))] = dist[:room]
                if len(dist) > room:
                    vec[-1] += math.fsum(dist[room:])
                vectors.append(vec)
            grid[1] += m * np.outer(*vectors)
        for (a, d), m in sorted(self.entries.items(), key=lambda kv: -sum(kv[0][0]) - sum(kv[0][1])):
            grid, i, j = place(a, d)
            grid[0][i, j] += m
        work.add(sum(self.ROW_UNITS * f.shape[0] + f.size // self.CELLS_PER_UNIT for f, _ in grids.values())
                 + self.CHAIN_UNITS * (sum(map(len, a_chains.values())) + sum(map(len, d_chains.values())))
                 + sum(len(on_a) * len(on_d) // self.CELLS_PER_UNIT for _, _, on_a, on_d in self.arrivals))
        for (ka, kd), (fresh, arriving) in grids.items():
            self._grid(a_chains[ka], d_chains[kd], fresh, arriving, finals, totals)
        return finals, totals[0], int(totals[1])

    def _grid(
        self,
        ca: list[tuple[int, ...]],
        cd: list[tuple[int, ...]],
        fresh: "np.ndarray",
        arriving: "np.ndarray",
        finals: dict[State, float],
        totals: list[float],
    ) -> None:
        """Solve one pair of chains (`grid.solve_grid`); the engine's end phase says which cells end
        the battle and how."""
        import numpy as np

        from pbem.odds.grid import solve_grid

        engine = self.engine
        nd = len(cd)
        A, Bs = self._dists("attacker", ca)
        P, _ = self._dists("defender", cd)
        zero_a = (0,) * len(engine.a_cats)
        zero_d = (0,) * len(engine.d_cats)
        cap = engine.steady_round
        end_phase = engine._end_round  # = engine.apply(state, "end", [])
        # With no retreat by the attacker, a steady land round ends once a side is gone or can no longer
        # hit: losing more never revives a battle, so along a row the cells that end are those from the
        # first that does - found by bisection, each other cell needing no call of the end phase.
        monotone = engine.orders["attacker"].retreat.kind == "never"  # type: ignore[index]

        seen: dict[tuple[int, int], State] = {}

        def ended(i: int, j: int) -> State:
            got = seen.get((i, j))
            if got is None:
                got = seen[(i, j)] = end_phase(State(cap, ca[i], cd[j], zero_a, zero_d, zero_a, zero_d, zero_a, ""), None)
            return got

        edge = [nd]  # the first cell that ends on the row before: a row further down ends no later

        def over_row(i: int) -> np.ndarray:
            if monotone:
                lo, up = 0, edge[0]
                if up and not ended(i, up - 1).over:
                    lo = up  # the usual case: the same edge as the row before
                while lo < up:
                    mid = (lo + up) // 2
                    if ended(i, mid).over:
                        up = mid
                    else:
                        lo = mid + 1
                edge[0] = lo
                return np.arange(nd) >= lo
            out = np.zeros(nd, dtype=bool)
            for j in range(nd):
                st = ended(i, j)
                if st.over:
                    out[j] = True
                elif st.a != ca[i] or st.d != cd[j]:
                    raise AssertionError("the end of a land round left the loss chains")
            return out

        ending, started = solve_grid(A, Bs, P, fresh, arriving, over_row)
        for i, j in zip(*np.nonzero(ending)):
            st = ended(int(i), int(j))._replace(round=0)
            finals[st] = finals.get(st, 0.0) + float(ending[i, j])
        totals[0] += float(started.sum())
        totals[1] += int(np.count_nonzero(started))

    def _dists(
        self, side: str, chain: list[tuple[int, ...]]
    ) -> tuple[list[tuple[float, ...]], list[tuple[float, ...] | None]]:
        """Hit distributions along a chain and the factors B (dist[k] = dist[k+1] * B[k]); each
        distribution is its successor times B where B exists, else computed afresh.  Grids often
        share a chain (one defender against attackers that lost different aircraft to AA)."""
        key = (side, chain[0], len(chain))
        got = self._dist_memo.get(key)
        if got is None:
            got = self._dist_memo[key] = self._chain_dists(side, chain)
        return got

    def _chain_dists(
        self, side: str, chain: list[tuple[int, ...]]
    ) -> tuple[list[tuple[float, ...]], list[tuple[float, ...] | None]]:
        groups = [self._groups(side, s) for s in chain]
        factors = [self._factor(groups[k], groups[k + 1]) for k in range(len(chain) - 1)]
        import numpy as np

        dists: list = [None] * len(chain)
        dists[-1] = np.array(class_distribution(groups[-1], self.low_luck))
        for k in range(len(chain) - 2, -1, -1):
            b = factors[k]
            if b is not None:
                dists[k] = np.convolve(dists[k + 1], b)
            else:
                dists[k] = np.array(class_distribution(groups[k], self.low_luck))
        return dists, factors

    def _groups(self, side: str, counts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """The (count, hit value) dice groups a side fires with from `counts` (one fire class)."""
        engine = self.engine
        zero_a = (0,) * len(engine.a_cats)
        zero_d = (0,) * len(engine.d_cats)
        if side == "attacker":
            st = State(engine.steady_round, counts, zero_d, zero_a, zero_d, zero_a, zero_d, zero_a, "")
        else:
            st = State(engine.steady_round, zero_a, counts, zero_a, zero_d, zero_a, zero_d, zero_a, "")
        volley = engine._fire_volley(side, st)  # type: ignore[arg-type]
        if any(g.fire_class != "any" for g in volley.groups):
            raise AssertionError("land volleys have a single fire class")
        return tuple(sorted((g.count, g.value) if g.best_of == 1 else (g.count, g.value, g.best_of) for g in volley.groups))

    def _factor(
        self, more: tuple[tuple[int, int], ...], fewer: tuple[tuple[int, int], ...]
    ) -> tuple[float, ...] | None:
        """B with dist(more) = dist(fewer) * B: the hits of the dice `more` has beyond `fewer`
        (None when `fewer` is not a sub-multiset of `more`, or under Low Luck's pooled strength)."""
        if self.low_luck or any(len(g) > 2 for g in more + fewer):
            return None  # Low Luck pools strength; a unit keeping its best die is not one die
        dice: dict[int, int] = {}
        for n, v in more:
            dice[v] = dice.get(v, 0) + n
        for n, v in fewer:
            dice[v] = dice.get(v, 0) - n
        if any(n < 0 for n in dice.values()):
            return None
        return class_distribution(tuple(sorted((n, v) for v, n in dice.items() if n)), False)





# ------------------------------------------------------------------------------------------
# summary


def _unit_counts(engine: Engine, side: str, *vectors: tuple[int, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, c in enumerate(engine.cats(side)):  # type: ignore[arg-type]
        n = sum(v[i] for v in vectors)
        if n:
            out[c.unit] = out.get(c.unit, 0) + n
    return out


def _summarise(
    engine: Engine, finals: Mapping[State, float], rounds: float, states: int, *, exact: bool, confidence: float | None
) -> Odds:
    total = math.fsum(finals.values()) or 1.0
    win = {"attacker": 0.0, "defender": 0.0, "draw": 0.0, "retreat": 0.0, "none": 0.0}
    cap = 0.0
    surv: dict[str, dict[str, float]] = {"attacker": {}, "defender": {}}
    loss = {"attacker": 0.0, "defender": 0.0}
    for s in engine.sacrifices:  # lost in round 1 whatever happens (no battle ends before it)
        if not engine.initial().no_combat:
            loss[s.side] += s.count * engine.battle.units[s.unit].cost
    start = {
        "attacker": _unit_counts(engine, "attacker", engine.a_start),
        "defender": _unit_counts(engine, "defender", engine.d_start),
    }
    grouped: dict[tuple[str, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]], float] = {}
    counted: dict[tuple[str, tuple[tuple[int, ...], ...]], dict[str, int]] = {}  # finals share one side's units

    def units(side: str, *vectors: tuple[int, ...]) -> dict[str, int]:
        got = counted.get((side, vectors))
        if got is None:
            got = counted[(side, vectors)] = _unit_counts(engine, side, *vectors)
        return got

    for st, p in finals.items():
        p /= total
        win[st.over] += p
        if captured(engine, st):
            cap += p
        left = {
            "attacker": units("attacker", st.a, st.a_retreated, st.a_submerged),
            "defender": units("defender", st.d, st.d_submerged),
        }
        for side in ("attacker", "defender"):
            for unit, n in left[side].items():
                surv[side][unit] = surv[side].get(unit, 0.0) + p * n
            for unit, n in start[side].items():
                loss[side] += p * (n - left[side].get(unit, 0)) * engine.battle.units[unit].cost
        key = (st.over, tuple(sorted(left["attacker"].items())), tuple(sorted(left["defender"].items())))
        grouped[key] = grouped.get(key, 0.0) + p
    for side in ("attacker", "defender"):
        for unit in start[side]:
            surv[side].setdefault(unit, 0.0)
    top = sorted(grouped.items(), key=lambda kv: -kv[1])[:TOP]

    def prob(x: float) -> float:  # sums of many floats may pass 1 by a rounding error
        return min(1.0, max(0.0, x))

    return Odds(
        attacker_win=prob(win["attacker"]),
        defender_win=prob(win["defender"]),
        draw=prob(win["draw"]),
        retreat=prob(win["retreat"]),
        stalemate=prob(win["none"]),
        capture=prob(cap) if engine.kind == "land" else None,
        expected_survivors=surv,
        expected_ipc_loss=loss,
        expected_rounds=rounds,
        most_likely=tuple(FinalState(prob(p), w, dict(a), dict(d)) for (w, a, d), p in top),
        exact=exact,
        confidence=confidence,
        states=states,
    )


# ------------------------------------------------------------------------------------------
# the fallback


def _sample(engine: Engine, battle: Battle, attacker_orders: Orders, defender_orders: Orders, low_luck: bool) -> Odds:
    """The battle sampled `SIMULATIONS` times through the engine's own step functions: each volley's
    hits drawn per fire class from its exact distribution, by a generator seeded from the battle
    and the orders themselves, so every machine draws the same sample.  Repeated steps (the same
    state, phase and hits) are remembered: large battles revisit them often."""
    rng = random.Random(_seed(battle, attacker_orders, defender_orders, low_luck))
    samplers: dict[object, tuple[tuple[str, list[float]], ...]] = {}

    def draw(volley) -> dict[str, int]:  # type: ignore[no-untyped-def]
        spec = samplers.get(volley)
        if spec is None:  # per fire class: the cumulative distribution of its hits
            per_class: dict[str, list[tuple[int, ...]]] = {}
            for g in volley.groups:
                per_class.setdefault(g.fire_class, []).append((g.count, g.value) if g.best_of == 1 else (g.count, g.value, g.best_of))
            spec = samplers[volley] = tuple(
                (cls, list(itertools.accumulate(class_distribution(tuple(sorted(per_class[cls])), low_luck))))
                for cls in sorted(per_class))
        return {cls: min(bisect.bisect_right(cum, rng.random() * cum[-1]), len(cum) - 1) for cls, cum in spec}

    steps: dict[tuple[State, str, tuple[tuple[tuple[str, int], ...], ...]], State] = {}
    volleys: dict[tuple[State, str], tuple] = {}  # type: ignore[type-arg]
    start = engine.initial()
    finals: dict[State, float] = {}
    rounds = 0.0
    for _ in range(SIMULATIONS):
        state = start
        while not state.over:
            if state.round > 10_000:
                raise RuntimeError("a sampled battle did not end")
            for phase in engine.phases:
                asked = volleys.get((state, phase))
                if asked is None:
                    asked = volleys[(state, phase)] = tuple(engine.volleys(state, phase))
                hits = [draw(v) for v in asked]
                key = (state, phase, tuple(tuple(sorted(h.items())) for h in hits))
                after = steps.get(key)
                if after is None:
                    after = steps[key] = engine.apply(state, phase, hits)  # type: ignore[arg-type]
                state = after
                if state.over:
                    break
        rounds += (0 if state.no_combat else state.round) / SIMULATIONS
        end = state._replace(round=0)
        finals[end] = finals.get(end, 0.0) + 1.0 / SIMULATIONS
    half = 1.96 * math.sqrt(0.25 / SIMULATIONS)
    return _summarise(engine, finals, rounds, SIMULATIONS, exact=False, confidence=half)


def _seed(battle: Battle, attacker_orders: Orders, defender_orders: Orders, low_luck: bool) -> int:
    """A seed from what the battle is (forces, rules, orders), the same on every machine."""
    def profile(u):  # type: ignore[no-untyped-def]  # sets print in a per-process order: sort them
        return (u.name, u.cost, u.attack, u.defense, u.move, u.hits, u.bombard, sorted(u.tags))

    text = repr((battle.space, battle.kind, battle.attacker, battle.attackers, battle.defenders, battle.bombard,
                 battle.can_retreat, battle.retreat_to, battle.aa_hit, sorted(battle.aa_immune),
                 sorted((o, sorted((n, profile(u)) for n, u in p.items())) for o, p in battle.profiles.items()),
                 sorted((o, sorted((n, profile(u)) for n, u in p.items())) for o, p in battle.first_cycle_profiles.items()),
                 battle.sacrifices, battle.rules, attacker_orders, defender_orders, low_luck))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
