"""The game state file: `GameState` <-> readable, diffable YAML.

Every mapping is written in a fixed order (turn order for powers, names otherwise) so the same state
gives the same bytes on any machine, and `git diff` between two turns shows only what changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from pbem.engine.model import GameState
from pbem.engine.problems import Problem, ProblemsError
from pbem.engine.rules import Rules
from pbem.engine.ruleset import Ruleset
from pbem.io.schemas import check
from pbem.io.yamlfile import FLOW_LEAF_WIDTH, dump_yaml, load_yaml

HEADER = (
    "# pbem game state: written by `pbem adjudicate`; do not edit by hand (`pbem audit` finds edits).\n"
    "# units: space -> power -> unit -> count.  Land units at sea are aboard transports there,\n"
    "# fighters at sea are aboard carriers.\n"
)


def initial_state(ruleset: Ruleset, options: Mapping[str, Any] | None = None, rules: Rules | None = None, *,
                  cash_advance: bool = True) -> GameState:
    """The opening setup; with the game's `options` and `rules`, changed as the options say
    (`Rules.hooks.setup_changes`, e.g. Revised's Colonial Garrison), and opening with the round 0 of
    a cash advance where the rules give one (`cash_advance=False`: the state of round 1 as if the
    advance had been kept, for rule cases of later turns).  A choice that breaks the rules raises
    ProblemsError."""
    setup = ruleset.setup
    units = {s: {o: dict(t) for o, t in by.items()} for s, by in setup.units.items()}
    if options is not None and rules is not None and rules.hooks.setup_changes is not None:
        added, problems = rules.hooks.setup_changes(options, ruleset, dict(setup.control))
        if problems:
            raise ProblemsError([Problem("invalid", text, hint="choose another value for the rule option", code="option.setup") for text in problems])
        for space, owner, unit in added:
            by = units.setdefault(space, {}).setdefault(owner, {})
            by[unit] = by.get(unit, 0) + 1
    treasury = {c.name: setup.treasury.get(c.name, c.starting_treasury) for p in ruleset.powers for c in p.economies}
    if options is not None and rules is not None and rules.hooks.starting_treasury is not None:
        treasury = {p: rules.hooks.starting_treasury(options, p, n) for p, n in treasury.items()}
    advance = (rules.hooks.cash_advance(options) if cash_advance and options is not None and rules is not None
               and rules.hooks.cash_advance else {})
    if advance:
        # A cash advance before the first turn (Rules.hooks.cash_advance): round 0 spends it; each
        # power collects its starting treasury at the end of its round-0 turn.
        treasury = {c: int(advance.get(c, 0)) for c in ruleset.countries}
    return GameState(
        ruleset=ruleset.id,
        round=0 if advance else 1,
        turn_index=0,
        control=dict(sorted(setup.control.items())),
        units={s: {o: dict(sorted(t.items())) for o, t in sorted(by.items())} for s, by in sorted(units.items())},
        treasury=treasury,
    )


def state_to_data(state: GameState, ruleset: Ruleset) -> dict[str, Any]:
    order = {p.name: i for i, p in enumerate(ruleset.powers)}
    return {
        "ruleset": state.ruleset,
        "round": state.round,
        "turn": ruleset.powers[state.turn_index].name,
        "winner": state.winner,
        **({"victory": dict(state.victory)} if state.victory else {}),
        "treasury": {c: state.treasury.get(c, 0) for c in ruleset.countries},  # by country (a power of one economy is its own)
        "damage": dict(sorted(state.damage.items())),
        "pending": dict(sorted(state.pending.items())),
        **({"developments": {p: list(d) for p, d in sorted(state.developments.items()) if d}} if any(state.developments.values()) else {}),
        "control": dict(sorted(state.control.items())),
        "units": {
            space: {owner: dict(sorted(by[owner].items())) for owner in sorted(by, key=lambda o: order.get(o, 99))}
            for space, by in sorted(state.units.items())
        },
    }


def dump_state(state: GameState, ruleset: Ruleset) -> str:
    data = state_to_data(state, ruleset)
    units = data.pop("units")  # the last section
    if not units:
        return HEADER + dump_yaml({**data, "units": units}, flow_leaves=True)
    control = data["control"]  # the section before it: a line per territory, most alike every turn
    if _flow_width(control) <= FLOW_LEAF_WIDTH:  # a short one goes on one line: dumped with the rest
        head = dump_yaml(data, flow_leaves=True)
    else:
        del data["control"]
        head = dump_yaml(data, flow_leaves=True) + "control:\n" + _kept_entries(
            control, _CONTROL_LINES, lambda territory, controller: (territory, controller), flow_leaves=False)
    text = HEADER + head + "units:\n" + _kept_entries(units, _SPACE_UNITS, lambda space, by: repr((space, by)), flow_leaves=True)
    _written(text)
    return text


_WRITTEN: set[str] = set()  # digests of the states dumped here: read back, they need no schema check


def _written(text: str) -> None:
    """Remember a state this process wrote.  An audit reads back every state its replay wrote, and
    checking one against the schema took as long as parsing it; what `dump_state` writes from a
    GameState is valid by construction."""
    if len(_WRITTEN) >= 10_000:
        _WRITTEN.clear()
    _WRITTEN.add(sha256_text(text))


def _flow_width(mapping: Mapping[str, Any]) -> int:
    """At least the width `dump_yaml` measures to put a mapping of scalars on one line."""
    return sum(len(str(k)) + 2 + len(str(v)) + 2 for k, v in mapping.items())


# A section's entries (a territory's controller, a space's units) as their lines in state.yaml,
# kept by content: a turn changes few of them, and PyYAML's emitter (pure Python, for the same
# bytes everywhere) took a quarter of an audit.
_CONTROL_LINES: dict[Any, str] = {}
_SPACE_UNITS: dict[Any, str] = {}


def _kept_entries(section: Mapping[str, Any], kept: dict[Any, str], key: Callable[[str, Any], Any], *,
                  flow_leaves: bool) -> str:
    """The lines of a block mapping nested one level in, its entries new since the last call dumped
    together and split apart: the same bytes as the section dumped whole (tests/io/test_state.py)."""
    keys = {name: key(name, value) for name, value in section.items()}
    new = {name: value for name, value in section.items() if keys[name] not in kept}
    if new:
        if len(kept) >= 50_000:
            kept.clear()
            new = dict(section)
        entries = _top_level_entries(dump_yaml(new, flow_leaves=flow_leaves))
        if len(entries) != len(new):  # an entry of more than one top-level line: dumped one by one
            entries = [dump_yaml({name: value}, flow_leaves=flow_leaves) for name, value in new.items()]
        for name, text in zip(new, entries):
            kept[keys[name]] = "".join("  " + line for line in text.splitlines(keepends=True))
    return "".join(kept[keys[name]] for name in section)


def _top_level_entries(text: str) -> list[str]:
    """A block mapping's text cut before each line that starts a top-level key."""
    entries: list[str] = []
    for line in text.splitlines(keepends=True):
        if not line.startswith((" ", ": ")):  # ": " ends a long key's "? " entry
            entries.append(line)
        elif entries:
            entries[-1] += line
        else:
            return []
    return entries


def load_state(text: str | bytes, ruleset: Ruleset, filename: str = "state.yaml") -> GameState:
    doc = load_yaml(text, filename, expect_mapping=True, max_bytes=4 * 1024 * 1024)
    data = doc.data
    problems = [] if sha256_text(text) in _WRITTEN else check("state", data)
    if problems:
        raise ProblemsError([doc.problem(p) for p in problems])
    turn_order = [p.name for p in ruleset.powers]
    if data["turn"] not in turn_order:
        raise ProblemsError([doc.problem(Problem("invalid", f"unknown power {data['turn']!r} to move", path=("turn",),
                                                     hint="powers: " + ", ".join(turn_order)))])
    if sha256_text(text) not in _WRITTEN:
        unknown = _unknown_names(data, ruleset)
        if unknown:
            raise ProblemsError([doc.problem(p) for p in unknown])
    return GameState(
        ruleset=data["ruleset"],
        round=int(data["round"]),
        turn_index=turn_order.index(data["turn"]),
        control=dict(data["control"]),
        units={s: {o: dict(t) for o, t in by.items()} for s, by in data["units"].items()},
        treasury=dict(data["treasury"]),
        damage=dict(data.get("damage") or {}),
        pending=dict(data.get("pending") or {}),
        winner=data.get("winner"),
        victory=dict(data.get("victory") or {}),
        developments={p: tuple(sorted(d)) for p, d in (data.get("developments") or {}).items()},
    )


def _unknown_names(data: Mapping[str, Any], ruleset: Ruleset) -> list[Problem]:
    """Spaces, owners and units the ruleset does not know: a state.yaml edited by hand (pbem writes
    only names of its ruleset) is refused where it is read, naming the line, before any command uses it."""
    hint = "state.yaml is written by pbem alone: `pbem audit` names the commit that changed it by hand; undo it (git revert)"
    owners = {p.name for p in (*ruleset.powers, *ruleset.bystanders)} | set(ruleset.countries)
    spaces = ruleset.board.spaces
    out: list[Problem] = []
    for space, holder in (data.get("control") or {}).items():
        if space not in spaces:
            out.append(Problem("invalid", f"unknown space {space!r} in control", path=("control", space), hint=hint))
        elif holder not in owners:
            out.append(Problem("invalid", f"unknown owner {holder!r} of {space}", path=("control", space), hint=hint))
    for space, by_owner in (data.get("units") or {}).items():
        if space not in spaces:
            out.append(Problem("invalid", f"unknown space {space!r} in units", path=("units", space), hint=hint))
            continue
        for owner, units in (by_owner or {}).items():
            if owner not in owners:
                out.append(Problem("invalid", f"unknown owner {owner!r} of units in {space}", path=("units", space, owner), hint=hint))
            for unit in units or {}:
                if unit not in ruleset.units:
                    out.append(Problem("invalid", f"unknown unit {unit!r} of {owner} in {space}", path=("units", space, owner, unit), hint=hint))
    for country in data.get("treasury") or {}:
        if country not in owners:
            out.append(Problem("invalid", f"unknown country {country!r} in treasury", path=("treasury", country), hint=hint))
    return out


def sha256_text(text: str | bytes) -> str:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(raw).hexdigest()
