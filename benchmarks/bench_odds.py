"""Exact odds versus 10,000 seeded `fight` runs: time of each and the simulation's error.

Run: python benchmarks/bench_odds.py [--runs N]
"""

from __future__ import annotations

import argparse
import hashlib
import time

from pbem.engine.combat import Battle, Force, fight
from pbem.io.rulesets import load_ruleset
from pbem.odds import battle_odds
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES


class HashDice:
    """Deterministic dice for the benchmark: sha256(seed|label|i), rejection-sampled to d6."""

    def __init__(self, seed: str):
        self.seed = seed
        self.used: dict[str, int] = {}

    def roll(self, label: str, count: int) -> tuple[int, ...]:
        out: list[int] = []
        while len(out) < count:
            i = self.used.get(label, 0)
            self.used[label] = i + 1
            for b in hashlib.sha256(f"{self.seed}|{label}|{i}".encode()).digest():
                if b < 252 and len(out) < count:
                    out.append(b % 6 + 1)
        return tuple(out)


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


def mixed(n: int) -> dict[str, int]:
    return {"infantry": n // 2, "artillery": n // 6, "tank": n - n // 2 - n // 6}


CASES = {
    "5v5 land": battle("land", mixed(5), mixed(5)),
    "20v20 land": battle("land", mixed(20), mixed(20)),
    "60v60 land": battle("land", mixed(60), mixed(60)),
    "naval": battle(
        "sea",
        {"submarine": 3, "destroyer": 2, "aircraft carrier": 1, "fighter": 2, "battleship": 1, "bomber": 1},
        {"submarine": 2, "destroyer": 2, "aircraft carrier": 2, "fighter": 4, "battleship": 1, "transport": 2},
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    print(f"{'battle':12} {'exact s':>9} {'P(att)':>8} {'sim s':>8} {'sim P(att)':>10} {'error':>8}")
    for name, b in CASES.items():
        t0 = time.perf_counter()
        odds = battle_odds(b)
        exact_time = time.perf_counter() - t0
        t0 = time.perf_counter()
        wins = sum(fight(b, HashDice(f"bench/{k}")).winner == "attacker" for k in range(args.runs))
        sim_time = time.perf_counter() - t0
        sim = wins / args.runs
        flag = "" if odds.exact else " (exact fell back to simulation)"
        print(f"{name:12} {exact_time:9.3f} {odds.attacker_win:8.4f} {sim_time:8.2f} {sim:10.4f} {sim - odds.attacker_win:+8.4f}{flag}")


if __name__ == "__main__":
    main()
