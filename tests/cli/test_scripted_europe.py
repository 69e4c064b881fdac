"""The scripted Europe (1999) example game (examples/europe-1999): the cash advance and three rounds
that show Europe's own rules, through `pbem demo`, the reports and `audit`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game.audit import audit_game
from tests.cli.scripted import play_demo, read_reports


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_demo(tmp_path_factory, "europe-1999", 3)


@pytest.fixture(scope="module")
def reports(played: Path) -> list[dict]:
    return read_reports(played)


def test_the_cash_advance_comes_first(reports: list[dict]) -> None:
    """Special Cash Advance: round 0, buy and place or keep, then the starting income."""
    advance = [r for r in reports if r["round"] == 0]
    assert [r["power"] for r in advance] == ["Germany", "Soviet Union", "Great Britain", "United States"]
    assert advance[0]["placements"] and not advance[0]["battles"]
    assert any("receives its starting income of 40 IPCs" in n for n in advance[0]["notes"])
    assert len(reports) == 16


def test_europe_rules_show_in_the_reports(reports: list[dict]) -> None:
    notes = [n for r in reports for n in r["notes"]]
    captures = [c for r in reports for c in r["captures"]]
    battles = [b for r in reports for b in r["battles"]]
    assert any(c["space"].startswith("British Convoy") and c["by"] == "Germany" for c in captures), "a convoy centre taken"
    assert any(c["space"] == "U.S. Convoy 1" and c["by"] == "United States" for c in captures), "a convoy centre retaken"
    assert any("pays Germany" in n for n in notes), "the Middle East paid to Germany"
    assert any("becomes Soviet Union's" in n for n in notes), "the Soviet Patriotic War"
    kinds = {b["kind"] for b in battles}
    assert kinds == {"land", "sea", "amphibious"}
    steps = {s["step"] for b in battles for rnd in b["rounds"] for s in rnd["steps"]}
    assert {"surprise-attacker", "bombard"} <= steps, "a first strike and a support shot"
    raids = [raid for r in reports for raid in r["bombing"]]
    assert any(raid.get("escorts") for raid in raids), "an escorted raid"


def test_the_europe_game_audits_clean(played: Path) -> None:
    assert audit_game(played).ok


def test_status_says_what_round_0_is(tmp_path: Path) -> None:
    """Special Cash Advance: a round 0 is no turn a player knows from other editions; `pbem status` says what it is."""
    from click.testing import CliRunner

    from pbem.cli import cli

    game = tmp_path / "g"
    assert CliRunner().invoke(cli, ["new", str(game), "--ruleset", "europe-1999", "--dice", "local", "--seed", "s"]).exit_code == 0
    out = CliRunner().invoke(cli, ["status", "--game", str(game)]).output
    assert "round 0 (before the first turn: the cash advance, buying and placing only)" in out
