"""Orders and standing-orders files: YAML text -> engine values, every problem located.

Two layers run before the rules: the YAML itself (`pbem.io.yamlfile`) and the schema; then every
name is resolved forgivingly.  All problems are collected, never only the first.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from pbem.engine.orders import (
    Boarding,
    CallOff,
    BattleDirective,
    ConditionalMove,
    Conversion,
    DefencePolicy,
    KamikazeOrder,
    Move,
    Orders,
    Placement,
    RetreatCondition,
    ScrambleOrder,
    StandingOrders,
)
from pbem.engine.problems import PathItem, Problem, ProblemsError, unlisted
from pbem.engine.ruleset import Ruleset
from pbem.engine.words import possessive
from pbem.io.names import NameTable, parse_unit_list, unit_table
from pbem.io.retreat_words import CALL_OFF_VOCABULARY
from pbem.io.retreat_words import VOCABULARY as RETREAT_VOCABULARY
from pbem.io.retreat_words import read_call_off as read_call_off_words
from pbem.io.retreat_words import read_retreat
from pbem.io.schemas import check
from pbem.io.yamlfile import YamlDocument, load_yaml

Path_ = tuple[PathItem, ...]


@dataclass(frozen=True)
class Names:
    units: NameTable
    spaces: NameTable
    powers: NameTable


_NAMES: dict[tuple[str, str], Names] = {}


def names_for(ruleset: Ruleset) -> Names:
    key = (ruleset.id, ruleset.data_hash)
    if key not in _NAMES:
        _NAMES[key] = _build_names(ruleset)
    return _NAMES[key]


def _build_names(ruleset: Ruleset) -> Names:
    """Names as players write them: besides each name and its aliases, the short names the map
    draws on unit stacks ("2 tnk") and a territory's victory city ("Moscow" for Russia)."""
    units = unit_table(ruleset.units)
    more = _space_names(ruleset)
    spaces = NameTable({s.name: (*s.aliases, *([s.victory_city] if s.victory_city and s.victory_city != s.name else []),
                                 *more.get(s.name, ())) for s in ruleset.board.spaces.values()}, sea_zones=True)
    powers = NameTable({p.name: ruleset.names_of(p.name) for p in ruleset.powers}, prefixes=False)
    return Names(units, spaces, powers)


def _space_names(ruleset: Ruleset) -> Mapping[str, tuple[str, ...]]:
    """The ruleset's own `names.py` (SPACE_NAMES), where its board's names and the map data's differ."""
    import importlib

    import pbem.rulesets as registry

    name = f"pbem.rulesets.{registry.RULESETS.get(ruleset.id)}.names"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        return {}
    return dict(module.SPACE_NAMES)


#: problems listed in full (with suggestions, which cost a search each); beyond, only counted
DETAILED_PROBLEMS = 40
LISTED_PROBLEMS = 100


def shown(text: Any, limit: int = 60) -> str:
    """`text` as a message quotes it, cut to a readable length (a 1 MB name is not echoed whole)."""
    value = str(text)
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit]) + f"... ({len(value):,} characters)"


