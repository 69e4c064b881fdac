"""The layering the design promises: the engine, the rulesets and the dice speak in values only.

They import no third-party package and nothing that reads a clock, the environment, files or
global randomness; the engine never imports the layers above it; no ruleset imports another.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pbem"
CORE = sorted([*PKG.glob("engine/**/*.py"), *PKG.glob("rulesets/**/*.py"), PKG / "dice.py"])
FORBIDDEN = {"yaml", "jsonschema", "git", "click", "jinja2", "filelock", "resvg_py",
             "os", "time", "random", "datetime", "subprocess", "socket", "pathlib", "shutil", "tempfile"}
ABOVE = ("pbem.io", "pbem.game", "pbem.report", "pbem.cli", "pbem.gateways", "pbem.odds")


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


@pytest.mark.parametrize("path", CORE, ids=[str(p.relative_to(PKG)) for p in CORE])
def test_core_imports_only_the_standard_library_and_below(path: Path) -> None:
    for name in imports(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.relative_to(PKG)} imports {name}"
        assert not name.startswith(ABOVE), f"{path.relative_to(PKG)} imports {name}, a layer above the engine"


def test_no_ruleset_imports_another() -> None:
    for folder in sorted(p for p in (PKG / "rulesets").iterdir() if p.is_dir() and p.name != "__pycache__"):
        for path in folder.glob("*.py"):
            for name in imports(path):
                if name.startswith("pbem.rulesets."):
                    assert name.split(".")[2] == folder.name, f"{path.relative_to(PKG)} imports {name}"
