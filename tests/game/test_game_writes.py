"""Every write to a game's branch is a compare-and-swap on the head it read (issue 12).

A standing order committed while a turn is adjudicated must never be overwritten or left out of
the history the audit relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game.audit import audit_game
from pbem.engine.problems import ProblemsError
from pbem.game.game import Game, GameError, new_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1942-2e" / "round-01"
STANDING = b"power: Germany\nstanding_orders:\n  default: {order_of_loss: [infantry, tank, fighter]}\n"


@pytest.fixture
def game(tmp_path: Path) -> Game:
    g = new_game(tmp_path / "g", "1942-2e", {}, game_id="demo", dice_mode="local")
    g.submit((EXAMPLES / "1-soviet-union.yaml").read_bytes(), "1-soviet-union.yaml")
    return Game(g.path)


def test_a_standing_order_committed_during_adjudication_is_kept(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other player's standing orders land between the adjudicator's read and its write: the
    adjudication starts again from the new head, so both commits are in the history and it audits."""
    real = Game._adjudication_at
    calls = []

    def racing(self: Game, head: str, *args: object):  # type: ignore[no-untyped-def]
        out = real(self, head, *args)  # type: ignore[arg-type]
        if not calls:
            Game(self.path).submit(STANDING, "germany.yaml")  # someone else, meanwhile
        calls.append(head)
        return out

    monkeypatch.setattr(Game, "_adjudication_at", racing)
    game.adjudicate()
    assert len(calls) == 2 and calls[0] != calls[1]
    history = game.repo.history()
    assert [c.trailers.get("Phase") for c in history[-2:]] == ["standing-orders", "adjudication"]
    assert game.repo.read("standing/germany.yaml") == STANDING
    assert audit_game(game.path).ok


