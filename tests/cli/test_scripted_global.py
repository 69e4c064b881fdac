"""The scripted 1940 Global example game (examples/global-1940): two full rounds of nine powers
through `pbem demo`, with a declaration of war, a scramble, bombing raids on a complex and national
objectives paid; the reports, the map and `audit`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game
from tests.cli.scripted import play_demo, read_reports

ORDER = ["Germany", "Soviet Union", "Japan", "United States", "China", "United Kingdom", "Italy", "ANZAC", "France"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_demo(tmp_path_factory, "global-1940", 2)


@pytest.fixture(scope="module")
def reports(played: Path) -> list[dict]:
    return read_reports(played)


def test_two_full_rounds_of_nine_powers(reports: list[dict]) -> None:
    """Order of play (DIGEST §1.2): Germany, USSR, Japan, United States, China, UK, Italy, ANZAC, France."""
    assert [(r["round"], r["power"]) for r in reports] == [(n, p) for n in (1, 2) for p in ORDER]


def test_the_1940_rules_show_in_the_reports(reports: list[dict]) -> None:
    notes = [n for r in reports for n in r["notes"]]
    # declarations of war, and the United States' early entry after Japan's unprovoked one
    declared = [d for r in reports for d in r.get("declarations", [])]  # told first, apart from the notes
    assert "Germany declares war on Soviet Union" in declared
    assert "Japan declares war on United Kingdom" in declared
    assert any(d.startswith("Japan and ANZAC are at war too") for d in declared)
    assert "United States declares war on Japan" in declared
    # a scramble, and a bombing raid on a facility
    assert any("scrambles" in n and "into SZ 111" in n for n in notes)
    raids = [b for r in reports for b in r["bombing"]]
    assert raids and all(b["space"] == "United Kingdom" for b in raids)
    # national objectives paid, and lost when the conditions end
    assert any("Germany collects 5 IPCs for its national objective: trade with the Soviet Union" in n
               for n in reports[0]["notes"])
    assert not any("trade with the Soviet Union" in n for n in reports[9]["notes"])
    assert any("United States collects 10 IPCs for its national objective: the homeland" in n for n in reports[12]["notes"])
    assert any("Soviet Union collects 5 IPCs for its national objective: Lend-Lease" in n for n in reports[10]["notes"])
    # China places with no complex; France without its capital collects nothing
    assert any(p["power"] == "China" for r in reports for p in r["placements"])
    assert "France collects no income: its capital is in enemy hands" in reports[-1]["notes"]


def test_the_global_game_audits_clean(played: Path) -> None:
    assert audit_game(played).ok


def test_every_report_format_and_the_map(played: Path, tmp_path: Path) -> None:
    for fmt in ("md", "bbcode", "html", "text", "json"):
        result = CliRunner().invoke(cli, ["report", "--game", str(played), "--format", fmt], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(cli, ["map", "--game", str(played), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "Szechwan" in svg and "SZ 111" in svg


def test_the_uk_economies_buy_each_from_its_own_treasury_in_the_report(reports: list[dict]) -> None:
    """Political rules, UK (DIGEST §1.2; the AMS guide: "Each economy must make its own separate
    purchases and pay for its own repairs"): the report says what each bought and what it had left,
    not a merged "United Kingdom" treasury no state holds."""
    uk = next(r for r in reports if r["power"] == "United Kingdom")
    per = {c["country"]: c for c in uk["purchases"]["by_country"]}
    assert set(per) == {"UK Europe", "UK Pacific"}
    assert sum(c["spent"] for c in per.values()) == uk["purchases"]["total"]
    for c in per.values():
        assert c["treasury_after"] == c["treasury_before"] - c["spent"] >= 0
