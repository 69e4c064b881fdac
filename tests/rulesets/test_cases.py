"""Every rule case of every rule system (tests/rulesets/<id>/cases/*.yaml), one pytest test each,
run by the same runner as `pbem case run`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game.cases import case_files, read_cases, run_case

HERE = Path(__file__).resolve().parent
FILES = case_files(sorted(HERE.glob("*/cases")))
CASES = [c for f in FILES for c in read_cases(f)[0]]


def test_every_case_file_is_readable() -> None:
    """A case file the runner cannot read (schema, YAML) would silently drop its cases."""
    broken = [r.line() for f in FILES for r in read_cases(f)[1]]
    assert FILES and not broken, broken


@pytest.mark.parametrize("case", CASES, ids=[f"{c.path.parent.parent.name}::{c.name}" for c in CASES])
def test_case(case) -> None:  # type: ignore[no-untyped-def]
    result = run_case(case)
    assert result.passed, result.line()
