"""`pbem ruleset show`: what a player looks up while writing orders, from the ruleset's own data."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from click.testing import CliRunner

from pbem.cli import cli
from pbem.io.rulesets import load_ruleset


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_show_lists_spaces_with_neighbours_values_and_owners() -> None:
    result = run("ruleset", "show", "1942-2e", "--only", "spaces")
    assert result.exit_code == 0, result.output
    ruleset = load_ruleset("1942-2e")
    lines = result.output.splitlines()
    at = lines.index(next(line for line in lines if line.strip().startswith("Germany (")))
    germany = ruleset.board.spaces["Germany"]
    assert f"{germany.ipc} IPC" in lines[at] and "owner Germany" in lines[at] and "capital of Germany" in lines[at]
    assert all(n in lines[at + 1] for n in ruleset.board.neighbours("Germany"))
    assert "Units (" not in result.output  # --only keeps to the part asked for


def test_show_json_has_units_options_and_declarations_that_need_an_option() -> None:
    result = run("ruleset", "show", "rev", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["id"] == "revised"
    tank = next(u for u in data["units"] if u["name"] == "tank")
    assert (tank["cost"], tank["attack"], tank["defense"], tank["move"]) == (5, 3, 3, 2)
    assert {"victory", "russian_winter"} <= {o["name"] for o in data["options"]}
    # Russian Winter is declared in orders once its national advantage is switched on
    assert "russian_winter=true" in data["declarations"]["Soviet Union"]["russian_winter"]
    assert len(data["spaces"]) == len(load_ruleset("revised").board.spaces)


def test_unknown_ruleset_is_a_message_with_the_known_ones() -> None:
    result = CliRunner().invoke(cli, ["ruleset", "show", "risk"])
    assert result.exit_code != 0
    assert "1942-2e" in result.output and "revised" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [["ruleset", "show", "1942-2e"], ["luck", "--game", "{game}"]])
def test_a_reader_that_stops_early_gets_no_broken_pipe_error(command: list[str], tmp_path: Path) -> None:
    """`pbem ... | head` must not print "Broken pipe" errors (issue: a player's view)."""
    if "{game}" in command:
        assert run("demo", str(tmp_path / "g")).exit_code == 0
        command = [c.replace("{game}", str(tmp_path / "g")) for c in command]
    read_end, write_end = os.pipe()
    with contextlib.suppress(OSError, AttributeError):  # a small pipe, so the output cannot fit in it
        fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    child = subprocess.Popen([sys.executable, "-m", "pbem", *command],
                             stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    assert child.stderr is not None
    os.read(read_end, 10)
    os.close(read_end)
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) != 0 or not err
    assert "Broken pipe" not in err and "Traceback" not in err, err


def test_list_aligns_the_names_past_the_longest_id() -> None:
    from click.testing import CliRunner

    from pbem.cli import cli

    lines = CliRunner().invoke(cli, ["ruleset", "list"]).output.splitlines()
    assert len({line.index("Axis & Allies") for line in lines}) == 1, lines
    assert any(line.startswith("global-1940-ams  Axis & Allies") for line in lines)
