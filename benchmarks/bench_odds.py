"""The odds calculator on issue 19's battles: exact compute time beside a plain reference and
aacalc2, the probability each gives, and the bounded answer the commands print.

Battles (1942 Second Edition units, both sides losing the cheapest units first, transports last):
(c) 30 inf + 10 art + 15 tank + 5 ftr + 2 bmr against 40 inf + 10 art + 5 tank + 5 ftr;
(d) 50 inf + 17 art + 17 tank + 16 ftr on each side; (e) 2 bb + 1 cv + 2 ftr + 2 dd + 4 sub +
1 ca against 1 bb + 2 cv + 4 ftr + 3 dd + 2 sub + 2 tp, and (e) with every count doubled and
tripled; 100 against 100 on land with one AA gun.  Compute only, in-process, minimum of runs.

Columns: "exact" is pbem's calculator; "walk" the plain reference, the same rules walked state by
state with no fast path (`pbem.odds._solve(fast_path=False)`); both stop at --exact-budget work
units ("over"), since the largest battles may take minutes.  "P(att)" is the attacker's chance
to win.  "states" are the states the exact calculator solved (pairs of side states at sea), and
"us/state" its time per state: 1 or 2 us on land, where the engine's casualties form a chain the
arrays walk, and 10 to 40 us at sea, where each state's volleys and casualties are asked of the
engine; the sea targets turn on that figure.  "aacalc2" is the exact TypeScript calculator
players use (github mshih01/aacalc2, MIT), pruned at 1e-12 and exact, with its chance that the
attacker has units left ("P(att left)", pbem's attacker_win + stalemate beside it); it runs
where Node is installed and aacalc2 was built apart (its code is not kept in this project):

    git clone https://github.com/mshih01/aacalc2 benchmarks/.aacalc2
    (cd benchmarks/.aacalc2 && npm ci && npm run build)

(or set AACALC2 to such a directory).  "x aacalc2" is pbem's exact time over aacalc2's exact one
in the same run: this machine switches between a faster and a slower state, and the ratio moves
less than either time.  On the issue's machine aacalc2 took 18 ms for (c), 104 ms for (d), 5-7 ms
for (e), 215 ms doubled and 3.8 s tripled, so its targets are (c) 0.56, (d) 0.38, (e) about 0.5,
(e) doubled 0.47 and (e) tripled 0.26 times aacalc2.  "bounded" is what validate, adjudicate and
the reports print: exact, or sampled past the work budget.

The targets of the issue: (c) 10 ms, (d) 40 ms, (e) 3 ms, (e) doubled 100 ms, (e) tripled 1 s,
100 v 100 with AA 60 ms.  Then battles far past the bound (400 a side with AAA, 800 a side, (e)
five and ten times over, five times over with submarines that submerge, and five times over with
an attacker whose aircraft retreat after round 3 while its ships have nowhere to go, which the
general walk plays) show what the bound costs: the exact attempt and the sample after it.  Then, (c), (d), (e) and (e)
doubled with an attacker that withdraws after round 3 or 4: exact, and at the reports' bound.
Last, where an exact sea answer's time goes: "engine s" is the time spent inside the engine
answering the calculator's questions ("asked": volleys, casualties, phases without dice),
"tables s" the same walk again with every answer already in its tables (the dynamic programme
alone), and the rest of "exact s" the calculator's own bookkeeping of those answers.

Run: python benchmarks/bench_odds.py [--runs N] [--exact-budget UNITS]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pbem.engine.combat import Battle, Force
from pbem.engine.combat.model import Orders, RetreatCondition
from pbem.io.rulesets import load_ruleset
from pbem.engine.combat.engine import Engine
from pbem.odds import COMMAND_BUDGET, REPORT_BUDGET, _solve, _summarise, _TooBig, _walk, battle_odds
from pbem.odds.sea import FastSea
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES

UNITS = load_ruleset("1942-2e").units
# cheapest first, transports last (the orders of loss); air before the ships it flies from
SEA_ORDER = ("submarine", "destroyer", "fighter", "cruiser", "aircraft carrier", "battleship", "transport")
LAND_ORDER = ("infantry", "artillery", "tank", "fighter", "bomber")
LAND_ORDER_AA = LAND_ORDER + ("antiaircraft artillery",)  # the gun last, on both sides of the comparison


def battle(kind: str, attack: dict[str, int], defend: dict[str, int]) -> Battle:
    return Battle("bench", kind, "attacker",  # type: ignore[arg-type]
                  tuple(Force(u, "attacker", n) for u, n in attack.items()),
                  tuple(Force(u, "defender", n) for u, n in defend.items()), UNITS, COMBAT_RULES)


def times(counts: dict[str, int], k: int) -> dict[str, int]:
    return {u: n * k for u, n in counts.items()}


E_ATTACK = {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2, "submarine": 4, "cruiser": 1}
E_DEFEND = {"battleship": 1, "aircraft carrier": 2, "fighter": 4, "destroyer": 3, "submarine": 2, "transport": 2}
CASES = {
    "(c)": (battle("land", {"infantry": 30, "artillery": 10, "tank": 15, "fighter": 5, "bomber": 2},
                   {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 5}), LAND_ORDER, 0.010),
    "(d)": (battle("land", {"infantry": 50, "artillery": 17, "tank": 17, "fighter": 16},
                   {"infantry": 50, "artillery": 17, "tank": 17, "fighter": 16}), LAND_ORDER, 0.040),
    "(e)": (battle("sea", E_ATTACK, E_DEFEND), SEA_ORDER, 0.003),
    "(e) x2": (battle("sea", times(E_ATTACK, 2), times(E_DEFEND, 2)), SEA_ORDER, 0.100),
    "(e) x3": (battle("sea", times(E_ATTACK, 3), times(E_DEFEND, 3)), SEA_ORDER, 1.0),
    "100v100 AA": (battle("land", {"infantry": 50, "artillery": 20, "tank": 25, "fighter": 5},
                          {"infantry": 60, "artillery": 20, "tank": 19, "antiaircraft artillery": 1}), LAND_ORDER_AA, 0.060),
}
# Past the bound (exact would take seconds to minutes): only the bounded answer is timed, at the
# budget of validate and the reports and at that of `pbem odds`; the sample has that
# budget again, and plays fewer battles (never under 250) where they would cost more.
LARGE = {
    "400v400 AA": (battle("land", {"infantry": 200, "artillery": 100, "tank": 80, "fighter": 20, "bomber": 10},
                          {"infantry": 250, "artillery": 80, "tank": 60, "fighter": 10, "antiaircraft artillery": 3}), LAND_ORDER_AA),
    "800v800": (battle("land", {"infantry": 400, "artillery": 200, "tank": 160, "fighter": 40},
                       {"infantry": 480, "artillery": 160, "tank": 120, "fighter": 40}), LAND_ORDER),
    "(e) x5": (battle("sea", times(E_ATTACK, 5), times(E_DEFEND, 5)), SEA_ORDER),
    "(e) x10": (battle("sea", times(E_ATTACK, 10), times(E_DEFEND, 10)), SEA_ORDER),
    "(e) x5 submerge": (battle("sea", times(E_ATTACK, 5), times(E_DEFEND, 5)), SEA_ORDER,
                        ({"submerge": "always"}, {"submerge": "always"})),
    # a retreat that leaves the ships behind keeps a battle off the sea fast path: the general walk
    "(e) x5 retreat": (battle("sea", times(E_ATTACK, 5), times(E_DEFEND, 5)), SEA_ORDER,
                       ({"retreat": RetreatCondition("after_round", 3)}, {})),
}
# The standing order to withdraw after a round (here with somewhere to go): the rounds before it
# are played forward on the fast paths, where the plain walk took 14 s for (c), 99 s for (d), 0.9 s
# for (e) and 35 s for (e) doubled, and the reports printed a sample.
RETREATING = {
    "(c) after 3": (dataclasses.replace(CASES["(c)"][0], retreat_to=("Poland",)), LAND_ORDER, 3),
    "(d) after 3": (dataclasses.replace(CASES["(d)"][0], retreat_to=("Poland",)), LAND_ORDER, 3),
    "(e) after 4": (dataclasses.replace(CASES["(e)"][0], retreat_to=("SZ 6",)), SEA_ORDER, 4),
    "(e) x2 after 4": (dataclasses.replace(CASES["(e) x2"][0], retreat_to=("SZ 6",)), SEA_ORDER, 4),
}
# the engine's answers to the sea calculator (`split`): the public questions it puts
ENGINE_QUESTIONS = ("side_volleys", "enemy_kinds", "surprise_casualties", "fire_casualties", "parting_casualties",
                    "volley_casualties_many", "leave_many", "after_surprise", "surprise_leave", "end_of_fire",
                    "submerge", "apply")
ODDS_COMMAND = ["odds", "--attack", "30 inf, 10 art, 20 tank", "--defend", "30 inf, 10 art, 20 tank"]


AACALC2_NAMES = {"infantry": "inf", "artillery": "art", "tank": "arm", "fighter": "fig", "bomber": "bom",
                 "submarine": "sub", "transport": "tra", "destroyer": "des", "cruiser": "cru",
                 "aircraft carrier": "acc", "battleship": "bat", "antiaircraft artillery": "aa"}


def run(b: Battle, order: tuple[str, ...], budget: int | None,
        extra: tuple[dict[str, object], dict[str, object]] = ({}, {})) -> tuple[float, object]:
    """pbem's odds of `b`, timed; `extra`: more orders of the attacker and of the defender."""
    orders = Orders(order_of_loss=order, **extra[0]), Orders(order_of_loss=order, **extra[1])  # type: ignore[arg-type]
    start = time.perf_counter()
    odds = battle_odds(b, *orders, budget=budget)
    return time.perf_counter() - start, odds


