"""A hosted Europe (1999) game: the deadline policy works for its round 0 (the cash advance) as for
any turn, so a missing player keeps the advance and the game goes on."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from pbem.game.game import Game, dump_config, new_game, read_config
from pbem.gateways.deadlines import tick
from pbem.gateways.hosting import turn_started

PLAYERS = {"Germany": "de@players.test", "Soviet Union": "su@players.test", "Great Britain": "gb@players.test",
           "United States": "us@players.test"}


def test_a_missed_cash_advance_keeps_the_ipcs_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game"
    game = new_game(path, "europe-1999", PLAYERS, game_id="eur", dice_mode="local", local_seed="pbem-demo")
    config = read_config(game.repo.read("game.yaml") or b"")
    (path / "game.yaml").write_text(dump_config(replace(config, hosting={"turn_hours": 24, "report_map": "none",
                                                                         "missing_orders": "standing"})), encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "host", "GIT_AUTHOR_EMAIL": "host@league.test", "GIT_COMMITTER_NAME": "host",
           "GIT_COMMITTER_EMAIL": "host@league.test"}
    subprocess.run(["git", "-C", str(path), "commit", "-q", "--amend", "-a", "--no-edit"], check=True, env=env)
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
