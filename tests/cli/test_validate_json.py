"""`pbem validate --json`: every outcome is JSON that matches schemas/validate.schema.json, with
distinct, documented exit codes (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from pbem.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "validate.schema.json").read_text())
ORDERS = ROOT / "examples" / "1942-2e" / "round-01" / "1-soviet-union.yaml"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("v") / "demo"
    assert CliRunner().invoke(cli, ["new", str(target), "--id", "demo", "--dice", "local"]).exit_code == 0
    return target


def run(*args: str) -> tuple[int, object]:
    result = CliRunner().invoke(cli, ["validate", *args, "--json"])
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    return result.exit_code, data


def test_valid_orders(game: Path) -> None:
    code, data = run(str(ORDERS), "--game", str(game))
    assert code == 0 and data["valid"] is True and data["kind"] == "orders"  # type: ignore[index]
    assert data["battles"][0]["space"] == "West Russia"  # type: ignore[index]


def test_valid_standing_orders(game: Path, tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("power: Germany\nstanding_orders: {}\n")
    code, data = run(str(f), "--game", str(game))
    assert code == 0 and data["kind"] == "standing_orders" and data["battles"] == []  # type: ignore[index]


def test_orders_with_problems(game: Path, tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(ORDERS.read_text().replace("from: Karelia", "from: Atlantis"))
    code, data = run(str(f), "--game", str(game))
    assert code == 2 and data["problems"][0]["line"] >= 1  # type: ignore[index]


def test_no_such_game_is_json_too(tmp_path: Path) -> None:
    code, data = run(str(ORDERS), "--game", str(tmp_path / "nowhere"))
    assert code == 3 and data["error"]["kind"] == "no-game"  # type: ignore[index]


def test_no_such_file_is_json_too(game: Path, tmp_path: Path) -> None:
    code, data = run(str(tmp_path / "missing.yaml"), "--game", str(game))
    assert code == 4 and data["error"]["kind"] == "no-file" and "missing.yaml" in data["error"]["message"]  # type: ignore[index]



def test_a_folder_given_as_the_file_is_json_too(game: Path, tmp_path: Path) -> None:
    code, data = run(str(tmp_path), "--game", str(game))
    assert code == 4 and data["error"]["kind"] == "no-file" and "Is a directory" in data["error"]["message"]  # type: ignore[index]


def test_without_json_the_codes_are_the_same(game: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "missing.yaml"), "--game", str(game)])
    assert result.exit_code == 4 and "cannot read" in result.stderr
    result = CliRunner().invoke(cli, ["validate", str(ORDERS), "--game", str(tmp_path / "nowhere")])
    assert result.exit_code == 3 and "not a pbem game" in result.stderr


def test_a_list_cut_short_still_counts_every_problem(game: Path, tmp_path: Path) -> None:
    """A file with more problems than are listed says how many it has in all, as the text output's
    closing "N problems found" line does."""
    f = tmp_path / "many.yaml"
    moves = "".join(f"  - {{units: 1 infantry, from: Atlantis{i}, to: Karelia S.S.R.}}\n" for i in range(130))
    f.write_text(f"game: demo\npower: Soviet Union\nround: 1\ncombat_move:\n{moves}")
    code, data = run(str(f), "--game", str(game))
    assert code == 2 and data["problem_count"] == 130 and len(data["problems"]) < 130  # type: ignore[index, arg-type]
    assert data["problems"][-1]["code"] == "problems.unlisted"  # type: ignore[index]


def test_warnings_carry_their_hint(game: Path, tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("power: Germany\nstanding_orders:\n  default: {intercept: true}\n")
    code, data = run(str(f), "--game", str(game))
    (warning,) = data["warnings"]  # type: ignore[index]
    assert code == 0 and warning["hint"] == "remove intercept:"
