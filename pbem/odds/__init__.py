"""Exact battle odds, walking the very step functions `fight` uses (`pbem.engine.combat.engine`).

A state is what is left of each side under its order of loss (plus the round, while the round
still matters: AA and bombardment fire in round 1 only, "retreat after round N").  From each
state one round is enumerated phase by phase: every volley's hits per fire class come with their
exact probability (convolutions of binomials, or Low Luck's one die), and the engine applies them.
A round that changes nothing returns to its own state; that self-loop is summed in closed form,
so the states form a DAG and each is expanded once, in order of decreasing hit points.  In this
general walk each fire volley's outcomes are applied once and combined, and dice-free phases are
remembered across rounds.

Once the rounds that differ are over, two fast paths take the rest, both asking the engine every
rule question and restating none.  A retreat after round N does not keep them out of rounds 1 to
N: from `Engine.settled_round` on rounds differ only in that end phase, so the fast paths play
them forward one by one before the steady rounds (`FastLand._early`, `FastSea._early`).
- land (`pbem.odds.land`, `pbem.odds.grid`): each side's losses form a chain, so states are pairs
  of chain positions, solved as a grid with whole-array operations, O(n^3) for n units a side;
- sea (`pbem.odds.sea`): pairs of side states solved in layers of hit points, the engine asked
  once per side state, hits and kinds of enemy units, a layer's rounds computed at once.

Every computation has a bound, so that no battle can stall a turn: a budget of *work* (about a
round outcome of the general walk), the same on every machine so that audit reproduces each
figure byte for byte.  Past it the battle is sampled instead - the same step functions, the dice
drawn from the exact per-volley distributions by a generator seeded from the battle itself - and
the result is flagged as simulated, with its 95 % confidence half-width.  The sample takes the
fast paths' shortcuts too: steady land rounds are two draws on the loss chains, steady sea rounds
are played for every sample at once through the sea path's tables.
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import itertools
import math
import random
from dataclasses import dataclass, replace
from typing import Mapping

from pbem.engine.combat.engine import Engine, State
from pbem.engine.combat.fight import captured
from pbem.engine.combat.model import Battle, Orders
from pbem.engine.combat.rolling import binomial, class_distribution, volley_distribution
from pbem.odds.land import FastLand
from pbem.odds.sea import FastSea
from pbem.odds.work import _TooBig, _Work

STATE_BUDGET = 200_000
# Work units an exact computation may spend (a unit is about 7 microseconds on a laptop core: a
# round outcome of the general walk, or half a question it puts to the engine; the fast paths
# count their rows, questions to the engine and outcomes combined in the same unit).
# REPORT_BUDGET bounds the odds that `validate`, `adjudicate`, reports and `audit` print (about a
# quarter of a second); `pbem odds` allows COMMAND_BUDGET (about a second) unless told `--exact`.
# A unit is deterministic, unlike a clock, so every machine makes the same choice between exact
# and sampled.
UNIT_SECONDS = 7e-6
REPORT_BUDGET = 40_000
COMMAND_BUDGET = 150_000
# The sample past the bound plays up to SIMULATIONS battles and may spend the budget again (in the
# same units, charged as it goes), but always plays FEWEST_SIMULATIONS: fewer battles, a wider
# confidence interval, and the odds never cost more than twice the budget (plus those few battles).
SIMULATIONS = 2_000
FEWEST_SIMULATIONS = 250
SAMPLE_STEP_UNITS = 1  # a phase (or a steady land round) of one sampled battle
AS_MUCH_AGAIN = -1  # `battle_odds(sample_budget=...)`: the sample may spend what the exact attempt could
TOP = 5


def budget_for(seconds: float) -> int:
    """The work units of about `seconds` on a laptop core (game.yaml hosting.odds_seconds)."""
    return max(1, int(seconds / UNIT_SECONDS))


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
    sample_budget: int | None = AS_MUCH_AGAIN,
) -> Odds:
    """The exact distribution of the battle's outcomes (see the module docstring), or, past
    `budget` work units (None: no bound), a sample of it flagged `exact=False`, which may spend
    `sample_budget` units more (by default `budget` again; None: SIMULATIONS battles whatever they
    cost) and plays at least FEWEST_SIMULATIONS battles."""
    if sample_budget == AS_MUCH_AGAIN:
        sample_budget = budget
    engine = Engine(battle, attacker_orders, defender_orders)
    try:
        finals, rounds, states, neglected = _solve(engine, low_luck, budget=budget)
    except _TooBig as stopped:
        fast = getattr(stopped, "fast", None)
        if isinstance(fast, FastSea) and engine.settled_round == 1:
            # every round of this battle is one the sea path plays: its tables, filled by the
            # attempt, answer most steps of the sample too
            seed = _seed(battle, attacker_orders, defender_orders, low_luck)
            finals, rounds, played = fast.sample(engine.initial(), seed, SIMULATIONS, FEWEST_SIMULATIONS, sample_budget)
            return _summarise(engine, finals, rounds, played, exact=False, confidence=half_width(played))
        return _sample(engine, battle, attacker_orders, defender_orders, low_luck, fast if isinstance(fast, FastLand) else None,
                       sample_budget)
    odds = _summarise(engine, finals, rounds, states, exact=True, confidence=None)
    return replace(odds, neglected=neglected)


# ------------------------------------------------------------------------------------------
# the exact walk


def _hp(engine: Engine, state: State) -> int:
    total = 0
    for n, c in zip(state.a, engine.a_cats):
        total += n * (c.profile.hits if not c.damaged else 1)
    for n, c in zip(state.d, engine.d_cats):
        total += n * (c.profile.hits if not c.damaged else 1)
    return total


def _round(
    engine: Engine, state: State, low_luck: bool, memo: dict[tuple[str, State], State] | None = None,
    work: _Work | None = None, defer: FastLand | FastSea | None = None,
) -> dict[State, float]:
    """The distribution of the state after one full round from `state` (a round start).

    `memo` keeps the outcome of phases without dice (mostly the end phase) across calls: many
    rounds reach the same states.  With `defer`, a fire phase whose end phase leads into the land
    fast path hands its outcomes to it instead (`FastLand.arrive`): they are not in the result."""
    if memo is None:
        memo = {}
    dist: dict[State, float] = {state: 1.0}
    for phase in engine.phases:
        nxt: dict[State, float] = {}
        for st, p in dist.items():
            if st.over:
                nxt[st] = nxt.get(st, 0.0) + p
                continue
            if work is not None:
                work.add(VOLLEYS_UNITS)
            volleys = engine.volleys(st, phase)
            if not volleys:
                after = memo.get((phase, st))
                if after is None:
                    if work is not None:
                        work.add(END_UNITS)
                    after = memo[(phase, st)] = engine.apply(st, phase, [])
                nxt[after] = nxt.get(after, 0.0) + p
                continue
            if phase == "fire":
                if defer is not None and defer.takes(st, volleys):
                    defer.arrive(st, p, volleys)
                    continue
                hit_a, hit_d = _fire_sides(engine, st, volleys, low_luck, work)
                if work is not None:
                    work.add(len(hit_d) * len(hit_a) + len(hit_a) + len(hit_d))
                    work.ahead(END_UNITS * len(hit_d) * len(hit_a))  # each state made may meet the end phase
                rest = (st.a_submerged, st.d_submerged, st.a_retreated, st.over, st.no_combat)
                for (a, a_pending), pa in hit_a:
                    q = p * pa
                    for (d, d_pending), pd in hit_d:
                        after = State(st.round, a, d, a_pending, d_pending, *rest)
                        nxt[after] = nxt.get(after, 0.0) + q * pd
                continue
            options = [volley_distribution(v, low_luck) for v in volleys]
            if work is not None:
                work.add(ASK_UNITS * math.prod(len(o) for o in options))
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
# Work units of a question to the engine, charged before it is asked (measured against the units'
# time): a volley's outcome applied to the side it hits, a state's phase without dice.
ASK_UNITS = 2
END_UNITS = 1
VOLLEYS_UNITS = 1  # the volleys of a state's phase: at sea, with parting shots and submerging, as dear as an end phase


def _fire_sides(engine: Engine, st: State, volleys, low_luck: bool, work: _Work | None = None
                ) -> tuple[Outcomes, Outcomes]:
    """The fire phase from `st`, per side hit: each volley's outcomes are applied once
    (`Engine.fire_casualties`: a volley changes only the side it hits), to be combined after,
    instead of once per combination.  Returns the attacker's and the defender's outcomes.
    With `work`, each volley's outcomes are charged (`ASK_UNITS` each) before they are asked."""
    sides: dict[str, Outcomes] = {}
    for v in volleys:
        got: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        dist = volley_distribution(v, low_luck)
        if work is not None:
            work.add(ASK_UNITS * len(dist))
        for h, pr in dist:
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
    state with `_round` (the reference the tests hold the fast paths to)."""
    fast = (FastLand.maybe(engine, low_luck) or FastSea.maybe(engine, low_luck)) if fast_path else None
    try:
        return _walk(engine, low_luck, fast, budget)
    except _TooBig as stopped:
        stopped.fast = fast  # type: ignore[attr-defined]  # its tables may serve the sample
        raise


def _walk(engine: Engine, low_luck: bool, fast: FastLand | FastSea | None, budget: int | None
          ) -> tuple[dict[State, float], float, int, float]:
    start = engine.initial()
    if start.over:
        return {start._replace(round=0): 1.0}, 0.0, 1, 0.0
    finals: dict[State, float] = {}
    mass: dict[State, float] = {start: 1.0}
    counter = itertools.count()
    heap: list[tuple[int, int, int, State]] = [(-_hp(engine, start), start.round, next(counter), start)]
    rounds = 0.0
    expanded = 0
    memo: dict[tuple[str, State], State] = {}
    # the fast path takes over where it can play every round (from `Engine.settled_round`)
    handover = fast.first_round if fast is not None else engine.steady_round
    work = _Work(budget)
    while heap:
        _, _, _, state = heapq.heappop(heap)
        m = mass.pop(state)
        if fast is not None and state.round >= handover:
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
            elif fast is not None and st.round >= handover:
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
# summary


def _unit_counts(engine: Engine, side: str, *vectors: tuple[int, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c, n in zip(engine.cats(side), map(sum, zip(*vectors))):  # type: ignore[arg-type]
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
    # finals share one side's units: what is left of a side is read once per distinct vector (its
    # units, the losses against the start as (count lost, cost) per unit in the start's order, the
    # units sorted for the grouping key)
    counted: dict[tuple[str, tuple[tuple[int, ...], ...]], tuple[dict[str, int], list[tuple[int, float]], tuple]] = {}
    cost = {u: engine.battle.units[u].cost for side in start for u in start[side]}

    def units(side: str, *vectors: tuple[int, ...]) -> tuple[dict[str, int], list[tuple[int, float]], tuple]:
        got = counted.get((side, vectors))
        if got is None:
            left = _unit_counts(engine, side, *vectors)
            lost = [(n - left.get(unit, 0), cost[unit]) for unit, n in start[side].items()]
            got = counted[(side, vectors)] = (left, lost, tuple(sorted(left.items())))
        return got

    for st, p in finals.items():
        p /= total
        win[st.over] += p
        if captured(engine, st):
            cap += p
        left_a, lost_a, key_a = units("attacker", st.a, st.a_retreated, st.a_submerged)
        left_d, lost_d, key_d = units("defender", st.d, st.d_submerged)
        for side, left, lost in (("attacker", left_a, lost_a), ("defender", left_d, lost_d)):
            kept = surv[side]
            for unit, n in left.items():
                kept[unit] = kept.get(unit, 0.0) + p * n
            for n, c in lost:
                loss[side] += p * n * c
        key = (st.over, key_a, key_d)
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


def half_width(played: int) -> float:
    """The 95 % half-width of a chance sampled from `played` battles, at worst (a chance of 1/2)."""
    return 1.96 * math.sqrt(0.25 / played)


def _sample(
    engine: Engine, battle: Battle, attacker_orders: Orders, defender_orders: Orders, low_luck: bool,
    land: FastLand | None = None, budget: int | None = None,
) -> Odds:
    """The battle sampled `SIMULATIONS` times through the engine's own step functions: each volley's
    hits drawn per fire class from its exact distribution, by a generator seeded from the battle
    and the orders themselves, so every machine draws the same sample.  States are numbered and
    each step (a state, a phase, the hits drawn) is asked of the engine once: large battles
    revisit them often, and a sample step is then a few lookups.  With `land`, the rounds the land
    path plays are played on its loss chains (`FastLand.play`): a round is then two draws.
    Once the sample has spent `budget` work units (and played `FEWEST_SIMULATIONS`), it stops
    after the battle it is playing: a question to the engine costs what it does in the exact
    walk, a step `SAMPLE_STEP_UNITS`."""
    work = _Work(None)  # counted, never stopped mid-battle
    if land is not None:
        land.work = work
    rng = random.Random(_seed(battle, attacker_orders, defender_orders, low_luck))
    draw = rng.random
    samplers: dict[object, tuple[tuple[str, list[float], float, int], ...]] = {}

    def sampler(volley) -> tuple[tuple[str, list[float], float, int], ...]:  # type: ignore[no-untyped-def]
        spec = samplers.get(volley.groups)
        if spec is None:  # per fire class: the cumulative distribution of its hits
            per_class: dict[str, list[tuple[int, ...]]] = {}
            for g in volley.groups:
                per_class.setdefault(g.fire_class, []).append((g.count, g.value) if g.best_of == 1 else (g.count, g.value, g.best_of))
            spec = samplers[volley.groups] = tuple(
                (cls, cum, cum[-1], len(cum) - 1)
                for cls in sorted(per_class)
                for cum in [_cumulative(tuple(sorted(per_class[cls])), low_luck)])
        return spec

    states: list[State] = []
    ids: dict[State, int] = {}

    def number(st: State) -> int:
        got = ids.get(st)
        if got is None:
            got = ids[st] = len(states)
            states.append(st)
        return got

    phases = engine.phases
    asked: dict[tuple[int, int], tuple[tuple[tuple[str, list[float], float, int], ...], ...]] = {}
    steps: dict[tuple[int, int, tuple[int, ...]], int] = {}
    bisect_right = bisect.bisect_right
    start = number(engine.initial())
    finals: dict[State, float] = {}
    rounds = 0.0
    # where the land chains take over (`land`): at the start of a round the fast path plays
    # (`FastLand.first_round`), or at the last special round's fire phase when the grid would take
    # it (`FastLand.takes`)
    on_chains: dict[tuple[int, int], bool] = {}
    fire = phases.index("fire")
    played = 0
    outcomes: list[State] = []
    while played < SIMULATIONS and not (played >= FEWEST_SIMULATIONS and budget is not None and work.spent > budget):
        played += 1
        sid = start
        state = states[sid]
        while not state.over:
            if state.round > 10_000:
                raise RuntimeError("a sampled battle did not end")
            if land is not None and state.round >= land.first_round:
                state = land.play(state, draw)
                break
            for k in range(len(phases)):
                work.spent += SAMPLE_STEP_UNITS
                spec = asked.get((sid, k))
                if spec is None:
                    work.spent += END_UNITS
                    volleys = engine.volleys(states[sid], phases[k])
                    spec = asked[(sid, k)] = tuple(sampler(v) for v in volleys)
                    if land is not None and k == fire:
                        on_chains[(sid, k)] = bool(volleys) and land.takes(states[sid], volleys)
                drawn = tuple(min(bisect_right(cum, draw() * total), last) for volley in spec for _, cum, total, last in volley)
                if land is not None and on_chains.get((sid, k)):
                    hits = {"attacker": 0, "defender": 0}  # per side hit
                    for volley, n in zip(engine.volleys(states[sid], phases[k]), drawn):
                        hits["defender" if volley.side == "attacker" else "attacker"] = n
                    state = land.play(states[sid], draw, (hits["attacker"], hits["defender"]))
                    break
                after = steps.get((sid, k, drawn))
                if after is None:
                    work.spent += ASK_UNITS
                    hits, at = [], 0
                    for volley in spec:
                        hits.append({cls: drawn[at + n] for n, (cls, _, _, _) in enumerate(volley)})
                        at += len(volley)
                    after = steps[(sid, k, drawn)] = number(engine.apply(states[sid], phases[k], hits))  # type: ignore[arg-type]
                sid = after
                state = states[sid]
                if state.over:
                    break
            else:
                continue
            break
        outcomes.append(state)
    for state in outcomes:  # each 1/played, summed in the order played
        rounds += (0 if state.no_combat else state.round) / played
        end = state._replace(round=0)
        finals[end] = finals.get(end, 0.0) + 1.0 / played
    return _summarise(engine, finals, rounds, played, exact=False, confidence=half_width(played))


def _cumulative(groups: tuple[tuple[int, ...], ...], low_luck: bool) -> list[float]:
    """The cumulative distribution of one fire class's hits, for the sample to bisect.  Past a few
    dozen dice by NumPy's convolution (the exact sums cost the square of the dice in Python); the
    sample needs no more than its draws' order, which rounding errors change only on a boundary."""
    if low_luck or sum(g[0] for g in groups) <= LARGE_VOLLEY:
        return list(itertools.accumulate(class_distribution(groups, low_luck)))
    import numpy as np

    from pbem.odds.grid import convolve  # not np.convolve: its last bits depend on the processor

    dist = np.ones(1)
    for g in groups:
        dist = convolve(dist, binomial(*g))
    return np.cumsum(dist).tolist()


LARGE_VOLLEY = 64  # dice


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
