"""Deadlines, reminders and the missing-orders policies, driven by an explicit `now`."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.game.game import Game
from pbem.gateways.deadlines import tick
from pbem.gateways.hosting import current_players, hosting_of, turn_started
from pbem.gateways.turns import submit_orders
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example, make_game

PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]
SUB = "sub@players.test"


class Outbox(list[EmailMessage]):
    def __call__(self, message: EmailMessage) -> None:
        self.append(message)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self if address in m["To"]]


def _game(tmp_path: Path, **hosting: object) -> tuple[Path, datetime]:
    path = tmp_path / "game"
    game = make_game(path, hosting={"turn_hours": 48, "report_map": "none", **hosting})
    return path, turn_started(game)


def test_reminders_then_standing_orders_at_deadline_plus_grace(tmp_path: Path) -> None:
    path, start = _game(tmp_path, grace_hours=6, reminders_hours=[24, 2], missing_orders="standing")
    out = Outbox()
    at = lambda hours: start + timedelta(hours=hours)
    assert tick(path, at(10), mailer=out).actions == ("waiting for Soviet Union; deadline " + at(48).isoformat(timespec="seconds"),)
    assert tick(path, at(25), mailer=out).actions == ("reminded Soviet Union (mailed)",)
    assert tick(path, at(26), mailer=out).actions[0].startswith("waiting")  # once per threshold
    assert tick(path, at(47), mailer=out).actions == ("reminded Soviet Union (mailed)",)
    assert [m["To"] for m in out] == [PLAYERS["Soviet Union"]] * 2
    assert "due by" in out[0].get_content()
    assert tick(path, at(50), mailer=out).actions[0].startswith("waiting")  # in the grace period
    commits_before = len(Game(path).repo.history())

    result = tick(path, at(55), mailer=out)
    assert result.actions[0] == "Soviet Union missed the deadline: empty orders submitted, standing orders apply"
    assert [a.power for a in result.adjudicated] == ["Soviet Union"]
    game = Game(path)
    assert game.power_to_move() == "Germany"
    orders = [c for c in game.repo.history() if c.trailers.get("Phase") == "orders"]
    assert orders[-1].trailers["Missing-Orders"] == "standing"
    assert orders[-1].trailers["Deadline"] == at(48).isoformat(timespec="seconds")
    assert len(game.repo.history()) == commits_before + 2
    report = out[-1]
    assert report["Subject"] == "[pbem demo] Round 1: Soviet Union report" and len(report["To"].split(",")) == 5
    assert "sent no orders by the deadline" in report.get_body(("plain",)).get_content()
    # the new turn has its own deadline, counted from the adjudication
    assert tick(path, at(56), mailer=out).actions[0].startswith("waiting for Germany")
    audit = subprocess.run([*PBEM, "audit", "--game", str(path)], capture_output=True, text=True, check=False)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_wait_tells_the_players_once_and_keeps_waiting(tmp_path: Path) -> None:
    path, start = _game(tmp_path, missing_orders="wait")
    out = Outbox()
    assert tick(path, start + timedelta(hours=49), mailer=out).actions == ("Soviet Union missed the deadline: the game waits",)
    assert len(out) == 1 and len(out[0]["To"].split(",")) == 5
    assert tick(path, start + timedelta(hours=60), mailer=out).actions[0].startswith("waiting for Soviet Union (deadline passed")
    assert len(out) == 1
    # late orders still count, and are adjudicated at once
    game = Game(path)
    submit_orders(game, example(ROUND_ONE[0]), ROUND_ONE[0], {"Via": "test"})
    assert [a.power for a in tick(path, start + timedelta(hours=61), mailer=out).adjudicated] == ["Soviet Union"]


def test_a_named_substitute_takes_over_with_a_fresh_deadline(tmp_path: Path) -> None:
    path, start = _game(tmp_path, missing_orders="substitute", substitutes={"soviet union": SUB})
    out = Outbox()
    now = start + timedelta(hours=48, minutes=1)
    assert tick(path, now, mailer=out).actions == (f"Soviet Union missed the deadline: {SUB} takes over",)
    game = Game(path)
    assert current_players(game)["Soviet Union"] == SUB
    assert "you play Soviet Union from now on" in out.to(SUB)[0].get_content()
    assert turn_started(game) == now.replace(microsecond=0)
    assert tick(path, now + timedelta(hours=47), mailer=out).actions[0].startswith("waiting for Soviet Union")
    # the substitute misses too: the game waits rather than passing the power on
    assert tick(path, now + timedelta(hours=49), mailer=out).actions == ("Soviet Union missed the deadline: the game waits",)
    assert hosting_of(game).substitutes == {"Soviet Union": SUB}


def test_tick_on_the_command_line_adjudicates_at_the_deadline_and_reports_bad_settings(tmp_path: Path) -> None:
    path, start = _game(tmp_path, adjudicate="at-deadline")
    submit_orders(Game(path), example(ROUND_ONE[0]), ROUND_ONE[0], {"Via": "test"})
    early = subprocess.run([*PBEM, "tick", "--game", str(path), "--now", (start + timedelta(hours=1)).isoformat()],
                           capture_output=True, text=True, check=False)
    assert early.returncode == 0 and "adjudication at the deadline" in early.stdout
    due = subprocess.run([*PBEM, "tick", "--game", str(path), "--now", (start + timedelta(hours=48)).isoformat()],
                         capture_output=True, text=True, check=False)
    assert due.returncode == 0 and "adjudicated round 1 Soviet Union" in due.stdout, due.stderr
    bad = tmp_path / "bad"
    make_game(bad, hosting={"missing_orders": "forfeit"})
    wrong = subprocess.run([*PBEM, "tick", "--game", str(bad)], capture_output=True, text=True, check=False)
    assert wrong.returncode == 2 and "hosting.missing_orders is 'forfeit'" in wrong.stderr and "Traceback" not in wrong.stderr


def test_a_power_with_nothing_to_order_is_passed_not_reminded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game waiting for a conquered power (no unit, no capital: 1942, Capturing capitals, p. 17)
    does not remind it or wait for its deadline: the tick passes its turn and the next clock runs."""
    import pbem.io.state
    from tests.engine.scenario import state
    from tests.engine.test_idle import conquered

    opening = conquered(state(turn="Soviet Union"), "Soviet Union", "Germany")
    monkeypatch.setattr(pbem.io.state, "initial_state", lambda *a, **k: opening)
    path, start = _game(tmp_path)
    out = Outbox()
    result = tick(path, start + timedelta(hours=1), mailer=out)
    assert [a.power for a in result.adjudicated] == ["Soviet Union"]
    assert result.actions[-1].startswith("waiting for Germany")
    assert [m["Subject"] for m in out] == ["[pbem demo] Round 1: Soviet Union report"]
