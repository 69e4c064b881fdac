"""Every refusal says what would be right (README, Standards: "every user error is a clear message
(file:line:column, what is wrong, what would be right)"): no Problem anywhere in pbem is written
without a hint."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem

PACKAGE = Path(pbem.__file__).parent


def _hintless(tree: ast.AST) -> list[int]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name == "Problem" and node.args and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value in ("illegal", "invalid", "ambiguous"):
            hint = next((k.value for k in node.keywords if k.arg == "hint"), None)
            if hint is None or (isinstance(hint, ast.Constant) and not hint.value):
                found.append(node.lineno)
        elif name == "_problem" and len(node.args) >= 4 and isinstance(node.args[3], ast.Constant) and not node.args[3].value:
            found.append(node.lineno)
    return found


def test_every_refusal_gives_a_hint() -> None:
    missing = [f"{path.relative_to(PACKAGE.parent)}:{line}"
               for path in sorted(PACKAGE.rglob("*.py"))
               for line in _hintless(ast.parse(path.read_text(), str(path)))]
    assert not missing, "refusals without a hint: " + ", ".join(missing)
