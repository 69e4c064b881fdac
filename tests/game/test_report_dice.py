"""A report shows every die the audit shows for its turn: players check the dice in the report they read.

Issue (a player's view): a Revised raid by a bomber and a dive-bombing fighter was reported as the
bomber alone, the fighter's die shown as the bomber's and its AA die missing.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import explain_turn
from pbem.game.game import Game, report_path


def report_dice(report: dict[str, Any]) -> Counter[int]:
    """Every die shown in a report's data: battle steps, raid rolls, research and rocket dice."""
    dice: Counter[int] = Counter()
    for battle in report["battles"]:
        for rnd in battle["rounds"]:
            for step in rnd["steps"]:
                for group in step["groups"]:
                    dice.update(group["dice"])
    for raid in report["bombing"]:
        for roll in raid["rolls"]:
            dice.update(roll["dice"])
    for roll in report.get("rolls", []):
        dice.update(roll["dice"])
    return dice


@pytest.fixture(scope="module", params=["1942-2e", "revised"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp(request.param) / "game"
    result = CliRunner().invoke(cli, ["demo", str(target), "--ruleset", request.param, "--rounds", "3"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return target


def test_every_die_the_audit_shows_is_in_that_turns_report(played: Path) -> None:
    game = Game(played)
    turns = game.adjudications()
    assert turns >= 10
    for n in range(1, turns + 1):
        explained = explain_turn(played, n)
        audited: Counter[int] = Counter()
        for roll in explained["rolls"]:
            audited.update(roll["values"])
        index = game.ruleset.turn_order.index(explained["power"])
        report = json.loads(game.repo.read(report_path(int(explained["round"]), index, explained["power"], "json"),
                                           explained["commit"]) or b"{}")
        assert report_dice(report) == audited, f"turn {n} ({explained['power']}, round {explained['round']}): " \
            f"audit rolls {explained['rolls']}"


@pytest.mark.parametrize("seed", ["one", "two", "three"])
def test_a_dive_bombing_raid_reports_the_fighter_and_every_aa_die(tmp_path: Path, seed: str) -> None:
    """Revised, Luftwaffe Dive-Bombers (Appendix 3: "Your fighters may conduct strategic bombing raids ...
    They are subject to antiaircraft fire as normal"): a raid by a bomber and a fighter names both,
    shows the gun's die at each, and every die matches the audit, whatever the dice."""
    from pbem.game.game import new_game

    game = new_game(tmp_path / "g", "revised", {}, game_id="dive", dice_mode="local", local_seed=seed,
                    options={"luftwaffe_dive_bombers": True})
    game.submit(b"power: Soviet Union\nround: 1\n", "su.yaml")
    game.adjudicate()
    orders = ("power: Germany\nround: 1\ncombat_move:\n"
              "  - {units: 1 bomber, from: Germany, to: United Kingdom, mission: strategic_bombing}\n"
              "  - {units: 1 fighter, from: Western Europe, to: United Kingdom, mission: strategic_bombing}\n"
              "noncombat_move:\n"
              "  - {units: 1 bomber, from: United Kingdom, to: Germany}\n"
              "  - {units: 1 fighter, from: United Kingdom, to: Western Europe}\n")
    game = Game(tmp_path / "g")
    game.submit(orders.encode(), "germany.yaml")
    _, report = game.adjudicate()
    raid = report["bombing"][0]
    assert raid["bombers"] == {"bomber": 1, "fighter": 1}
    aa = [r for r in raid["rolls"] if r["step"] == "aa"]
    assert sorted(r["target"] for r in aa) == ["1 bomber", "1 fighter"]
    assert all(len(r["dice"]) == 1 for r in aa)
    audited: Counter[int] = Counter()
    for roll in explain_turn(tmp_path / "g", 2)["rolls"]:
        audited.update(roll["values"])
    assert report_dice(report) == audited
    from pbem.report.render import render_report

    for fmt in ("text", "md", "bbcode", "html"):
        text = render_report(report, fmt)
        assert "at 1 fighter" in text and "at 1 bomber" in text, fmt