class _Reader:
    """Resolves names inside one document, collecting problems with their YAML paths.

    The cost of reading stays bounded whatever the file holds: suggestions ("did you mean")
    are worked out for the first DETAILED_PROBLEMS problems, and past LISTED_PROBLEMS the rest
    are only counted, in one closing problem."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.names = names_for(ruleset)
        self.problems: list[Problem] = []
        self.unlisted = 0

    def error(self, message: str, path: Path_, *, rule: str = "", hint: str | Callable[[], str] = "", code: str = "",
              kind: str = "invalid") -> None:
        if len(self.problems) >= LISTED_PROBLEMS:
            self.unlisted += 1
            return
        if callable(hint):
            hint = hint() if len(self.problems) < DETAILED_PROBLEMS else ""
        self.problems.append(Problem(kind, message, rule=rule, hint=hint, path=path, code=code))  # type: ignore[arg-type]

    def all_problems(self) -> list[Problem]:
        """The problems, with one more saying how many were not listed."""
        if not self.unlisted:
            return self.problems
        return [*self.problems, unlisted(self.unlisted)]

    def space(self, text: Any, path: Path_) -> str | None:
        res = self.names.spaces.resolve(str(text), suggest=False)
        if res.name:
            return res.name
        if res.ambiguous:
            self.error(f"{shown(text)} could name several spaces", path, hint=lambda: self.names.spaces.hint(str(text)),
                       code="name.ambiguous-space", kind="ambiguous")
        else:
            self.error(f"unknown territory or sea zone {shown(text)}", path,
                       hint=lambda: self.names.spaces.hint(str(text)) or self._sea_zone_example(), code="name.unknown-space")
        return None

    def _sea_zone_example(self) -> str:
        """How this board writes a sea zone, with one of its own (Europe's are named, not numbered)."""
        seas = sorted(n for n, sp in self.ruleset.board.spaces.items() if sp.is_sea)
        numbered = [n for n in seas if n.startswith("SZ ")]
        if numbered:
            return f"sea zones are written as on the board, e.g. '{numbered[len(numbered) // 2]}'"
        return f"sea zones are named as on the board, e.g. '{seas[0]}'" if seas else "see `pbem ruleset show` for the names"

    def space_key(self, text: Any, path: Path_, seen: dict[str, str], section: str) -> str | None:
        """A space that keys a mapping (`battles:`, `repair:` ...): two spellings of one space
        ('Baltic States', 'baltic states') would leave the second entry silently replacing the first,
        as a duplicate key would, so the second is refused."""
        space = self.space(text, path)
        if space is None:
            return None
        if space in seen:
            self.error(f"{space} is named twice in {section}: as {shown(seen[space])} and as {shown(text)}", path,
                       hint=f"keep one {section} entry for {space}: the later one would replace the earlier",
                       code="orders.duplicate-space")
            return None
        seen[space] = str(text)
        return space

    def power(self, text: Any, path: Path_) -> str | None:
        res = self.names.powers.resolve(str(text), suggest=False)
        if res.name:
            return res.name
        self.error(f"unknown power {shown(text)}", path, hint=lambda: self.names.powers.hint(str(text)) or "powers: " + ", ".join(p.name for p in self.ruleset.powers), code="name.unknown-power")
        return None

    def unit(self, text: str, path: Path_) -> str | None:
        res = self.names.units.resolve(text, suggest=False)
        if res.name:
            return res.name
        self.error(f"unknown unit {shown(text)}", path, hint=lambda: self.names.units.hint(text) or "units: " + ", ".join(sorted(self.ruleset.units)), code="name.unknown-unit")
        return None

    def units(self, value: Any, path: Path_) -> dict[str, int]:
        result: dict[str, int] = {}
        if value is None:
            return result
        items: list[tuple[int, str]]
        if isinstance(value, str):
            parsed = parse_unit_list(value)
            if parsed is None:
                self.error(f"cannot read the units {shown(value)}", path, hint="write them as '3 infantry, 1 tank' or as a mapping {infantry: 3, tank: 1}", code="units.syntax")
                return result
            items = parsed
        elif isinstance(value, Mapping):
            items = []
            for k, n in value.items():
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    self.error(f"{shown(k)} is {shown(n)}, not a number of units", (*path, k),
                               hint=f"write it as {{{k}: 2}}", code="units.syntax")
                    continue
                items.append((n, str(k)))
        elif isinstance(value, (list, tuple)):
            # a YAML list, one entry per kind: [2 infantry, tank]
            listed: list[tuple[int, str, Path_]] = []
            for i, entry in enumerate(value):
                parsed = parse_unit_list(entry) if isinstance(entry, str) else None
                if parsed is None:
                    self.error(f"cannot read the units {shown(entry)}", (*path, i),
                               hint="write each entry as '3 infantry' or 'tank'", code="units.syntax")
                    continue
                listed.extend((count, text, (*path, i)) for count, text in parsed)
            for count, text, where in listed:
                name = self.unit(text, where)
                if name and count:
                    result[name] = result.get(name, 0) + count
            return dict(sorted(result.items()))
        else:
            return result
        for count, text in items:
            name = self.unit(text, path if isinstance(value, str) else (*path, text))
            if name and count:
                result[name] = result.get(name, 0) + count
        return dict(sorted(result.items()))

    def name_list(self, value: Any, path: Path_) -> tuple[str, ...]:
        texts = [t.strip() for t in value.split(",")] if isinstance(value, str) else list(value or [])
        out = []
        for i, text in enumerate(texts):
            name = self.unit(str(text), path if isinstance(value, str) else (*path, i))
            if name:
                out.append(name)
        return tuple(out)


def parse_retreat_condition(text: str) -> RetreatCondition | None:
    """The directive's retreat condition, in the vocabulary `pbem odds --retreat` shares (`retreat_words`)."""
    read = read_retreat(text)
    if read is None:
        return None
    kind, value = read
    return RetreatCondition(kind, value, re.sub(r"\s+", " ", str(text).strip().lower()))  # type: ignore[arg-type]


def _development(reader: _Reader, text: Any, path: Path_) -> str | None:
    """A weapons development (Revised) by any of its spellings: its id, or None after an error."""
    from pbem.engine.research import NAMES

    table = NameTable({key: (name, key.replace("_", " ")) for key, name in NAMES.items()}, prefixes=True)
    found = table.resolve(str(text))
    if found.name is None:
        reader.error(f"unknown weapons development {shown(str(text))}", path,
                     hint=table.hint(str(text)) or "one of: " + ", ".join(NAMES.values()), code="research.unknown")
    return found.name


def _if_developed(reader: _Reader, data: Mapping[str, Any], skipped: frozenset[tuple[str, int]]) -> dict[Path_, str]:
    """`if_developed:` of each move and rocket strike: item path -> development id."""
    out: dict[Path_, str] = {}
    for key in ("combat_move", "noncombat_move", "rockets"):
        for i, raw in _items(data, key, skipped):
            if isinstance(raw, Mapping) and raw.get("if_developed") is not None:
                found = _development(reader, raw["if_developed"], (key, i, "if_developed"))
                if found:
                    out[(key, i)] = found
    return out


def _move(reader: _Reader, phase: str, raw: Mapping[str, Any], path: Path_) -> Move | None:
    units = reader.units(raw.get("units"), (*path, "units"))
    frm = reader.space(raw.get("from"), (*path, "from"))
    to = reader.space(raw.get("to"), (*path, "to"))
    via_raw = raw.get("via")
    via: tuple[str, ...] | None = None
    if via_raw is not None:
        texts = [t.strip() for t in via_raw.split(",")] if isinstance(via_raw, str) else list(via_raw)
        resolved = [reader.space(t, (*path, "via") if isinstance(via_raw, str) else (*path, "via", i)) for i, t in enumerate(texts)]
        if all(resolved):
            via = tuple(r for r in resolved if r)
    cargo = reader.units(raw.get("cargo"), (*path, "cargo")) if "cargo" in raw else None
    if not units and raw.get("units") is not None and not reader.problems:
        reader.error("a move needs at least one unit", (*path, "units"), code="move.no-units")
    if frm is None or to is None or not units:
        return None
    mission = raw.get("mission")
    if mission == "attack":
        mission = None
    owner = reader.power(raw["owner"], (*path, "owner")) if raw.get("owner") is not None else None
    if owner is None and raw.get("owner") is not None:
        return None
    target = None
    if raw.get("target") is not None:
        found = reader.units({str(raw["target"]): 1}, (*path, "target"))
        if not found:
            return None
        target = next(iter(found))
    return Move(phase, units, frm, to, via, mission, cargo, path, owner, target)  # type: ignore[arg-type]


def _directive(reader: _Reader, space: str, raw: Mapping[str, Any], path: Path_) -> BattleDirective:
    ool = reader.name_list(raw.get("order_of_loss"), (*path, "order_of_loss")) if "order_of_loss" in raw else ()
    retreat = RetreatCondition("never")
    retreat_to = None
    r = raw.get("retreat")
    if r is not None:
        when_text: Any = r if isinstance(r, str) else r.get("when", "always")
        rpath = (*path, "retreat") if isinstance(r, str) else (*path, "retreat", "when")
        cond = parse_retreat_condition(when_text)
        if cond is None:
            reader.error(f"cannot read the retreat condition {shown(when_text)}", rpath, hint="write one of: " + RETREAT_VOCABULARY, code="directive.retreat")
        else:
            retreat = cond
        if isinstance(r, Mapping) and r.get("to") is not None:
            retreat_to = reader.space(r["to"], (*path, "retreat", "to"))
    aa_ool = reader.name_list(raw.get("aa_order_of_loss"), (*path, "aa_order_of_loss")) if "aa_order_of_loss" in raw else ()
    bombard = None
    if "bombard" in raw:
        value = raw["bombard"]
        none = value is None or (isinstance(value, str) and value.strip().lower() in ("none", "no", "nothing"))
        bombard = {} if none else reader.units(value, (*path, "bombard"))
    call_off = None
    if "call_off" in raw:
        call_off = read_call_off(raw["call_off"])
        if call_off is None:
            reader.error(f"cannot read the call-off condition {shown(raw['call_off'])}", (*path, "call_off"),
                         hint="write one of: " + CALL_OFF_VOCABULARY, code="directive.call-off")
    hold = None if raw.get("hold_territory") is None else bool(raw["hold_territory"])
    return BattleDirective(space, ool, retreat, retreat_to, raw.get("submerge"), hold, path, aa_ool,
                           bombard, call_off, ignore=bool(raw.get("ignore", False)), damage_first=_damage_first(reader, raw, path))


def _damage_first(reader: _Reader, raw: Mapping[str, Any], path: Path_) -> bool | tuple[str, ...] | None:
    """damage_first: true, false, or the two-hit unit types that take their first hit first (None: not written)."""
    value = raw.get("damage_first")
    if value is None or isinstance(value, bool):
        return value
    names = reader.name_list(value, (*path, "damage_first"))
    two_hit = sorted(u.name for u in reader.ruleset.units.values() if u.hits > 1)
    for i, name in enumerate(names):
        if name not in two_hit:
            reader.error(f"{name} takes one hit: damage_first names units that take two", (*path, "damage_first", i),
                         hint="two-hit units of this game: " + (", ".join(two_hit) or "none"), code="directive.damage-first",
                         kind="illegal")
    return names


def read_call_off(value: object) -> CallOff | None:
    """The directive's call-off condition (`CallOff`), or None when the words are not understood."""
    read = read_call_off_words(value)
    if read is None:
        return None
    return CallOff(read[0], read[1], re.sub(r"\s+", " ", str(value).strip().lower()))  # type: ignore[arg-type]


@dataclass(frozen=True)
class PartialOrders:
    """The orders that could be read from a file with wrong names, and where the moves left out
    were going: the validator checks the rest and leaves out what only follows from those."""

    orders: Orders
    dropped_into: frozenset[tuple[str, int, str]]  # (combat_move/noncombat_move, index, destination or "*")


def _by_country_hint(ruleset: Ruleset, countries: tuple[str, ...], value: Any = None) -> str:
    """How to write a purchase for each country, naming only those that buy (Pacific's China has no
    IPCs): the player's own units under the first country, the others' under their own names."""
    from pbem.io.rulesets import rules_for

    idle = rules_for(ruleset)[0].economy.countries_without_income
    buyers = [c for c in countries if c not in idle] or list(countries)
    named = {c.casefold() for c in countries}
    if (isinstance(value, Mapping) and value and all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in value.values())
            and not any(str(k).casefold() in named for k in value)):
        written = "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    elif isinstance(value, str) and value.strip():
        written = repr(value.strip())
    else:
        written = "{infantry: 2}"
    others = ", ".join(buyers[1:])
    return (f"write purchase: {{{buyers[0]}: {written}}}" + (f", with what {others} buys{'' if len(buyers) == 2 else ' each'} under "
                                                              f"{'its' if len(buyers) == 2 else 'their'} own name" if others else ""))


