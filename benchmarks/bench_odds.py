"""The odds calculator on issue 19's battles: exact compute time, the probability it gives, and
the bounded answer the commands print (exact, or sampled past the work budget).

Battles (1942 Second Edition units, both sides losing the cheapest units first, transports last):
(c) 30 inf + 10 art + 15 tank + 5 ftr + 2 bmr against 40 inf + 10 art + 5 tank + 5 ftr;
(d) 50 inf + 17 art + 17 tank + 16 ftr on each side; (e) 2 bb + 1 cv + 2 ftr + 2 dd + 4 sub +
1 ca against 1 bb + 2 cv + 4 ftr + 3 dd + 2 sub + 2 tp, and (e) with every count doubled and
tripled; 100 against 100 on land with one AA gun.  Compute only, in-process, minimum of runs.
The exact walk of the largest battles is stopped at --exact-budget work units (reported as
"over"), since it may take minutes.

The targets of the issue: (c) 10 ms, (d) 40 ms, (e) 3 ms, (e) doubled 100 ms, (e) tripled 1 s,
100 v 100 with AA 60 ms.

Run: python benchmarks/bench_odds.py [--runs N] [--exact-budget UNITS]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from pbem.engine.combat import Battle, Force
from pbem.engine.combat.model import Orders
from pbem.io.rulesets import load_ruleset
from pbem.odds import COMMAND_BUDGET, REPORT_BUDGET, _TooBig, battle_odds
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES

UNITS = load_ruleset("1942-2e").units
# cheapest first, transports last (the orders of loss); air before the ships it flies from
SEA_ORDER = ("submarine", "destroyer", "fighter", "cruiser", "aircraft carrier", "battleship", "transport")
LAND_ORDER = ("infantry", "artillery", "tank", "fighter", "bomber")


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
                          {"infantry": 60, "artillery": 20, "tank": 19, "antiaircraft artillery": 1}), LAND_ORDER, 0.060),
}
ODDS_COMMAND = ["odds", "--attack", "30 inf, 10 art, 20 tank", "--defend", "30 inf, 10 art, 20 tank"]


def run(b: Battle, order: tuple[str, ...], budget: int | None) -> tuple[float, object]:
    orders = Orders(order_of_loss=order), Orders(order_of_loss=order)
    start = time.perf_counter()
    odds = battle_odds(b, *orders, budget=budget)
    return time.perf_counter() - start, odds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--exact-budget", type=int, default=2_000_000)
    args = parser.parse_args()
    print(f"{'battle':11} {'exact s':>9} {'target s':>9} {'P(att)':>8}   {'bounded s':>9} {'P(att)':>8}  bounded answer")
    for name, (b, order, target) in CASES.items():
        try:
            best = float("inf")
            for _ in range(args.runs):
                spent, exact = run(b, order, args.exact_budget)
                if not exact.exact:  # type: ignore[attr-defined]
                    raise _TooBig
                best = min(best, spent)
            exact_s, exact_p = f"{best:9.3f}", f"{exact.attacker_win:8.4f}"  # type: ignore[attr-defined]
        except _TooBig:
            exact_s, exact_p = f"{'over':>9}", f"{'-':>8}"
        bounded_t, bounded = min((run(b, order, REPORT_BUDGET) for _ in range(args.runs)), key=lambda r: r[0])
        how = "exact" if bounded.exact else f"sampled, +-{100 * bounded.confidence:.1f} points"  # type: ignore[attr-defined]
        print(f"{name:11} {exact_s} {target:9.3f} {exact_p}   {bounded_t:9.3f} {bounded.attacker_win:8.4f}  {how}")  # type: ignore[attr-defined]
    print(f"bounded: the budget of validate, adjudicate and the reports ({REPORT_BUDGET} units); "
          f"pbem odds allows {COMMAND_BUDGET}")
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