def walk(b: Battle, order: tuple[str, ...], budget: int) -> tuple[float, object]:
    """The plain reference: every state walked one round at a time, no fast path."""
    engine = Engine(b, Orders(order_of_loss=order), Orders(order_of_loss=order))
    start = time.perf_counter()
    finals, rounds, states, _ = _solve(engine, False, fast_path=False, budget=budget)
    spent = time.perf_counter() - start
    return spent, _summarise(engine, finals, rounds, states, exact=True, confidence=None)


def best_of(runs: int, compute) -> tuple[str, object | None]:  # type: ignore[no-untyped-def]
    try:
        timed = [compute() for _ in range(runs)]
    except _TooBig:
        return f"{'over':>8}", None
    spent, odds = min(timed, key=lambda r: r[0])
    if not odds.exact:  # type: ignore[attr-defined]
        return f"{'over':>8}", None
    return f"{spent:8.3f}", odds


def split(b: Battle, order: tuple[str, ...], runs: int) -> tuple[float, float, int, float]:
    """Where an exact sea answer's time goes, best of `runs`: the whole answer, the time inside
    the engine's answers and how many it gave (timed on this engine only; an answer that asks
    another is counted once), and the walk again with every answer known."""
    best: tuple[float, float, int, float] | None = None
    for _ in range(runs):
        engine = Engine(b, Orders(order_of_loss=order), Orders(order_of_loss=order))
        inside = {"s": 0.0, "asked": 0, "depth": 0}

        def timed(method):  # type: ignore[no-untyped-def]
            def answer(*args, **kwargs):  # type: ignore[no-untyped-def]
                inside["depth"] += 1
                start = time.perf_counter()
                try:
                    return method(*args, **kwargs)
                finally:
                    inside["depth"] -= 1
                    if not inside["depth"]:
                        inside["s"] += time.perf_counter() - start
                        inside["asked"] += 1
            return answer

        for name in ENGINE_QUESTIONS:
            setattr(engine, name, timed(getattr(engine, name)))
        fast = FastSea.maybe(engine, False)
        start = time.perf_counter()
        first = _walk(engine, False, fast, None)
        whole = time.perf_counter() - start
        engine_s, asked = float(inside["s"]), int(inside["asked"])
        fast.entries = {}  # type: ignore[union-attr]  # the same start again, the tables full
        start = time.perf_counter()
        again = _walk(engine, False, fast, None)
        tables = time.perf_counter() - start
        if again[0] != first[0]:
            raise AssertionError("the walk with its tables full gave another answer")
        if best is None or whole < best[0]:
            best = (whole, engine_s, asked, tables)
    assert best is not None
    return best