def _purchase(reader: "_Reader", ruleset: Ruleset, power: str | None, value: Any) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """What is bought: units, or for a power of several countries (Pacific's India and Australia)
    country -> units, each paid from that country's treasury."""
    countries = ruleset.countries_of(power) if power is not None else ()
    if len(countries) < 2:
        return reader.units(value, ("purchase",)), {}
    if value is None:
        return {}, {}
    if not isinstance(value, Mapping) or not all(isinstance(v, (Mapping, str, list)) or v is None for v in value.values()):
        reader.error(f"{power} buys for each of its countries ({', '.join(countries)})", ("purchase",),
                     hint=_by_country_hint(ruleset, countries, value), code="purchase.by-country")
        return {}, {}
    total: dict[str, int] = {}
    by_country: dict[str, dict[str, int]] = {}
    for text, units in value.items():
        try:
            country = ruleset.country(str(text)).name
        except KeyError:
            country = None
        if country not in countries:
            reader.error(f"{shown(str(text))} is not a country of {power}", ("purchase", text),
                         hint="one of: " + ", ".join(countries), code="purchase.unknown-country")
            continue
        bought = reader.units(units, ("purchase", text))
        if bought:
            by_country[country] = bought
            for unit, n in bought.items():
                total[unit] = total.get(unit, 0) + n
    return dict(sorted(total.items())), by_country


