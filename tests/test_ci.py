"""The Quick start, CI and the lock file agree (issue 12: a dependency's release must never break
main unseen)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## Quick start\s+```sh\n(.*?)```", text, re.S)
    assert block, "README has no Quick start block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / ".ci" / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            out[re.sub(r"[-_.]+", "-", name.lower())] = version
    return out


def test_the_quick_start_is_two_commands_installing_the_pinned_versions() -> None:
    first, second = quick_start()
    assert "-c .ci/constraints.txt" in first and first.endswith("pbem demo")
    assert "-c .ci/constraints.txt" in second and "'.[test]'" in second


def test_ci_runs_the_readmes_test_command_with_the_same_pins() -> None:
    run = (ROOT / ".ci" / "run").read_text()
    test_command = quick_start()[1].split("&& ", 1)[1]
    assert test_command in run


def test_every_dependency_is_pinned_exactly() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    pinned = pins()
    for requirement in wanted:
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0].lower())
        assert name in pinned, f"{name} is not pinned in .ci/constraints.txt"
    assert all(re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", v) for v in pinned.values())