def aacalc2(runs: int) -> dict[str, dict[float, dict[str, float]]]:
    """aacalc2's figures per battle and prune threshold, or {} where Node or its build is missing."""
    folder = Path(os.environ.get("AACALC2", Path(__file__).resolve().parent / ".aacalc2"))
    node = shutil.which("node")
    if node is None or not (folder / "dist" / "index.js").exists():
        print(f"aacalc2: not run ({'no node' if node is None else f'no build in {folder}'}: see this script's docstring)")
        return {}
    battles = []
    for name, (b, order, _) in CASES.items():
        ool = [AACALC2_NAMES[u] for u in order]
        side = lambda forces: {"units": {AACALC2_NAMES[f.unit]: f.count for f in forces}, "ool": ool}  # noqa: E731
        battles.append({"name": name, "naval": b.kind == "sea", "attack": side(b.attackers), "defense": side(b.defenders)})
    script = Path(__file__).resolve().parent / "aacalc2_bench.mjs"
    done = subprocess.run([node, str(script), str(folder), str(max(runs, 5))], input=json.dumps(battles),
                          capture_output=True, text=True, check=True)
    out: dict[str, dict[float, dict[str, float]]] = {}
    for row in json.loads(done.stdout):
        out.setdefault(row["name"], {})[row["prune"]] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--exact-budget", type=int, default=2_000_000)
    args = parser.parse_args()
    theirs = aacalc2(args.runs)
    print(f"{'battle':11} {'target':>8} {'exact s':>8} {'P(att)':>8} {'states':>7} {'us/state':>8} {'walk s':>8} {'P(att)':>8}   "
          f"{'aacalc2 1e-12 / exact s':>23} {'x aacalc2':>9} {'P(att left)':>11} {'pbem':>8}   {'bounded s':>9} {'P(att)':>8}  "
          f"bounded answer")
    for name, (b, order, target) in CASES.items():
        exact_s, exact = best_of(args.runs, lambda: run(b, order, args.exact_budget))
        walk_s, ref = best_of(1, lambda: walk(b, order, args.exact_budget))
        p = lambda odds: f"{odds.attacker_win:8.4f}" if odds is not None else f"{'-':>8}"  # noqa: E731
        per_state = (f"{exact.states:7d} {float(exact_s) / exact.states * 1e6:8.1f}"  # type: ignore[attr-defined]
                     if exact is not None and exact.states else f"{'-':>7} {'-':>8}")  # type: ignore[attr-defined]
        row = theirs.get(name)
        if row:
            them = f"{row[1e-12]['seconds']:11.3f} / {row[0]['seconds']:.3f}".rjust(23)
            left = f"{row[0]['attacker_survives']:11.6f}"
            ours = f"{exact.attacker_win + exact.stalemate:8.6f}" if exact is not None else f"{'-':>8}"  # type: ignore[attr-defined]
            ratio = f"{float(exact_s) / row[0]['seconds']:9.2f}" if exact is not None else f"{'-':>9}"
        else:
            them, ratio, left, ours = f"{'-':>23}", f"{'-':>9}", f"{'-':>11}", f"{'-':>8}"
        bounded_t, bounded = min((run(b, order, REPORT_BUDGET) for _ in range(args.runs)), key=lambda r: r[0])
        how = "exact" if bounded.exact else f"sampled, +-{100 * bounded.confidence:.1f} points"  # type: ignore[attr-defined]
        print(f"{name:11} {target:8.3f} {exact_s} {p(exact)} {per_state} {walk_s} {p(ref)}   {them} {ratio} {left} {ours}   "
              f"{bounded_t:9.3f} {bounded.attacker_win:8.4f}  {how}")  # type: ignore[attr-defined]
    print(f"bounded: the budget of validate, adjudicate and the reports ({REPORT_BUDGET} units); "
          f"pbem odds allows {COMMAND_BUDGET}")
    print(f"\n{'past the bound':15} {'reports s':>9} {'P(att)':>8}  {'pbem odds s':>11} {'P(att)':>8}  answers")
    for name, (b, order, *extra) in LARGE.items():
        rep_t, rep = min((run(b, order, REPORT_BUDGET, *extra) for _ in range(args.runs)), key=lambda r: r[0])
        cmd_t, cmd = min((run(b, order, COMMAND_BUDGET, *extra) for _ in range(args.runs)), key=lambda r: r[0])
        how = lambda odds: "exact" if odds.exact else f"sampled ({odds.states} battles)"  # type: ignore[attr-defined]  # noqa: E731
        print(f"{name:15} {rep_t:9.3f} {rep.attacker_win:8.4f}  {cmd_t:11.3f} {cmd.attacker_win:8.4f}  "  # type: ignore[attr-defined]
              f"{how(rep)}, {how(cmd)}")
    print(f"\n{'retreating':15} {'exact s':>9} {'P(att)':>8} {'P(retreat)':>10}  {'reports s':>9} {'P(att)':>8}  answer")
    for name, (b, order, after) in RETREATING.items():
        extra = ({"retreat": RetreatCondition("after_round", after)}, {})
        exact_s, exact = best_of(args.runs, lambda: run(b, order, args.exact_budget, extra))
        rep_t, rep = min((run(b, order, REPORT_BUDGET, extra) for _ in range(args.runs)), key=lambda r: r[0])
        won = f"{exact.attacker_win:8.4f} {exact.retreat:10.4f}" if exact is not None else f"{'-':>8} {'-':>10}"  # type: ignore[attr-defined]
        how = "exact" if rep.exact else f"sampled, +-{100 * rep.confidence:.1f} points"  # type: ignore[attr-defined]
        print(f"{name:15} {exact_s:>9} {won}  {rep_t:9.3f} {rep.attacker_win:8.4f}  {how}")  # type: ignore[attr-defined]
    print(f"\n{'sea, exact':15} {'exact s':>9} {'engine s':>9} {'asked':>6} {'tables s':>9} {'the rest s':>10}")
    for name in ("(e)", "(e) x2", "(e) x3"):
        b, order, _ = CASES[name]
        whole, engine_s, asked, tables = split(b, order, args.runs)
        print(f"{name:15} {whole:9.3f} {engine_s:9.3f} {asked:6d} {tables:9.3f} {whole - engine_s - tables:10.3f}")
    command = [sys.executable, "-c", "from pbem.cli import main; main()", *ODDS_COMMAND]
    walls = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
    print(f"`pbem {' '.join(repr(a) if ' ' in a else a for a in ODDS_COMMAND)}`: {min(walls):.3f} s (best of "
          f"{args.runs}, whole process)")


if __name__ == "__main__":
    main()
