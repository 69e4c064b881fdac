"""A hosted 1940 Global game: missed turns are played by the deadline policy like any other - a
power of two economies (the United Kingdom) collects each economy's income and national
objectives, the standing orders (a scramble) stay in the repository - and the game audits clean."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from pbem.game.game import Game
from pbem.gateways.deadlines import tick
from pbem.gateways.hosting import turn_started
from pbem.io.rulesets import load_ruleset
from tests.gateways.helpers import make_game


def test_missed_turns_of_nine_powers_and_the_audit(tmp_path: Path) -> None:
    ruleset = load_ruleset("global-1940")
    players = {p.name: f"{p.name.lower().replace(' ', '.')}@players.test" for p in ruleset.powers}
    path = tmp_path / "game"
    make_game(path, hosting={"turn_hours": 24, "report_map": "none", "missing_orders": "standing"}, game_id="g40",
              ruleset_id="global-1940", players=players)
    Game(path).submit(b"game: g40\npower: Germany\nstanding_orders:\n  scramble:\n    - {from: Western Germany}\n", "standing.yaml")
    start = turn_started(Game(path))
    sent: list[object] = []
    for hours, power in enumerate(ruleset.turn_order[:6], start=1):
        result = tick(path, start + timedelta(hours=25 * hours), mailer=sent.append)
        assert result.actions[0] == f"{power} missed the deadline: empty orders submitted, standing orders apply"
    state = Game(path).state()
    assert (state.round, Game(path).power_to_move(state)) == (1, "Italy")
    # E12 phase 6: income plus national objectives - Germany's trade with the Soviet Union and the
    # Swedish iron ore; UK Europe's original territories; China's Burma Road; Japan's trade
    assert state.treasury["Germany"] == 70 and state.treasury["UK Europe"] == 61 and state.treasury["UK Pacific"] == 34
    assert state.treasury["China"] == 30 and state.treasury["Japan"] == 62
    audit = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()", "audit", "--game", str(path)],
                           capture_output=True, text=True, check=False)
    assert audit.returncode == 0, audit.stdout + audit.stderr
