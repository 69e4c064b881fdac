"""The scripted Pacific (2001) example game (examples/pacific-2001): three rounds that show the
rulebook's own rules through `pbem demo`, the reports, the map and `audit`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game
from tests.cli.scripted import play_demo, read_reports


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_demo(tmp_path_factory, "pacific-2001", 3)


@pytest.fixture(scope="module")
def reports(played: Path) -> list[dict]:
    return read_reports(played)


def test_three_rounds_of_three_powers(reports: list[dict]) -> None:
    """Order of Play: Japan, Great Britain (India and Australia), the United States (USA and China)."""
    assert [(r["round"], r["power"]) for r in reports] == [
        (n, p) for n in (1, 2, 3) for p in ("Japan", "Great Britain", "United States")]


def test_pacific_rules_show_in_the_reports(reports: list[dict]) -> None:
    notes = [n for r in reports for n in r["notes"]]
    captures = [c for r in reports for c in r["captures"]]
    battles = [b for r in reports for b in r["battles"]]
    # Japan's first turn: the Allies defend at 1 (Pearl Harbor), the Chinese at full strength
    first = {b["space"]: b for b in reports[0]["battles"]}
    defence = [g for rnd in first["SZ 9"]["rounds"] for s in rnd["steps"] if s["side"] == "defender" for g in s["groups"]]
    assert defence and all(g["hit_on"] == 1 for g in defence)
    chinese = [g for rnd in first["Yunnan"]["rounds"] for s in rnd["steps"] if s["side"] == "defender" for g in s["groups"]]
    assert chinese and all(g["hit_on"] == 2 for g in chinese)
    # a kamikaze attack in the first round of a battle with a fighter on combat air patrol
    assert any("launches 2 kamikazes in SZ 37" in n for n in notes)
    sz37 = next(b for b in reports[2]["battles"] if b["space"] == "SZ 37")
    steps = {s["step"] for rnd in sz37["rounds"] for s in rnd["steps"]}
    assert "sacrifice-defender" in steps and any("fighter" in f["units"] for f in sz37["forces"]["defender"])
    # convoy routes taken, and the income they carry lost
    routes = [c for c in captures if c.get("convoy_route")]
    assert {("Borneo", "Japan"), ("Celebes", "Japan"), ("Hawaiian", "Japan"), ("Borneo", "India")} <= {
        (c["convoy_route"], c["by"]) for c in routes}
    # victory points at every Japanese turn, China's infantry at every American one
    assert [r["victory_points"]["scored"] for r in reports if r["power"] == "Japan"] == [2, 2, 2]
    assert reports[-1]["victory_points"]["total"] == 6
    assert sum("Chinese infantry of United States placed free in Szechwan" in n for n in notes) == 3
    # India and Australia buy and collect apart
    gb = reports[1]
    assert {e.get("country") for e in gb["economy"] if e["power"] == "Great Britain"} == {None, "India", "Australia"}
    assert any("convoy income of 12 IPCs goes 8 to Australia" in n for n in notes)
    assert {b["kind"] for b in battles} == {"land", "sea", "amphibious"}


def test_the_pacific_game_audits_clean(played: Path) -> None:
    assert audit_game(played).ok


def test_every_report_format_and_the_map(played: Path, tmp_path: Path) -> None:
    for fmt in ("md", "bbcode", "html", "text", "json"):
        result = CliRunner().invoke(cli, ["report", "--game", str(played), "--format", fmt], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert "Victory points" in result.output or fmt == "json"
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(cli, ["map", "--game", str(played), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "Szechwan" in svg and "SZ 37" in svg
