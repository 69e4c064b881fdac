"""A power with nothing to order has its turn passed by the game itself (Game.pass_idle_turns):
empty orders and an adjudication, each a commit that `pbem audit` checks like any other."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game
from pbem.game.game import Game, new_game
from tests.engine.test_idle import conquered
from tests.engine.scenario import state

EMPTY = "game: {game}\npower: United States\nround: 1\n"


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A 1942 game whose opening has the Soviet Union conquered, at the U.S. turn of round 1
    (the audit compares the first state with the same opening)."""
    import pbem.io.state

    opening = conquered(state(turn="United States"), "Soviet Union", "Germany")
    monkeypatch.setattr(pbem.io.state, "initial_state", lambda *a, **k: opening)
    path = tmp_path / "g"
    new_game(path, "1942-2e", {}, game_id="g", dice_mode="local")
    return path


def log(path: Path) -> list[str]:
    return subprocess.run(["git", "-C", str(path), "log", "--reverse", "--format=%s|%(trailers:key=Pbem-Idle,valueonly)"],
                          capture_output=True, text=True, check=True).stdout.split("\n")


def test_the_turn_of_a_power_with_nothing_to_order_passes_after_the_one_before(game: Path) -> None:
    """1942, Capturing capitals (p. 17): the conquered Soviet Union buys nothing and has no unit to
    move, so after the U.S. turn the game passes its turn and waits for Germany's orders."""
    Game(game).submit(EMPTY.format(game="g").encode(), "us.yaml")
    result = CliRunner().invoke(cli, ["adjudicate", "--game", str(game), "--format", "none"])
    assert result.exit_code == 0, result.output
    assert "Round 2: Soviet Union has nothing to order; its turn passed as commit" in result.output
    g = Game(game)
    st = g.state()
    assert (st.round, g.power_to_move(st)) == (2, "Germany")
    subjects = [line for line in log(game) if line]
    assert subjects[-2:] == ["Empty orders of Soviet Union for round 2: nothing to order|nothing to order",
                            "Adjudicate round 2: Soviet Union|"]
    report = (game / "reports" / "round-02" / "1-soviet-union.md").read_text()
    assert "Soviet Union has no units and can buy none: its turn passed with empty orders" in report
    us = (game / "reports" / "round-01" / "5-united-states.md").read_text()
    assert "**Next:** Soviet Union — nothing to order: its turn passes" in us  # the U.S. report says so already
    assert audit_game(game).ok


def test_a_game_left_waiting_for_such_a_power_moves_on_at_the_next_adjudicate(game: Path) -> None:
    """A game made by an older pbem may wait for the conquered power: `pbem adjudicate` passes its turn."""
    g = Game(game)
    g.submit(EMPTY.format(game="g").encode(), "us.yaml")
    g.adjudicate()  # the engine alone, as an older pbem did: nothing passed yet
    assert Game(game).power_to_move() == "Soviet Union"
    result = CliRunner().invoke(cli, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 0, result.output
    assert Game(game).power_to_move() == "Germany"


def test_audit_refuses_empty_orders_passed_off_for_a_power_that_could_act(game: Path) -> None:
    """Only the game may pass a turn, and only of a power with nothing to order: a host committing
    empty orders with the `Idle` trailer for a power that has units is caught."""
    g = Game(game)
    g.commit_orders(EMPTY.format(game="g").encode(), "us.yaml", {"Idle": "nothing to order"})
    g.adjudicate()
    findings = audit_game(game).findings
    assert any("as if United States had nothing to order" in f.message for f in findings)


def test_with_opponents_reveals_a_passed_turn_takes_the_public_stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commit-reveal by the opponents: a turn without orders to steer its dice does not wait for
    reveals; the stand-in links are recorded and the audit recomputes the turn from them."""
    import pbem.io.state

    opening = conquered(state(turn="United States"), "Soviet Union", "Germany")
    monkeypatch.setattr(pbem.io.state, "initial_state", lambda *a, **k: opening)
    target, keys = tmp_path / "g", tmp_path / "keys"
    run = CliRunner().invoke
    assert run(cli, ["new", str(target), "--id", "g", "--key-dir", str(keys), "--reveal", "opponents"]).exit_code == 0
    for power in ("Germany", "Japan", "Soviet Union"):
        assert run(cli, ["ack", "--game", str(target), "--power", power, "--init", "--key-dir", str(keys / power)]).exit_code == 0
    Game(target).submit(EMPTY.format(game="g").encode(), "us.yaml")
    for power in ("Germany", "Japan"):
        assert run(cli, ["ack", "--game", str(target), "--power", power, "--key-dir", str(keys / power)]).exit_code == 0
    result = run(cli, ["adjudicate", "--game", str(target), "--format", "none"])
    assert result.exit_code == 0, result.output
    g = Game(target)
    assert g.power_to_move() == "Germany"
    assert "Germany=withheld:" in g.repo.history()[-1].trailers["Dice-Opponents"]
    assert audit_game(target).ok


def test_status_says_adjudicate_passes_the_turn(game: Path) -> None:
    g = Game(game)
    g.submit(EMPTY.format(game="g").encode(), "us.yaml")
    g.adjudicate()
    result = CliRunner().invoke(cli, ["status", "--game", str(game)])
    assert "Soviet Union to move; awaiting `pbem adjudicate`, which passes its turn: Soviet Union has nothing to order" in result.output


def test_orders_for_a_passed_turn_are_told_why(game: Path, tmp_path: Path) -> None:
    """The Soviet player, who may not know its turn passed, is told so when its orders come late;
    and the possessive is English ("not United States'")."""
    g = Game(game)
    g.submit(EMPTY.format(game="g").encode(), "us.yaml")
    g.adjudicate()
    g.pass_idle_turns()
    (tmp_path / "su.yaml").write_text("game: g\npower: Soviet Union\nround: 2\n")
    (tmp_path / "us.yaml").write_text("game: g\npower: United States\nround: 2\n")
    late = CliRunner().invoke(cli, ["validate", "--game", str(game), str(tmp_path / "su.yaml")])
    assert late.exit_code != 0
    assert ("hint: Soviet Union's turn of round 2 passed without orders, as it had nothing to order "
            "(orders/round-02/1-soviet-union.yaml); write orders with power: Germany") in late.output
    us = CliRunner().invoke(cli, ["validate", "--game", str(game), str(tmp_path / "us.yaml")])
    assert "it is Germany's turn, not United States'" in us.output and "adjudicated" not in us.output
