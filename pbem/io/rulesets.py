"""Load a ruleset folder (ruleset.yaml, units.yaml, map.yaml, setup.yaml) into an engine `Ruleset`.

Every file is checked against its JSON Schema in `schemas/` and then against the others (names that
must exist, symmetric adjacency, consistent treasuries), so a broken data file stops the program
with all its problems, each naming the file, the path inside it and the line, instead of an
obscure failure in the middle of a game.

Parsing and validating take a few hundred milliseconds, most of a quick command such as `pbem odds`,
so data that passed is cached as JSON under the user's cache directory
(`$XDG_CACHE_HOME/pbem/rulesets`, else `~/.cache/pbem/rulesets`), keyed by the sha256 of the data
files, the schemas, this loader's code, the version of Python and the installed jsonschema and PyYAML
(where they are, their first file's size and time of change): changed data, schemas, code or
libraries miss the cache and are validated again.  `PBEM_NO_CACHE=1` turns the cache off; a cache that cannot be written is skipped.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import pbem.rulesets as registry
from pbem.engine.model import Board, Canal, Country, Power, Setup, Space, UnitType
from pbem.engine.problems import PathItem, Problem, ProblemsError
from pbem.engine.ruleset import CityGroup, Phase, RuleOption, Ruleset, SideVictory, VictoryRules

if TYPE_CHECKING:  # YAML and JSON Schema are imported only when data has to be validated
    from pbem.engine.combat.rules import CombatRules
    from pbem.engine.rules import Rules
    from pbem.io.yamlfile import YamlDocument

__all__ = [
    "available_rulesets",
    "canonical_hash",
    "load_ruleset",
    "load_ruleset_dir",
    "rules_for",
    "resolve_ruleset_id",
    "ruleset_dir",
    "schemas_dir",
]

FILES = (
    "ruleset",
    "units",
    "map",
    "setup",
)  # each <name>.yaml is checked by schemas/<name>.schema.json
_MAX_BYTES = 8 << 20  # data files are larger than players' orders (a big map is ~100 kB)


def schemas_dir() -> Path:
    """`schemas/` of this installation (a checkout, or `share/pbem/` of a wheel; `pbem.resources`)."""
    from pbem.resources import data_dir

    return data_dir("schemas")


def _normalise(name: str) -> str:
    return "-".join(name.strip().casefold().replace("_", " ").split())


def resolve_ruleset_id(name: str) -> str:
    """The canonical id for an id, alias or folder name (any case; `_`, `-` and spaces alike)."""
    key = _normalise(name)
    table = {_normalise(i): i for i in registry.RULESETS}
    table.update({_normalise(folder): i for i, folder in registry.RULESETS.items()})
    table.update({_normalise(a): i for a, i in registry.ALIASES.items()})
    if key not in table:
        raise ProblemsError(
            [
                Problem(
                    "invalid",
                    f"unknown ruleset {name!r}",
                    hint=f"available: {', '.join(available_rulesets())}",
                    code="ruleset.unknown",
                )
            ]
        )
    return table[key]


def available_rulesets() -> list[str]:
    return sorted(registry.RULESETS)


def ruleset_dir(ruleset_id: str) -> Path:
    return (
        Path(registry.__file__).resolve().parent / registry.RULESETS[resolve_ruleset_id(ruleset_id)]
    )


def ruleset_file(ruleset_id: str, name: str) -> Path:
    """A data file of a ruleset's folder, or of the ruleset it extends when its folder has none
    (ruleset.yaml `extends:`; AMS on 1940 Global shares its map and geometry)."""
    directory = ruleset_dir(ruleset_id)
    path = directory / name
    if path.is_file():
        return path
    parent = _extends(directory)  # (parsed only when needed: audit asks for the map every turn)
    return path if parent is None else ruleset_file(parent, name)


def _extends(directory: Path) -> str | None:
    """The ruleset id a folder's ruleset.yaml extends, read without validating (None: none)."""
    try:
        import yaml

        # libyaml's parser where PyYAML has it: the pure-Python one took a tenth of a command's start
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        doc = yaml.load((directory / "ruleset.yaml").read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 (a safe loader)
    except (OSError, ValueError):
        return None
    value = doc.get("extends") if isinstance(doc, dict) else None
    return str(value) if value else None


def load_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset by id or alias, loaded and validated once per process."""
    return _load_cached(resolve_ruleset_id(ruleset_id))


def rules_for(ruleset: Ruleset) -> tuple["Rules", "CombatRules"]:
    """The ruleset's own `rules.py` and `combat_rules.py`: its choices where the engine leaves one
    open.  Here rather than beside `Game`, so that `pbem odds` does not import the turn engine."""
    import importlib

    folder = registry.RULESETS[ruleset.id]
    rules = importlib.import_module(f"pbem.rulesets.{folder}.rules").RULES
    combat = importlib.import_module(f"pbem.rulesets.{folder}.combat_rules").COMBAT_RULES
    return rules, combat


@functools.cache
def _load_cached(canonical_id: str) -> Ruleset:
    return load_ruleset_dir(ruleset_dir(canonical_id))


def canonical_hash(data: Mapping[str, Any]) -> str:
    """sha256 of canonical JSON (sorted keys, no spaces, UTF-8): the same parsed data hashes the same
    on any machine, whatever its line endings, comments or key order."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- Reading and checking
class _Files:
    """The parsed files of one folder, collecting problems with file, path, line and column.

    Files are read with `pbem.io.yamlfile.load_yaml`, which refuses duplicate keys (a silently lost
    territory) and remembers where every value was written.
    """

    def __init__(self, directory: Path):
        self.directory = directory
        self.docs: dict[str, YamlDocument] = {}
        self.data: dict[str, Any] = {}
        self.problems: list[Problem] = []

    def display(self, name: str) -> str:
        return f"{self.directory.name}/{name}.yaml"

    def add(
        self,
        name: str,
        path: tuple[PathItem, ...],
        message: str,
        hint: str = "",
        code: str = "ruleset.data",
    ) -> None:
        problem = Problem(
            "invalid", message, hint=hint, path=path, file=self.display(name), code=code
        )
        doc = self.docs.get(name)
        self.problems.append(doc.problem(problem) if doc is not None else problem)

    def read(self, name: str, schemas: Path, raw: bytes | OSError | None = None) -> None:
        from jsonschema import Draft202012Validator

        from pbem.io.yamlfile import load_yaml

        path = self.directory / f"{name}.yaml"
        try:
            if raw is None:
                raw = path.read_bytes()
            elif isinstance(raw, OSError):
                raise raw
        except OSError as e:
            self.problems.append(
                Problem(
                    "invalid",
                    f"cannot read: {e.strerror or e}",
                    file=self.display(name),
                    hint="a ruleset folder holds ruleset.yaml, units.yaml, map.yaml and setup.yaml",
                    code="ruleset.missing",
                )
            )
            return
        try:
            doc = load_yaml(raw, self.display(name), expect_mapping=True, max_bytes=_MAX_BYTES)
        except ProblemsError as e:
            self.problems.extend(e.problems)
            return
        self.docs[name] = doc
        schema = json.loads((schemas / f"{name}.schema.json").read_text(encoding="utf-8"))
        errors = sorted(
            Draft202012Validator(schema).iter_errors(doc.data),
            key=lambda e: list(map(str, e.absolute_path)),
        )
        for err in errors:
            where = ".".join(str(p) for p in err.absolute_path) or "(top level)"
            self.add(
                name, tuple(err.absolute_path), f"{where}: {err.message}", code="ruleset.schema"
            )
        if not errors:
            self.data[name] = doc.data


def load_ruleset_dir(directory: Path) -> Ruleset:
    """Load and validate the four YAML files of a ruleset folder; ProblemsError lists every problem."""
    directory = Path(directory)
    schemas = schemas_dir()
    raw: dict[str, bytes | OSError] = {}
    parent: str | None = None
    for name in FILES:
        try:
            raw[name] = (directory / f"{name}.yaml").read_bytes()
        except OSError as e:
            raw[name] = e
            if name != "ruleset" and parent is None:
                parent = _extends(directory)  # (read only when a file is missing: it imports PyYAML)
            if parent is not None and name != "ruleset":
                # a file the folder does not have is the extended ruleset's (ruleset.yaml `extends:`)
                try:
                    raw[name] = ruleset_file(parent, f"{name}.yaml").read_bytes()
                except (OSError, ProblemsError):
                    pass
    key = _cache_key(raw, schemas)
    cached = _cache_read(key) if key else None
    if cached is not None:
        files = _Files(directory)
        files.data = cached
        ruleset = _build(files)
        if not files.problems:
            return ruleset  # (a cache entry is only written for data that passed)
    files = _Files(directory)
    for name in FILES:
        files.read(name, schemas, raw[name])
    if files.problems:
        raise ProblemsError(files.problems)
    ruleset = _build(files)
    if files.problems:
        raise ProblemsError(files.problems)
    if key:
        _cache_write(key, files.data, ruleset.data_hash)
    return ruleset


# --- The cache of validated data
_CACHE_FORMAT = b"pbem-ruleset-cache-1"
_CACHE_ENTRIES = 16  # the newest entries kept


def _cache_dir() -> Path | None:
    if os.environ.get("PBEM_NO_CACHE"):
        return None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    try:
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    except RuntimeError:  # no home directory
        return None
    return base / "pbem" / "rulesets"


@functools.cache
def _environment() -> str:
    """What else a validated result depends on: the Python, the jsonschema that validated it and
    the YAML parser that read it.  A library is told by where its code is installed and by the
    size and time of change of its first file, which installing another version rewrites: found
    without importing jsonschema (skipping that import is what the cache is for) or
    importlib.metadata (whose import took a tenth of a quick command)."""
    import importlib.util
    import sys

    libraries = []
    for name, package in (("jsonschema", "jsonschema"), ("PyYAML", "yaml")):
        spec = importlib.util.find_spec(package)
        try:
            found = os.stat(spec.origin) if spec is not None and spec.origin else None
        except OSError:
            found = None
        libraries.append(f"{name}=" + (f"{spec.origin}:{found.st_size}:{found.st_mtime_ns}" if found and spec else "?"))
    # PyYAML reads with libyaml where its compiled module sits beside it
    spec = importlib.util.find_spec("yaml")
    folder = Path(spec.origin).parent if spec is not None and spec.origin else None
    libyaml = "libyaml" if folder is not None and any(folder.glob("_yaml.*")) else "pure"
    return f"python={sys.version_info[:3]};{';'.join(libraries)};{libyaml}"


def _cache_key(raw: Mapping[str, bytes | OSError], schemas: Path) -> str | None:
    """sha256 of everything the validated data depends on: the files, the schemas, the loader."""
    if _cache_dir() is None:
        return None
    h = hashlib.sha256(_CACHE_FORMAT)
    h.update(_environment().encode())
    try:
        code = [Path(__file__), Path(__file__).with_name("yamlfile.py")]
        parts = [(n, raw[n]) for n in FILES] + [(p.name, p.read_bytes()) for p in code]
        parts += [(n, (schemas / f"{n}.schema.json").read_bytes()) for n in FILES]
    except OSError:
        return None
    for name, data in parts:
        if isinstance(data, OSError):
            return None
        h.update(b"\0%s\0%d\0" % (name.encode(), len(data)))
        h.update(data)
    return h.hexdigest()


def _cache_read(key: str) -> dict[str, Any] | None:
    directory = _cache_dir()
    if directory is None:
        return None
    try:
        entry = json.loads((directory / f"{key}.json").read_text(encoding="utf-8"))
        data = entry["data"]
        if entry["key"] != key or set(data) != set(FILES):
            return None  # not ours
        if canonical_hash(data) != entry["data_hash"]:
            return None  # damaged
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return data  # type: ignore[no-any-return]


def _cache_write(key: str, data: Mapping[str, Any], data_hash: str) -> None:
    directory = _cache_dir()
    if directory is None:
        return
    try:
        text = json.dumps({"key": key, "data_hash": data_hash, "data": data}, ensure_ascii=False)
        if json.loads(text)["data"] != data:
            return  # something JSON does not carry exactly (a NaN): parse the YAML each time
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, directory / f"{key}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        entries = sorted(directory.glob("*.json"), key=lambda e: e.stat().st_mtime, reverse=True)
        for old in entries[_CACHE_ENTRIES:]:  # every edit of a data file makes a new entry
            old.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError):
        pass


