"""The conformance lists (pbem/rulesets/<id>/CONFORMANCE.md) point only at tests and rule cases
that exist, every row has a status, and each list's closing count is right (issue 13)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pbem.game.cases import read_cases

ROOT = Path(__file__).resolve().parents[2]
LISTS = sorted((ROOT / "pbem" / "rulesets").glob("*/CONFORMANCE.md"))


def rows(path: Path) -> list[list[str]]:
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("|") and not line.startswith("|---") and not line.startswith("| Section"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert len(cells) == 4, f"{path.name}: a row needs 4 cells: {line}"
            out.append(cells)
    return out


def _tests_in(file: Path) -> set[str]:
    tree = ast.parse(file.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def _cases_in(file: Path) -> set[str]:
    cases, broken = read_cases(file)
    assert not broken, broken[0].line()
    return {c.name for c in cases}


@pytest.mark.parametrize("path", LISTS, ids=[p.parent.name for p in LISTS])
def test_every_reference_resolves_and_every_row_has_a_status(path: Path) -> None:
    assert path.exists()
    seen = rows(path)
    assert len(seen) > 20
    for section, rule, shown, status in seen:
        assert section and rule, f"empty cell in {path.name}: {section} | {rule}"
        assert status == "ok" or status.startswith(("GAP", "n/a")), f"{path.name}: status {status!r} for {rule!r}"
        refs = re.findall(r"`([^`]+)`", shown)
        if status == "ok":
            assert refs, f"{path.name}: {rule!r} is ok but names no test or case"
        for ref in refs:
            file, _, name = ref.partition("::")
            target = ROOT / file
            assert target.is_file(), f"{path.name}: {file} does not exist ({rule!r})"
            known = _tests_in(target) if target.suffix == ".py" else _cases_in(target)
            assert name in known, f"{path.name}: {file} has no {name!r} ({rule!r})"


@pytest.mark.parametrize("path", LISTS, ids=[p.parent.name for p in LISTS])
def test_the_closing_count_is_right(path: Path) -> None:
    seen = rows(path)
    counts = {"ok": sum(1 for r in seen if r[3] == "ok"), "GAP": sum(1 for r in seen if r[3].startswith("GAP")),
              "n/a": sum(1 for r in seen if r[3].startswith("n/a"))}
    text = " ".join(path.read_text().split())
    expected = f"{len(seen)} rules listed: {counts['ok']} `ok`, {counts['GAP']} `GAP`"
    assert expected in text, f"{path.name}: the summary should read {expected!r}, then {counts['n/a']} `n/a`"
    assert f"{counts['n/a']} `n/a`" in text
