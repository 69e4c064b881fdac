"""A turn with a very large fleet battle (issue 19's battle (e), tripled): how long adjudication and
its report take now that every odds computation has a bound (pbem.odds.REPORT_BUDGET).

Run: python benchmarks/bench_large_battle_turn.py [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.game.test_large_battle_turn import large_battle_turn  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        report, _ = large_battle_turn()
        times.append(time.perf_counter() - start)
    (battle,) = [b for b in report["battles"] if b["space"] == "SZ 6"]
    odds = battle["odds"]
    kind = "exact" if odds.get("exact", True) else f"sampled, ±{100 * odds['confidence']:.1f} points"
    print(f"turn with a {sum(battle['forces']['attacker'][0]['units'].values())}-unit fleet attacking "
          f"{sum(battle['forces']['defender'][0]['units'].values())} units: "
          f"best {min(times):.2f} s of {args.runs} (adjudication and report); odds {kind}: "
          f"attacker wins {100 * odds['attacker_win']:.1f}%")


if __name__ == "__main__":
    main()
