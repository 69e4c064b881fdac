"""Technology earned by events and rolled on charts (the AMS house rules' "New Research & Development
Rule": no research dice; a nation "awarded development rolls when they receive a victory token").

`Technology` is a rule system's choice (Rules.technology): its charts, the names of their
breakthroughs, the unit profiles each changes (a function of the ruleset's own module), and the
breakthroughs the engine applies outside the unit profiles, each named by the development that brings
it.  The rolls are made by the turn (`roll_breakthrough`), with dice labelled by power, round and
cause, so that an audit recomputes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from pbem.engine.model import UnitType

MAX_REROLLS = 24  # a chart has six results: rerolling a known one ends long before this


class DiceSource(Protocol):
    def roll(self, label: str, count: int) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Technology:
    charts: Mapping[str, tuple[str, ...]]  # chart -> its six developments, by die face 1-6
    names: Mapping[str, str]  # development -> its name on the chart
    # the profiles a power's developments change (unit name -> profile), as research.unit_profiles
    profiles: Callable[[Mapping[str, UnitType], frozenset[str]], dict[str, UnitType]]
    # a result already known: "reroll" until a new one (none left: nothing), or "nothing"
    duplicate: Literal["reroll", "nothing"] = "reroll"
    # breakthroughs applied by the engine itself (None: not on these charts)
    production_bonus: str | None = None  # each production facility mobilizes one more unit
    repairs_two_for_one: str | None = None  # two damage removed for the price of one
    income_roll: str | None = None  # roll 2 dice at Collect Income and add the higher
    bombers_best_of_two: str | None = None  # a strategic bomber rolls 2 dice and keeps the better (battle and raid)
    aa_bonus: str | None = None  # antiaircraft guns and the guns of facilities hit one higher
    artillery_supports_two: str | None = None  # each artillery supports two infantry
    # rockets fired from facilities at enemy facilities: the development, and for each launching
    # facility (unit name) its reach in spaces and its dice, the best kept (AMS: air base 4 and 2,
    # air strip 3 and 1); () : none
    rockets: str | None = None
    rocket_launchers: tuple[tuple[str, int, int], ...] = ()

    def chart_of(self, development: str) -> str:
        return next(c for c, row in self.charts.items() if development in row)


@dataclass(frozen=True)
class Breakthrough:
    """One technology roll: the chart, the faces rolled (rerolls included) and what was gained (None: nothing new)."""

    power: str
    chart: str
    rolled: tuple[int, ...]
    development: str | None
    cause: str


def roll_breakthrough(tech: Technology, power: str, chart: str, known: frozenset[str], dice: DiceSource,
                      label: str, cause: str) -> Breakthrough:
    """Roll one die on `chart`; a known result is rolled again (Technology.duplicate)."""
    row = tech.charts[chart]
    faces: list[int] = []
    for attempt in range(MAX_REROLLS):
        if all(d in known for d in row):
            break
        face = dice.roll(f"{label}/{attempt + 1}" if attempt else label, 1)[0]
        faces.append(face)
        development = row[face - 1]
        if development not in known:
            return Breakthrough(power, chart, tuple(faces), development, cause)
        if tech.duplicate == "nothing":
            break
    return Breakthrough(power, chart, tuple(faces), None, cause)


def choose_chart(tech: Technology, chart: str, known: frozenset[str], preferred: str | None) -> str:
    """The chart of an "Either" roll: the receiving power's standing choice, else the chart with more
    breakthroughs it lacks (the first on a tie)."""
    if chart in tech.charts:
        return chart
    if preferred in tech.charts:
        return preferred  # type: ignore[return-value]
    return max(tech.charts, key=lambda c: (sum(1 for d in tech.charts[c] if d not in known), -list(tech.charts).index(c)))