def _check_orders(data: Any, ruleset: Ruleset) -> list[Problem]:
    """The orders schema; a power of several countries (Pacific's India and Australia) writes
    `purchase:` as country -> units, each checked as a purchase of its own."""
    try:
        countries = ruleset.countries_of(str(data.get("power"))) if isinstance(data, Mapping) else ()
    except KeyError:
        countries = ()
    purchase = data.get("purchase") if isinstance(data, Mapping) else None
    if len(countries) < 2 or not isinstance(purchase, Mapping):
        return check("orders", data)
    if not all(isinstance(v, (Mapping, str, list)) or v is None for v in purchase.values()):
        # units straight under purchase: (1940's UK, Pacific's Great Britain) - say what is meant, not
        # that a count is no mapping (`_purchase` names the same fault when the schema is passed)
        problems = list(check("orders", {**data, "purchase": None}))
        power = ruleset.power_name(str(data.get("power")))
        problems.append(Problem("invalid", f"{power} buys for each of its countries ({', '.join(countries)})",
                                path=("purchase",), hint=_by_country_hint(ruleset, countries, purchase), code="purchase.by-country"))
        return problems
    problems = check("orders", {**data, "purchase": None})
    for country, units in purchase.items():
        for p in check("orders", {**data, "purchase": units}):
            if p.path[:1] == ("purchase",):
                p = dataclasses.replace(p, path=("purchase", country, *p.path[1:]))
            if p not in problems:
                problems.append(p)
    return problems


# where a schema fault is left out so that the rest of the file is still read (`_readable_part`):
# the item of a list, the entry of a mapping, else the whole section
_LIST_SECTIONS = frozenset({"combat_move", "noncombat_move", "rockets", "declare", "convert", "declare_war", "onto_new_carriers"})
_ENTRY_SECTIONS = frozenset({"battles", "place", "repair", "markers", "cap_landing", "convoy_income"})
_MOVE_SECTIONS = ("combat_move", "noncombat_move")
_WHOLE_FILE_KEYS = frozenset({"game", "power", "round"})


@dataclass(frozen=True)
class _Readable:
    """A file that breaks the schema, less the parts that break it.  Its names and rules are still
    checked, so a player sees every problem in one run, not one kind of problem per run."""

    data: dict[str, Any]
    skipped: frozenset[tuple[str, int]]  # list items left out, by their index in the file
    purchase_left_out: bool