def test_a_branch_that_keeps_moving_is_refused_and_nothing_is_written(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game._adjudication_at
    n = [0]

    def always_racing(self: Game, head: str, *args: object):  # type: ignore[no-untyped-def]
        out = real(self, head, *args)  # type: ignore[arg-type]
        n[0] += 1
        Game(self.path).submit(STANDING + b"# change %d\n" % n[0], "germany.yaml")
        return out

    monkeypatch.setattr(Game, "_adjudication_at", always_racing)
    with pytest.raises(GameError, match="kept changing"):
        game.adjudicate()
    assert not any(c.trailers.get("Phase") == "adjudication" for c in game.repo.history())


def test_orders_checked_against_a_replaced_state_are_checked_again(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Orders validated just before an adjudication moved the game on are validated again against
    the new state (here: refused, being the previous power's), never committed unchecked."""
    from pbem.engine.problems import ProblemsError

    real = Game.check
    done = []

    def racing(self: Game, text: bytes | str, filename: str, ref: str | None = None):  # type: ignore[no-untyped-def]
        out = real(self, text, filename, ref)
        if not done:
            done.append(1)
            Game(self.path).adjudicate()
        return out

    monkeypatch.setattr(Game, "check", racing)
    with pytest.raises((ProblemsError, GameError)):
        game.submit((EXAMPLES / "1-soviet-union.yaml").read_bytes(), "1-soviet-union.yaml")
    assert game.repo.history()[-1].trailers.get("Phase") == "adjudication"
    assert audit_game(game.path).ok


def test_a_state_no_other_process_could_read_is_never_committed(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The adjudicating process trusts the state it writes; every other checks it against the
    schema. A victory record the schema did not know once left a won game unreadable: now such a
    state stops the adjudication, and the branch is as it was."""
    import dataclasses

    import pbem.game.game as game_module

    real = game_module.run_turn

    def odd_victory(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        return dataclasses.replace(result, state=dataclasses.replace(result.state, winner="Allies", victory={"unknown": 1}))

    monkeypatch.setattr(game_module, "run_turn", odd_victory)
    head = game.repo.head()
    with pytest.raises(GameError, match="cannot read back"):
        game.adjudicate()
    assert Game(game.path).repo.head() == head


@pytest.mark.parametrize("edit,message", [
    (("victory: standard", "victory: total war"), "option victory cannot be 'total war'"),
    (("victory: standard", "victroy: standard"), "unknown rule option 'victroy' (did you mean 'victory'?)"),
])
def test_a_game_file_edited_by_hand_with_an_option_its_ruleset_lacks_is_refused(game: Game, edit, message) -> None:  # type: ignore[no-untyped-def]
    """`pbem new` refuses an unknown rule option or value; one written into a committed game.yaml by
    hand was silently ignored (the game played with the default) - it is refused the same way."""
    text = game.repo.read("game.yaml").decode()
    assert edit[0] in text, text
    game.repo.commit({"game.yaml": text.replace(edit[0], edit[1]).encode()}, "hand edit")
    with pytest.raises(ProblemsError) as err:
        Game(game.path)
    problem = err.value.problems[0]
    line = next(n for n, row in enumerate(text.replace(edit[0], edit[1]).splitlines(), 1) if edit[1] in row)
    assert message in problem.message and "git revert" in (problem.hint or "")
    assert problem.line == line and problem.file.endswith("game.yaml")  # at the edited line


@pytest.mark.parametrize("ruleset_id,options,message", [
    ("revised", {"radar": 1}, "option radar cannot be 1; allowed: false, true"),
    ("europe-1999", {"cash_advance": 0}, "option cash_advance cannot be 0; allowed: true, false"),
    ("europe-1999", {"bomber_cost": 25.0}, "option bomber_cost cannot be 25.0"),
])
def test_an_option_value_of_another_type_is_refused(tmp_path: Path, ruleset_id: str, options: dict, message: str) -> None:  # type: ignore[type-arg]
    """YAML's 1 equals Python's True, but not every rule reads it so: `radar: 1` was accepted and left
    Radar off, `cash_advance: 0` left the cash advance on.  Only the allowed values, of their type."""
    with pytest.raises(GameError, match=message.replace("(", r"\(").replace(".", r"\.")):
        new_game(tmp_path / "g", ruleset_id, {}, game_id="demo", dice_mode="local", options=options)
    assert not (tmp_path / "g").exists()


def test_the_report_data_of_the_winning_turn_names_the_winner(tmp_path: Path) -> None:
    """Pacific, Object of the Game: the Allies win when Japan scores no victory point on its turn.
    The JSON report of that turn says who won (`winner`), as `pbem status --json` does, not only in
    its English notes; a report of a game that goes on has no `winner`."""
    import dataclasses
    import json

    from pbem.io.state import dump_state

    g = new_game(tmp_path / "p", "pacific-2001", {}, game_id="pac", dice_mode="local")
    state = g.state()
    control = {**state.control, "French Indo-China": "India", "Manchuria": "China", "Korea": "China", "Formosa": "USA", "Shantung": "China"}
    units = {s: by for s, by in state.units.items() if s not in ("French Indo-China", "Manchuria", "Korea", "Formosa", "Shantung")}
    g.repo.commit({"state.yaml": dump_state(dataclasses.replace(state, control=control, units=units), g.ruleset).encode()}, "hand edit")
    g = Game(g.path)
    g.submit(b"game: pac\npower: Japan\nround: 1\n", "japan.yaml")
    g.adjudicate()
    assert g.state().winner == "Allies"
    report = json.loads(next((g.path / "reports").rglob("*.json")).read_text())
    assert report["winner"] == "Allies" and report["awaiting"] is None
    # and `pbem status` names the turn the game ended with, not a next turn that is never played
    from click.testing import CliRunner

    from pbem.cli import cli

    shown = CliRunner().invoke(cli, ["status", "--game", str(g.path)])
    assert "ended in round 1 with Japan's turn" in shown.output and "The game is over: the Allies won." in shown.output
    data = json.loads(CliRunner().invoke(cli, ["status", "--game", str(g.path), "--json"]).output)
    assert data["ended"] == {"round": 1, "after": "Japan"}
