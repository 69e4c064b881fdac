"""The scripted Revised example game (examples/revised): two rounds that show Revised's own rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game.audit import audit_game
from tests.cli.scripted import play_demo, read_reports


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_demo(tmp_path_factory, "revised", 3)


def test_revised_rules_show_in_the_reports(played: Path) -> None:
    reports = read_reports(played)
    assert len(reports) == 15
    notes = [n for r in reports for n in r["notes"]]
    rolls = [roll for r in reports for roll in r["rolls"]]
    assert any(roll["step"] == "research" for roll in rolls), "Develop Weapons"
    assert any(r["purchases"] and r["purchases"]["research"] for r in reports), "research dice are a purchase"
    assert any("bombing of United Kingdom costs United Kingdom" in n for n in notes), "bombing paid in IPCs"
    sea = [b for r in reports for b in r["battles"] if b["space"] == "SZ 7"]
    assert any(s["step"] == "surprise-attacker" for b in sea for rnd in b["rounds"] for s in rnd["steps"]), "opening fire"
    uk_air = [b for b in sea if b["attacker"] == "United Kingdom"]
    assert uk_air and uk_air[0]["result"] == "attacker-won", "air units sank the submarines"
    assert any(roll["step"] == "aa-overflight" for roll in rolls), "antiaircraft fire at an overflight"
    amphibious_lost = [b for r in reports for b in r["battles"] if b["space"] == "SZ 15"]
    assert amphibious_lost and amphibious_lost[0]["result"] == "draw", "the offload zone's sea battle comes first"


def test_the_revised_game_audits_clean(played: Path) -> None:
    assert audit_game(played).ok