def _readable_part(data: Any, problems: list[Problem], ruleset: Ruleset) -> _Readable | None:
    """The schema-valid rest of `data`, or None when a fault touches what the whole file hangs on
    (its power, round or game, or its shape)."""
    if not isinstance(data, Mapping):
        return None
    out = dict(data)
    skipped: set[tuple[str, int]] = set()
    purchase_left_out = False
    for p in problems:
        key = p.path[0] if p.path else None
        if not isinstance(key, str) or key in _WHOLE_FILE_KEYS or key not in data:
            return None
        inner = p.path[1] if len(p.path) > 1 else None
        if key in _LIST_SECTIONS and isinstance(data[key], list) and isinstance(inner, int):
            skipped.add((key, inner))
        elif key in _ENTRY_SECTIONS and isinstance(out.get(key), Mapping) and inner in out[key]:
            out[key] = {k: v for k, v in out[key].items() if k != inner}
        elif key in _LIST_SECTIONS and isinstance(data[key], list):
            skipped.update((key, i) for i in range(len(data[key])))
        else:
            if key in _MOVE_SECTIONS:
                skipped.add((key, 0))  # moves were ordered there, to places unknown
            out.pop(key, None)
            purchase_left_out = purchase_left_out or key == "purchase"
    kept = {k: [x for i, x in enumerate(v) if (k, i) not in skipped] if k in _LIST_SECTIONS and isinstance(v, list) else v
            for k, v in out.items()}
    if _check_orders(kept, ruleset):
        return None
    return _Readable(out, frozenset(skipped), purchase_left_out)


def _items(data: Mapping[str, Any], key: str, skipped: frozenset[tuple[str, int]]) -> list[tuple[int, Any]]:
    """The items of a list section with their index in the file, less those left out."""
    return [(i, raw) for i, raw in enumerate(data.get(key) or []) if (key, i) not in skipped]


def _destinations(ruleset: Ruleset, raw: Any) -> list[str]:
    """Where an unreadable move was going: the space, else the spaces its name may have meant, else
    anywhere ("*")."""
    to = raw.get("to") if isinstance(raw, Mapping) else None
    found = names_for(ruleset).spaces.resolve(str(to)) if to is not None else None
    guesses = [found.name] if found and found.name else list(found.suggestions) if found else []
    return guesses or ["*"]


