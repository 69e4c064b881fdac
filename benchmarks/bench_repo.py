"""Figures for the game repository layer: init, commit and read times on a large tree.

Run: python benchmarks/bench_repo.py [--files N] [--commits N]
Prints the figures; never asserts a time (a loaded machine would make that flaky).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pbem.game.repo import GameRepo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--commits", type=int, default=20)
    args = parser.parse_args()
    files = {f"state/t{n // 100}/territory-{n}.yaml": f"owner: p{n % 5}\n".encode() for n in range(args.files)}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-repo-") as tmp:
        start = time.perf_counter()
        repo = GameRepo.init(Path(tmp) / "game", initial_files=files, message="Big start")
        init_s = time.perf_counter() - start
        times = []
        for n in range(args.commits):
            start = time.perf_counter()
            repo.commit({f"state/t0/territory-{n}.yaml": b"owner: p9\n", f"new-{n}": b"x"}, f"Change {n}", {"Round": str(n)})
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        repo.list()
        repo.history()
        read_ms = (time.perf_counter() - start) * 1000
    times.sort()
    print(f"repository with {args.files} files")
    print(f"  init:            {init_s * 1000:8.0f} ms")
    print(f"  commit (median): {times[len(times) // 2] * 1000:8.0f} ms   (max {times[-1] * 1000:.0f} ms, {args.commits} commits)")
    print(f"  list + history:  {read_ms:8.0f} ms")


if __name__ == "__main__":
    main()
