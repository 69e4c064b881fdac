"""A hosted Pacific (2001) game: a missed turn of a power of two countries (Great Britain) is
played by the deadline policy like any other - each country collects its own income, Japan's
kamikaze standing orders stay sealed in the repository - and the game audits clean."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from pbem.game.game import Game
from pbem.gateways.deadlines import tick
from pbem.gateways.hosting import turn_started
from tests.gateways.helpers import make_game

PLAYERS = {"Japan": "jp@players.test", "Great Britain": "gb@players.test", "United States": "us@players.test"}


def test_missed_turns_of_a_power_of_two_countries_and_the_audit(tmp_path: Path) -> None:
    path = tmp_path / "game"
    make_game(path, hosting={"turn_hours": 24, "report_map": "none", "missing_orders": "standing"}, game_id="pac",
              ruleset_id="pacific-2001", players=PLAYERS)
    game = Game(path)
    game.submit(b"game: pac\npower: Japan\nstanding_orders:\n  kamikaze:\n    - {targets: [aircraft carrier], count: 1}\n", "standing.yaml")
    start = turn_started(Game(path))
    sent: list[object] = []
    first = tick(path, start + timedelta(hours=25), mailer=sent.append)
    assert first.actions[0] == "Japan missed the deadline: empty orders submitted, standing orders apply"
    second = tick(path, start + timedelta(hours=50), mailer=sent.append)
    assert second.actions[0] == "Great Britain missed the deadline: empty orders submitted, standing orders apply"
    state = Game(path).state()
    assert (state.round, Game(path).power_to_move(state)) == (1, "United States")
    assert state.treasury["India"] == 44 and state.treasury["Australia"] == 50  # 22 + 22 and 25 + 25
    assert state.pending["victory_points"] == {"Japan": 1}
    audit = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()", "audit", "--game", str(path)],
                           capture_output=True, text=True, check=False)
    assert audit.returncode == 0, audit.stdout + audit.stderr
