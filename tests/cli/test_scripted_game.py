"""The scripted example game (examples/1942-2e): three rounds with battles of every kind, audited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("scripted") / "game"
    result = CliRunner().invoke(cli, ["demo", str(target), "--rounds", "3", "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return target


def reports(game: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((game / "reports").glob("round-*/*.json"))]


def test_three_full_rounds_are_played(played: Path) -> None:
    assert len(reports(played)) == 15
    assert json.loads(CliRunner().invoke(cli, ["status", "--game", str(played), "--json"]).output)["round"] == 4


def test_battles_of_every_kind(played: Path) -> None:
    all_reports = reports(played)
    battles = [b for r in all_reports for b in r["battles"]]
    assert any(r["bombing"] for r in all_reports), "a strategic bombing raid"
    amphibious = [b for b in battles if b["kind"] == "amphibious"]
    assert any(s["step"] == "bombard" for b in amphibious for rnd in b["rounds"] for s in rnd["steps"]), "bombardment"
    naval = [b for b in battles if b["kind"] == "sea"]
    units = [set(f["units"]) for b in naval for f in b["forces"]["attacker"] + b["forces"]["defender"]]
    assert any("submarine" in u for u in units) and any("destroyer" in u for u in units), "subs and destroyers"
    assert any(s["step"] == "aa" for b in battles for rnd in b["rounds"] for s in rnd["steps"]), "antiaircraft fire"
    capital = [c for r in all_reports for c in r["captures"] if c["capital"]]
    assert capital and capital[0]["space"] == "Russia" and capital[0]["plunder"] > 0, "a capital captured, treasury taken"


def test_the_scripted_game_audits_clean(played: Path) -> None:
    result = audit_game(played)
    assert result.ok, result.findings[:1]
