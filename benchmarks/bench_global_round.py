"""Wall time of a full round of 1940 Global's nine powers (examples/<ruleset>/round-01), as a host
runs it: `pbem validate` and `pbem adjudicate` per power, then the round's total and `pbem audit`.

Prints figures; asserts nothing.  Aim (issues 17, 18): a full round of nine powers adjudicates in
seconds, not minutes.  Run: python benchmarks/bench_global_round.py [global-1940 | global-1940-ams]
(both without an argument).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_turn import PBEM, ROOT, timed  # the same command line and timer as the 1942 round


def main() -> None:
    for ruleset in sys.argv[1:] or ["global-1940", "global-1940-ams"]:
        one_round(ruleset)


def one_round(ruleset: str) -> None:
    example = ROOT / "examples" / ruleset
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        game = tmp / "demo"
        subprocess.run([*PBEM, "new", str(game), "--ruleset", ruleset, "--id", "demo", "--dice", "local", "--seed", "pbem-demo"],
                       check=True, capture_output=True)
        for file in sorted((example / "standing").glob("*.yaml")):
            subprocess.run([*PBEM, "submit", str(file), "--game", str(game)], check=True, capture_output=True)
        rows = []
        for file in sorted((example / "round-01").glob("*.yaml")):
            validate = timed([*PBEM, "validate", str(file), "--game", str(game)])
            timed([*PBEM, "submit", str(file), "--game", str(game)])
            adjudicate = timed([*PBEM, "adjudicate", "--game", str(game), "--format", "none"])
            rows.append((file.stem, validate, adjudicate))
        audit = timed([*PBEM, "audit", "--game", str(game)])
        print(f"{ruleset + ', round 1':<24}{'validate':>12}{'adjudicate':>14}")
        for name, v, a in rows:
            print(f"{name:<24}{v * 1000:>9.0f} ms{a * 1000:>11.0f} ms")
        print(f"{'whole round':<24}{sum(r[1] for r in rows) * 1000:>9.0f} ms{sum(r[2] for r in rows) * 1000:>11.0f} ms")
        print(f"audit of the round ({len(rows)} power-turns): {audit * 1000:.0f} ms")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