def parse_orders(doc: YamlDocument, ruleset: Ruleset) -> Orders:
    """Schema and names; raises ProblemsError (unlocated) when anything is wrong, with the orders
    that could be read (`PartialOrders`) when the power and round could be."""
    data = doc.data
    schema_problems = _check_orders(data, ruleset)
    skipped: frozenset[tuple[str, int]] = frozenset()
    purchase_left_out = False
    if schema_problems:
        readable = _readable_part(data, schema_problems, ruleset)
        if readable is None:
            raise ProblemsError(schema_problems)
        data, skipped, purchase_left_out = readable.data, readable.skipped, readable.purchase_left_out
    reader = _Reader(ruleset)
    power = reader.power(data["power"], ("power",))
    purchase, purchase_by_country = _purchase(reader, ruleset, power, data.get("purchase"))
    develop = None
    if data.get("develop") is not None:
        found_development = _development(reader, data["develop"]["development"], ("develop", "development"))
        if found_development:
            develop = (found_development, int(data["develop"]["dice"]))
    repair: dict[str, int] = {}
    for text, points in (data.get("repair") or {}).items():
        # "Territory" repairs its complex; "Territory/air base" another facility there (1940)
        where, _, facility = str(text).partition("/")
        space = reader.space(where.strip(), ("repair", text))
        key = None
        if space and facility.strip():
            found = reader.units({facility.strip(): 1}, ("repair", text))
            if found:
                key = f"{space}/{next(iter(found))}"
        elif space:
            key = space
        if key in repair:
            reader.error(f"{key} is named twice in repair: the later entry would replace the earlier", ("repair", text),
                         hint=f"keep one repair entry for {key}", code="orders.duplicate-space")
        elif key:
            repair[key] = int(points)
    purchase_named_wrong = bool(reader.problems) or purchase_left_out
    if_developed = _if_developed(reader, data, skipped)
    moves: dict[str, list[Move]] = {"combat": [], "noncombat": []}
    dropped_into: set[tuple[str, int, str]] = set()  # (section, index, destination or "*") of unreadable moves
    for key, i in skipped:
        if key in _MOVE_SECTIONS:
            raw = doc.data[key][i] if isinstance(doc.data.get(key), list) else None
            dropped_into.update((key, i, to) for to in _destinations(ruleset, raw))
    for phase, key in (("combat", "combat_move"), ("noncombat", "noncombat_move")):
        for i, raw in _items(data, key, skipped):
            before = len(reader.problems)
            move = _move(reader, phase, raw, (key, i))
            if move:
                moves[phase].append(move)
            elif len(reader.problems) > before:
                dropped_into.update((key, i, to) for to in _destinations(ruleset, raw))
    battles: dict[str, BattleDirective] = {}
    named: dict[str, str] = {}
    for text, raw in (data.get("battles") or {}).items():
        space = reader.space_key(text, ("battles", text), named, "battles")
        if space:
            battles[space] = _directive(reader, space, raw or {}, ("battles", text))
    rockets = []
    for i, raw in _items(data, "rockets", skipped):
        frm = reader.space(raw["from"], ("rockets", i, "from"))
        target = reader.space(raw["target"], ("rockets", i, "target"))
        facility = raw.get("facility")
        if facility is not None:
            facility = reader.unit(str(facility), ("rockets", i, "facility"))
        if frm and target:
            rockets.append((frm, target, ("rockets", i), facility))
    declare = tuple((str(name).strip().lower().replace(" ", "_").replace("-", "_"), ("declare", i))
                    for i, name in _items(data, "declare", skipped))
    convert = []
    for i, raw in _items(data, "convert", skipped):
        space = reader.space(raw["in"], ("convert", i, "in"))
        units = reader.units(raw["units"], ("convert", i, "units"))
        owner = reader.power(raw["owner"], ("convert", i, "owner")) if raw.get("owner") is not None else None
        if space and units:
            convert.append(Conversion(space, units, owner, ("convert", i)))
    convoy_income: dict[str, int] = {}
    for text, amount in (data.get("convoy_income") or {}).items():
        countries = ruleset.countries_of(power) if power else ()
        try:
            country = ruleset.country(str(text)).name
        except KeyError:
            country = None
        if len(countries) < 2 or country not in countries:
            reader.error(f"{shown(str(text))} is not a country of {power}" if len(countries) > 1 else f"{power} has one economy: nothing to divide",
                         ("convoy_income", text), hint="countries: " + ", ".join(countries) if len(countries) > 1 else "remove convoy_income:",
                         code="orders.convoy-income", kind="illegal")
        elif country in convoy_income:
            reader.error(f"{country} is named twice in convoy_income: the later entry would replace the earlier", ("convoy_income", text),
                         hint=f"keep one convoy_income entry for {country}", code="orders.duplicate-space")
        else:
            convoy_income[country] = int(amount)
    markers: dict[str, str] = {}
    named = {}
    for text, country_text in (data.get("markers") or {}).items():
        space = reader.space_key(text, ("markers", text), named, "markers")
        try:
            country = ruleset.country(str(country_text)).name
        except KeyError:
            country = None
        if power and (country is None or country not in ruleset.countries_of(power)):
            reader.error(f"{shown(str(country_text))} is not a country of {power}", ("markers", text),
                         hint="one of: " + ", ".join(ruleset.countries_of(power)), code="orders.marker-country", kind="illegal")
        elif space and country:
            markers[space] = country
    declare_war = []
    for i, text in _items(data, "declare_war", skipped):
        target = reader.power(text, ("declare_war", i))
        if target:
            declare_war.append((target, ("declare_war", i)))
    cap_landing: dict[str, str] = {}
    named = {}
    for text, where in (data.get("cap_landing") or {}).items():
        zone = reader.space_key(text, ("cap_landing", text), named, "cap_landing")
        target = reader.space(where, ("cap_landing", text))
        if zone and target:
            cap_landing[zone] = target
    placements = []
    for text, raw in (data.get("place") or {}).items():
        space = reader.space(text, ("place", text))
        named = None
        if isinstance(raw, Mapping) and "units" in raw:  # {units: ..., complex: TERRITORY}
            named = reader.space(raw["complex"], ("place", text, "complex")) if raw.get("complex") is not None else None
            units = reader.units(raw["units"], ("place", text, "units"))
        else:
            units = reader.units(raw, ("place", text))
        if space and units:
            placements.append(Placement(space, units, ("place", text), named))
    boardings = []
    for i, raw in _items(data, "onto_new_carriers", skipped):
        units = reader.units(raw["units"], ("onto_new_carriers", i, "units"))
        frm = reader.space(raw["from"], ("onto_new_carriers", i, "from"))
        to = reader.space(raw["to"], ("onto_new_carriers", i, "to"))
        owner = reader.power(raw["owner"], ("onto_new_carriers", i, "owner")) if raw.get("owner") is not None else None
        if units and frm and to:
            boardings.append(Boarding(units, frm, to, owner, ("onto_new_carriers", i)))
    if reader.problems or power is None or schema_problems:
        err = ProblemsError([*schema_problems, *reader.all_problems()])
        if power is not None:
            # what could be read, so the validator can check the rest of the file in the same run
            err.partial = PartialOrders(Orders(
                game=str(data.get("game", "")), power=power, round=int(data["round"]), purchase=purchase,
                purchase_by_country=purchase_by_country, develop=develop, repair=repair, combat_moves=tuple(moves["combat"]), battles=battles,
                noncombat_moves=tuple(moves["noncombat"]),
                placements=() if purchase_named_wrong else tuple(placements), onto_new_carriers=tuple(boardings),
                rockets=tuple(rockets), declare=declare, convert=tuple(convert), convoy_income=convoy_income,
                cap_landing=cap_landing, declare_war=tuple(declare_war), markers=markers, if_developed=if_developed),
                frozenset(dropped_into))
        raise err
    return Orders(
        game=str(data.get("game", "")),
        power=power,
        round=int(data["round"]),
        purchase=purchase,
        purchase_by_country=purchase_by_country,
        develop=develop,
        repair=repair,
        combat_moves=tuple(moves["combat"]),
        battles=battles,
        noncombat_moves=tuple(moves["noncombat"]),
        placements=tuple(placements),
        onto_new_carriers=tuple(boardings),
        rockets=tuple(rockets),
        declare=declare,
        convert=tuple(convert),
        convoy_income=convoy_income,
        cap_landing=cap_landing,
        declare_war=tuple(declare_war),
        markers=markers,
        if_developed=if_developed,
    )


