"""The engine's promises to the odds calculator: a side's volleys read only its own units and which
kinds of units the enemy has (`Engine.enemy_kinds`), never how many; a phase without dice reads
only which kinds each side has where it changes nothing (`pbem.odds.kinds`)."""

from __future__ import annotations

import importlib
import random

import pytest

from pbem.engine.combat import Battle, Force, Orders, RetreatCondition
from pbem.engine.combat.engine import Engine, State
from pbem.io.rulesets import load_ruleset, ruleset_dir
from pbem.odds.kinds import retreat_pattern, retreated, tail_pattern

RULESETS = ("1942-2e", "revised", "europe-1999", "pacific-2001", "global-1940", "global-1940-ams")
KINDS = ("submarine", "destroyer", "cruiser", "battleship", "aircraft carrier", "fighter", "bomber", "transport",
         "tactical bomber")


def _fleets(ruleset: str, seed: str, count: int, size: int = 4, **extra: object):  # type: ignore[no-untyped-def]
    """`count` random fleet battles of the rule system, `size` kinds a side of 1-3 units each, and
    the rng that drew them (the tests draw more from it); `extra`: more Battle fields."""
    units = dict(load_ruleset(ruleset).units)
    rules = importlib.import_module(f"pbem.rulesets.{ruleset_dir(ruleset).name}.combat_rules").COMBAT_RULES
    kinds = [u for u in KINDS if u in units]
    rng = random.Random(seed)
    for _ in range(count):
        attack = {u: rng.randint(1, 3) for u in rng.sample(kinds, size)}
        defend = {u: rng.randint(1, 3) for u in rng.sample(kinds, size)}
        yield Battle("SZ 5", "sea", "Germany", tuple(Force(u, "Germany", n) for u, n in attack.items()),
                     tuple(Force(u, "United Kingdom", n) for u, n in defend.items()), units, rules, **extra), rng, kinds


def _start(engine: Engine, round_: int) -> State:
    zero_a, zero_d = (0,) * len(engine.a_cats), (0,) * len(engine.d_cats)
    return State(round_, engine.a_start, engine.d_start, zero_a, zero_d, zero_a, zero_d, zero_a, "")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_sides_volleys_read_only_the_kinds_of_enemy_units(ruleset: str) -> None:
    """Random fleets and, for each, every way of thinning the enemy that keeps its kinds: the
    surprise and fire volleys of the other side stay the same (rounds 1 and 2)."""
    checked = 0
    for battle, _, _ in _fleets(ruleset, ruleset, 40):
        engine = Engine(battle, Orders(), Orders())
        for round_ in (1, 2):
            base = _start(engine, round_)
            for side, enemy in (("attacker", "d"), ("defender", "a")):
                counts = getattr(base, enemy)
                # the same kinds, one of each; and without one kind the volleys do not read
                thinner = [tuple(min(n, 1) for n in counts)]
                for k in range(len(counts)):
                    fewer = tuple(0 if x == k else n for x, n in enumerate(counts))
                    if any(fewer) and engine.enemy_kinds(side, fewer) == engine.enemy_kinds(side, counts):
                        thinner.append(fewer)
                for changed in thinner:
                    other = base._replace(**{enemy: changed})
                    for phase in ("surprise", "fire"):
                        mine = [v for v in engine.volleys(base, phase) if v.side == side]
                        again = [v for v in Engine(battle, Orders(), Orders()).volleys(other, phase) if v.side == side]
                        assert mine == again, (ruleset, side, phase, battle, changed)
                        checked += 1
    assert checked >= 40 * 2 * 2 * 2


