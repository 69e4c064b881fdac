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
    """Rule systems stand apart; one written as differences from another (ruleset.yaml `extends:`,
    AMS on 1940 Global) imports that one alone."""
    import yaml

    from pbem.rulesets import RULESETS

    for folder in sorted(p for p in (PKG / "rulesets").iterdir() if p.is_dir() and p.name != "__pycache__"):
        extends = (yaml.safe_load((folder / "ruleset.yaml").read_text()) or {}).get("extends")
        allowed = {folder.name} | ({RULESETS[extends]} if extends else set())
        for path in folder.glob("*.py"):
            for name in imports(path):
                if name.startswith("pbem.rulesets."):
                    assert name.split(".")[2] in allowed, f"{path.relative_to(PKG)} imports {name}"


def _module_graph() -> dict[str, set[str]]:
    """pbem module -> the pbem modules it imports, at the top or inside a function (both bind it)."""
    modules = {}
    for path in PKG.rglob("*.py"):
        parts = path.relative_to(PKG.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
        graph[name] = {t for t in targets if t in modules and t != name and t != "pbem"}
    return graph


def test_module_dependencies_point_one_way() -> None:
    """No two modules need each other, not even through an import inside a function or under
    TYPE_CHECKING: a module names what it needs of a caller as a Protocol instead."""
    graph = _module_graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
