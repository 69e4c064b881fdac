"""`fight`: the adjudicator's battle, answering the engine's dice questions from a dice source."""

from __future__ import annotations

from typing import Sequence

from pbem.engine.combat.engine import Engine, State
from pbem.engine.combat.model import (
    Battle,
    BattleEnded,
    BattleOutcome,
    Counts,
    Event,
    DiceSource,
    FireClass,
    Orders,
    RetreatCondition,
    Side,
)
from pbem.engine.combat.rolling import battle_label, roll_volley

MAX_ROUNDS = 10_000  # a guard against a dice source that never hits; real dice end long before


def fight(
    battle: Battle,
    dice: DiceSource,
    attacker_orders: Orders = Orders(hold_territory=True),
    defender_orders: Orders = Orders(),
    *,
    low_luck: bool = False,
) -> BattleOutcome:
    """Run the battle (General Combat steps 1-7, p. 16-18) with `dice` and report what happened."""
    engine = Engine(battle, attacker_orders, defender_orders)
    log: list[Event] = []
    state = engine.initial(log)
    while not state.over:
        if state.round > MAX_ROUNDS:
            raise RuntimeError(f"battle at {battle.space} did not end in {MAX_ROUNDS} rounds")
        for phase in engine.phases:
            hits: list[dict[FireClass, int]] = []
            for volley in engine.volleys(state, phase):
                label = battle_label(battle.space, state.round, volley.step)
                h, event = roll_volley(volley, dice, label, state.round, low_luck)
                log.append(event)
                hits.append(h)
            state = engine.apply(state, phase, hits, log)
            if state.over:
                break
    rounds = 0 if state.no_combat else state.round
    reason = "no defending combat units" if state.no_combat else "condition A" if state.over != "retreat" else "condition B"
    log.append(BattleEnded(rounds, state.over, reason))  # type: ignore[arg-type]
    return outcome_of(engine, state, tuple(log), rounds)


def _counts(engine: Engine, side: Side, *vectors: Sequence[int]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for i, c in enumerate(engine.cats(side)):
        n = sum(v[i] for v in vectors)
        if n:
            out.setdefault(c.owner, {})
            out[c.owner][c.unit] = out[c.owner].get(c.unit, 0) + n
    return out


def _minus(x: Counts, y: Counts) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for owner, units in x.items():
        for unit, n in units.items():
            left = n - y.get(owner, {}).get(unit, 0)
            if left:
                out.setdefault(owner, {})[unit] = left
    return out


def captured(engine: Engine, state: State) -> bool:
    """Step 7: the attacker takes a territory only with a surviving land unit (air cannot capture)."""
    if engine.kind != "land" or state.over != "attacker":
        return False
    for n, c in zip(state.a, engine.a_cats):
        if n and (c.profile.domain == "land" or (engine.rules.air_can_capture and c.profile.domain == "air")):
            return True
    return False


def defaults_used(engine: Engine) -> tuple[str, ...]:
    out: list[str] = []
    for side in ("attacker", "defender"):
        plan = engine.plans[side]
        if plan.uses_default:
            listed = set(engine.orders[side].order_of_loss)
            names = sorted({c.unit for c in plan.categories if c.unit not in listed})
            out.append(f"{side} order of loss: default (cheapest first, air last) for {', '.join(names)}")
    if engine.orders["attacker"].retreat == RetreatCondition():
        out.append("attacker retreat: never (default)")
    if engine.kind == "sea":
        for side in ("attacker", "defender"):
            if engine.orders[side].submerge == "never":
                out.append(f"{side} submerge: never (default)")
    return tuple(out)


def outcome_of(engine: Engine, state: State, events: tuple[Event, ...], rounds: int) -> BattleOutcome:
    zero_a = (0,) * len(engine.a_cats)
    a_surv = _counts(engine, "attacker", state.a, state.a_retreated, state.a_submerged)
    d_surv = _counts(engine, "defender", state.d, state.d_submerged)
    a_start = _counts(engine, "attacker", engine.a_start, zero_a)
    d_start = _counts(engine, "defender", engine.d_start)
    damaged: dict[str, dict[str, int]] = {}
    for side, vec in (("attacker", _sum(state.a, state.a_retreated)), ("defender", state.d)):
        for n, c in zip(vec, engine.cats(side)):
            if n and c.damaged:
                damaged.setdefault(c.owner, {})
                damaged[c.owner][c.unit] = damaged[c.owner].get(c.unit, 0) + n
    submerged = _counts(engine, "attacker", state.a_submerged)
    for owner, units in _counts(engine, "defender", state.d_submerged).items():
        submerged.setdefault(owner, {}).update(units)
    retreated = _counts(engine, "attacker", state.a_retreated)
    a_lost = _minus(a_start, a_surv)
    d_lost = _minus(d_start, d_surv)
    seaborne_lost: dict[str, dict[str, int]] = {}
    for i, c in enumerate(engine.a_cats):
        n = engine.a_start[i] - state.a[i] - state.a_retreated[i] - state.a_submerged[i]
        if c.seaborne and n > 0:
            seaborne_lost.setdefault(c.owner, {})
            seaborne_lost[c.owner][c.unit] = seaborne_lost[c.owner].get(c.unit, 0) + n
    sacrificed: dict[str, dict[str, int]] = {}
    if rounds:  # they fired in round 1's opening fire
        for s in engine.sacrifices:
            for out in (sacrificed, a_lost if s.side == "attacker" else d_lost):
                out.setdefault(s.owner, {})
                out[s.owner][s.unit] = out[s.owner].get(s.unit, 0) + s.count
    return BattleOutcome(
        space=engine.battle.space,
        winner=state.over,  # type: ignore[arg-type]
        rounds=rounds,
        captured=captured(engine, state),
        attacker_survivors=a_surv,
        defender_survivors=d_surv,
        attacker_lost=a_lost,
        defender_lost=d_lost,
        damaged=damaged,
        repaired=engine.rules.two_hit_repair == "end_of_combat",
        retreated_to=engine.retreat_destination() if any(state.a_retreated) else None,
        retreated=retreated,
        submerged=submerged,
        events=events,
        defaults_used=defaults_used(engine),
        sacrificed=sacrificed,
        seaborne_lost=seaborne_lost,
    )


def _sum(x: Sequence[int], y: Sequence[int]) -> tuple[int, ...]:
    return tuple(p + q for p, q in zip(x, y))
