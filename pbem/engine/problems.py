"""What is wrong with a user's input, as values: the edge turns them into file:line:column text.

Three kinds, as python-chess separates them: *invalid* (the file is not well-formed: YAML, schema),
*illegal* (well-formed but against the rules), *ambiguous* (could mean several things).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["invalid", "illegal", "ambiguous"]
PathItem = str | int


@dataclass(frozen=True)
class Problem:
    """One error in an orders, state or data file.

    `path` points into the YAML document (keys and list indices) so that `pbem.io` can find the
    line and column; `line`/`column` are filled directly when the problem is found while parsing.
    """

    kind: Kind
    message: str  # what is wrong, one sentence
    rule: str = ""  # the rule broken, with the rulebook section, e.g. "Combat Move: Land units (p. 12)"
    hint: str = ""  # what would be legal
    path: tuple[PathItem, ...] = ()
    file: str = ""
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    code: str = ""  # stable machine-readable identifier, e.g. "move.not-adjacent"
    extra: dict[str, object] = field(default_factory=dict, compare=False)

    def located(self, file: str, line: int | None, column: int | None) -> "Problem":
        from dataclasses import replace

        return replace(self, file=file, line=line, column=column)

    def format(self) -> str:
        """The one-line-plus-hint form every front end shows."""
        where = self.file or ("<input>" if self.line is not None else "")
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        # a problem of no file (a command-line argument): no "<input>:" before it
        text = f"{where}: {self.kind}: {self.message}" if where else f"{self.kind}: {self.message}"
        if self.rule:
            text += f" [{self.rule}]"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


class ProblemsError(Exception):
    """Raised at the edges when a user input has problems; carries all of them, not the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        self.partial: object | None = None  # what could be read despite the problems (io.orders.PartialOrders)
        super().__init__("\n".join(p.format() for p in problems))


def unlisted(n: int, rule: str = "") -> Problem:
    """The closing line of a list cut short: the `n` problems left out (problem_count reads it back)."""
    return Problem("invalid", f"{n:,} more problems like these are not listed", rule=rule,
                   hint="correct the ones above and validate again", path=(), code="problems.unlisted")


def problem_count(problems: "list[Problem]") -> int:
    """How many problems a list stands for: a closing "N more problems like these are not listed"
    (code problems.unlisted) counts as the N it left out."""
    import re

    n = len(problems)
    for p in problems:
        left = re.match(r"([\d,]+) more problems", p.message) if p.code == "problems.unlisted" else None
        if left:
            n += int(left.group(1).replace(",", "")) - 1
    return n