def _build(f: _Files) -> Ruleset:
    rs, units_doc, map_doc, setup_doc = (f.data[n] for n in FILES)
    for name, doc in (("map", map_doc), ("setup", setup_doc)):
        if doc["ruleset"] not in (rs["id"], rs.get("extends")):
            f.add(name, ("ruleset",), f"made for ruleset {doc['ruleset']!r}, not {rs['id']!r}")

    units = {
        name: UnitType(
            name=name,
            domain=u["domain"],
            cost=u["cost"],
            attack=u["attack"],
            defense=u["defense"],
            move=u["move"],
            hits=u.get("hits", 1),
            tags=frozenset(u.get("tags", ())),
            bombard=u.get("bombard", 0),
            transport_capacity=u.get("transport_capacity", 0),
            transport_size=u.get("transport_size", 0),
            carrier_capacity=u.get("carrier_capacity", 0),
            production=u.get("production"),
            max_damage=u.get("max_damage"),
            captured_as=u.get("captured_as"),
            min_territory_ipc=u.get("min_territory_ipc"),
            bombs=tuple(u.get("bombs", ())),
            bombing_bonus=u.get("bombing_bonus"),
            inoperable_at=u.get("inoperable_at"),
            original_territory_only=u.get("original_territory_only", False),
            places=tuple(u.get("places", ())),
            on_islands=u.get("on_islands"),
            place_weights=tuple(sorted((str(k), int(v)) for k, v in (u.get("place_weights") or {}).items())),
            max_per_territory=u.get("max_per_territory"),
            needs_facility=u.get("needs_facility", False),
            built_in_aa=u.get("built_in_aa", True),
            on_capture=u.get("on_capture"),
            upgrade_from=u.get("upgrade_from"),
            upgrade_to=u.get("upgrade_to"),
            places_not=tuple(u.get("places_not", ())),
            paired_attack=u.get("paired_attack", 0),
            paired_with=tuple(u.get("paired_with", ())),
            convoy_dice=u.get("convoy_dice", 0),
            blitz_with=tuple(u.get("blitz_with", ())),
            bought_by=tuple(u["bought_by"]) if "bought_by" in u else None,
            aliases=tuple(u.get("aliases", ())),
        )
        for name, u in units_doc["units"].items()
    }
    for u in units.values():
        if u.captured_as is not None and u.captured_as not in units:
            f.add("units", ("units", u.name, "captured_as"), f"{u.name}: captured_as {u.captured_as!r} is not a unit of this ruleset")
        for key in ("upgrade_from", "upgrade_to"):
            if getattr(u, key) is not None and getattr(u, key) not in units:
                f.add("units", ("units", u.name, key), f"{u.name}: {key} {getattr(u, key)!r} is not a unit of this ruleset")
        if u.has("upgrade") != (u.upgrade_from is not None and u.upgrade_to is not None):
            f.add("units", ("units", u.name), f"{u.name}: an upgrade (tag upgrade) names both upgrade_from and upgrade_to")
    seen: dict[str, str] = {}
    for u in units.values():
        for n in (u.name, *u.aliases):
            if seen.setdefault(n.casefold(), u.name) != u.name:
                f.add(
                    "units",
                    ("units", u.name),
                    f"name {n!r} is used by both {seen[n.casefold()]!r} and {u.name!r}",
                )

    # Board.
    spaces_doc: dict[str, Any] = map_doc["spaces"]
    # Control, treasury and the map's owners are kept by country; a power of one economy is its own.
    power_names = [c["name"] for p in rs["powers"] for c in (p.get("countries") or [p])]
    power_names += [b["name"] for b in rs.get("bystanders", [])]  # they own territories too
    spaces: dict[str, Space] = {}
    adjacency: dict[str, frozenset[str]] = {}
    for name, s in spaces_doc.items():
        for key in ("original_owner", "capital_of"):
            # Only powers of the ruleset may own territories in its map.
            if key in s and s[key] not in power_names:
                f.add(
                    "map",
                    ("spaces", name, key),
                    f"{name}: {key} {s[key]!r} is not a power of {rs['id']}",
                )
        for n in s["adjacent"]:
            if n not in spaces_doc:
                f.add(
                    "map",
                    ("spaces", name, "adjacent"),
                    f"{name}: adjacent space {n!r} does not exist",
                )
            elif name not in spaces_doc[n]["adjacent"]:
                f.add(
                    "map",
                    ("spaces", name, "adjacent"),
                    f"{name} lists {n} as adjacent but {n} does not list {name}",
                )
        spaces[name] = Space(
            name=name,
            kind=s["kind"],
            ipc=s.get("ipc", 0),
            original_owner=s.get("original_owner"),
            capital_of=s.get("capital_of"),
            victory_city=s.get("victory_city"),
            island=s.get("island", False),
            impassable=s.get("impassable", False),
            convoy=s.get("convoy", False),
            tribute=s.get("tribute", False),
            convoy_route=s.get("convoy_route"),
            kamikaze=s.get("kamikaze", False),
            convoy_zone=s.get("convoy_zone", False),
            naval_base=s.get("naval_base", False),
            air_base=s.get("air_base", False),
            aliases=tuple(s.get("aliases", ())),
        )
        adjacency[name] = frozenset(s["adjacent"])
    canals = []
    for i, c in enumerate(map_doc["canals"]):
        a, b = c["sea_zones"]
        for z in (a, b):
            if spaces.get(z) is None or not spaces[z].is_sea:
                f.add(
                    "map", ("canals", i, "sea_zones"), f"canal {c['name']}: {z!r} is not a sea zone"
                )
        for t in c["controlled_by"]:
            if spaces.get(t) is None or not spaces[t].is_land:
                f.add(
                    "map",
                    ("canals", i, "controlled_by"),
                    f"canal {c['name']}: {t!r} is not a territory",
                )
        canals.append(Canal(c["name"], (a, b), tuple(c["controlled_by"])))
    board = Board(MappingProxyType(spaces), MappingProxyType(adjacency), tuple(canals))

    # Powers.
    powers = []
    taken: dict[str, str] = {}
    for i, p in enumerate(rs["powers"]):
        if p["side"] not in rs["sides"]:
            f.add(
                "ruleset",
                ("powers", i, "side"),
                f"{p['name']}: side {p['side']!r} is not one of {rs['sides']}",
            )
        countries = p.get("countries") or []
        for j, c in enumerate(countries or [p]):
            where = ("powers", i, "countries", j, "capital") if countries else ("powers", i, "capital")
            if spaces.get(c["capital"]) is None or spaces[c["capital"]].capital_of != c["name"]:
                f.add("ruleset", where, f"{c['name']}: the map has no capital of {c['name']} called {c['capital']!r}")
        if countries and (p["capital"], p["starting_treasury"]) != (countries[0]["capital"], countries[0]["starting_treasury"]):
            f.add("ruleset", ("powers", i), f"{p['name']}: capital and starting_treasury must repeat its first country's")
        for n in (p["name"], *p.get("aliases", ()), *(m for c in countries for m in (c["name"], *c.get("aliases", ())))):
            if taken.setdefault(n.casefold(), p["name"]) != p["name"]:
                f.add(
                    "ruleset",
                    ("powers", i),
                    f"name {n!r} is used by both {taken[n.casefold()]} and {p['name']}",
                )
        for n in p.get("aliases", ()):
            if any(
                n.casefold() in (s.name.casefold(), *(a.casefold() for a in s.aliases))
                for s in spaces.values()
            ):
                f.add(
                    "ruleset",
                    ("powers", i, "aliases"),
                    f"{p['name']}: alias {n!r} is also the name of a space",
                )
        powers.append(
            Power(
                p["name"],
                p["side"],
                p["capital"],
                p["starting_treasury"],
                p.get("colour", "#888888"),
                tuple(p.get("aliases", ())),
                tuple(
                    Country(c["name"], c["capital"], c["starting_treasury"], c.get("colour", p.get("colour", "#888888")),
                            tuple(c.get("aliases", ())))
                    for c in countries
                ),
            )
        )

    bystanders = tuple(Power(b["name"], b["name"], "", 0, b.get("colour", "#BBBBBB"), tuple(b.get("aliases", ())), (), b["kind"])
                       for b in rs.get("bystanders", []))
    # Setup.
    for t, owner in setup_doc["control"].items():
        if t not in spaces or not (spaces[t].is_land or spaces[t].convoy or spaces[t].convoy_route):
            f.add("setup", ("control", t), f"{t!r} is not a territory or convoy centre or route of the map")
        if owner not in power_names:
            f.add("setup", ("control", t), f"{t}: {owner!r} is not a power of {rs['id']}")
    for where, by_owner in setup_doc["units"].items():
        if where not in spaces:
            f.add("setup", ("units", where), f"{where!r} is not a space of the map")
        for owner, stack in by_owner.items():
            if owner not in [p.name for p in (*powers, *bystanders)]:  # units belong to powers, not to their countries
                f.add(
                    "setup",
                    ("units", where, owner),
                    f"{where}: {owner!r} is not a power of {rs['id']}",
                )
            for unit in stack:
                if unit not in units:
                    f.add("setup", ("units", where, owner, unit), f"{where}: unknown unit {unit!r}")
    treasury = dict(setup_doc["treasury"])
    for c in (c for p in powers for c in p.economies):
        if treasury.get(c.name) != c.starting_treasury:
            f.add(
                "setup",
                ("treasury",),
                f"{c.name} starts with {treasury.get(c.name)} IPCs in setup.yaml but {c.starting_treasury} in ruleset.yaml",
                hint="the rulebook's starting income belongs in both; fix the importer's corrections list",
            )
    setup = Setup(
        control=MappingProxyType(dict(setup_doc["control"])),
        units=MappingProxyType(
            {
                s: MappingProxyType({o: MappingProxyType(dict(st)) for o, st in by.items()})
                for s, by in setup_doc["units"].items()
            }
        ),
        treasury=MappingProxyType(treasury),
    )

    # Turn sequence, victory and options.
    phases = tuple(
        Phase(
            p["id"],
            p["name"],
            tuple(p.get("steps", ())),
            p.get("mandatory", False),
            p.get("rule", ""),
        )
        for p in rs["phases"]
    )
    options = {}
    for name, o in rs["options"].items():
        if o["default"] not in o["allowed"] or any(
            type(v) is not type(o["default"]) for v in o["allowed"]
        ):
            f.add(
                "ruleset",
                ("options", name),
                f"option {name}: default {o['default']!r} must be one of allowed {o['allowed']}",
            )
        options[name] = RuleOption(
            name, o["default"], tuple(o["allowed"]), o["rule"], o.get("description", "")
        )
    v = rs["victory"]
    n_cities = sum(1 for s in spaces.values() if s.victory_city)
    if v.get("kind", "cities") == "capitals":
        if n_cities:
            f.add("map", ("spaces",), f"the map has {n_cities} victory cities, but ruleset.yaml wins the game by capitals")
        victory = VictoryRules(0, MappingProxyType({}), "", "", v.get("rule", ""), kind="capitals")
    elif v.get("kind") == "tokens":
        # victory tokens (AMS): the objectives are rules.py's (Rules.tokens); the map's cities name none
        victory = VictoryRules(n_cities, MappingProxyType({}), "", "", v.get("rule", ""), kind="tokens")
    elif v.get("kind") == "city_groups":
        held = bool(v.get("held_for_a_round"))
        if held == ("checked_after" in v):
            f.add("ruleset", ("victory",), "city groups are counted after one power's turn (checked_after) or held for a complete round (held_for_a_round: true), one of the two")
        elif not held and v["checked_after"] not in power_names:
            f.add("ruleset", ("victory", "checked_after"), f"{v['checked_after']!r} is not a power")
        sides_won: dict[str, SideVictory] = {}
        for side, how in v["sides"].items():
            if side not in rs["sides"]:
                f.add("ruleset", ("victory", "sides", side), f"{side!r} is not a side of {rs['id']}")
            groups = []
            for i, g in enumerate(how["any_of"]):
                for c in g["cities"]:
                    if spaces.get(c) is None or not spaces[c].victory_city:
                        f.add("ruleset", ("victory", "sides", side, "any_of", i, "cities"), f"{c!r} is no victory city of the map")
                if not 1 <= g["at_least"] <= len(g["cities"]):
                    f.add("ruleset", ("victory", "sides", side, "any_of", i, "at_least"), f"at_least must be 1..{len(g['cities'])}")
                groups.append(CityGroup(g["name"], tuple(g["cities"]), g["at_least"]))
            for c in how["holding_one_of"]:
                if spaces.get(c) is None or not spaces[c].is_land:
                    f.add("ruleset", ("victory", "sides", side, "holding_one_of"), f"{c!r} is not a territory of the map")
            sides_won[side] = SideVictory(tuple(groups), tuple(how["holding_one_of"]))
        victory = VictoryRules(n_cities, MappingProxyType({}), "", v.get("checked_after", ""), v.get("rule", ""), kind="city_groups",
                               sides=MappingProxyType(sides_won), held_for_a_round=held)
    else:
        if v["checked_after"] not in power_names:
            f.add("ruleset", ("victory", "checked_after"), f"{v['checked_after']!r} is not a power")
        vopt = options.get(v["option"])
        if vopt is None or set(vopt.allowed) != set(v["conditions"]):
            f.add(
                "ruleset",
                ("victory", "option"),
                f"victory option {v['option']!r} must allow exactly {sorted(v['conditions'])}",
            )
        if n_cities != v["cities"]:
            f.add(
                "map",
                ("spaces",),
                f"the map has {n_cities} victory cities, ruleset.yaml says {v['cities']}",
            )
        victory = VictoryRules(
            v["cities"],
            MappingProxyType(dict(v["conditions"])),
            v["option"],
            v["checked_after"],
            v.get("rule", ""),
        )

    return Ruleset(
        id=rs["id"],
        name=rs["name"],
        powers=tuple(powers),
        units=MappingProxyType(units),
        board=board,
        setup=setup,
        phases=phases,
        victory=victory,
        options=MappingProxyType(options),
        data_hash=canonical_hash({n: f.data[n] for n in FILES}),
        sides=tuple(rs["sides"]),
        bystanders=bystanders,
    )
