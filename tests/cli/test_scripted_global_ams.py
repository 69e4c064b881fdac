"""The scripted AMS example game (examples/global-1940-ams): two full rounds of nine powers through
`pbem demo`, with a declaration of war, a victory token claimed and lost, a technology roll, new
facilities (a pill box, a military base) and AMS bombing raids; the reports, the map and `audit`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game
from tests.cli.scripted import play_demo, read_reports
from pbem.io.rulesets import load_ruleset
from pbem.io.state import load_state

ORDER = ["Germany", "Soviet Union", "Japan", "United States", "China", "United Kingdom", "Italy", "ANZAC", "France"]
TOKEN = "no US surface warships in the Pacific"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_demo(tmp_path_factory, "global-1940-ams", 2)


@pytest.fixture(scope="module")
def reports(played: Path) -> list[dict]:
    return read_reports(played)


def test_two_full_rounds_of_nine_powers(reports: list[dict]) -> None:
    """Order of Play (AMS): Germany, USSR, Japan, United States, China, UK, Italy, ANZAC, France."""
    assert [(r["round"], r["power"]) for r in reports] == [(n, p) for n in (1, 2) for p in ORDER]


def test_a_declaration_a_token_and_a_technology_roll(reports: list[dict]) -> None:
    """Japan declares war on the United States; the American fleets leave the Pacific board, so the
    Axis claim a token at the end of the American turn and Japan rolls on chart 2; a destroyer comes
    back in round 2 and the token is lost (AMS, Victory Objectives, Victory Tokens, and R&D)."""
    japan, america, america_2 = reports[2], reports[3], reports[12]
    assert "Japan declares war on United States" in japan["declarations"]
    assert f"The Axis claim the victory token: {TOKEN}" in america["notes"]
    rolls = [r for r in america["rolls"] if r["step"] == "technology"]
    assert len(rolls) == 1 and rolls[0]["power"] == "Japan" and "chart 2" in rolls[0]["what"]
    assert f"The Axis lose the victory token: {TOKEN}" in america_2["notes"]
    tokens = {row["side"]: row for row in america["victory_cities"]}
    assert tokens["Axis: victory tokens"]["cities"] == [TOKEN] and tokens["Axis: victory tokens"]["needed"] == 4


def test_the_breakthrough_stays_after_the_token_is_lost(played: Path) -> None:
    """R&D: "Breakthroughs are not lost if that player subsequently loses the victory token"."""
    state = load_state((played / "state.yaml").read_bytes(), load_ruleset("global-1940-ams"))
    assert state.developments.get("Japan") and TOKEN in state.pending["tokens_claimed"]
    assert TOKEN not in (state.pending.get("tokens") or {})


def test_new_facilities_and_house_bombing(reports: list[dict]) -> None:
    """A pill box in the United Kingdom, a military base in New Zealand that then mobilizes two
    infantry; and raids on London, whose fighters intercept: the box's +2 is gone (Bombing Raids)."""
    placed = {(r["round"], p["space"]): p["units"] for r in reports for p in r["placements"]}
    assert placed[(1, "United Kingdom")].get("pill box") == 1
    assert placed[(1, "New Zealand")] == {"military base": 1}
    assert placed[(2, "New Zealand")] == {"infantry": 2}
    raids = [b for r in reports for b in r["bombing"]]
    assert raids and all(b["damage_bonus"] == 0 for b in raids)
    assert any(roll["step"] == "interceptor" for b in raids for roll in b["rolls"])


def test_the_set_ups_conditional_upgrades(reports: list[dict]) -> None:
    """Initial Set-Up: the American major factories go up a level once the United States is at war,
    India's once the United Kingdom is at war with Japan."""
    notes = [n for r in reports for n in r["notes"]]
    for where in ("Eastern United States", "Central United States", "Western United States", "India"):
        assert any(f"the major factory in {where} is upgraded to an industrial complex" in n for n in notes), where


def test_the_ams_game_audits_clean(played: Path) -> None:
    assert audit_game(played).ok


def test_every_report_format_and_the_map(played: Path, tmp_path: Path) -> None:
    for fmt in ("md", "bbcode", "html", "text", "json"):
        result = CliRunner().invoke(cli, ["report", "--game", str(played), "--format", fmt], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert "victory tokens" in result.output
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(cli, ["map", "--game", str(played), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Szechwan" in out.read_text()


def test_status_shows_tokens_and_breakthroughs(played: Path) -> None:
    """`pbem status`: the tokens each side holds and what each power has developed."""
    result = CliRunner().invoke(cli, ["status", "--game", str(played)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Victory tokens (4 and 2 more than the other side win):" in result.output
    assert "Japan has developed: " in result.output
    data = json.loads(CliRunner().invoke(cli, ["status", "--game", str(played), "--json"], catch_exceptions=False).output)
    assert data["victory_tokens"]["held"] == {"Allies": [], "Axis": []} and data["developments"]["Japan"]