def _policy(reader: _Reader, raw: Mapping[str, Any], path: Path_) -> DefencePolicy:
    ool = reader.name_list(raw.get("order_of_loss"), (*path, "order_of_loss")) if "order_of_loss" in raw else ()
    return DefencePolicy(ool, bool(raw.get("hold_territory", False)), bool(raw.get("submerge", False)),
                         _intercept(raw.get("intercept", False)), int(raw.get("kaiten", 0) or 0), path,
                         damage_first=_damage_first(reader, raw, path))


def _intercept(value: Any) -> bool | int:
    """intercept: true (every fighter), false, or how many fighters go up."""
    return value if isinstance(value, int) and not isinstance(value, bool) else bool(value)


def _readable_standing(data: Any, problems: list[Problem]) -> Any:
    """Standing orders that break the schema, less the entries that break it (a territory's policy,
    else the whole section), so the names of the rest are still checked in the same run; None when
    a fault touches the file's power or its shape."""
    body = data.get("standing_orders") if isinstance(data, Mapping) else None
    if not isinstance(body, Mapping):
        return None
    kept = dict(body)
    for p in problems:
        if len(p.path) < 2 or p.path[0] != "standing_orders" or p.path[1] not in body:
            return None
        key, inner = p.path[1], p.path[2] if len(p.path) > 2 else None
        if key in ("territories", "choices") and isinstance(kept.get(key), Mapping) and inner in kept[key]:
            kept[key] = {k: v for k, v in kept[key].items() if k != inner}
        else:
            kept.pop(key, None)
    out = {**data, "standing_orders": kept}
    return None if check("standing", out) else out


