"""A full round played through the CLI in a temporary repository, and the errors players meet."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1942-2e" / "round-01"
POWERS = ["1-soviet-union", "2-germany", "3-united-kingdom", "4-japan", "5-united-states"]


def run(*args: str) -> "CliRunner.invoke":
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def git(path: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    result = run("new", str(target), "--id", "demo", "--dice", "local", "--seed", "test",
                 "--player", "Germany=anna@example.org")
    assert result.exit_code == 0, result.output
    return target


def test_full_round_through_the_cli(game: Path) -> None:
    """Every power submits and is adjudicated; the history has one commit per submission and turn."""
    for name in POWERS:
        file = EXAMPLES / f"{name}.yaml"
        result = run("validate", str(file), "--game", str(game))
        assert result.exit_code == 0, result.output
        assert run("submit", str(file), "--game", str(game)).exit_code == 0
        result = run("adjudicate", "--game", str(game), "--format", "json")
        assert result.exit_code == 0, result.output
    status = json.loads(run("status", "--game", str(game), "--json").output)
    assert status["round"] == 2 and status["turn"] == "Soviet Union"
    log = json.loads(run("log", "--game", str(game), "--json").output)
    phases = [row["phase"] for row in log]
    assert phases == ["new"] + ["orders", "adjudication"] * 5
    report = run("report", "--game", str(game), "--format", "md")
    assert report.exit_code == 0 and "United States" in report.output
    first = log[0]["commit"]
    shown = run("show", "--game", str(game), "--at", first)
    assert "round: 1" in shown.output
    # git itself sees a clean work tree: every change was committed.
    assert subprocess.run(["git", "-C", str(game), "status", "--porcelain"], capture_output=True, text=True).stdout == ""


def test_adjudicate_without_orders_changes_nothing(game: Path) -> None:
    head = subprocess.run(["git", "-C", str(game), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    result = run("adjudicate", "--game", str(game))
    assert result.exit_code == 2
    assert "no orders from Soviet Union" in result.output
    assert subprocess.run(["git", "-C", str(game), "rev-parse", "HEAD"], capture_output=True, text=True).stdout == head


def test_failing_adjudication_leaves_repository_unchanged(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Atomicity: a crash in the middle of adjudication writes nothing."""
    run("submit", str(EXAMPLES / "1-soviet-union.yaml"), "--game", str(game))
    before = subprocess.run(["git", "-C", str(game), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    state_before = (game / "state.yaml").read_bytes()
    import pbem.game.game as game_module

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(game_module, "build_report", boom)
    with pytest.raises(RuntimeError):
        run("adjudicate", "--game", str(game))
    assert subprocess.run(["git", "-C", str(game), "rev-parse", "HEAD"], capture_output=True, text=True).stdout == before
    assert (game / "state.yaml").read_bytes() == state_before
    assert subprocess.run(["git", "-C", str(game), "status", "--porcelain"], capture_output=True, text=True).stdout == ""


def test_demo_leaves_a_game(tmp_path: Path) -> None:
    result = run("demo", str(tmp_path / "d"), "--format", "md")
    assert result.exit_code == 0, result.output
    assert "# " in result.output
    assert (tmp_path / "d" / "reports" / "round-01" / "5-united-states.json").is_file()


def test_luck_names_each_battle_whole(tmp_path: Path) -> None:
    """The table of `pbem luck` is as wide as its longest battle name: none is cut mid-word."""
    assert run("demo", str(tmp_path / "d")).exit_code == 0
    data = json.loads(run("luck", "--game", str(tmp_path / "d"), "--json").output)
    text = run("luck", "--game", str(tmp_path / "d")).output
    assert data["battles"]
    for b in data["battles"]:
        assert f"{b['battle']} [{b['power']}]" in text
    assert "-0.00" not in text


def test_luck_counts_every_die_of_the_game_raids_included(tmp_path: Path) -> None:
    """`pbem luck` "tests all the game's dice for fairness" (README): the bombing raid's AA and damage
    dice of the demo's second round count too, so its face test has every die the audit lists."""
    from pbem.game.audit import explain_turn

    assert run("demo", str(tmp_path / "d"), "--rounds", "2").exit_code == 0
    data = json.loads(run("luck", "--game", str(tmp_path / "d"), "--json").output)
    rolled = sum(len(r["values"]) for turn in range(1, 11) for r in explain_turn(tmp_path / "d", turn)["rolls"])
    assert sum(data["faces"]["counts"]) == rolled
    assert any("raid on" in b["battle"] for b in data["battles"])


def test_demo_without_a_directory_names_no_directory_it_then_deletes() -> None:
    result = run("demo")
    assert result.exit_code == 0
    assert "pbem-demo-" not in result.output  # output holds stderr too
    assert "temporary directory" in result.output


def test_html_reports_are_one_self_contained_file(tmp_path: Path) -> None:
    """An HTML report carries its map inside (issue: a player's view): saved, mailed or posted, it
    shows the board without the SVG file beside it."""
    game = tmp_path / "d"
    assert run("demo", str(game)).exit_code == 0
    for result in (run("report", "--game", str(game), "--format", "html"),):
        assert result.exit_code == 0, result.output
        assert "<svg" in result.output and "<img src=" not in result.output
    assert (game / "reports" / "round-01" / "5-united-states.svg").is_file()


def test_submitting_again_says_it_replaces_the_earlier_file(game: Path) -> None:
    first = run("submit", str(EXAMPLES / "1-soviet-union.yaml"), "--game", str(game))
    assert first.exit_code == 0 and "replaces" not in first.output
    changed = game.parent / "changed.yaml"
    changed.write_text((EXAMPLES / "1-soviet-union.yaml").read_text() + "# second thoughts\n")
    again = run("submit", str(changed), "--game", str(game))
    assert again.exit_code == 0, again.output
    assert "replaces Soviet Union's orders for round 1 submitted earlier" in again.output
    standing = game.parent / "standing.yaml"
    standing.write_text("power: Germany\nstanding_orders: {default: {order_of_loss: [infantry]}}\n")
    assert "replaces" not in run("submit", str(standing), "--game", str(game)).output
    standing.write_text("power: Germany\nstanding_orders: {default: {order_of_loss: [artillery, infantry]}}\n")
    assert "replaces Germany's standing orders" in run("submit", str(standing), "--game", str(game)).output


def test_submitting_the_same_file_again_commits_nothing(game: Path) -> None:
    assert run("submit", str(EXAMPLES / "1-soviet-union.yaml"), "--game", str(game)).exit_code == 0
    commits = git(game, "rev-list", "--count", "HEAD")
    again = run("submit", str(EXAMPLES / "1-soviet-union.yaml"), "--game", str(game))
    assert again.exit_code == 0, again.output
    assert "identical to Soviet Union's orders for round 1 already submitted" in again.output
    assert git(game, "rev-list", "--count", "HEAD") == commits


def test_a_misspelt_rule_option_gets_a_did_you_mean(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["new", str(tmp_path / "g"), "--option", "victroy=total"])
    assert result.exit_code != 0 and "did you mean 'victory'?" in result.output
    result = CliRunner().invoke(cli, ["new", str(tmp_path / "g"), "--option", "victory=totl"])
    assert result.exit_code != 0 and "did you mean 'total'?" in result.output
    assert not (tmp_path / "g").exists()


def test_a_bare_option_name_switches_it_on(tmp_path: Path) -> None:
    """`--option radar` is `--option radar=true`; a bare name of an option that is no switch is
    refused with what it can be, and nothing is written."""
    result = CliRunner().invoke(cli, ["new", str(tmp_path / "g"), "--ruleset", "revised", "--option", "radar"])
    assert result.exit_code == 0, result.output
    assert "radar: true" in (tmp_path / "g" / "game.yaml").read_text()
    result = CliRunner().invoke(cli, ["new", str(tmp_path / "h"), "--ruleset", "revised", "--option", "victory"])
    assert result.exit_code != 0 and "allowed: minor, major, total" in result.output
    assert not (tmp_path / "h").exists()


def test_map_png_is_drawn_at_the_width_asked(game: Path, tmp_path: Path) -> None:
    """`pbem map --out FILE.png` is forum-sized by default and as wide as `--width` asks."""
    import struct

    for args, width in (((), 1400), (("--width", "600"), 600)):
        out = tmp_path / f"map-{width}.png"
        result = run("map", "--game", str(game), "--out", str(out), *args)
        assert result.exit_code == 0, result.output
        assert struct.unpack(">I", out.read_bytes()[16:20])[0] == width
    refused = run("map", "--game", str(game), "--out", str(tmp_path / "m.png"), "--width", "5")
    assert refused.exit_code != 0 and "--width" in refused.output


@pytest.mark.parametrize("player", ["Germany=anna", "Germany=", "Germany=anna@example.org, bob@example.org"])
def test_a_player_is_an_e_mail_address(tmp_path: Path, player: str) -> None:
    """Orders, reports and reminders go to the player's address: a name that is none is refused
    before the game is made, and nothing is written."""
    target = tmp_path / "g"
    result = CliRunner().invoke(cli, ["new", str(target), "--dice", "local", "--player", player])
    assert result.exit_code != 0 and "not an e-mail address" in result.output
    assert not target.exists() or not any(target.iterdir())


def test_status_says_who_collects_nothing_for_a_lost_capital(tmp_path: Path) -> None:
    """1942 Second Edition, Capturing a Capital: a power whose capital is held by an enemy cannot
    collect income; the status table shows its territories' income, so it says so beside it (1940's
    France, Paris taken in the first round, showed an income of 11 it would never collect)."""
    from dataclasses import replace

    from pbem.game.game import Game
    from pbem.io.state import dump_state

    target = tmp_path / "g"
    assert run("new", str(target), "--id", "g", "--dice", "local").exit_code == 0
    g = Game(target)
    taken = replace(g.state(), control={**g.state().control, "Russia": "Germany"})
    g.repo.commit({"state.yaml": dump_state(taken, g.ruleset).encode()}, "Moscow taken, for the test")
    out = run("status", "--game", str(target)).output
    assert "Soviet Union's income of 16 is not collected while its capital, Russia, is in enemy hands" in out  # 24 less Russia's 8
    assert "Germany collects no income" not in out
    assert json.loads(run("status", "--game", str(target), "--json").output)["capital_lost"] == {"Soviet Union": "Russia"}


def test_status_says_when_a_held_victory_condition_would_win(tmp_path: Path) -> None:
    """1940 Global (TripleA's notes): a side "must maintain it for a complete round of play"; while
    it does, `pbem status` says since when and until which turn, in text and JSON."""
    from dataclasses import replace

    from pbem.game.game import Game
    from pbem.io.state import dump_state

    target = tmp_path / "g40"
    assert run("new", str(target), "--id", "g40", "--dice", "local", "--ruleset", "global-1940").exit_code == 0
    g = Game(target)
    held = replace(g.state(), pending={**g.state().pending, "victory_held": {"side": "Axis", "round": 3, "power": "Italy"}})
    g.repo.commit({"state.yaml": dump_state(held, g.ruleset).encode()}, "a held condition, for the test")
    out = run("status", "--game", str(target)).output
    assert "The Axis hold their victory condition since Italy's turn in round 3: they win if they still hold it at the end of every turn until Italy's turn in round 4 ends" in out
    data = json.loads(run("status", "--game", str(target), "--json").output)
    assert data["victory_held"] == {"side": "Axis", "round": 3, "power": "Italy"}


def test_a_seed_without_local_dice_is_refused_not_ignored(tmp_path: Path) -> None:
    """README, Start a game: `--seed` is the seed of `--dice local`; with committed dice it would be
    silently ignored, and the player would believe the dice foreseeable or fixed."""
    result = CliRunner().invoke(cli, ["new", str(tmp_path / "g"), "--id", "g", "--seed", "foo"])
    assert result.exit_code == 2 and "--dice local" in result.output and "Traceback" not in result.output, result.output
    assert not (tmp_path / "g").exists()


def test_map_refuses_a_picture_format_it_does_not_write(game: Path, tmp_path: Path) -> None:
    """`--out m.jpg` wrote SVG into a .jpg; a missing folder gave a raw OS error."""
    wrong = run("map", "--game", str(game), "--out", str(tmp_path / "m.jpg"))
    assert wrong.exit_code == 2 and "written as .svg or .png, not .jpg" in wrong.output
    assert not (tmp_path / "m.jpg").exists()
    nowhere = run("map", "--game", str(game), "--out", str(tmp_path / "nodir" / "m.svg"))
    assert nowhere.exit_code == 2 and "does not exist" in nowhere.output


def test_a_power_given_two_players_is_refused(tmp_path: Path) -> None:
    """`--player Russians=...` and `--player "Soviet Union=..."` name one power: the second used to win silently."""
    result = run("new", str(tmp_path / "g"), "--player", "Russians=x@example.org", "--player", "Soviet Union=z@example.org")
    assert result.exit_code == 2
    assert "Soviet Union is given twice (also --player 'Russians=x@example.org')" in result.output
    assert not (tmp_path / "g").exists()


def test_an_unknown_ruleset_is_told_without_a_file_prefix(tmp_path: Path) -> None:
    result = run("new", str(tmp_path / "g"), "--ruleset", "nosuch")
    assert result.exit_code == 2 and "invalid: unknown ruleset 'nosuch'" in result.output
    assert "<input>" not in result.output


def test_every_problem_of_a_hosting_file_is_told_at_its_line(tmp_path: Path) -> None:
    """They were told as "game.yaml hosting...", with no line, and only the first."""
    hosting = tmp_path / "hosting.yaml"
    hosting.write_text("hosting:\n  turn_hours: -5\n  missing_orders: banana\n  report_map: gif\n")
    result = run("new", str(tmp_path / "g"), "--hosting", str(hosting))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if "invalid" in line]
    assert [line.split(": invalid")[0].rsplit(":", 2)[-2] for line in lines] == ["2", "3", "4"]
    assert "hosting.turn_hours must be a number of hours, not -5" in lines[0]
    assert "3 problems found" in result.output and not (tmp_path / "g").exists()


def test_standing_orders_for_another_game_are_refused_and_submit_shows_warnings(game: Path) -> None:
    """Orders of another game were refused, standing orders were not; and `submit` kept to itself the
    warnings `validate` gives."""
    other = game.parent / "other.yaml"
    other.write_text("game: another\npower: Germany\nstanding_orders: {default: {order_of_loss: [infantry]}}\n")
    refused = run("submit", str(other), "--game", str(game))
    assert refused.exit_code == 2 and "these standing orders are for game 'another', this is 'demo'" in refused.output
    unread = game.parent / "unread.yaml"  # 1942 has no kamikaze: the key is read by no rule here
    unread.write_text("game: demo\npower: Germany\nstanding_orders: {kamikaze: [{targets: [battleship]}]}\n")
    checked = run("validate", str(unread), "--game", str(game))
    assert checked.exit_code == 0 and "unread.yaml:3:" in checked.output and "warning" in checked.output
    submitted = run("submit", str(unread), "--game", str(game))
    assert submitted.exit_code == 0 and "unread.yaml:3:" in submitted.output and "warning" in submitted.output