@pytest.mark.parametrize("orders", ["none", "submerge", "retreat after round 2"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_end_of_a_round_reads_only_which_kinds_each_side_has(ruleset: str, orders: str) -> None:
    """The sea fast path asks the end of a round (and of the surprise strikes) once per pair of
    kinds where it changes no unit: thinning either side without removing a kind neither ends the
    battle nor changes anything there, and where the phase only empties whole categories
    (defenceless transports) and says who won, it does the same to the thinner pair
    (`pbem.odds.kinds.tail_pattern`).  So too with subs that submerge when they may, and with an
    attacker that retreats after a round, where the end of that round withdraws the same kinds of
    attackers from the thinner pair (`retreat_pattern`); a retreat by numbers counts units, and the
    sea path asks that end phase pair by pair."""
    units = dict(load_ruleset(ruleset).units)
    rules = importlib.import_module(f"pbem.rulesets.{ruleset_dir(ruleset).name}.combat_rules").COMBAT_RULES
    kinds = [u for u in KINDS if u in units]
    rng = random.Random(f"end/{ruleset}")
    withdrawals = 0
    for _ in range(60):
        attack = {u: rng.randint(1, 3) for u in rng.sample(kinds, rng.randint(1, 4))}
        defend = {u: rng.randint(1, 3) for u in rng.sample(kinds, rng.randint(1, 4))}
        battle = Battle("SZ 5", "sea", "Germany", tuple(Force(u, "Germany", n) for u, n in attack.items()),
                        tuple(Force(u, "United Kingdom", n) for u, n in defend.items()), units, rules, retreat_to=("SZ 6",))
        submerge = "always" if orders == "submerge" else "never"
        retreat = RetreatCondition("after_round", 2) if orders.startswith("retreat") else RetreatCondition()
        engine = Engine(battle, Orders(submerge=submerge, retreat=retreat), Orders(submerge=submerge))
        base = _start(engine, 2)
        thin = base._replace(a=tuple(min(n, 1) for n in base.a), d=tuple(min(n, 1) for n in base.d))
        for phase in ("end", "after"):
            def step(st: State) -> State:
                return engine.after_surprise(st) if phase == "after" else engine.apply(st, "end", [])
            got, again = step(base), step(thin)
            assert (got.over == "" and got[1:8] == base[1:8]) == (again.over == "" and again[1:8] == thin[1:8]), (
                ruleset, phase, attack, defend)
            assert got.over == again.over
            # and where it only empties whole categories and says who won, it does the same there
            assert tail_pattern(base, got) == tail_pattern(thin, again), (ruleset, phase, attack, defend)
            # and where it withdraws whole categories of attackers, ending the battle, so it does there
            withdrawn = retreat_pattern(base, got)
            assert withdrawn == retreat_pattern(thin, again), (ruleset, phase, attack, defend)
            if withdrawn is not None:
                assert retreated(base, withdrawn) == got and retreated(thin, withdrawn) == again, (ruleset, attack, defend)
                withdrawals += 1
    assert (withdrawals > 0) == orders.startswith("retreat")


LAND_KINDS = ("infantry", "mechanized infantry", "marine", "artillery", "tank", "armor", "fighter", "tactical bomber",
              "bomber", "antiaircraft artillery", "antiaircraft gun", "pill box")
IMMOBILE = ("antiaircraft artillery", "antiaircraft gun", "pill box")  # defend only


def _armies(ruleset: str, seed: str, count: int, most: int):  # type: ignore[no-untyped-def]
    """Up to `count` random land battles of the rule system, 1-4 kinds a side of 1 to `most`
    units each, with somewhere to retreat, and the rng that drew them (the tests draw more)."""
    units = dict(load_ruleset(ruleset).units)
    rules = importlib.import_module(f"pbem.rulesets.{ruleset_dir(ruleset).name}.combat_rules").COMBAT_RULES
    kinds = [u for u in LAND_KINDS if u in units]
    rng = random.Random(seed)
    for _ in range(count):
        attack = {u: rng.randint(1, most) for u in rng.sample(kinds, rng.randint(1, 4)) if u not in IMMOBILE}
        defend = {u: rng.randint(1, most) for u in rng.sample(kinds, rng.randint(1, 4))}
        if attack:
            yield Battle("Ukraine", "land", "Germany", tuple(Force(u, "Germany", n) for u, n in attack.items()),
                         tuple(Force(u, "Soviet Union", n) for u, n in defend.items()), units, rules,
                         retreat_to=("Poland",)), rng


def _mixed(ruleset: str, seed: str, count: int, extra):  # type: ignore[no-untyped-def]
    """`count` random battles of the rule system, land and sea in turn, 1-4 kinds a side of 1-3
    units each: (k, kind, battle, attack, defend, rng).  `extra(k, kind, rng, defend)` gives more
    Battle fields (and may add defenders) before the battle is made."""
    units = dict(load_ruleset(ruleset).units)
    rules = importlib.import_module(f"pbem.rulesets.{ruleset_dir(ruleset).name}.combat_rules").COMBAT_RULES
    rng = random.Random(seed)
    land_kinds = [u for u in LAND_KINDS if u in units]
    for k in range(count):
        kind = "sea" if k % 2 else "land"
        kinds = [u for u in KINDS if u in units] if kind == "sea" else land_kinds
        attack = {u: rng.randint(1, 3) for u in rng.sample(kinds, rng.randint(1, 4)) if u not in IMMOBILE} or {kinds[0]: 2}
        defend = {u: rng.randint(1, 3) for u in rng.sample(kinds, rng.randint(1, 4))}
        more = extra(k, kind, rng, defend)
        yield k, kind, Battle("Ukraine" if kind == "land" else "SZ 5", kind, "Germany",  # type: ignore[arg-type]
                              tuple(Force(u, "Germany", n) for u, n in attack.items()),
                              tuple(Force(u, "Soviet Union", n) for u, n in defend.items()), units, rules,
                              **more), attack, defend, rng


@pytest.mark.parametrize("orders", ["none", "retreat after round 2"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_end_of_a_land_round_reads_only_which_kinds_each_side_has(ruleset: str, orders: str) -> None:
    """The land path asks the end of a steady round once per pair of kinds (`pbem.odds.land`,
    `FastLand._cell_end`) where it changes nothing, or only empties whole categories - AAA with
    no defending combat units (AAA profile) - and says who won: thinning either side without
    removing a kind does the same there.  So too with an attacker that retreats after a round:
    where the whole attack withdraws, the same categories withdraw from the thinner pair
    (`pbem.odds.kinds.retreat_pattern`)."""
    checked = set()
    for battle, _ in _armies(ruleset, f"land end/{ruleset}", 80, 3):
        attack, defend = battle.attackers, battle.defenders
        retreat = RetreatCondition("after_round", 2) if orders.startswith("retreat") else RetreatCondition()
        engine = Engine(battle, Orders(retreat=retreat), Orders())
        for round_ in (engine.steady_round, engine.steady_round + 1):
            base = _start(engine, round_)
            thin = base._replace(a=tuple(min(n, 1) for n in base.a), d=tuple(min(n, 1) for n in base.d))
            got, again = engine._end_round(base, None), engine._end_round(thin, None)
            same = got[1:] == base[1:] and got.round == base.round + 1
            assert same == (again[1:] == thin[1:] and again.round == thin.round + 1), (ruleset, attack, defend)
            assert got.over == again.over and got.round == again.round
            assert tail_pattern(base, got) == tail_pattern(thin, again), (ruleset, attack, defend)
            # where it ends the battle by withdrawing whole categories of attackers, it withdraws
            # the same categories there, and nothing else changes
            withdrawn = retreat_pattern(base, got)
            assert withdrawn == retreat_pattern(thin, again), (ruleset, attack, defend)
            if withdrawn is not None:
                assert retreated(base, withdrawn) == got and retreated(thin, withdrawn) == again, (ruleset, attack, defend)
                checked.add("retreat")
            checked.add("same" if same else "over" if got.over else "other")
    assert "over" in checked and ("same" in checked or orders != "none")  # (a retreat after round 2 ends every steady round)
    assert ("retreat" in checked) == (orders != "none")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_casualties_asked_many_at_once_are_those_asked_one_by_one(ruleset: str) -> None:
    """The odds ask casualty choices by the thousand (`Engine.casualties_many`): on random fleets,
    orders of loss, hits of every fire class and damaged two-hit units, each row is what
    `Engine._casualties` chooses for it alone - the largest number of hits assigned, then the
    owner's order of loss (General Combat, step 3 and "Choosing casualties"; two-hit units,
    battleship profile), kills behind the strip or not."""
    import numpy as np

    compared = 0
    for battle, rng, kinds in _fleets(ruleset, f"many/{ruleset}", 25, 5, damaged={"United Kingdom": {"battleship": 1}},
                                      attacker_damaged={"Germany": {"battleship": 1}}):
        orders = Orders(order_of_loss=tuple(rng.sample(kinds, 3)))
        engine = Engine(battle, orders, Orders(order_of_loss=tuple(rng.sample(kinds, 2))))
        for side, start in (("attacker", engine.a_start), ("defender", engine.d_start)):
            counts = [tuple(rng.randint(0, n) for n in start) for _ in range(30)]
            pending = [tuple(rng.randint(0, n) if rng.random() < 0.3 else 0 for n in c) for c in counts]
            classes = rng.sample(["any", "not_air", "not_sub", "air"], rng.randint(1, 3))
            hits = [{k: rng.randint(0, 4) for k in classes} for _ in counts]
            for step, behind in (("attacker", True), ("defender", False), ("surprise-attacker", True), ("parting-shot", False)):
                got_counts, got_pending = engine.casualties_many(
                    side, np.array(counts), np.array(pending), {k: np.array([h[k] for h in hits]) for k in classes},
                    step, behind)
                for n, (c, p, h) in enumerate(zip(counts, pending, hits)):
                    alone = engine._casualties(side, c, p, h, step, behind)[:2]
                    assert (tuple(got_counts[n].tolist()), tuple(got_pending[n].tolist())) == alone, (ruleset, c, p, h)
                    compared += 1
    assert compared == 25 * 2 * 30 * 4


@pytest.mark.parametrize("ruleset", RULESETS)
def test_casualties_that_leave_many_at_once_leave_as_one_by_one(ruleset: str) -> None:
    """The odds let a volley's casualties leave the strip for thousands of results at once
    (`Engine.leave_many`): each row is what `end_of_fire` (General Combat, remove casualties) and
    `surprise_leave` (a surprise strike's casualties leave at once unless they fire back: 1942
    Second Edition and Revised step 2-3, Revised's destroyer) make of that side alone."""
    import numpy as np

    compared = 0
    for battle, rng, _ in _fleets(ruleset, f"leave/{ruleset}", 20, 5):
        engine = Engine(battle, Orders(), Orders())
        for side, start in (("attacker", engine.a_start), ("defender", engine.d_start)):
            counts = [tuple(rng.randint(0, n) for n in start) for _ in range(20)]
            pending = [tuple(rng.randint(0, n) if rng.random() < 0.5 else 0 for n in c) for c in counts]
            zero_a, zero_d = (0,) * len(engine.a_cats), (0,) * len(engine.d_cats)
            for when in ("fire", "surprise"):
                got_counts, got_pending = engine.leave_many(side, when, np.array(counts), np.array(pending))
                for n, (c, p) in enumerate(zip(counts, pending)):
                    if side == "attacker":
                        st = State(2, c, zero_d, p, zero_d, zero_a, zero_d, zero_a, "")
                    else:
                        st = State(2, zero_a, c, zero_a, p, zero_a, zero_d, zero_a, "")
                    alone = engine.end_of_fire(st) if when == "fire" else engine.surprise_leave(st, side)
                    want = (alone.a, alone.a_pending) if side == "attacker" else (alone.d, alone.d_pending)
                    assert (tuple(got_counts[n].tolist()), tuple(got_pending[n].tolist())) == want, (ruleset, c, p)
                    compared += 1
    assert compared == 20 * 2 * 20 * 2
    with pytest.raises(ValueError, match="no casualties leave"):
        engine.leave_many("attacker", "parting", np.array([engine.a_start]), np.array([engine.a_start]))


def test_casualties_many_refuses_a_plan_that_holds_back_a_unit() -> None:
    """A land side that holds the territory keeps its last unit apart row by row; the batch does not
    model it, so it says so rather than answer wrongly."""
    import numpy as np

    from combat_helpers import land

    engine = Engine(land({"infantry": 3}, {"infantry": 2}), Orders(hold_territory=True), Orders())
    with pytest.raises(ValueError, match="keep_one"):
        engine.casualties_many("attacker", np.array([[3]]), np.array([[0]]), {"any": np.array([1])}, "defender", False)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_sides_volleys_are_those_of_both_sides_asked_together(ruleset: str) -> None:
    """The odds ask each side's volleys apart (`Engine.side_volleys`): on random fleets, in rounds 1
    and 2, every phase's volleys of one side are exactly that side's among `Engine.volleys`."""
    compared = 0
    for battle, _, _ in _fleets(ruleset, f"side/{ruleset}", 30):
        engine = Engine(battle, Orders(), Orders())
        for round_ in (1, 2):
            state = _start(engine, round_)
            for phase in engine.phases:
                both = engine.volleys(state, phase)
                for side in ("attacker", "defender"):
                    assert engine.side_volleys(state, phase, side) == tuple(v for v in both if v.side == side)
                    compared += 1
    assert compared >= 30 * 2 * 4 * 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rounds_from_the_settled_one_differ_only_in_the_retreat(ruleset: str) -> None:
    """The odds' fast paths play every round from `Engine.settled_round` on (`FastLand._early`,
    `FastSea._early`), reading the round only in the end phase: with an order to retreat after
    round N (Conduct Combat, Step 6, Press Attack or Retreat), each round from the settled one on
    fires the same volleys, with the same casualties, and ends as the settled round does until
    round N, whose end phase withdraws the attack; without the order, every round from the
    settled one is the steady round.  Fleets and land battles, with AA guns (round 1 special)."""
    checked = set()
    for _, kind, battle, attack, defend, rng in _mixed(
            ruleset, f"settled/{ruleset}", 60, lambda k, kind, rng, defend: {"retreat_to": ("Poland" if kind == "land" else "SZ 6",)}):
        n = rng.randint(2, 4)
        engine = Engine(battle, Orders(retreat=RetreatCondition("after_round", n)), Orders())
        staying = Engine(battle, Orders(), Orders())
        settled = engine.settled_round
        assert settled == staying.settled_round == staying.steady_round
        assert engine.steady_round == max(settled, n)
        base = _start(engine, settled)
        for round_ in range(settled, n + 2):
            st = base._replace(round=round_)
            for phase in engine.phases:
                if phase == "end":
                    continue
                volleys = engine.volleys(st, phase)
                assert volleys == engine.volleys(base, phase), (ruleset, attack, defend, round_, phase)
                for at, v in enumerate(volleys):  # one hit per fire class from each volley in turn
                    hits = [{g.fire_class: 1 for g in v.groups} if x == at else {} for x in range(len(volleys))]
                    after, then = engine.apply(st, phase, hits), engine.apply(base, phase, hits)
                    assert after._replace(round=0) == then._replace(round=0), (ruleset, attack, defend, round_, phase)
            ended, settled_end = engine._end_round(st, None), staying._end_round(st, None)
            if round_ < n:  # as the settled round ends, the attack not withdrawn yet; and so with the defence gone
                assert ended == settled_end, (ruleset, attack, defend, round_)
                gone = st._replace(d=(0,) * len(st.d))
                assert engine._end_round(gone, None) == staying._end_round(gone, None), (ruleset, attack, defend, round_)
                checked.add("fights on" if not ended.over else "over")
                checked.add("over" if engine._end_round(gone, None).over else "fights on")
            elif not settled_end.over:
                assert ended.over and any(ended.a_retreated), (ruleset, attack, defend, round_)
                checked.add("withdrawn")
    assert checked == {"fights on", "over", "withdrawn"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_k_land_casualties_at_once_are_k_casualties_in_turn(ruleset: str) -> None:
    """The land odds read a side's losses as a chain, one casualty at a time (`FastLand._chain`),
    and take k hits as k steps down it; the sample off the chains asks the k casualties at once
    (`FastLand._off_step`).  The casualty plan promises that the two agree: for random armies of
    the rule system, with and without holding territory, k casualties chosen at once are the k
    chosen one after the other (General Combat, Step 5, Remove Casualties)."""
    units = dict(load_ruleset(ruleset).units)
    rules = importlib.import_module(f"pbem.rulesets.{ruleset_dir(ruleset).name}.combat_rules").COMBAT_RULES
    kinds = [u for u in LAND_KINDS if u in units]
    rng = random.Random(f"k casualties/{ruleset}")
    checked = 0
    for _ in range(40):
        attack = {u: rng.randint(1, 4) for u in rng.sample(kinds, rng.randint(1, 5)) if u not in IMMOBILE} or {kinds[0]: 3}
        defend = {u: rng.randint(1, 4) for u in rng.sample(kinds, rng.randint(1, 5))}
        battle = Battle("Ukraine", "land", "Germany", tuple(Force(u, "Germany", n) for u, n in attack.items()),
                        tuple(Force(u, "Soviet Union", n) for u, n in defend.items()), units, rules)
        engine = Engine(battle, Orders(hold_territory=rng.random() < 0.5), Orders())
        for side, counts in (("attacker", engine.a_start), ("defender", engine.d_start)):
            plan = engine.plans[side]  # type: ignore[index]
            for k in range(1, sum(counts) + 2):
                at_once = list(counts)
                for t in plan.assign(counts, {"any": k}):
                    at_once[t.category] -= t.count
                in_turn = list(counts)
                for _ in range(k):
                    taken = plan.assign(tuple(in_turn), {"any": 1})
                    if not taken:
                        break
                    for t in taken:
                        in_turn[t.category] -= t.count
                assert at_once == in_turn, (ruleset, side, attack, defend, k)
                checked += 1
    assert checked > 200


@pytest.mark.parametrize("orders", ["when attackers at most", "when defenders outnumber"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_end_of_a_land_round_reads_kinds_and_whether_the_attack_withdraws(ruleset: str, orders: str) -> None:
    """With a retreat by numbers (Conduct Combat, Step 6, Press Attack or Retreat: the attacker's
    standing order counts units) the land path reads the end of a round once per pair of kinds
    and answer of `Engine._wants_retreat`, that answer asked at every cell (`FastLand._cell_end`):
    thinning either side in ways that keep its kinds and that answer does the same there - leaves
    the cell as it is, empties the same categories, or withdraws the same ones."""
    checked = set()
    for battle, rng in _armies(ruleset, f"land end by numbers/{ruleset}/{orders}", 60, 4):
        attack, defend = battle.attackers, battle.defenders
        retreat = (RetreatCondition("when_attackers_at_most", rng.randint(1, 6)) if orders.startswith("when attackers")
                   else RetreatCondition("when_defenders_outnumber"))
        engine = Engine(battle, Orders(retreat=retreat), Orders())
        base = _start(engine, engine.steady_round)
        got = engine._end_round(base, None)
        for _ in range(6):  # thinner armies of the same kinds
            thin = base._replace(a=tuple(rng.randint(1, n) if n else 0 for n in base.a),
                                 d=tuple(rng.randint(1, n) if n else 0 for n in base.d))
            if engine._wants_retreat(thin) != engine._wants_retreat(base):
                continue
            again = engine._end_round(thin, None)
            same = got[1:] == base[1:] and got.round == base.round + 1
            assert same == (again[1:] == thin[1:] and again.round == thin.round + 1), (ruleset, attack, defend, thin)
            assert got.over == again.over and got.round == again.round, (ruleset, attack, defend, thin)
            assert tail_pattern(base, got) == tail_pattern(thin, again), (ruleset, attack, defend, thin)
            withdrawn = retreat_pattern(base, got)
            assert withdrawn == retreat_pattern(thin, again), (ruleset, attack, defend, thin)
            if withdrawn is not None:
                assert retreated(thin, withdrawn) == again
            checked.add("withdrawn" if withdrawn is not None else "same" if same else "other")
    assert {"withdrawn", "same"} <= checked


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_idle_phase_leaves_every_state_as_it_is(ruleset: str) -> None:
    """The sea tables leave out the phases `Engine.idle_phases` names: on fleets and land battles
    of every rule system (AA guns and bombarding ships among them), in rounds 1 to 3, from random
    states with casualties behind the strip, such a phase has no dice and changes nothing.  And
    opening fire is not idle where it fires (AA fire and shore bombardment, round 1) or where an
    AA gun stands aside (Revised: it may leave the defender alone)."""
    units = dict(load_ruleset(ruleset).units)
    ships = [u for u in ("battleship", "cruiser") if u in units]

    def guns_and_ships(k: int, kind: str, rng: random.Random, defend: dict[str, int]) -> dict[str, object]:
        if kind == "land" and k % 4 == 0:
            defend[next(u for u in IMMOBILE[:2] if u in units)] = 1
        return {"bombard": tuple(rng.sample(ships, 1)) if kind == "land" and k % 8 == 2 else ()}

    seen = set()
    for _, kind, battle, attack, defend, rng in _mixed(ruleset, f"idle/{ruleset}", 40, guns_and_ships):
        engine = Engine(battle, Orders(), Orders())
        for round_ in (1, 2, 3):
            idle = engine.idle_phases(round_)
            seen.add(("opening idle" if "opening" in idle else "opening fires", kind))
            for _ in range(5):
                a = tuple(rng.randint(0, n) for n in engine.a_start)
                d = tuple(rng.randint(0, n) for n in engine.d_start)
                st = State(round_, a, d, tuple(rng.randint(0, n) if rng.random() < 0.3 else 0 for n in a),
                           tuple(rng.randint(0, n) if rng.random() < 0.3 else 0 for n in d),
                           (0,) * len(a), (0,) * len(d), (0,) * len(a), "")
                for phase in idle:
                    assert engine.volleys(st, phase) == (), (ruleset, attack, defend, round_, phase)
                    assert engine.apply(st, phase, []) == st, (ruleset, attack, defend, round_, phase)
    assert {("opening idle", "sea"), ("opening idle", "land"), ("opening fires", "land")} <= seen
