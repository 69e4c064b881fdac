"""Time of `pbem audit` on a scripted game of ten or more rounds, per power-turn.

The game is scripted here: every power spends its treasury on infantry, places them at its own
industrial complexes, and moves nothing; the audit still replays every turn with its dice and
compares every file byte for byte.  The game is audited again cut after half its turns: the
difference is what a power-turn adds, the rest the command's start-up (imports, the first
commit's checks).  Prints figures; asserts nothing.
Run: python benchmarks/bench_audit.py [ROUNDS]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pbem.game.game import Game, new_game


def orders_for(game: Game) -> bytes:
    state = game.state()
    power = game.power_to_move(state)
    ruleset = game.ruleset
    money = state.treasury.get(power, 0)
    sites = sorted(s for s, by in state.units.items() if by.get(power, {}).get("industrial complex") and state.control.get(s) == power)
    place: dict[str, int] = {}
    left = money // ruleset.units["infantry"].cost
    for site in sites:
        n = min(left, ruleset.board.spaces[site].ipc - state.damage.get(site, 0))
        if n > 0:
            place[site] = n
            left -= n
    bought = sum(place.values())
    lines = [f"game: {game.config.game}", f"power: {power}", f"round: {state.round}", f"purchase: {{infantry: {bought}}}", "place:"]
    lines += [f"  {site}: {n} infantry" for site, n in place.items()] or ["  {}"]
    if not place:
        lines = lines[:-2] + ["place: {}"]
    return ("\n".join(lines) + "\n").encode()


def audit(game: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pbem", "audit", "--game", str(game)], capture_output=True, text=True)
    return result, time.perf_counter() - start


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-audit-"))
    try:
        game = new_game(tmp / "g", "1942-2e", {}, game_id="bench", dice_mode="committed", key_dir=tmp / "keys")
        start = time.perf_counter()
        turns = 0
        while game.state().round <= rounds:
            game.submit(orders_for(game), "bench.yaml")
            game.adjudicate()
            turns += 1
        played = time.perf_counter() - start
        result, audited = audit(tmp / "g")
        print(f"{rounds} rounds, {turns} power-turns: played in {played:.1f} s ({played / turns * 1000:.0f} ms a turn)")
        print(f"pbem audit: {audited:.1f} s, {audited / turns * 1000:.0f} ms per power-turn, exit code {result.returncode}")
        print(result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr.strip())
        # the same game cut after half its turns: the difference is what a turn adds (linear if
        # it matches the whole figure less start-up), the rest is the command's start-up
        half = turns // 2
        subprocess.run(["git", "clone", "-q", str(tmp / "g"), str(tmp / "half")], check=True)
        adjudications = subprocess.run(["git", "-C", str(tmp / "half"), "log", "--reverse", "--format=%H",
                                        "--grep=^Pbem-Phase: adjudication"], capture_output=True, text=True, check=True).stdout.split()
        subprocess.run(["git", "-C", str(tmp / "half"), "reset", "-q", "--hard", adjudications[half - 1]], check=True)
        _, audited_half = audit(tmp / "half")
        per_turn = (audited - audited_half) / (turns - half)
        print(f"pbem audit of the first {half} power-turns: {audited_half:.1f} s; a power-turn adds {per_turn * 1000:.0f} ms, "
              f"start-up {audited - per_turn * turns:.1f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
