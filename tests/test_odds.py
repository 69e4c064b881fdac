"""The odds calculator: hand-derived closed forms, and agreement with `fight` under seeded dice."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "engine" / "combat"))
from combat_helpers import Seeded, forces, land, sea  # noqa: E402

from pbem.engine.combat import Battle, Orders, RetreatCondition, fight  # noqa: E402
from pbem.odds import battle_odds  # noqa: E402


def close(x: float, y: Fraction | float, tol: float = 1e-12) -> bool:
    return abs(x - float(y)) < tol


def test_one_infantry_against_one_infantry_closed_form():
    """General Combat steps 3-4 (p. 17): attacker hits with a = 1/6 (attack 1), defender with
    d = 2/6 (defense 2), simultaneously.  A round changes nothing with s = (1-a)(1-d) = 5/9, so
    P(attacker wins) = a(1-d)/(1-s) = (1/9)/(4/9) = 1/4, P(defender wins) = (1-a)d/(1-s) = 5/8,
    P(both die) = ad/(1-s) = 1/8, expected rounds 1/(1-s) = 9/4."""
    o = battle_odds(land({"infantry": 1}, {"infantry": 1}))
    assert close(o.attacker_win, Fraction(1, 4))
    assert close(o.defender_win, Fraction(5, 8))
    assert close(o.draw, Fraction(1, 8))
    assert close(o.capture, Fraction(1, 4))
    assert close(o.expected_rounds, Fraction(9, 4))
    assert close(o.expected_ipc_loss["attacker"], 3 * Fraction(3, 4))  # infantry cost 3


def test_fighter_against_infantry_cannot_capture():
    """Step 7 (p. 18): air units cannot capture. Fighter attacks at 3 (a = 1/2), infantry defends at 2
    (d = 1/3): P(attacker wins) = (1/2)(2/3)/(1-(1/2)(2/3)) = 1/2, but capture = 0."""
    o = battle_odds(land({"fighter": 1}, {"infantry": 1}))
    assert close(o.attacker_win, Fraction(1, 2)) and o.capture == 0


def test_two_infantry_against_one_closed_form():
    """Steps 3-5 (p. 17): 2 attacking infantry (a2 = 1-(5/6)^2 = 11/36 to hit) vs 1 infantry
    (d = 1/3).  From (2,1): stay s2 = (25/36)(2/3) = 25/54. Hitting ends the battle with a win
    either way (2 or 1 attacker left); otherwise the defender hit moves to (1,1) where P(win) = 1/4.
    P(win) = [11/36 + (25/36)(1/3)(1/4)] / (1 - 25/54)."""
    expected = (Fraction(11, 36) + Fraction(25, 36) * Fraction(1, 3) * Fraction(1, 4)) / (1 - Fraction(25, 54))
    o = battle_odds(land({"infantry": 2}, {"infantry": 1}))
    assert close(o.attacker_win, expected)


def test_artillery_support_in_odds():
    """Artillery profile (p. 26): infantry + artillery attack at 2 each: a = 1-(4/6)^2 = 5/9 for at
    least one hit against one defending infantry (d = 1/3, one attacker lost per hit)."""
    o = battle_odds(land({"infantry": 1, "artillery": 1}, {"infantry": 1}), Orders(hold_territory=False))
    # from (inf+art, inf): win now with prob (5/9) overall if a hit; if defender hits, infantry is
    # lost first (cheapest) and the lone artillery (2/6) fights on: P = (1/3)(2/3)/(1-(2/3)(2/3)) = 2/5
    p_art = Fraction(1, 3) * Fraction(2, 3) / (1 - Fraction(2, 3) * Fraction(2, 3))
    stay = Fraction(4, 9) * Fraction(2, 3)
    expected = (Fraction(5, 9) + Fraction(4, 9) * Fraction(1, 3) * p_art) / (1 - stay)
    assert close(o.attacker_win, expected)


def test_aa_fire_enters_the_odds():
    """AAA profile (p. 25): one die per attacking air unit (≤3 per AAA) at 1 before round 1.  A
    fighter against infantry + AAA survives the AA with 5/6, then wins with 1/2 (see above)."""
    o = battle_odds(land({"fighter": 1}, {"infantry": 1, "antiaircraft artillery": 1}), Orders(), Orders(hold_territory=False))
    # after the fighter hits the infantry, the lone AAA is destroyed: attacker wins
    assert close(o.attacker_win, Fraction(5, 6) * Fraction(1, 2))


def test_low_luck_is_deterministic_for_whole_sixes():
    """Low Luck (option): 6 infantry (strength 6) vs 1 infantry: exactly one hit per round, no die;
    the defender (strength 2) hits with 2/6 - so the attacker always wins in round 1."""
    o = battle_odds(land({"infantry": 6}, {"infantry": 1}), low_luck=True)
    assert close(o.attacker_win, 1) and close(o.expected_rounds, 1)


def test_sub_surprise_strike_closed_form():
    """Step 2 (p. 16): one attacking sub (hit ≤2) against a transport and... a lone cruiser: the sub
    strikes first each round (1/3); survivors of step 2 fire (cruiser 1/2 against the sub which no
    longer fires). P(attacker wins) = (1/3)/(1 - (2/3)(1/2)) = 1/2."""
    o = battle_odds(sea({"submarine": 1}, {"cruiser": 1}))
    assert close(o.attacker_win, Fraction(1, 2)) and close(o.draw, 0)


def test_battleship_two_hits_closed_form():
    """Battleship profile (p. 28): two hits to sink.  One battleship (attack 4: 2/3) against one
    destroyer (defense 2: 1/3).  Let W1 be P(win) with the battleship damaged: W1 = (2/3)/(1-(1/3)(2/3))
    ... counting simultaneous fire: win needs an attacker hit before the second defender hit."""
    a, d = Fraction(2, 3), Fraction(1, 3)
    stay = (1 - a) * (1 - d)
    w1 = a / (1 - stay)  # damaged: any attacker hit wins (a simultaneous 2nd hit makes a draw)
    w1 = a * (1 - d) / (1 - stay)
    w2 = (a + (1 - a) * d * w1) / (1 - stay)  # undamaged: a defender hit only damages it
    o = battle_odds(sea({"battleship": 1}, {"destroyer": 1}))
    assert close(o.attacker_win, w2)


def test_retreat_after_round_one():
    """Condition B (p. 18): retreating after round 1 ends the battle with a retreat unless it was
    decided in round 1.  1 inf vs 1 inf: P(retreat) = s = 5/9."""
    o = battle_odds(land({"infantry": 1}, {"infantry": 1}, retreat_to=("Poland",)), Orders(retreat=RetreatCondition("after_round", 1)))
    assert close(o.retreat, Fraction(5, 9)) and close(o.attacker_win, Fraction(1, 6) * Fraction(2, 3))


@pytest.mark.parametrize(
    "battle",
    [
        land({"infantry": 3, "artillery": 1, "tank": 1, "fighter": 1}, {"infantry": 4, "antiaircraft artillery": 1}),
        land({"infantry": 2, "tank": 2}, {"infantry": 2, "artillery": 1, "fighter": 1}),
        sea({"submarine": 2, "destroyer": 1, "fighter": 1}, {"destroyer": 1, "aircraft carrier": 1, "fighter": 1, "transport": 1}),
        sea({"battleship": 1, "cruiser": 1}, {"submarine": 2, "transport": 1}),
    ],
)
def test_odds_agree_with_seeded_fights(battle):
    """The calculator and `fight` implement one set of rules: over 1,500 seeded battles the observed
    outcome frequencies must lie within 4.5 standard errors of the exact probabilities (fixed seeds:
    deterministic)."""
    odds = battle_odds(battle)
    n = 1500
    seen = {"attacker": 0, "defender": 0, "draw": 0, "none": 0}
    for k in range(n):
        seen[fight(battle, Seeded(f"cmp/{k}")).winner] += 1
    for key, p in (("attacker", odds.attacker_win), ("defender", odds.defender_win), ("draw", odds.draw), ("none", odds.stalemate)):
        se = (max(p * (1 - p), 1e-4) / n) ** 0.5
        assert abs(seen[key] / n - p) < 4.5 * se + 1e-9, (key, seen[key] / n, p)


def test_probabilities_sum_to_one():
    """Every battle ends one way or another (Condition A or B, p. 18)."""
    o = battle_odds(land({"infantry": 10, "artillery": 3, "tank": 4}, {"infantry": 12, "tank": 2}))
    total = o.attacker_win + o.defender_win + o.draw + o.retreat + o.stalemate
    assert abs(total - 1) < 1e-9
    assert o.most_likely[0].probability >= o.most_likely[-1].probability


# ------------------------------------------------------------------------------------------
# load time: `pbem odds` loads the ruleset, whose validated data is cached


def test_ruleset_cache_returns_the_same_ruleset_and_revalidates_changed_data(tmp_path, monkeypatch):
    """The cache of validated ruleset data (keyed by the files' hash) changes no answer: same
    ruleset, same data hash; a changed file misses it and is validated again; a damaged entry is
    ignored."""
    import shutil

    from pbem.engine.problems import ProblemsError
    from pbem.io.rulesets import load_ruleset_dir, ruleset_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PBEM_NO_CACHE", raising=False)
    folder = tmp_path / "aa1942_2e"
    shutil.copytree(ruleset_dir("1942-2e"), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    first = load_ruleset_dir(folder)
    entries = list((tmp_path / "cache" / "pbem" / "rulesets").glob("*.json"))
    assert len(entries) == 1
    second = load_ruleset_dir(folder)
    assert second == first and second.data_hash == first.data_hash
    monkeypatch.setenv("PBEM_NO_CACHE", "1")
    assert load_ruleset_dir(folder).data_hash == first.data_hash
    monkeypatch.delenv("PBEM_NO_CACHE")
    entries[0].write_text('{"key": "damaged"')
    assert load_ruleset_dir(folder).data_hash == first.data_hash
    units = folder / "units.yaml"
    units.write_text(units.read_text().replace("    cost: 4\n", "    cost: four\n", 1))
    with pytest.raises(ProblemsError, match="is not of type 'integer'"):
        load_ruleset_dir(folder)


# ------------------------------------------------------------------------------------------
# the land fast path against the state-by-state walk


def _random_land_battles(n: int):
    import random

    from pbem.engine.combat import Force

    rng = random.Random(1942)
    out = []
    for k in range(n):
        attack = {u: rng.randint(0, 3) for u in ("infantry", "artillery", "tank", "fighter", "bomber")}
        if not any(attack.values()):
            attack["infantry"] = 2
        defend = {u: rng.randint(0, 3) for u in ("infantry", "artillery", "tank", "fighter")}
        defend["infantry"] += 1
        kw: dict = {"retreat_to": ("Poland",)}
        if k % 4 == 1:
            defend["antiaircraft artillery"] = 1
        if k % 4 == 2:
            kw["extra_attackers"] = (Force("infantry", "Germany", rng.randint(1, 2), True),)
            kw["bombard"] = ("battleship",)
        retreat = [
            RetreatCondition(),
            RetreatCondition("after_round", 2),
            RetreatCondition("when_attackers_at_most", 2),
            RetreatCondition("when_defenders_outnumber"),
        ][rng.randrange(4)]
        attacker = Orders(
            order_of_loss=rng.choice([(), ("artillery",), ("tank", "infantry")]),
            hold_territory=rng.random() < 0.7,
            retreat=retreat,
        )
        defender = Orders(order_of_loss=rng.choice([(), ("tank",)]), hold_territory=rng.random() < 0.7)
        out.append((land(attack, defend, **kw), attacker, defender, k % 3 == 0))
    return out


@pytest.mark.parametrize("case", _random_land_battles(16), ids=lambda c: "battle")
def test_land_fast_path_agrees_with_the_state_by_state_walk(case):
    """The chain/Horner fast path for land rounds is an optimisation only: on random battles (mixed
    units, orders of loss that change artillery support, retreats, AAA, bombardment, Low Luck) it
    gives the walk's answer to 1e-12."""
    assert_fast_path_agrees(*case)


def assert_fast_path_agrees(battle, attacker, defender, low_luck) -> None:  # type: ignore[no-untyped-def]
    """The odds with the fast paths and with the state-by-state walk agree to 1e-12."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds import _solve, _summarise

    got = []
    for fast in (True, False):
        engine = Engine(battle, attacker, defender)
        finals, rounds, states, _ = _solve(engine, low_luck, fast_path=fast)
        got.append(_summarise(engine, finals, rounds, states, exact=True, confidence=None))
    fast, slow = got
    for field in ("attacker_win", "defender_win", "draw", "retreat", "stalemate", "capture", "expected_rounds"):
        assert close(getattr(fast, field) or 0.0, getattr(slow, field) or 0.0), field
    for side in ("attacker", "defender"):
        assert close(fast.expected_ipc_loss[side], slow.expected_ipc_loss[side])
        for unit, x in slow.expected_survivors[side].items():
            assert close(fast.expected_survivors[side][unit], x), (side, unit)


def test_past_the_bound_battles_are_sampled_and_say_so():
    """No battle may stall a turn (issue 19): past its budget of work the calculator samples the
    battle through the same step functions, flags the result as not exact and gives the 95 %
    confidence half-width; the sample agrees with the exact answer within it."""
    battle = sea({"submarine": 2, "destroyer": 1}, {"destroyer": 1, "transport": 1})
    exact = battle_odds(battle, budget=None)
    sampled = battle_odds(battle, budget=1, sample_budget=None)  # every one of SIMULATIONS battles
    assert exact.exact and not sampled.exact
    assert sampled.confidence is not None and 0 < sampled.confidence < 0.05
    for field in ("attacker_win", "defender_win", "draw"):
        assert abs(getattr(sampled, field) - getattr(exact, field)) < 2 * sampled.confidence, field
    total = sampled.attacker_win + sampled.defender_win + sampled.draw + sampled.retreat + sampled.stalemate
    assert abs(total - 1) < 1e-9


def test_the_sample_is_the_same_on_every_run_and_differs_between_battles():
    """Audit reproduces every report byte for byte: the sample's generator is seeded from the
    battle and the orders, not from the clock or the process (sets print in a per-process order,
    so the seed sorts them)."""
    import subprocess

    battle = sea({"submarine": 3, "destroyer": 2, "fighter": 2}, {"destroyer": 2, "aircraft carrier": 1, "fighter": 2})
    first = battle_odds(battle, budget=1)
    assert battle_odds(battle, budget=1) == first
    other = battle_odds(sea({"submarine": 3, "destroyer": 2, "fighter": 2}, {"destroyer": 2, "aircraft carrier": 1, "fighter": 1}), budget=1)
    assert other.attacker_win != first.attacker_win
    code = ("import sys; sys.path.insert(0, 'tests/engine/combat'); from combat_helpers import sea; from pbem.odds import battle_odds; "
            "print(repr(battle_odds(sea({'submarine': 3, 'destroyer': 2, 'fighter': 2}, "
            "{'destroyer': 2, 'aircraft carrier': 1, 'fighter': 2}), budget=1).attacker_win))")
    root = Path(__file__).resolve().parents[1]
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                           env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}).stdout for seed in ("1", "2")}
    assert runs == {repr(first.attacker_win) + "\n"}


@pytest.mark.parametrize("case", _random_land_battles(10), ids=lambda c: "battle")
def test_a_land_battle_past_the_bound_is_sampled_on_its_loss_chains(case):
    """Issue 19: the simulation past the bound must itself be fast.  Steady land rounds are sampled
    on the loss chains (two draws a round, `FastLand.play`), and the last special round's fire
    (AA, bombardment) hands its drawn hits to them; the sample agrees with the exact odds within
    twice its 95 % half-width (AAA profile p. 25, General Combat pp. 16-18, Condition B p. 18)."""
    battle, attacker, defender, low_luck = case
    exact = battle_odds(battle, attacker, defender, low_luck=low_luck, budget=None)
    sampled = battle_odds(battle, attacker, defender, low_luck=low_luck, budget=1, sample_budget=None)
    assert not sampled.exact
    for field in ("attacker_win", "defender_win", "draw", "retreat"):
        assert abs(getattr(sampled, field) - getattr(exact, field)) < 2 * sampled.confidence, field
    assert abs(sampled.expected_rounds - exact.expected_rounds) < 0.25


def test_a_large_land_battle_is_sampled_on_its_chains(monkeypatch):
    """Hundreds of units a side with AAA: past the bound the chains play the steady rounds (the
    general sampler would ask the engine for thousands of states)."""
    from pbem.odds.land import FastLand

    played = []
    play = FastLand.play

    def counting(self, *args):  # type: ignore[no-untyped-def]
        played.append(1)
        return play(self, *args)

    monkeypatch.setattr(FastLand, "play", counting)
    battle = land({"infantry": 150, "artillery": 60, "tank": 60, "fighter": 20}, {"infantry": 200, "tank": 60, "antiaircraft artillery": 2})
    odds = battle_odds(battle, budget=1, sample_budget=None)
    assert not odds.exact and len(played) == 2000  # every sampled battle
    assert battle_odds(battle, budget=1, sample_budget=None) == odds  # the same sample again


@pytest.mark.parametrize("chain_after", [0, 16, 10**9])
def test_a_sampled_land_battle_off_the_chains_reads_only_the_states_it_meets(chain_after, monkeypatch):
    """After AA fire (AAA profile) most sampled battles start from a state of their own: making
    its whole loss chain (a casualty question per unit, a hit distribution per position) to read
    a few positions of it cost a Revised battle of 343 v 429 units with 132 AA guns 0.86 s past a
    bound of 0.28 s, for the fewest battles a sample plays (now 0.42 s for twice as many).  Off the chains a battle now asks each side's hits and casualties at the
    states it meets only, and a state's chain is made once `CHAIN_AFTER` battles have started
    there.  Chains always, never, or after 16 battles: the sample agrees with the exact odds
    within twice its 95 % half-width."""
    from pbem.odds.land import FastLand

    monkeypatch.setattr(FastLand, "CHAIN_AFTER", chain_after)
    made: list[int] = []
    chain = FastLand._chain

    def counting(self, side, start):  # type: ignore[no-untyped-def]
        made.append(1)
        return chain(self, side, start)

    monkeypatch.setattr(FastLand, "_chain", counting)
    battle = land({"infantry": 6, "tank": 3, "fighter": 4, "bomber": 2}, {"infantry": 8, "tank": 2, "antiaircraft artillery": 1})
    exact = battle_odds(battle, budget=None)
    made.clear()
    sampled = battle_odds(battle, budget=1, sample_budget=None)
    assert not sampled.exact and sampled.states == 2000
    for field in ("attacker_win", "defender_win", "draw"):
        assert abs(getattr(sampled, field) - getattr(exact, field)) < 2 * sampled.confidence, field
    assert abs(sampled.expected_rounds - exact.expected_rounds) < 0.1
    if chain_after == 0:
        assert len(made) >= 2  # a chain per state the sample starts from
    elif chain_after == 10**9:
        assert not made  # none: every state read as it is met


@pytest.mark.parametrize("kind", ["land chains", "sea tables", "general"])
def test_the_sample_past_the_bound_has_a_bound_of_its_own(kind):
    """Issue 19: no command spends more than its bound on odds, the sample included.  The sample
    counts its work as the exact attempt does and stops once it has spent its own budget (by
    default the exact attempt's again), after FEWEST_SIMULATIONS battles at least; its confidence
    half-width is that of the battles it played, and it is the same sample on every run."""
    from pbem.odds import FEWEST_SIMULATIONS, SIMULATIONS, half_width

    if kind == "land chains":
        battle, orders = land({"infantry": 40, "artillery": 10, "tank": 10}, {"infantry": 45, "tank": 10}), (Orders(), Orders())
    elif kind == "sea tables":
        battle = sea({"battleship": 2, "destroyer": 4, "submarine": 4, "fighter": 2, "aircraft carrier": 1},
                     {"battleship": 1, "destroyer": 4, "submarine": 2, "fighter": 4, "aircraft carrier": 2})
        orders = (Orders(), Orders())
    else:  # an attacker whose aircraft retreat while its ships, with nowhere to go, stay: the general walk and sampler
        battle = sea({"battleship": 1, "destroyer": 3, "fighter": 3, "aircraft carrier": 1},
                     {"destroyer": 4, "submarine": 2, "cruiser": 2})
        orders = (Orders(retreat=RetreatCondition("after_round", 2)), Orders())
    # the general sampler asks more of the engine per battle, the sea tables' rounds have fewest phases
    spend = {"general": 12_000, "sea tables": 3_000}.get(kind, 4_000)
    few = battle_odds(battle, *orders, budget=1, sample_budget=1)
    some = battle_odds(battle, *orders, budget=1, sample_budget=spend)
    every = battle_odds(battle, *orders, budget=1, sample_budget=None)
    assert not few.exact and not some.exact and not every.exact
    assert few.states == FEWEST_SIMULATIONS and every.states == SIMULATIONS
    assert FEWEST_SIMULATIONS <= some.states < SIMULATIONS
    for odds in (few, some, every):
        assert odds.confidence == half_width(odds.states)
    assert few.confidence > some.confidence >= every.confidence
    assert battle_odds(battle, *orders, budget=1, sample_budget=spend) == some
    # by default the sample may spend what the exact attempt could
    assert battle_odds(battle, *orders, budget=2_000) == battle_odds(battle, *orders, budget=2_000, sample_budget=2_000)


def _counting_engine_calls(monkeypatch) -> dict[str, int]:  # type: ignore[no-untyped-def]
    from pbem.engine.combat.engine import Engine

    calls = {"fire": 0, "end": 0}
    fire_casualties, apply = Engine.fire_casualties, Engine.apply

    def counted_fire(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["fire"] += 1
        return fire_casualties(self, *args, **kwargs)

    def counted_apply(self, state, phase, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["end"] += phase == "end"
        return apply(self, state, phase, *args, **kwargs)

    monkeypatch.setattr(Engine, "fire_casualties", counted_fire)
    monkeypatch.setattr(Engine, "apply", counted_apply)
    return calls


def _count_calls(monkeypatch, owner: type, name: str) -> list[int]:  # type: ignore[no-untyped-def]
    """The calls of the method `owner.name` from now on, counted in a one-item list."""
    calls = [0]
    original = getattr(owner, name)

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def test_a_fleet_volley_past_the_bound_is_not_paid_for_before_the_sample(monkeypatch):
    """Issue 19, no command spends more than its bound: a fleet's volley has tens of thousands of
    outcomes, each a question to the engine, and the walk used to ask them all before charging
    them (seconds past the bound).  A retreat order that only the aircraft can follow (the ships
    have nowhere to go) keeps this battle off the sea fast path; the exact attempt now stops before
    the volley that would pass its budget (Conduct Combat, Step 6, Press Attack or Retreat)."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds import ASK_UNITS, REPORT_BUDGET, _solve
    from pbem.odds.work import _TooBig

    fleet = {"battleship": 40, "aircraft carrier": 20, "fighter": 40, "destroyer": 40, "submarine": 60, "cruiser": 20}
    engine = Engine(sea(fleet, fleet), Orders(retreat=RetreatCondition("after_round", 3)), Orders())
    calls = _counting_engine_calls(monkeypatch)
    with pytest.raises(_TooBig):
        _solve(engine, False, budget=REPORT_BUDGET)
    assert 0 < calls["fire"] * ASK_UNITS <= REPORT_BUDGET


def test_land_loss_chains_are_charged_as_they_are_made_and_stop_at_the_bound(monkeypatch):
    """Issue 19, no command spends more than its bound: after antiaircraft fire (General Combat,
    Step 1) the attackers that lost different aircraft lie on different loss chains, and the land
    path built every chain, one casualty question per state, before it charged them (a Revised
    battle of 240 v 200 units with 27 AA guns: 2,680 chains, 6.7 s against a bound of 0.28 s).
    Chains, and the grids between them, are now charged as they are made, and the attempt stops
    at the first that passes the bound."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds import _solve
    from pbem.odds import land as land_path
    from pbem.odds.work import _TooBig

    made: list[int] = []
    original = land_path.FastLand._chain

    def counting(self, side, start):  # type: ignore[no-untyped-def]
        chain = original(self, side, start)
        made.append(len(chain))
        return chain

    monkeypatch.setattr(land_path.FastLand, "_chain", counting)
    battle = land({"infantry": 20, "tank": 15, "fighter": 12, "bomber": 12}, {"infantry": 25, "antiaircraft artillery": 6})
    assert _solve(Engine(battle, Orders(), Orders()), False, budget=None)[0]
    every = len(made)
    made.clear()
    with pytest.raises(_TooBig):
        _solve(Engine(battle, Orders(), Orders()), False, budget=3_000)
    assert 0 < len(made) < every / 2
    assert land_path.FastLand.CHAIN_UNITS * sum(made[:-1]) <= 3_000


def test_land_end_phases_asked_cell_by_cell_are_charged_as_asked(monkeypatch):
    """Issue 19, no command spends more than its bound: a retreat by numbers (Conduct Combat,
    Step 6, Press Attack or Retreat, as a standing order: "retreat when at most 3 units are left")
    reads counts, so the land grid asks the engine the end of the round at every cell, and those
    questions were not charged (452 v 210 units in 1942: exact in a second where the bound allows
    about a quarter of one).  Each is now charged as it is asked (`FastLand.END_UNITS`): made dear
    here, the attempt stops after a few."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds import _solve
    from pbem.odds import land as land_path
    from pbem.odds.work import _TooBig

    calls = _count_calls(monkeypatch, Engine, "_end_round")
    battle = land({"infantry": 12, "artillery": 6, "tank": 6}, {"infantry": 12, "tank": 6}, retreat_to=("Poland",))

    def engine() -> Engine:
        return Engine(battle, Orders(retreat=RetreatCondition("when_attackers_at_most", 3)), Orders())

    assert _solve(engine(), False, budget=10**8)[0]  # within the bound: solved
    asked, calls[0] = calls[0], 0
    monkeypatch.setattr(land_path.FastLand, "END_UNITS", 10**6)
    with pytest.raises(_TooBig):
        _solve(engine(), False, budget=10**8)
    assert calls[0] < asked / 2


def test_the_walk_charges_the_volleys_it_asks_for_at_each_phase(monkeypatch):
    """Issue 19, no command spends more than its bound: the state-by-state walk asks the engine
    for the volleys of every state's every phase, and at sea (parting shots, subs that submerge)
    those questions took as long as the outcomes charged: a Europe 1999 battle of 25 v 29 units
    retreating after round 3 took 0.8-0.9 s at the reports' bound.  Each is now charged
    (`VOLLEYS_UNITS`): made dear here, the walk stops after a few."""
    import pbem.odds as odds
    from pbem.engine.combat.engine import Engine
    from pbem.odds.work import _TooBig

    calls = _count_calls(monkeypatch, Engine, "volleys")
    battle = sea({"submarine": 3, "destroyer": 2, "fighter": 2}, {"submarine": 2, "cruiser": 2, "transport": 2}, retreat_to=("SZ 6",))
    engine = Engine(battle, Orders(retreat=RetreatCondition("after_round", 3)), Orders(submerge="always"))
    assert odds._solve(engine, False, fast_path=False, budget=10**8)[0]  # within the bound: solved
    asked, calls[0] = calls[0], 0
    monkeypatch.setattr(odds, "VOLLEYS_UNITS", 10**6)
    with pytest.raises(_TooBig):
        odds._solve(engine, False, fast_path=False, budget=10**8)
    assert calls[0] <= 100 < asked


def test_the_states_a_fire_phase_makes_are_not_ended_past_the_bound(monkeypatch):
    """Each state a fire phase makes meets the end phase, one engine question each, which were
    asked before the bound was checked and never charged: they are now charged before they are
    asked, and the attempt stops before them once they would pass the bound."""
    import pbem.odds as odds
    from pbem.engine.combat.engine import Engine
    from pbem.odds.work import _TooBig

    engine = Engine(sea({"battleship": 2, "destroyer": 3, "submarine": 2}, {"cruiser": 2, "destroyer": 3}),
                    Orders(retreat=RetreatCondition("after_round", 2)), Orders())
    calls = _counting_engine_calls(monkeypatch)
    assert odds._solve(engine, False, budget=10**8)[0]  # within the bound: solved
    calls["end"] = 0
    monkeypatch.setattr(odds, "END_UNITS", 10**9)
    with pytest.raises(_TooBig):
        odds._solve(engine, False, budget=10**8)
    assert calls["end"] == 0


def test_a_battle_within_the_bound_is_exact():
    """The bound changes nothing for the battles players fight every turn."""
    battle = land({"infantry": 5, "artillery": 2, "tank": 3}, {"infantry": 6, "tank": 2})
    assert battle_odds(battle) == battle_odds(battle, budget=None)
    assert battle_odds(battle).exact


# ------------------------------------------------------------------------------------------
# the sea fast path against the state-by-state walk


SEA_RULESETS = ("1942-2e", "revised", "europe-1999", "pacific-2001", "global-1940", "global-1940-ams")


def _random_sea_battles(n: int):
    import importlib
    import random

    from pbem.engine.combat import Battle
    from pbem.io.rulesets import load_ruleset, ruleset_dir

    rng = random.Random(1941)
    out = []
    for k in range(n):
        ruleset = SEA_RULESETS[k % len(SEA_RULESETS)]
        units = dict(load_ruleset(ruleset).units)
        package = ruleset_dir(ruleset).name
        rules = importlib.import_module(f"pbem.rulesets.{package}.combat_rules").COMBAT_RULES
        kinds = [u for u in ("submarine", "destroyer", "cruiser", "battleship", "aircraft carrier", "fighter",
                             "bomber", "transport", "tactical bomber") if u in units]
        attack = {u: rng.randint(0, 2) for u in rng.sample(kinds, 4) if u != "transport"}
        defend = {u: rng.randint(0, 2) for u in rng.sample(kinds, 4) if u != "bomber"}
        if not any(attack.values()):
            attack["destroyer"] = 1
        if not any(defend.values()):
            defend["transport"] = 1
        damaged = {"Germany": {"battleship": 1}} if rng.random() < 0.3 else {}
        battle = Battle("SZ 5", "sea", "Germany", forces("Germany", attack), forces("United Kingdom", defend),
                        units, rules, damaged={"United Kingdom": {"battleship": 1}} if rng.random() < 0.3 else {},
                        attacker_damaged=damaged)
        first = [True, False, ("battleship",)]  # damage_first: the free hits spent first, in order, or some
        orders = (Orders(order_of_loss=tuple(rng.sample(kinds, 3)), damage_first=rng.choice(first)),
                  Orders(order_of_loss=tuple(rng.sample(kinds, 2)), damage_first=rng.choice(first)))
        out.append((ruleset, battle, *orders, k % 5 == 0))
    return out


@pytest.mark.parametrize("case", _random_sea_battles(30), ids=lambda c: c[0])
def test_sea_fast_path_agrees_with_the_state_by_state_walk(case):
    """The sea fast path (pairs of side states in layers, the engine asked once per side state and
    per kinds of units) is an optimisation only: on random fleets of every rule system (submarines
    with and without destroyers, aircraft, damaged battleships, transports, Low Luck, two-hit units'
    free hits spent first or in the order of loss) it gives the walk's answer to 1e-12."""
    assert_fast_path_agrees(*case[1:])


def _sea_rules(k: int):  # type: ignore[no-untyped-def]
    """The k-th rule system of SEA_RULESETS in turn: its id, units and combat rules."""
    import importlib

    from pbem.io.rulesets import load_ruleset, ruleset_dir

    ruleset = SEA_RULESETS[k % len(SEA_RULESETS)]
    rules = importlib.import_module(f"pbem.rulesets.{ruleset_dir(ruleset).name}.combat_rules").COMBAT_RULES
    return ruleset, dict(load_ruleset(ruleset).units), rules


def _submerging_fleets(n: int):
    """Random fleets with submarines on both sides, whose orders submerge them whenever they may."""
    import random

    from pbem.engine.combat import Battle

    rng = random.Random(1942)
    out = []
    for k in range(n):
        ruleset, units, rules = _sea_rules(k)
        kinds = [u for u in ("destroyer", "cruiser", "battleship", "aircraft carrier", "fighter", "transport") if u in units]
        attack = {"submarine": rng.randint(1, 3), **{u: rng.randint(0, 2) for u in rng.sample(kinds, 2) if u != "transport"}}
        defend = {"submarine": rng.randint(1, 3), **{u: rng.randint(0, 2) for u in rng.sample(kinds, 2)}}
        submerge = rng.choice([("always", "always"), ("always", "never"), ("never", "always")])
        battle = Battle("SZ 5", "sea", "Germany", forces("Germany", attack), forces("United Kingdom", defend), units, rules)
        out.append((ruleset, battle, Orders(submerge=submerge[0]), Orders(submerge=submerge[1]), k % 7 == 0))
    return out


def _retreating_fleets(n: int):
    """Random fleets whose attacker retreats by its orders, with a sea zone to retreat to."""
    import random

    from pbem.engine.combat import Battle

    rng = random.Random(1943)
    out = []
    for k in range(n):
        ruleset, units, rules = _sea_rules(k)
        kinds = [u for u in ("submarine", "destroyer", "cruiser", "battleship", "aircraft carrier", "fighter", "transport")
                 if u in units]
        attack = {u: rng.randint(1, 3) for u in rng.sample(kinds, 3) if u != "transport"} or {"destroyer": 2}
        defend = {u: rng.randint(1, 3) for u in rng.sample(kinds, 3)}
        retreat = rng.choice([RetreatCondition("after_round", rng.randint(1, 3)),
                              RetreatCondition("when_attackers_at_most", rng.randint(1, 3)),
                              RetreatCondition("when_defenders_outnumber")])
        battle = Battle("SZ 5", "sea", "Germany", forces("Germany", attack), forces("United Kingdom", defend), units, rules,
                        retreat_to=("SZ 6",))
        out.append((ruleset, battle, Orders(retreat=retreat, submerge=rng.choice(["never", "always"])), Orders(), k % 7 == 0))
    return out


@pytest.mark.parametrize("case", _submerging_fleets(24) + _retreating_fleets(24), ids=lambda c: c[0])
def test_sea_fast_path_plays_subs_that_submerge_and_attackers_that_retreat(case):
    """Subs whose standing orders submerge them whenever they may (Conduct Combat, Step 2, Submarine
    Surprise Strike or Submerge; unless an enemy destroyer is present) leave the strip without a
    hit; they are part of a side's state in the sea tables.  Europe's and Pacific's defending subs
    submerge instead of firing back, at the end of the round, and those hit take a parting shot
    first (German Submarines vs. Allied Ships): the tables play it as a volley of its own.  An
    attacker that retreats by its orders (after a round, when down to a few units, when
    outnumbered; Step 6, Press Attack or Retreat) leaves with all its units to the sea zone it
    names, in the end phase, asked pair by pair where the retreat counts units.  Such fleets are
    solved in the tables, exact and fast, instead of being walked state by state or sampled past
    the bound; the answer is the walk's to 1e-12."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds.sea import FastSea

    ruleset, battle, attacker, defender, low_luck = case
    assert FastSea.maybe(Engine(battle, attacker, defender), low_luck) is not None
    assert_fast_path_agrees(battle, attacker, defender, low_luck)


def test_a_fleet_whose_subs_submerge_has_exact_odds_within_the_bound():
    """Issue 19's fleet (e), every sub told to submerge: exact within the reports' bound, where the
    walk needed twice that bound and the reports printed a sample."""
    fleet_a = {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2, "submarine": 4, "cruiser": 1}
    fleet_d = {"battleship": 1, "aircraft carrier": 2, "fighter": 4, "destroyer": 3, "submarine": 2, "transport": 2}
    odds = battle_odds(sea(fleet_a, fleet_d), Orders(submerge="always"), Orders(submerge="always"))
    assert odds.exact and odds == battle_odds(sea(fleet_a, fleet_d), Orders(submerge="always"), Orders(submerge="always"), budget=None)


@pytest.mark.parametrize("radix", [1 << 12, 3])
def test_sea_outcomes_are_the_volleys_distribution_in_its_order(monkeypatch, radix):
    """The sea path numbers a volley's outcomes with NumPy (`FastSea._outcomes_of`); it must give
    `volley_distribution`'s outcomes - the same hits per class, the same probabilities to the bit,
    in the same order, which the sample's draws depend on.  A radix too small for the dice takes
    the plain path, which must agree too."""
    import pbem.odds.sea as sea_path
    from pbem.engine.combat.engine import Engine
    from pbem.engine.combat.rolling import volley_distribution

    monkeypatch.setattr(sea_path, "HIT_RADIX", radix)
    battle = sea({"submarine": 6, "destroyer": 3, "fighter": 4, "battleship": 2},
                 {"submarine": 3, "aircraft carrier": 2, "fighter": 5, "cruiser": 2})
    engine = Engine(battle, Orders(), Orders())
    fast = sea_path.FastSea(engine, low_luck=False)
    volleys = engine.volleys(engine.initial(), "fire")
    assert {v.side for v in volleys} == {"attacker", "defender"}
    classes = []
    for v in volleys:
        target = "defender" if v.side == "attacker" else "attacker"
        ids, probs = fast._outcomes_of(target, v)
        plain = volley_distribution(v, False)
        assert [fast.hit_ids[target].hits(h) for h in ids.tolist()] == [{c: k for c, k in hits if k} for hits, _ in plain]
        assert probs.tolist() == [p for _, p in plain]
        classes.append(len({c for hits, _ in plain for c, _ in hits}))
    assert max(classes) >= 2  # several fire classes: a product, not a single distribution


@pytest.mark.parametrize("radix", [1 << 12, 3])
def test_hits_asked_of_the_engine_are_those_each_outcome_stands_for(monkeypatch, radix):
    """Issue 19: a huge fleet's volleys bring tens of thousands of hit patterns, so the sea path
    numbers them as codes and turns a code into hits per class only when the engine is asked
    (`_HitIds`); per pattern, and by the batch, they must be the hits of `volley_distribution`,
    those coded and those too large to code (a radix of 3: the full fleets' volleys) alike, the
    two kinds at the same side."""
    import pbem.odds.sea as sea_path
    from pbem.engine.combat.engine import Engine
    from pbem.engine.combat.rolling import volley_distribution

    monkeypatch.setattr(sea_path, "HIT_RADIX", radix)
    engine = Engine(sea({"submarine": 3, "destroyer": 2, "fighter": 4, "battleship": 1},
                        {"submarine": 2, "aircraft carrier": 1, "fighter": 2, "cruiser": 3}), Orders(), Orders())
    fast = sea_path.FastSea(engine, low_luck=False)
    full = engine.initial()
    thinned = full._replace(a=tuple(min(n, 1) for n in full.a), d=tuple(min(n, 1) for n in full.d))
    for v in engine.volleys(full, "fire") + engine.volleys(thinned, "fire"):
        target = "defender" if v.side == "attacker" else "attacker"
        ids, _ = fast._outcomes_of(target, v)
        plain = [{c: k for c, k in hits if k} for hits, _ in volley_distribution(v, False)]
        by_class = fast.hit_ids[target].per_class(ids)
        assert [{c: int(n[k]) for c, n in by_class.items() if n[k]} for k in range(len(ids))] == plain
        assert sorted(by_class) == sorted({c for hits in plain for c in hits})
        assert ids.tolist() == fast._outcomes_of(target, v)[0].tolist()  # asked again: the same ids


def test_hit_codes_are_numbered_in_the_order_they_first_come_in_small_and_large_batches():
    """Issue 19: a huge fleet's volleys have up to 90,000 outcomes each, looked up at once among
    the codes met before (`_HitIds.of_codes`, by a sorted index).  The ids must be those of a
    plain numbering in the order codes first come - repeats, batches small and large mixed,
    uncoded hits between them - since kernels and the sample's draws are keyed by them."""
    import random

    import numpy as np

    from pbem.odds.sea import FEW_CODES, _HitIds

    rng = random.Random(19)
    ids = _HitIds()
    ids.place(["a", "b"])
    plain: dict[int, int] = {0: 0}
    for k in range(60):
        size = rng.choice([1, FEW_CODES, FEW_CODES + 1, 500, 5000])
        codes = [rng.randrange(0, 4 * size) for _ in range(size)]
        expect = [plain.setdefault(c, len(plain)) for c in codes]
        assert ids.of_codes(np.array(codes, dtype=np.int64)).tolist() == expect
        if k % 7 == 0:  # an uncoded pattern takes the next id
            assert ids.of_hits((("a", 5000 + k),)) == len(plain)
            plain[-1 - k] = len(plain)
    assert len(ids) == len(plain)


@pytest.mark.parametrize("spread", [3, 1 << 40])
def test_a_batch_of_casualty_answers_is_told_apart_in_the_order_they_first_come(spread):
    """Issue 19: a fleet's batch of casualty questions has tens of thousands of answers, few of
    them distinct; new states are numbered in the order the answers first come, so the rows must
    be told apart in that order, whether they are coded as one number (`_first_rows`, columns of
    small spread) or compared whole (a spread too wide to code)."""
    import random

    import numpy as np

    from pbem.odds.sea import _first_rows

    rng = random.Random(spread)
    rows = [[rng.choice([0, 1, spread]), 7, rng.randrange(3), rng.choice([0, spread])] for _ in range(400)]
    first, inverse = _first_rows(np.array(rows, dtype=np.int64))
    seen: dict[tuple[int, ...], int] = {}
    for n, row in enumerate(rows):
        seen.setdefault(tuple(row), n)
    assert first.tolist() == list(seen.values())
    assert [seen[tuple(row)] for row in rows] == first[inverse].tolist()


def test_a_sides_volleys_take_room_by_their_own_outcomes():
    """Issue 19: a fleet of hundreds of ships has volleys of tens of thousands of outcomes beside
    many of a few; kept padded to the widest, a side's table took a gigabyte.  Kept end to end,
    it takes room by the outcomes there are, and each volley reads back as its own."""
    import numpy as np

    from pbem.odds.sea import _Outcomes

    o = _Outcomes()
    wide = o.add(("wide",), np.arange(5000), np.full(5000, 1 / 5000))
    narrow = [o.add(("narrow", k), np.array([0, 7, 9]), np.array([0.5, 0.25, 0.25])) for k in range(300)]
    assert o.add(("wide",), np.arange(3), np.ones(3)) == wide  # met before: its outcomes are kept
    assert len(o._ids) <= 2 * (5000 + 3 * 300 + 1)
    hit, prob = o.padded(np.array([wide, narrow[-1], o.count]), 4)
    assert hit.tolist() == [[0, 1, 2, 3], [0, 7, 9, 0], [0, 0, 0, 0]]
    assert prob.tolist() == [[1 / 5000] * 4, [0.5, 0.25, 0.25, 0.0], [1.0, 0.0, 0.0, 0.0]]
    u = np.array([0.0, 0.49, 0.5, 0.74, 0.75, 0.999])
    assert o.draw(np.full(len(u), narrow[7]), u).tolist() == [0, 0, 7, 7, 9, 9]


def _fleet_e_and_subs_that_submerge(transports: int) -> list[tuple[Battle, Orders, Orders]]:
    """Issue 19's fleet (e), and subs that submerge against subs guarding `transports` transports."""
    return [
        (sea({"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2, "submarine": 4, "cruiser": 1},
             {"battleship": 1, "aircraft carrier": 2, "fighter": 4, "destroyer": 3, "submarine": 2, "transport": 2}),
         Orders(), Orders()),
        (sea({"submarine": 3, "destroyer": 1, "fighter": 2}, {"submarine": 2, "transport": transports, "fighter": 1}),
         Orders(submerge="always"), Orders(submerge="always")),
    ]


def test_a_huge_fleets_casualty_table_keeps_only_the_cells_asked_and_answers_the_same(monkeypatch):
    """Issue 19: a fleet of hundreds of ships meets tens of thousands of hit patterns, and a dense
    table of casualties per side state and pattern took hundreds of megabytes (and the time to
    fill them, past the bound).  Past DENSE_CELLS it keeps only the cells asked: the same
    odds, bit for bit, exact and sampled, here with the limit lowered so that a small fleet
    uses it."""
    from pbem.odds import sea as sea_path

    fleets = _fleet_e_and_subs_that_submerge(transports=2)
    dense = [(battle_odds(b, a, d, budget=None), battle_odds(b, a, d, budget=2_000, sample_budget=None)) for b, a, d in fleets]
    made = []
    original = sea_path._Sparse.__init__

    def counting(self, *args):  # type: ignore[no-untyped-def]
        made.append(1)
        original(self, *args)

    monkeypatch.setattr(sea_path, "DENSE_CELLS", 300)
    monkeypatch.setattr(sea_path._Sparse, "__init__", counting)
    sparse = [(battle_odds(b, a, d, budget=None), battle_odds(b, a, d, budget=2_000, sample_budget=None)) for b, a, d in fleets]
    assert made and sparse == dense
    assert not dense[0][1].exact  # the sample too went through the sparse table


def test_a_sea_table_grows_only_along_the_side_that_met_new_states():
    """Issue 19 (no odds computation past its bound): a Europe 1999 fleet whose sample met 1,483
    defender states and 262 attacker ones grew its tables of pairs to 12,480 x 2,944 cells (300 MB
    each, 1.6 s past a bound of 0.28 s), because the rows doubled whenever the columns did.  A
    table grows by doubling, but only where it is short, and keeps what it holds."""
    from pbem.odds.sea import UNKNOWN, _Table

    table = _Table(UNKNOWN)
    a = table.fit(3, 3)
    a[2, 1] = 7
    for cols in (17, 40, 300, 3000):
        a = table.fit(3, cols)
    assert a.shape == (16, 3000)
    a = table.fit(20, 3000)
    assert a.shape == (32, 3000)
    assert a[2, 1] == 7 and (a == UNKNOWN).sum() == a.size - 1


def test_a_sides_numbers_are_read_as_arrays_kept_as_states_come():
    """A huge fleet's sample met tens of thousands of side states, and each batch of its phases
    made their kinds and flags into arrays anew (a Global 1940 fleet of 450 v 433 spent 0.12 s of
    its 0.6 s there, past a bound of 0.28 s).  The arrays now grow with the states and read the
    same as the lists they come from, at every size."""
    import numpy as np

    from pbem.engine.combat.engine import Engine
    from pbem.odds.sea import _Sides

    engine = Engine(sea({"destroyer": 9, "submarine": 9, "cruiser": 9}, {"destroyer": 9, "transport": 9}), Orders(), Orders())
    side = _Sides(engine, "attacker")
    n = 0
    for batch in (1, 3, 40, 200):
        for _ in range(batch):
            d, s, c = n % 10, n // 10 % 10, n // 100
            side.add(((d, s, c), (0, 0, 0) if n % 3 else (1, 0, 0), (0, 0, 0)))
            n += 1
        for name in ("sig", "seen", "settled"):
            assert np.array_equal(side.numbers(name), np.asarray(getattr(side, name))), (batch, name)


def test_phases_without_dice_give_the_same_odds_pair_by_pair_and_all_at_once(monkeypatch):
    """Issue 19: in a huge fleet's first layers a phase without dice (defenceless transports, the
    end of a round, subs submerging) meets tens of thousands of pairs, and settling them one by
    one took longer than the bound allowed.  Many at once, the engine is asked for the first pair
    of each kinds of units and the rest follow by kinds, as they do one by one: the same odds,
    exact and sampled, whichever way every phase is taken."""
    from pbem.odds import sea as sea_path

    fleets = _fleet_e_and_subs_that_submerge(transports=3)
    answers = {}
    for few in (0, 10**9):
        monkeypatch.setattr(sea_path, "FEW_PAIRS", few)
        answers[few] = [(battle_odds(b, a, d, budget=None), battle_odds(b, a, d, budget=2_000, sample_budget=None))
                        for b, a, d in fleets]
    for (exact, sampled), (exact_, sampled_) in zip(answers[0], answers[10**9]):
        assert exact.exact
        assert exact.attacker_win == pytest.approx(exact_.attacker_win, abs=1e-12)
        assert exact.defender_win == pytest.approx(exact_.defender_win, abs=1e-12)
        for side, left in exact.expected_survivors.items():
            assert left == pytest.approx(exact_.expected_survivors[side], abs=1e-12)
        assert sampled.attacker_win == sampled_.attacker_win and sampled.expected_rounds == sampled_.expected_rounds
    assert not answers[0][0][1].exact  # the first fleet's sample went through the same tables


def test_a_fleet_past_the_bound_is_sampled_through_the_sea_tables_and_agrees_with_its_exact_odds():
    """Past the bound a fleet battle is sampled through the sea path's tables (the exact attempt
    filled most of them): issue 19's battle (e) sampled lies within the confidence half-width of
    its exact odds, and the sample is the same on every run."""
    order = ("submarine", "destroyer", "fighter", "cruiser", "aircraft carrier", "battleship", "transport")
    battle = sea({"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2, "submarine": 4, "cruiser": 1},
                 {"battleship": 1, "aircraft carrier": 2, "fighter": 4, "destroyer": 3, "submarine": 2, "transport": 2})
    orders = (Orders(order_of_loss=order), Orders(order_of_loss=order))
    exact = battle_odds(battle, *orders, budget=None)
    sampled = battle_odds(battle, *orders, budget=5_000, sample_budget=None)
    assert exact.exact and not sampled.exact and sampled.confidence
    for field in ("attacker_win", "defender_win"):
        assert abs(getattr(sampled, field) - getattr(exact, field)) < sampled.confidence, field
    assert abs(sampled.expected_rounds - exact.expected_rounds) < 0.2
    assert battle_odds(battle, *orders, budget=5_000, sample_budget=None) == sampled


# aacalc2 (github mshih01/aacalc2), the exact calculator players use, on 1942 Second Edition
# battles with both sides following the same order of loss: its chance that the attacker, and that
# the defender, has units left (computed with benchmarks/aacalc2_bench.mjs, pruning off).
AACALC2_LAND_ORDER = ("infantry", "artillery", "tank", "fighter", "bomber", "antiaircraft artillery")
AACALC2_SEA_ORDER = ("submarine", "destroyer", "fighter", "cruiser", "aircraft carrier", "battleship", "transport")
AACALC2 = [
    ("land", {"infantry": 1}, {"infantry": 1, "antiaircraft artillery": 1}, 0.2500000000000001, 0.7500000000000002),
    ("land", {"fighter": 2}, {"infantry": 1, "antiaircraft artillery": 1}, 0.7986111111111114, 0.2013888888888889),
    ("land", {"infantry": 3, "fighter": 2}, {"infantry": 3, "antiaircraft artillery": 1}, 0.8674032508188647, 0.13259674918113587),
    ("land", {"fighter": 5}, {"infantry": 5, "antiaircraft artillery": 1}, 0.612534725265472, 0.38746527473452846),
    ("land", {"infantry": 3, "artillery": 2, "tank": 1}, {"infantry": 4, "tank": 1}, 0.7014581104130808, 0.26019905053043546),
    ("sea", {"battleship": 1, "destroyer": 1, "submarine": 2},
     {"aircraft carrier": 1, "fighter": 2, "destroyer": 1, "transport": 1}, 0.6865280937391848, 0.41952592614199685),
    ("sea", {"submarine": 2}, {"destroyer": 1, "transport": 1}, 0.8736842105263161, 0.12631578947368427),
    ("sea", {"battleship": 1}, {"submarine": 2}, 0.8329031532131235, 0.16709684678687664),
    ("sea", {"fighter": 2, "cruiser": 1}, {"submarine": 2, "transport": 2}, 1.0000000000000004, 0.6200607902735564),
]


@pytest.mark.parametrize("kind, attack, defend, attacker_left, defender_left", AACALC2)
def test_agrees_with_aacalc2(kind, attack, defend, attacker_left, defender_left):
    """An independent exact calculator agrees to 1e-12 on land (AAA profile, p. 25: fire at up to
    three aircraft, taken as a casualty, destroyed alone only while attacked; General Combat,
    pp. 16-18) and at sea (submarines' surprise strike and hits on aircraft, destroyers, two-hit
    battleships, transports chosen last, pp. 17-18 and the unit profiles)."""
    build, order = (land, AACALC2_LAND_ORDER) if kind == "land" else (sea, AACALC2_SEA_ORDER)
    o = battle_odds(build(attack, defend), Orders(order_of_loss=order), Orders(order_of_loss=order))
    assert close(o.attacker_win + o.stalemate, attacker_left)
    assert close(o.defender_win + o.stalemate, defender_left)


def test_a_retreat_that_leaves_land_units_fighting_is_walked_not_crashed():
    """Condition B - Attacker Retreats (p. 18): air units retreat, land units only to a territory they
    came from.  With none given, a retreat takes the bomber away and leaves the artillery fighting:
    the land grid cannot follow units off its chains, so the odds walk such battles (they raised an
    AssertionError before, in `pbem odds`, validate and the reports)."""
    from pbem.engine.combat import RetreatCondition

    battle = land({"bomber": 4, "artillery": 1}, {"infantry": 4})
    orders = Orders(retreat=RetreatCondition("after_round", 1))
    assert_fast_path_agrees(battle, orders, Orders(), False)
    partial = battle_odds(battle, orders, Orders())
    whole = battle_odds(land({"bomber": 4, "artillery": 1}, {"infantry": 4}, retreat_to=("Poland",)), orders, Orders())
    # round 1 is the same battle: as many bombers leave; the artillery fights on alone, and dies more
    assert close(partial.expected_survivors["attacker"]["bomber"], whole.expected_survivors["attacker"]["bomber"])
    assert partial.expected_survivors["attacker"]["artillery"] < whole.expected_survivors["attacker"]["artillery"] - 0.01


def _attacks_that_withdraw_after_a_round(n: int):
    """Random land battles and fleets whose attacker withdraws after round 3 or 4: rounds before
    then are played forward by the fast paths (`Engine.settled_round`)."""
    import random

    from pbem.engine.combat import Battle

    rng = random.Random(1944)
    out = []
    for k in range(n):
        low_luck = k % 5 == 0
        retreat = RetreatCondition("after_round", rng.choice([3, 4]))
        if k % 2:
            ruleset, units, rules = _sea_rules(k)
            kinds = [u for u in ("submarine", "destroyer", "cruiser", "battleship", "aircraft carrier", "fighter", "transport")
                     if u in units]
            attack = {u: rng.randint(1, 3) for u in rng.sample(kinds, 3) if u != "transport"} or {"destroyer": 2}
            defend = {u: rng.randint(1, 3) for u in rng.sample(kinds, 3)}
            battle = Battle("SZ 5", "sea", "Germany", forces("Germany", attack), forces("United Kingdom", defend), units,
                            rules, retreat_to=("SZ 6",))
            attacker = Orders(retreat=retreat, submerge=rng.choice(["never", "always"]))
        else:
            attack = {u: rng.randint(0, 4) for u in ("infantry", "artillery", "tank", "fighter", "bomber")}
            attack["infantry"] += 1
            defend = {u: rng.randint(0, 4) for u in ("infantry", "artillery", "tank", "fighter")}
            defend["infantry"] += 1
            if k % 4 == 2:
                defend["antiaircraft artillery"] = 1  # round 1 differs: the rounds from 2 on are played forward
            battle = land(attack, defend, retreat_to=("Poland",))
            attacker = Orders(retreat=retreat, order_of_loss=rng.choice([(), ("artillery",), ("tank", "infantry")]))
        out.append((battle, attacker, Orders(), low_luck))
    return out


@pytest.mark.parametrize("case", _attacks_that_withdraw_after_a_round(20), ids=lambda c: c[0].kind)
def test_the_rounds_before_a_retreat_after_a_round_are_played_on_the_fast_paths(case):
    """An attacker ordered to withdraw after round N (Conduct Combat, Step 6, Press Attack or
    Retreat) fights rounds 1 to N the same way but for that order: the fast paths play each of
    them forward from every state it meets (land: on the grid of loss chains; sea: the tables of
    side states), where the state-by-state walk used to play them all.  The answer is the walk's
    to 1e-12, land and sea, with AA guns, Low Luck and subs that submerge."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds import _solve
    from pbem.odds.land import FastLand
    from pbem.odds.sea import FastSea

    battle, attacker, defender, low_luck = case
    engine = Engine(battle, attacker, defender)
    assert engine.settled_round < engine.steady_round
    played: list[int] = []
    path = FastLand if battle.kind == "land" else FastSea
    early = path._early

    def counted(self, *args):  # type: ignore[no-untyped-def]
        played.append(min(self.early))
        return early(self, *args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(path, "_early", counted)
        _solve(engine, low_luck)
    assert played == [engine.settled_round]
    assert_fast_path_agrees(battle, attacker, defender, low_luck)


@pytest.mark.parametrize("kind", ["land", "sea"])
def test_a_retreat_after_a_round_is_sampled_on_the_fast_paths_from_round_one(kind, monkeypatch):
    """Past the bound, the rounds before a retreat after round 3 (Step 6) are sampled where the
    exact attempt plays them: on the land chains (`FastLand.play`, two draws a round) and through
    the sea tables (`FastSea.sample`), each round with its own end phase; the sample agrees with
    the exact odds within twice its 95 % half-width, retreats included."""
    from pbem.odds.land import FastLand
    from pbem.odds.sea import FastSea

    played: list[int] = []
    path, name = (FastLand, "play") if kind == "land" else (FastSea, "sample")
    real = getattr(path, name)

    def counting(self, state, *args):  # type: ignore[no-untyped-def]
        played.append(state.round)
        return real(self, state, *args)

    monkeypatch.setattr(path, name, counting)
    if kind == "land":
        battle = land({"infantry": 6, "artillery": 2, "tank": 3}, {"infantry": 7, "tank": 2}, retreat_to=("Poland",))
    else:
        battle = sea({"battleship": 1, "destroyer": 2, "submarine": 2}, {"destroyer": 2, "cruiser": 1, "submarine": 1},
                     retreat_to=("SZ 6",))
    orders = Orders(retreat=RetreatCondition("after_round", 3))
    exact = battle_odds(battle, orders, Orders(), budget=None)
    sampled = battle_odds(battle, orders, Orders(), budget=1, sample_budget=None)
    assert exact.exact and not sampled.exact and exact.retreat > 0.1
    assert played and set(played) == {1}  # every sampled battle from round 1
    for field in ("attacker_win", "defender_win", "draw", "retreat"):
        assert abs(getattr(sampled, field) - getattr(exact, field)) < 2 * sampled.confidence, field
    assert abs(sampled.expected_rounds - exact.expected_rounds) < 0.1


def test_a_retreat_after_round_three_has_exact_odds_within_the_bound():
    """Issue 19's battle (c) with the common standing order to withdraw after round 3 (Step 6):
    the walk played rounds 1 and 2 state by state, 14 s exact, so validate and the reports
    printed a sample; played forward on the loss chains they are exact within the reports' bound."""
    attack = {"infantry": 30, "artillery": 10, "tank": 15, "fighter": 5, "bomber": 2}
    defend = {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 5}
    orders = Orders(retreat=RetreatCondition("after_round", 3))
    odds = battle_odds(land(attack, defend, retreat_to=("Poland",)), orders, Orders())
    assert odds.exact
    assert 0.05 < odds.attacker_win < 0.1 and odds.retreat > 0.9


def test_a_grid_where_every_cell_ends_pays_for_its_finals():
    """With a retreat after round 1 (Step 6) every cell of a steady land grid ends the battle, each
    a final state of its own: 200 units a side reach 40,000 of them, 0.5-0.8 s to make and sum,
    once charged as a few hundred cells of arithmetic, so the reports' odds ran past their bound
    exact.  Each final is charged now, and such a battle is sampled within the bound."""
    from pbem.engine.combat.engine import Engine
    from pbem.odds import REPORT_BUDGET, _solve
    from pbem.odds.land import FastLand
    from pbem.odds.work import _TooBig, _Work

    battle = land({"infantry": 100, "artillery": 50, "tank": 50}, {"infantry": 150, "tank": 50}, retreat_to=("Poland",))
    orders = Orders(retreat=RetreatCondition("after_round", 1))
    with pytest.raises(_TooBig):
        _solve(Engine(battle, orders, Orders()), False, budget=REPORT_BUDGET)
    # each final is charged FINAL_UNITS, on top of the arithmetic
    small = Engine(land({"infantry": 10, "tank": 5}, {"infantry": 12}, retreat_to=("Poland",)), orders, Orders())
    spent = {}
    for units in (FastLand.FINAL_UNITS, 0):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(FastLand, "FINAL_UNITS", units)
            fast, work = FastLand(small, False), _Work(None)
            fast.add(small.initial(), 1.0)
            finals, _, _ = fast.solve(work)
            spent[units] = work.spent
    assert spent[FastLand.FINAL_UNITS] - spent[0] == FastLand.FINAL_UNITS * len(finals) > 0


def test_a_round_played_forward_is_every_outcome_of_both_sides_hits():
    """`grid.forward`, by Horner's scheme on the defender's factors, against the plain sum over
    every cell and every pair of hit counts (hits past a chain's end stop there), with a factor
    missing on the way; and it charges its steps before it takes any."""
    import random

    import numpy as np

    from pbem.odds.grid import convolve, forward

    rng = random.Random(45)

    def dist(k: int) -> np.ndarray:
        d = np.array([rng.random() for _ in range(k)])
        return d / d.sum()

    for trial in range(30):
        na, nd = rng.randint(1, 9), rng.randint(1, 9)
        A = [dist(rng.randint(1, 6)) for _ in range(na)]
        B = [dist(2) if rng.random() > 0.2 else None for _ in range(nd - 1)] + [None]
        D: list = [None] * nd
        D[-1] = dist(rng.randint(1, 4))
        for j in range(nd - 2, -1, -1):
            D[j] = convolve(D[j + 1], B[j]) if B[j] is not None else dist(rng.randint(1, 7))
        mass = np.zeros((na, nd))
        for _ in range(rng.randint(1, 6)):
            mass[rng.randrange(na), rng.randrange(nd)] += rng.random()
        plain = np.zeros((na, nd))
        for i in range(na):
            for j in range(nd):
                for h, p in enumerate(D[j]):
                    for k, q in enumerate(A[i]):
                        plain[min(i + h, na - 1), min(j + k, nd - 1)] += mass[i, j] * p * q
        charged: list[int] = []
        got = forward(mass, A, D, B[:-1], charged.append)
        assert np.allclose(got, plain, rtol=1e-12, atol=1e-15), trial
        assert len(charged) == 1 and charged[0] > 0
    with pytest.raises(ZeroDivisionError):  # the charge comes first: refused, nothing is made
        forward(np.ones((3, 3)), [dist(2)] * 3, [dist(2)] * 3, [None, None], lambda cost: 1 // 0)


def test_the_grid_convolution_adds_in_one_order_whatever_the_processor():
    """Reports store the odds unrounded and audit replays them anywhere, so a sum may not depend on
    the processor: np.convolve's does (BLAS).  `convolve` adds the shorter one's terms one after
    the other, the same bits as that plain loop, and agrees with np.convolve to rounding."""
    import random

    import numpy as np

    from pbem.odds.grid import convolve

    rng = random.Random(19)
    for n in range(400):
        x = np.array([rng.random() for _ in range(rng.randint(1, 90))])
        # every fourth pair has a side of two terms: a loss chain's one-die step, done apart
        y = np.array([rng.random() for _ in range(2 if n % 4 == 0 else rng.randint(1, 90))])
        long, short = (x, y) if len(x) >= len(y) else (y, x)
        plain = np.zeros(len(x) + len(y) - 1)
        for i, q in enumerate(short):
            plain[i : i + len(long)] += q * long
        got = convolve(x, y)
        assert np.array_equal(got, plain)
        assert np.allclose(got, np.convolve(x, y), rtol=1e-13, atol=0.0)


def test_a_row_past_its_sweeps_is_solved_by_forward_substitution(monkeypatch):
    """A grid row the Jacobi sweeps do not settle is solved as a lower-triangular system by forward
    substitution (LAPACK's solve sums in a processor's own order): the same odds to rounding."""
    import pbem.odds.grid as grid

    battle = land({"infantry": 12, "artillery": 4, "tank": 6, "fighter": 2}, {"infantry": 14, "tank": 4, "fighter": 2})
    swept = battle_odds(battle)
    monkeypatch.setattr(grid, "SWEEPS", 0)
    solved = battle_odds(battle)
    for field in ("attacker_win", "defender_win", "draw", "capture", "expected_rounds"):
        assert close(getattr(solved, field), getattr(swept, field)), field


def test_odds_are_the_same_bits_with_every_processor_kernel():
    """The same battle gives the same bits on every machine (audit replays reports byte for byte).
    NumPy's OpenBLAS picks a kernel per processor, and NumPy its own SIMD loops; forcing older
    ones (OPENBLAS_CORETYPE: every x86-64 runs them; NPY_DISABLE_CPU_FEATURES: NumPy's baseline)
    changes no bit of exact or sampled odds, land or sea, with and without a retreat after a
    round.  Before the grid's own convolution the 1942 example game failed audit under an older
    BLAS kernel."""
    import os
    import subprocess

    try:
        from numpy._core import _multiarray_umath
    except ImportError:  # NumPy 1
        from numpy.core import _multiarray_umath

    cases = [
        ("land", {"infantry": 30, "artillery": 10, "tank": 15, "fighter": 5, "bomber": 2}, {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 5}, None, None),
        ("land", {"infantry": 3, "tank": 2, "fighter": 1}, {"infantry": 2, "antiaircraft artillery": 1}, None, None),
        ("land", {"infantry": 150, "artillery": 60, "tank": 60, "fighter": 20}, {"infantry": 200, "tank": 60, "antiaircraft artillery": 2}, 1, None),
        ("land", {"infantry": 20, "artillery": 8, "tank": 10, "fighter": 3}, {"infantry": 25, "tank": 5, "fighter": 2}, None, 3),
        ("sea", {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2, "submarine": 4, "cruiser": 1},
         {"battleship": 1, "aircraft carrier": 2, "fighter": 4, "destroyer": 3, "submarine": 2, "transport": 2}, None, None),
        ("sea", {"battleship": 6, "destroyer": 9, "submarine": 12, "cruiser": 3}, {"battleship": 3, "destroyer": 9, "submarine": 6}, 1, None),
        ("sea", {"battleship": 2, "destroyer": 3, "submarine": 4, "cruiser": 1}, {"battleship": 1, "destroyer": 3, "submarine": 3}, None, 4),
    ]
    code = _ODDS_OF.format(helpers=str(Path(__file__).resolve().parent / "engine" / "combat"), cases=cases)
    baseline = " ".join(_multiarray_umath.__cpu_dispatch__)  # every optional SIMD target of this build
    runs = {}
    for name, env in (("native", {}), ("Nehalem", {"OPENBLAS_CORETYPE": "Nehalem"}),
                      ("Sandybridge", {"OPENBLAS_CORETYPE": "Sandybridge"}), ("baseline SIMD", {"NPY_DISABLE_CPU_FEATURES": baseline})):
        done = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **env), capture_output=True, text=True, check=True)
        runs[name] = done.stdout
    assert runs["native"].count("\n") == len(cases)
    assert "False" in runs["native"]  # the bounded cases were sampled
    for name, out in runs.items():
        assert out == runs["native"], name


_ODDS_OF = """
import sys
sys.path.insert(0, {helpers!r})
import combat_helpers
from pbem.engine.combat import Orders, RetreatCondition
from pbem.odds import battle_odds
for kind, attack, defend, budget, retreat in {cases!r}:
    if retreat is None:
        o = battle_odds(getattr(combat_helpers, kind)(attack, defend), budget=budget)
    else:  # an attack that withdraws after a round: the rounds before it played forward
        battle = getattr(combat_helpers, kind)(attack, defend, retreat_to=("Poland" if kind == "land" else "SZ 6",))
        o = battle_odds(battle, Orders(retreat=RetreatCondition("after_round", retreat)), Orders(), budget=budget)
    print(repr((o.attacker_win, o.defender_win, o.draw, o.capture, o.expected_rounds, o.exact)))
"""


def test_a_boost_that_needs_a_pack_is_priced_round_by_round():
    """AMS Wolf Packs: "If four or more German submarines are located in the same sea zone, then up
    to three German submarines ... attack at +1" - a round that begins with fewer has no pack.  The
    exact odds (fast path and walk alike) price it so, and agree with seeded fights."""
    import importlib
    from dataclasses import replace

    from pbem.engine.combat.model import Boost
    from pbem.io.rulesets import load_ruleset

    units = dict(load_ruleset("global-1940-ams").units)
    rules = importlib.import_module("pbem.rulesets.global_1940_ams.combat_rules").COMBAT_RULES
    battle = Battle("SZ 106", "sea", "Germany", forces("Germany", {"submarine": 4}), forces("United Kingdom", {"destroyer": 2, "cruiser": 1}),
                    units, rules, boosts=(Boost("attacker", "Germany", "submarine", 3, 1, "wolf pack", at_least=4),))
    assert_fast_path_agrees(battle, Orders(), Orders(), False)
    always = battle_odds(replace(battle, boosts=(Boost("attacker", "Germany", "submarine", 3, 1, "wolf pack"),)))
    pack = battle_odds(battle)
    assert pack.attacker_win < always.attacker_win  # fewer than four lose the +1
    n = 1500
    won = sum(fight(battle, Seeded(f"pack/{k}")).winner == "attacker" for k in range(n))
    se = (pack.attacker_win * (1 - pack.attacker_win) / n) ** 0.5
    assert abs(won / n - pack.attacker_win) < 4.5 * se


def test_a_kamikaze_that_sinks_the_destroyer_lets_the_submarine_strike_first():
    """1940 Global, Turn Sequence (E12), Conduct Combat: "i. ... all kamikaze attacks occur before
    general combat", "ii. If sea combat involving subs and no enemy destroyers, then subs perform
    surprise strikes" (each round). A cruiser (3) and a destroyer (2) attack a submarine (1); one
    kamikaze (2) strikes the destroyer.  Sunk (1/3): cruiser against submarine, the sub striking
    first every round: P = (5/6)(1/2) / (1 - (5/6)(1/2)) = 5/7.  Afloat (2/3): both fire at once,
    the destroyer lost first; from there P = [2/3 + (1/18)(5/7)] / (1 - 5/18) = 89/91.  In all
    (1/3)(5/7) + (2/3)(89/91) = 81/91; the walk and seeded fights agree."""
    import importlib

    from pbem.engine.combat.model import Sacrifice
    from pbem.io.rulesets import load_ruleset

    units = dict(load_ruleset("global-1940").units)
    rules = importlib.import_module("pbem.rulesets.global_1940.combat_rules").COMBAT_RULES
    battle = Battle("SZ 6", "sea", "United States", forces("United States", {"cruiser": 1, "destroyer": 1}),
                    forces("Japan", {"submarine": 1}), units, rules,
                    sacrifices=(Sacrifice("defender", "Japan", "kamikaze", 1, 2, target="destroyer", token=True,
                                          before_surprise_strike=True),))
    o = battle_odds(battle)
    assert close(o.attacker_win, Fraction(81, 91)) and close(o.defender_win, Fraction(10, 91))
    assert_fast_path_agrees(battle, Orders(), Orders(), False)
    n = 1500
    won = sum(fight(battle, Seeded(f"kamikaze first/{k}")).winner == "attacker" for k in range(n))
    se = (o.attacker_win * (1 - o.attacker_win) / n) ** 0.5
    assert abs(won / n - o.attacker_win) < 4.5 * se
