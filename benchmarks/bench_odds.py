"""Exact odds versus 10,000 seeded `fight` runs: time of each and the simulation's error.

Aims (issue): the 60-against-60 land battle exact in under 50 ms, the whole `pbem odds` command
under half a second.  The exact time is the first call in this process (cold caches) and the best
of three; the simulation runs on every core (`--jobs`), its time is wall-clock.

Run: python benchmarks/bench_odds.py [--runs N] [--jobs J]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from pbem.engine.combat import Battle, Force, fight
from pbem.io.rulesets import load_ruleset
from pbem.dice import local_dice
from pbem.odds import battle_odds
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES


def battle(kind: str, attack: dict[str, int], defend: dict[str, int]) -> Battle:
    units = load_ruleset("1942-2e").units
    return Battle(
        "bench",
        kind,  # type: ignore[arg-type]
        "attacker",
        tuple(Force(u, "attacker", n) for u, n in attack.items()),
        tuple(Force(u, "defender", n) for u, n in defend.items()),
        units,
        COMBAT_RULES,
    )


def mixed(n: int, **extra: int) -> dict[str, int]:
    return {"infantry": n // 2, "artillery": n // 6, "tank": n - n // 2 - n // 6, **extra}


CASES = {
    "5v5 land": battle("land", mixed(5), mixed(5)),
    "20v20 land": battle("land", mixed(20), mixed(20)),
    "60v60 land": battle("land", mixed(60), mixed(60)),
    "60v60 + AAA": battle(
        "land", mixed(60, fighter=3), mixed(60, **{"antiaircraft artillery": 1})
    ),
    "naval": battle(
        "sea",
        {"submarine": 3, "destroyer": 2, "aircraft carrier": 1, "fighter": 2, "battleship": 1, "bomber": 1},
        {"submarine": 2, "destroyer": 2, "aircraft carrier": 2, "fighter": 4, "battleship": 1, "transport": 2},
    ),
}

ODDS_COMMAND = ["odds", "--attack", "30 inf, 10 art, 20 tank", "--defend", "30 inf, 10 art, 20 tank"]


def _wins(name: str, start: int, stop: int) -> int:
    b = CASES[name]
    return sum(fight(b, local_dice(f"bench/{k}")).winner == "attacker" for k in range(start, stop))


def simulate(name: str, runs: int, pool: ProcessPoolExecutor | None, jobs: int) -> int:
    if pool is None:
        return _wins(name, 0, runs)
    cuts = [runs * k // jobs for k in range(jobs + 1)]
    return sum(pool.map(_wins, [name] * jobs, cuts[:-1], cuts[1:]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    print(f"{args.runs} simulated fights per battle on {args.jobs} process(es)")
    print(f"{'battle':12} {'exact s':>8} {'best of 3':>9} {'P(att)':>8} {'sim s':>7} {'sim P(att)':>10} {'error':>8}")
    for name, b in CASES.items():
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            odds = battle_odds(b)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        sim = simulate(name, args.runs, pool, args.jobs) / args.runs
        sim_time = time.perf_counter() - t0
        flag = "" if odds.exact else " (exact fell back to simulation)"
        print(
            f"{name:12} {times[0]:8.3f} {min(times):9.3f} {odds.attacker_win:8.4f} {sim_time:7.2f} "
            f"{sim:10.4f} {sim - odds.attacker_win:+8.4f}{flag}"
        )
    if pool is not None:
        pool.shutdown()
    command = [sys.executable, "-c", "from pbem.cli import main; main()", *ODDS_COMMAND]
    walls = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t0)
    print(f"`pbem {' '.join(repr(a) if ' ' in a else a for a in ODDS_COMMAND)}`: {min(walls):.3f} s (best of 3, whole process)")


if __name__ == "__main__":
    main()
