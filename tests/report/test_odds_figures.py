"""The odds read the same everywhere: `pbem validate`, every report format and `pbem odds` (issue: a
player's view - the preview and reports left out retreat and stalemate and rounded twice)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import cli
from pbem.report.render import odds_phrase

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1942-2e" / "round-01"


def percents(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(\d+\.\d)%", text)]


def test_the_phrase_names_every_outcome_and_they_add_up() -> None:
    odds = {"attacker_win": 0.25449999, "defender_win": 0.05, "draw": 0.002, "retreat": 0.69350001, "stalemate": 0.0,
            "capture": 0.25449999}
    text = odds_phrase(odds, "land")
    assert "attacker retreats 69.4%" in text and "attacker wins 25.4%" in text and "stalemate" not in text
    assert abs(sum(percents(text)[:4]) - 100) <= 0.2
    assert "capture" not in odds_phrase(odds, "sea")
    assert "stalemate 1.0%" in odds_phrase({**odds, "stalemate": 0.01}, "sea")


def test_validate_shows_retreats_so_the_outcomes_add_up_to_the_whole(tmp_path: Path) -> None:
    run = CliRunner().invoke
    game = tmp_path / "g"
    assert run(cli, ["new", str(game), "--id", "demo", "--dice", "local", "--seed", "t"]).exit_code == 0
    result = run(cli, ["validate", str(EXAMPLES / "1-soviet-union.yaml"), "--game", str(game)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "battle in" in line and "wins" in line]
    assert lines and any("retreats" in line for line in lines), result.output  # the orders give a retreat directive
    for line in lines:
        outcome = percents(line.split(", capture")[0])
        assert abs(sum(outcome) - 100) <= 0.3, line