def parse_standing(doc: YamlDocument, ruleset: Ruleset) -> StandingOrders:
    data = doc.data
    schema_problems = check("standing", data)
    if schema_problems:
        data = _readable_standing(data, schema_problems)
        if data is None:
            raise ProblemsError(schema_problems)
    reader = _Reader(ruleset)
    power = reader.power(data["power"], ("power",))
    body = data["standing_orders"] or {}
    default = _policy(reader, body.get("default") or {}, ("standing_orders", "default"))
    per_space = {}
    named: dict[str, str] = {}
    for text, raw in (body.get("territories") or {}).items():
        space = reader.space_key(text, ("standing_orders", "territories", text), named, "territories")
        if space and ruleset.board.spaces[space].impassable:
            reader.error(f"{space} is neutral and cannot be entered: no battle is ever fought there", ("standing_orders", "territories", text),
                         rule="Neutral territories", hint="standing orders are for territories and sea zones a power may have to defend",
                         code="standing.neutral", kind="illegal")
        elif space:
            per_space[space] = _policy(reader, raw or {}, ("standing_orders", "territories", text))
    enigma = []
    for i, raw in enumerate(body.get("enigma") or []):
        path = ("standing_orders", "enigma", i)
        when = reader.space(raw.get("when_attacked"), (*path, "when_attacked"))
        units = reader.units(raw.get("units"), (*path, "units"))
        frm = reader.space(raw.get("from"), (*path, "from"))
        to = reader.space(raw.get("to"), (*path, "to"))
        if when and units and frm and to:
            enigma.append(ConditionalMove(when, units, frm, to, path))
    choices: dict[str, tuple[str, ...]] = {}
    for option, spaces in (body.get("choices") or {}).items():
        resolved = [reader.space(t, ("standing_orders", "choices", option, i)) for i, t in enumerate(spaces)]
        choices[str(option)] = tuple(s for s in resolved if s)
    payers = []
    caps: dict[str, int] = {}
    for i, text in enumerate(body.get("tribute_payers") or []):
        cap = None
        if isinstance(text, Mapping):  # {United States: 3}: that power pays at most 3
            if len(text) != 1 or not isinstance(next(iter(text.values())), int) or isinstance(next(iter(text.values())), bool) \
                    or next(iter(text.values())) < 0:
                reader.error(f"cannot read the payer {shown(text)}", ("standing_orders", "tribute_payers", i),
                             hint="write a power, or one power and the most it pays: {United States: 3}", code="standing.tribute-payer")
                continue
            text, cap = next(iter(text.items()))
        payer = reader.power(text, ("standing_orders", "tribute_payers", i))
        if payer and cap is not None:
            caps[payer] = cap
        if payer and power and ruleset.side_of(payer) != ruleset.side_of(power):
            reader.error(f"{payer} is not on {possessive(power)} side: only your side pays for the tribute spaces an enemy holds",
                         ("standing_orders", "tribute_payers", i), rule="The Middle East: the Allies decide who pays",
                         hint="list powers of your own side", code="standing.tribute-payer", kind="illegal")
        elif payer:
            payers.append(payer)
    kamikaze = []
    for i, raw in enumerate(body.get("kamikaze") or []):
        path = ("standing_orders", "kamikaze", i)
        zones = []
        for j, text in enumerate(raw.get("zones") or []):
            zone = reader.space(text, (*path, "zones", j))
            if zone and not ruleset.board.spaces[zone].kamikaze:
                reader.error(f"{zone} is no kamikaze zone", (*path, "zones", j), rule="Kamikaze: only in sea zones that contain the Kamikaze symbol",
                             hint="kamikaze zones: " + (", ".join(n for n, s in ruleset.board.spaces.items() if s.kamikaze) or "none"),
                             code="standing.kamikaze-zone", kind="illegal")
            elif zone:
                zones.append(zone)
        targets = reader.name_list(raw.get("targets"), (*path, "targets"))
        kamikaze.append(KamikazeOrder(targets, tuple(zones), int(raw.get("count", 1)), int(raw.get("at_least", 1)), path))
    scramble = []
    for i, raw in enumerate(body.get("scramble") or []):
        path = ("standing_orders", "scramble", i)
        base = reader.space(raw.get("from"), (*path, "from"))
        if base and not ruleset.board.spaces[base].is_land:
            reader.error(f"{base} is a sea zone; air units scramble from a territory with an air base", (*path, "from"),
                         rule="Scramble: from an air base on a coastal territory or island", code="standing.scramble-from", kind="illegal")
            base = None
        zones = []
        for j, text in enumerate(raw.get("zones") or []):
            zone = reader.space(text, (*path, "zones", j))
            if zone and base and not (ruleset.board.spaces[zone].is_sea and ruleset.board.are_adjacent(base, zone)):
                reader.error(f"{zone} is not a sea zone next to {base}", (*path, "zones", j),
                             rule="Scramble: into an adjacent sea zone", hint="sea zones next to it: " + (", ".join(
                                 sorted(n for n in ruleset.board.neighbours(base) if ruleset.board.spaces[n].is_sea)) or "none"),
                             code="standing.scramble-zone", kind="illegal")
            elif zone:
                zones.append(zone)
        if base:
            scramble.append(ScrambleOrder(base, tuple(zones), int(raw.get("count", 3)), path))
    # read before the check below, so a wrong unit name in it is told like any other
    liberation_units = reader.units(body.get("liberation_units"), ("standing_orders", "liberation_units"))
    if reader.problems or power is None or schema_problems:
        raise ProblemsError([*schema_problems, *reader.all_problems()])
    return StandingOrders(power, default, per_space, explicit=True, conditional_moves=tuple(enigma), choices=choices,
                          tribute_payers=tuple(payers), tribute_caps=caps, kamikaze=tuple(kamikaze), scramble=tuple(scramble),
                          tech_chart=None if body.get("tech_chart") is None else str(body["tech_chart"]),
                          liberation_units=liberation_units)


# problems about a key itself, located at the key rather than at its value
KEY_PROBLEMS = frozenset({"schema.unknown-key", "orders.duplicate-space"})


def capped(problems: list[Problem]) -> list[Problem]:
    """The first LISTED_PROBLEMS problems, and one more saying how many were left out: a file of
    thousands of bad orders is answered in a screenful, and quickly."""
    if len(problems) <= LISTED_PROBLEMS:
        return problems
    return [*problems[:LISTED_PROBLEMS], unlisted(len(problems) - LISTED_PROBLEMS)]


def locate(problems: list[Problem], doc: YamlDocument | None, filename: str) -> list[Problem]:
    """Fill file:line:column from each problem's YAML path."""
    out = []
    for p in problems:
        if p.line is not None:
            out.append(p if p.file else p.located(filename, p.line, p.column))
            continue
        if doc is not None and p.path:
            line, column = doc.key_location(p.path) if p.code in KEY_PROBLEMS else doc.locate(p.path)
            out.append(p.located(filename, line, column))
        else:
            out.append(p.located(filename, None, None))
    return out


def read_orders_text(text: str | bytes, filename: str, ruleset: Ruleset) -> tuple[YamlDocument, Orders | StandingOrders]:
    """Parse an orders or standing-orders file; ProblemsError carries located problems."""
    doc = load_yaml(text, filename, expect_mapping=True)
    try:
        if isinstance(doc.data, Mapping) and "standing_orders" in doc.data:
            return doc, parse_standing(doc, ruleset)
        return doc, parse_orders(doc, ruleset)
    except ProblemsError as err:
        # in file order: format faults and wrong names read in two passes come out together
        located = ProblemsError(sorted(locate(err.problems, doc, filename), key=lambda p: (p.line is None, p.line or 0, p.column or 0)))
        located.partial = err.partial
        raise located from None
