"""The land fast path of the exact odds: steady land rounds as a grid of two loss chains.

After the rounds that differ (AA fire, bombardment, first-cycle values), each side's losses in a
land battle follow a chain - the state after k casualties - so a state is a pair of chain
positions and a round is an outer product of two hit distributions.  `pbem.odds.grid` solves the
grids, the defender's chain as rows, so that the grids of attackers that lost different aircraft
to AA fire, against one defender, are solved together; this module builds their chains and
distributions from the engine and reads their ends.  Past the work bound the same chains serve
the sample (`FastLand.play`).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from typing import TYPE_CHECKING, Callable

from pbem.engine.combat.engine import Engine, State
from pbem.engine.combat.rolling import class_distribution
from pbem.odds.kinds import retreat_pattern, retreated, tail_pattern, without
from pbem.odds.work import _Work

if TYPE_CHECKING:
    import numpy as np  # imported when a grid is solved, not at start-up



SAME, ENDS, ASK, UNREAD = 0, 1, 2, -1  # `FastLand._end_codes`: what a round's end phase does at a cell


class FastLand:
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
        # the rounds before the steady ones that the path plays too (`_early`): round -> mass by cell
        self.first_round = engine.settled_round
        self.early: dict[int, dict[tuple[tuple[int, ...], tuple[int, ...]], float]] = {}
        # fire phases whose casualties and end phase are left to the grid:
        # (state, mass, distribution of the hits on the attacker, of the hits on the defender)
        self.arrivals: list[tuple[State, float, tuple[float, ...], tuple[float, ...]]] = []
        self.neglected = 0.0
        self._dist_memo: dict[tuple[str, tuple[int, ...], int], tuple[list, list]] = {}
        self._ended: dict[tuple[tuple[int, ...], tuple[int, ...], int], State] = {}  # a cell after its round's end phase
        # the chains met so far, by their first state, and where each state lies on one
        self.chains: dict[str, dict[tuple[int, ...], list[tuple[int, ...]]]] = {"attacker": {}, "defender": {}}
        self._pos: dict[str, dict[tuple[int, ...], tuple[tuple[int, ...], int]]] = {"attacker": {}, "defender": {}}
        self._cums: dict[tuple[str, tuple[int, ...], int], dict[int, list[float]]] = {}  # for the sample
        # the sample off the chains (`_track`): the battles started at each state, and what was read there
        self._met: dict[str, dict[tuple[int, ...], int]] = {"attacker": {}, "defender": {}}
        self._off_cums: dict[str, dict[tuple[int, ...], list[float]]] = {"attacker": {}, "defender": {}}
        self._off_steps: dict[str, dict[tuple[tuple[int, ...], int], tuple[int, ...]]] = {"attacker": {}, "defender": {}}
        self.work: _Work | None = None  # the sample's work, counted as it plays (`play`)
        self._asking: _Work | None = None  # the exact attempt's, while its grids ask end phases (`_cell_end`)
        # the end phase by kinds (`_cell_end`): what it does to a pair of kinds of units
        self._end_kinds: dict[tuple[tuple[bool, ...], tuple[bool, ...], int], object] = {}
        self._by_kinds = engine.orders["attacker"].retreat.kind in ("never", "after_round")  # type: ignore[index]
        # the kinds of units a side has, numbered, along each chain; the end phase per round by them
        self._kinds: dict[str, dict[tuple[bool, ...], int]] = {"attacker": {}, "defender": {}}
        self._kinds_memo: dict[tuple[str, tuple[int, ...], int], np.ndarray] = {}
        self._end_tables: dict[int, np.ndarray] = {}
        zero_a, zero_d = (0,) * len(engine.a_cats), (0,) * len(engine.d_cats)
        self._zeros = (zero_a, zero_d, zero_a, zero_d, zero_a)  # nothing pending, submerged or retreated
        # The end phase of the last special round may be left to the grid when it is the grid's own:
        # no retreat (the end phase does not depend on the round) and nothing but the end phase
        # after the fire phase.
        phases = engine.phases
        self._defers = (engine.orders["attacker"].retreat.kind == "never"  # type: ignore[index]
                        and phases[phases.index("fire") + 1 :] == ("end",))

    @classmethod
    def maybe(cls, engine: Engine, low_luck: bool) -> "FastLand | None":
        if engine.kind != "land":
            return None
        if (engine.orders["attacker"].retreat.kind != "never" and engine.battle.can_retreat  # type: ignore[index]
                and not all(engine.retreating)):
            return None  # a partial retreat leaves units fighting off the chains: use the general walk
        return cls(engine, low_luck)

    def add(self, state: State, m: float) -> None:
        key = (state.a, state.d)
        into = self.entries if state.round >= self.engine.steady_round else self.early.setdefault(state.round, {})
        into[key] = into.get(key, 0.0) + m

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
    # walk, a few microseconds): a row (a defender's position: `_grids`) costs a few dozen array
    # operations whatever its length, a chain position one volley of the engine, the outer products
    # of `arrive` almost nothing.
    # Past a few hundred units a side the mass moved between rows dominates: each row updates every
    # later row, rows x cells element operations in all (800 against 800: about 2 s).
    ROW_UNITS = 12
    CHAIN_UNITS = 4
    CELLS_PER_UNIT = 200
    CUBE_PER_UNIT = 2000
    FORWARD_PER_UNIT = 1500  # a round played forward (`_early`): products of a cell's mass with both sides' hits
    FINAL_UNITS = 2  # a cell where the battle ends: its final state made and summed up
    PLAY_UNITS = 1  # a steady round of the sample: two draws and the end phase
    OFF_CHAIN_UNITS = 8  # and off the chains (`_track`), a side's hits or casualties asked at a new state
    CHAIN_AFTER = 16  # sampled battles from a state off the chains before its chain is made
    END_UNITS = 1  # an end phase asked of the engine (as the general walk charges it)

    # chains -----------------------------------------------------------------
    def _locate(self, side: str, counts: tuple[int, ...], work: _Work | None = None) -> tuple[tuple[int, ...], int]:
        """The chain `counts` lies on (by its first state) and its position there; a state not yet
        on a chain starts one, charged to `work` (the exact attempt's) once made."""
        pos = self._pos[side]
        if counts not in pos:
            chain = self.chains[side][counts] = self._chain(side, counts)
            for i, s in enumerate(chain):
                pos.setdefault(s, (counts, i))
            if work is not None:
                work.add(self.CHAIN_UNITS * len(chain))
        return pos[counts]

    def _chain(self, side: str, start: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The states from `start` as the side loses one unit at a time.  Where it meets a state
        on a chain made before, the rest is that chain's (the casualty read depends on the state
        alone): attackers that lost different aircraft to AA fire start apart and meet once the
        units they differ in are lost."""
        plan = self.engine.plans[side]  # type: ignore[index]
        pos = self._pos[side]
        chain = [start]  # (not on a chain yet: `_locate`)
        counts = start
        while any(counts):
            met = pos.get(counts)
            if met is not None:
                first, at = met
                chain.extend(self.chains[side][first][at + 1 :])
                break
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
        early = self._early(work, finals, totals) if self.early else {}
        # group the mass by pairs of chains (usually one attacker and one defender chain)
        a_chains, d_chains = self.chains["attacker"], self.chains["defender"]
        grids: dict[tuple[tuple[int, ...], tuple[int, ...]], list[np.ndarray]] = {}  # fresh, arriving

        def grid_of(ka: tuple[int, ...], kd: tuple[int, ...]) -> list[np.ndarray]:
            """The grid of a pair of chains; grids are charged as they are made, so that past the
            bound the attempt stops before it builds them all."""
            grid = grids.get((ka, kd))
            if grid is None:
                n_a, n_d = len(a_chains[ka]), len(d_chains[kd])
                # charged as it is solved: the defender's positions are its rows (`_grids`)
                work.add(self.ROW_UNITS * n_d + n_a * n_d // self.CELLS_PER_UNIT + n_d * (n_a * n_d) // self.CUBE_PER_UNIT)
                grid = grids[(ka, kd)] = [np.zeros((n_a, n_d)), np.zeros((n_a, n_d))]
            return grid

        def place(a: tuple[int, ...], d: tuple[int, ...]) -> tuple[list[np.ndarray], int, int]:
            """The grid of the pair of chains through (a, d), and the cell; chains are charged as
            they are made too (after antiaircraft fire, thousands of chains of hundreds of states)."""
            (ka, i), (kd, j) = self._locate("attacker", a, work), self._locate("defender", d, work)
            return grid_of(ka, kd), i, j

        for (ka, kd), mass in early.items():
            grid_of(ka, kd)[0] += mass

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
        work.add(sum(len(on_a) * len(on_d) // self.CELLS_PER_UNIT for _, _, on_a, on_d in self.arrivals))
        # grids that share the defender's chain are solved together, its positions the rows
        by_defender: dict[tuple[int, ...], list[tuple[tuple[int, ...], np.ndarray, np.ndarray]]] = {}
        for (ka, kd), (fresh, arriving) in grids.items():
            by_defender.setdefault(kd, []).append((ka, fresh, arriving))
        self._asking = work
        try:
            for kd, group in by_defender.items():
                self._grids(d_chains[kd], [(a_chains[ka], fresh, arriving) for ka, fresh, arriving in group], finals, totals,
                            work)
        finally:
            self._asking = None
        return finals, totals[0], int(totals[1])

    def _early(self, work: _Work, finals: dict[State, float], totals: list[float]
               ) -> dict[tuple[tuple[int, ...], tuple[int, ...]], "np.ndarray"]:
        """The rounds from `first_round` up to the steady ones, which differ from them only in that
        the attacker does not retreat yet (an order to retreat after round N): each is played
        forward on the grids of the chains it meets, the mass of a cell moved by both sides' hits
        at once (`grid.forward`), then the round's end phase read by the cells' kinds
        (`_end_codes`).  Returns what still fights after them, by pair of chains: the mass that
        starts the steady rounds."""
        import numpy as np

        from pbem.odds.grid import forward

        steady = self.engine.steady_round
        rnd = min(self.early)
        grids: dict[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray] = {}
        self._asking = work
        try:
            while rnd < steady:
                for (a, d), m in self.early.pop(rnd, {}).items():
                    (ka, i), (kd, j) = self._locate("attacker", a, work), self._locate("defender", d, work)
                    grid = grids.get((ka, kd))
                    if grid is None:
                        grid = grids[(ka, kd)] = np.zeros((len(self.chains["attacker"][ka]), len(self.chains["defender"][kd])))
                    grid[i, j] += m
                for (ka, kd), mass in grids.items():
                    ca, cd = self.chains["attacker"][ka], self.chains["defender"][kd]
                    totals[0] += float(mass.sum())
                    totals[1] += int(np.count_nonzero(mass))
                    after = forward(mass, self._dists("attacker", ca)[0], *self._dists("defender", cd),
                                    lambda cost: work.add(cost // self.FORWARD_PER_UNIT + 1))
                    codes = self._end_codes(ca, cd, rnd)
                    rows, columns = np.nonzero((after > 0.0) & (codes != SAME))
                    work.add(self.FINAL_UNITS * len(rows))
                    for i, j in zip(rows.tolist(), columns.tolist()):
                        st = self._cell_end(ca[i], cd[j], rnd)
                        if st.over:
                            end = State(0, *st[1:])
                            finals[end] = finals.get(end, 0.0) + float(after[i, j])
                            after[i, j] = 0.0
                        elif st.a != ca[i] or st.d != cd[j]:
                            raise AssertionError("the end of a land round left the loss chains")
                    mass[:] = after
                rnd += 1
        finally:
            self._asking = None
        return grids

    def _kinds_along(self, side: str, chain: list[tuple[int, ...]]) -> "np.ndarray":
        """The kinds of units at each position of a chain, numbered (`_kinds`)."""
        import numpy as np

        key = (side, chain[0], len(chain))
        got = self._kinds_memo.get(key)
        if got is None:
            numbers = self._kinds[side]
            got = self._kinds_memo[key] = np.array(
                [numbers.setdefault(tuple(n > 0 for n in counts), len(numbers)) for counts in chain], dtype=np.int64)
        return got

    def _end_codes(self, ca: list[tuple[int, ...]], cd: list[tuple[int, ...]], rnd: int) -> "np.ndarray":
        """What the end phase of round `rnd` does at every cell of a grid (attacker's positions x
        defender's): SAME (the cell fights on), ENDS, or ASK (read the cell itself).  By kinds of
        units where the end phase reads only those (`_cell_end`): the engine is asked at one cell
        of each pair of kinds; with a retreat by numbers every cell is ASK."""
        import numpy as np

        if not self._by_kinds:
            return np.full((len(ca), len(cd)), ASK, dtype=np.int64)
        sa, sd = self._kinds_along("attacker", ca), self._kinds_along("defender", cd)
        na, nd = len(self._kinds["attacker"]), len(self._kinds["defender"])
        table = self._end_tables.setdefault(rnd, np.full((0, 0), UNREAD, dtype=np.int64))
        if table.shape != (na, nd):
            table = np.pad(table, ((0, na - table.shape[0]), (0, nd - table.shape[1])), constant_values=UNREAD)
            self._end_tables[rnd] = table
        pair = sa[:, None] * nd + sd[None, :]
        unread = np.flatnonzero(table.reshape(-1)[pair.reshape(-1)] == UNREAD)
        if len(unread):  # the first cell of each pair of kinds not read yet: asked
            _, first = np.unique(pair.reshape(-1)[unread], return_index=True)
            for i, j in zip(*np.unravel_index(np.sort(unread[first]), pair.shape)):
                self._cell_end(ca[i], cd[j], rnd)
                how = self._end_kinds[(tuple(n > 0 for n in ca[i]), tuple(n > 0 for n in cd[j]), rnd)]
                table[sa[i], sd[j]] = SAME if how == "same" else ASK if how == "ask" else ENDS
        return table.reshape(-1)[pair]

    def _grids(
        self,
        cd: list[tuple[int, ...]],
        group: list[tuple[list[tuple[int, ...]], np.ndarray, np.ndarray]],
        finals: dict[State, float],
        totals: list[float],
        work: _Work,
    ) -> None:
        """Solve the grids of one defender chain against each attacker chain (`grid.solve_grids`,
        the defender's positions the rows); the engine's end phase says which cells end the
        battle and how."""
        import numpy as np

        from pbem.odds.grid import solve_grids

        engine = self.engine
        A, Bs = self._dists("defender", cd)
        P = [self._dists("attacker", ca)[0] for ca, _, _ in group]
        # With no retreat by the attacker, a steady land round ends once a side is gone or can no longer
        # hit: losing more never revives a battle, so along a row (the attacker losing more) the cells
        # that end are those from the first that does - found by bisection, each other cell needing no
        # call of the end phase.
        monotone = engine.orders["attacker"].retreat.kind == "never"  # type: ignore[index]
        edges = [len(ca) for ca, _, _ in group]  # per grid: the first cell that ends on the row before
        from_edge: dict[tuple[int, int], np.ndarray] = {}  # the cells from an edge on, per row length
        end_codes: dict[int, np.ndarray] = {}  # with a retreat: per grid, `_end_codes`

        def over_row(g: int, i: int) -> np.ndarray:
            ca = group[g][0]
            n = len(ca)

            def ended(j: int) -> State:
                return self._cell_end(ca[j], cd[i])

            if monotone:  # a row further down (the defender weaker) ends no later
                lo, up = 0, edges[g]
                if up and not ended(up - 1).over:
                    lo = up  # the usual case: the same edge as the row before
                while lo < up:
                    mid = (lo + up) // 2
                    if ended(mid).over:
                        up = mid
                    else:
                        lo = mid + 1
                edges[g] = lo
                got = from_edge.get((n, lo))
                if got is None:
                    got = from_edge[(n, lo)] = np.arange(n) >= lo  # (read, never written)
                return got
            codes = end_codes.get(g)
            if codes is None:  # what the end phase does at every cell of the grid, by kinds where it can
                codes = end_codes[g] = self._end_codes(ca, cd, engine.steady_round)
            out = codes[:, i] == ENDS
            for j in np.flatnonzero(codes[:, i] == ASK).tolist():
                st = ended(j)
                if st.over:
                    out[j] = True
                elif st.a != ca[j] or st.d != cd[i]:
                    raise AssertionError("the end of a land round left the loss chains")
            return out

        endings, starts = solve_grids(A, Bs, P, [fresh.T for _, fresh, _ in group], [arriving.T for _, _, arriving in group],
                                      over_row)
        for (ca, _, _), ending, started in zip(group, endings, starts):
            rows, columns = np.nonzero(ending)
            work.add(self.FINAL_UNITS * len(rows))
            for i, j, p in zip(rows.tolist(), columns.tolist(), ending[rows, columns].tolist()):
                st = State(0, *self._cell_end(ca[j], cd[i])[1:])
                finals[st] = finals.get(st, 0.0) + p
            totals[0] += float(started.sum())
            totals[1] += int(np.count_nonzero(started))

    # the sample ---------------------------------------------------------------
    def play(self, state: State, draw: Callable[[], float], hits: tuple[int, int] | None = None) -> State:
        """One sampled battle from `state`, the start of a round from `first_round` on, to its end
        (the final state with the round it ended in).  Each round draws the attacker's hits, then
        the defender's, from the exact distributions where each side stands (`_track`), one uniform
        number each.  With `hits` (on the attacker, on the defender), `state` is instead the last
        special round's fire phase (`takes`), whose hits are already drawn: they move the sides
        first."""
        i, cum_a, step_a, counts_a = self._track("attacker", state.a)
        j, cum_d, step_d, counts_d = self._track("defender", state.d)
        rnd, steady = state.round, self.engine.steady_round
        while True:
            if hits is None:
                fire_a, fire_d = cum_a(i), cum_d(j)  # the attacker's hits, the defender's
                on_d = min(bisect_right(fire_a, draw() * fire_a[-1]), len(fire_a) - 1)
                on_a = min(bisect_right(fire_d, draw() * fire_d[-1]), len(fire_d) - 1)
            else:
                (on_a, on_d), hits = hits, None
            i, j = step_a(i, on_a), step_d(j, on_d)
            if self.work is not None:
                self.work.spent += self.PLAY_UNITS
            a, d = counts_a(i), counts_d(j)
            after = self._cell_end(a, d, min(rnd, steady))  # (before a retreat after round N: that round's end)
            if after.over:
                return after._replace(round=rnd)
            if after.a != a or after.d != d:
                raise AssertionError("the end of a land round left the loss chains")
            rnd += 1
            if rnd > 10_000:
                raise RuntimeError("a sampled battle did not end")

    def _track(self, side: str, counts: tuple[int, ...]) -> tuple[object, Callable, Callable, Callable]:
        """Where a sampled battle's side stands and how it moves: (position, its cumulative hit
        distribution at a position, the position after k casualties, the units there).  On the
        chain through `counts` where one was made (by the exact attempt, or by the sample once
        `CHAIN_AFTER` battles started there); else state by state, each position its units
        (`_off_cumulative`, `_off_step`): after antiaircraft fire most sampled battles start from
        a state of their own, whose whole chain (hundreds of casualty questions) a battle would
        make only to read a few of it."""
        met = self._met[side]
        if counts in self._pos[side] or met.get(counts, 0) >= self.CHAIN_AFTER:
            first, i = self._locate(side, counts)
            chain = self.chains[side][first]
            last = len(chain) - 1
            return i, self._cumulative(side, chain), (lambda i, k: min(i + k, last)), chain.__getitem__
        met[counts] = met.get(counts, 0) + 1  # many battles from here make its chain, which pays then
        return counts, self._off_cumulative(side), self._off_step(side), (lambda c: c)

    def _off_cumulative(self, side: str) -> Callable[[tuple[int, ...]], list[float]]:
        """`_track` off the chains: the cumulative hit distribution of a side's units, made once
        per state, from the engine's volley (charged `OFF_CHAIN_UNITS`)."""
        made = self._off_cums[side]

        def at(counts: tuple[int, ...]) -> list[float]:
            got = made.get(counts)
            if got is None:
                import numpy as np

                if self.work is not None:
                    self.work.spent += self.OFF_CHAIN_UNITS
                got = made[counts] = np.cumsum(class_distribution(self._groups(side, counts), self.low_luck)).tolist()
            return got

        return at

    def _off_step(self, side: str) -> Callable[[tuple[int, ...], int], tuple[int, ...]]:
        """`_track` off the chains: a side's units after k casualties, asked of the engine's
        casualty plan at once (k steps down the chain it would make: `_chain` takes them one by
        one), once per state and k (charged `OFF_CHAIN_UNITS`)."""
        plan = self.engine.plans[side]  # type: ignore[index]
        made = self._off_steps[side]

        def step(counts: tuple[int, ...], k: int) -> tuple[int, ...]:
            if not k:
                return counts
            got = made.get((counts, k))
            if got is None:
                if self.work is not None:
                    self.work.spent += self.OFF_CHAIN_UNITS
                nxt = list(counts)
                for t in plan.assign(counts, {"any": k}):
                    nxt[t.category] -= t.count
                got = made[(counts, k)] = tuple(nxt)
            return got

        return step

    def _cell_end(self, a: tuple[int, ...], d: tuple[int, ...], rnd: int | None = None) -> State:
        """The end phase of a steady round (or of round `rnd` before them, `_early`) at this pair
        of chain states, kept: grids share cells (attackers that lost different aircraft to AA
        all end at nothing), and the sample meets them again and again.  The engine is asked once
        per pair of kinds where the phase leaves the cell as it is, only empties whole categories
        (AAA left alone) and says who won, or ends the battle by withdrawing whole categories of
        attackers (a retreat after a round; `pbem.odds.kinds`).  A retreat by numbers reads more
        than kinds: whether the attack withdraws is asked cell by cell (`Engine._wants_retreat`),
        the rest once per pair of kinds and that answer."""
        engine = self.engine
        rnd = engine.steady_round if rnd is None else rnd
        got = self._ended.get((a, d, rnd))
        if got is None:
            state = State(rnd, a, d, *self._zeros, "")
            kinds: tuple = (tuple(map(bool, a)), tuple(map(bool, d)), rnd)  # (counts are never negative)
            if not self._by_kinds:  # a retreat by numbers: and whether the attack withdraws here, read cell by cell
                kinds += (engine._wants_retreat(state),)
                if self._asking is not None:
                    self._asking.add(self.END_UNITS)
            how = self._end_kinds.get(kinds)
            if how is None or how == "ask":
                if self._asking is not None and self._by_kinds:  # charged as asked
                    self._asking.add(self.END_UNITS)
                got = engine._end_round(state, None)
                if how is None:
                    if got[1:] == state[1:] and got.round == state.round + 1:
                        how = "same"
                    else:
                        pattern = tail_pattern(state, got)
                        if pattern is not None and pattern[2] and got.round == state.round:
                            emptied_a, emptied_d, over = pattern  # (None: nothing emptied)
                            how = (emptied_a if any(emptied_a) else None, emptied_d if any(emptied_d) else None, over)
                        elif got.round == state.round and (withdrawn := retreat_pattern(state, got)) is not None:
                            how = ("retreat", withdrawn)
                        else:
                            how = "ask"
                    self._end_kinds[kinds] = how
            elif how == "same":
                got = State(rnd + 1, a, d, *self._zeros, "")
            elif how[0] == "retreat":
                got = retreated(state, how[1])
            else:
                emptied_a, emptied_d, over = how
                got = State(rnd, a if emptied_a is None else without(a, emptied_a),
                            d if emptied_d is None else without(d, emptied_d), *self._zeros, over)
            self._ended[(a, d, rnd)] = got
        return got

    def _cumulative(self, side: str, chain: list[tuple[int, ...]]) -> Callable[[int], list[float]]:
        """The cumulative hit distribution at each position of a chain, made when first asked."""
        made = self._cums.setdefault((side, chain[0], len(chain)), {})
        dists: list = []

        def at(k: int) -> list[float]:
            got = made.get(k)
            if got is None:
                import numpy as np

                if not dists:
                    dists.extend(self._dists(side, chain)[0])
                got = made[k] = np.cumsum(dists[k]).tolist()
            return got

        return at

    def _dists(
        self, side: str, chain: list[tuple[int, ...]]
    ) -> tuple[list[tuple[float, ...]], list[tuple[float, ...] | None]]:
        """Hit distributions along a chain and the factors B (dist[k] = dist[k+1] * B[k]); each
        distribution is its successor times B where B exists, else computed afresh.  Grids often
        share a chain (one defender against attackers that lost different aircraft to AA)."""
        key = (side, chain[0], len(chain))
        got = self._dist_memo.get(key)
        if got is None:
            if self.work is not None:  # (the grids charge their chains before they are made)
                self.work.spent += self.CHAIN_UNITS * len(chain)
            got = self._dist_memo[key] = self._chain_dists(side, chain)
        return got

    def _chain_dists(
        self, side: str, chain: list[tuple[int, ...]]
    ) -> tuple[list[tuple[float, ...]], list[tuple[float, ...] | None]]:
        groups = [self._groups(side, s) for s in chain]
        factors = [self._factor(groups[k], groups[k + 1]) for k in range(len(chain) - 1)]
        import numpy as np

        from pbem.odds.grid import convolve

        dists: list = [None] * len(chain)
        dists[-1] = np.array(class_distribution(groups[-1], self.low_luck))
        for k in range(len(chain) - 2, -1, -1):
            b = factors[k]
            if b is not None:
                dists[k] = convolve(dists[k + 1], b)  # the same bits on every machine
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
