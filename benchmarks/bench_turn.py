"""Wall time of `pbem validate` and `pbem adjudicate` on the example round, as a player runs them.

Prints figures; asserts nothing.  Aims (issue): validate under 0.3 s, a power-turn adjudication
under 1 s.  Run: python benchmarks/bench_turn.py
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUND = ROOT / "examples" / "1942-2e" / "round-01"
PBEM = [sys.executable, "-m", "pbem"]


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        game = tmp / "demo"
        subprocess.run([*PBEM, "new", str(game), "--id", "demo", "--dice", "local", "--seed", "pbem-demo"], check=True, capture_output=True)
        rows = []
        for file in sorted(ROUND.glob("*.yaml")):
            validate = [timed([*PBEM, "validate", str(file), "--game", str(game)]) for _ in range(3)]
            timed([*PBEM, "submit", str(file), "--game", str(game)])
            adjudicate = timed([*PBEM, "adjudicate", "--game", str(game), "--format", "none"])
            rows.append((file.stem, statistics.median(validate), adjudicate))
        start = time.perf_counter()
        subprocess.run([*PBEM, "--version"], check=True, capture_output=True)
        startup = time.perf_counter() - start
        print(f"pbem start-up (--version): {startup * 1000:7.0f} ms")
        print(f"{'orders':<20}{'validate (median of 3)':>24}{'adjudicate':>14}")
        for name, v, a in rows:
            print(f"{name:<20}{v * 1000:>21.0f} ms{a * 1000:>11.0f} ms")
        print(f"{'mean':<20}{statistics.mean(r[1] for r in rows) * 1000:>21.0f} ms{statistics.mean(r[2] for r in rows) * 1000:>11.0f} ms")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
