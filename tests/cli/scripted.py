"""What every scripted example test starts from: the example game of a rule system played by
`pbem demo` into a folder, and the JSON reports it wrote, in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli import cli


def play_demo(factory: pytest.TempPathFactory, ruleset: str, rounds: int) -> Path:
    target = factory.mktemp(ruleset) / "game"
    result = CliRunner().invoke(cli, ["demo", str(target), "--ruleset", ruleset, "--rounds", str(rounds), "--format", "md"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return target


def read_reports(game: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((game / "reports").glob("round-*/*.json"))]
