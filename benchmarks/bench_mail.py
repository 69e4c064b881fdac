"""Figures for report mail: the size of a typical turn's report mail, with the map as SVG and as
PNG, against what mailing lists accept (aim: under 300 KB).

Run: python benchmarks/bench_mail.py
Prints sizes; asserts nothing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.game.game import new_game  # noqa: E402
from pbem.gateways.turns import Adjudicated, report_message  # noqa: E402

AIM_KB = 300


def main() -> None:
    orders = sorted((ROOT / "examples" / "1942-2e" / "round-01").glob("*.yaml"))
    for fmt in ("svg", "png", "none"):
        with tempfile.TemporaryDirectory(prefix="pbem-bench-mail-") as tmp:
            game = new_game(Path(tmp) / "g", "1942-2e", {}, game_id="demo", dice_mode="local",
                            hosting={"report_map": fmt})
            sizes = []
            for path in orders:
                game.submit(path.read_bytes(), path.name)
                state = game.state()
                power = game.power_to_move(state)
                sha, report = game.adjudicate()
                mail = report_message(game, Adjudicated(sha, state.round, power, report), "host@league.test", ["a@players.test"])
                sizes.append((power, len(mail.as_bytes()) / 1024))
        worst = max(kb for _, kb in sizes)
        print(f"map as {fmt:<4}: " + ", ".join(f"{p} {kb:.0f} KB" for p, kb in sizes)
              + f"; largest {worst:.0f} KB (aim under {AIM_KB} KB: {'met' if worst < AIM_KB else 'NOT met'})")


if __name__ == "__main__":
    main()
