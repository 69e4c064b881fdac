"""A hosted Europe (1999) game: the deadline policy works for its round 0 (the cash advance) as for
any turn, so a missing player keeps the advance and the game goes on."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from pbem.game.game import Game
from pbem.gateways.deadlines import tick
from pbem.gateways.hosting import turn_started
from tests.gateways.helpers import make_game

PLAYERS = {"Germany": "de@players.test", "Soviet Union": "su@players.test", "Great Britain": "gb@players.test",
           "United States": "us@players.test"}


def test_a_missed_cash_advance_keeps_the_ipcs_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game"
    make_game(path, hosting={"turn_hours": 24, "report_map": "none", "missing_orders": "standing"}, game_id="eur",
              ruleset_id="europe-1999", players=PLAYERS)
    start = turn_started(Game(path))
    sent: list[object] = []
    result = tick(path, start + timedelta(hours=25), mailer=sent.append)
    assert result.actions[0] == "Germany missed the deadline: empty orders submitted, standing orders apply"
    game = Game(path)
    state = game.state()
    assert (state.round, game.power_to_move(state)) == (0, "Soviet Union")
    assert state.treasury["Germany"] == 52  # the 12 IPCs kept, then the starting income of 40
    audit = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()", "audit", "--game", str(path)],
                           capture_output=True, text=True, check=False)
    assert audit.returncode == 0, audit.stdout + audit.stderr
