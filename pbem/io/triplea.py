"""Import a TripleA game XML into our map.yaml and setup.yaml (`pbem ruleset import-triplea`).

TripleA's XML is the only machine-readable source of the boards and opening setups; the rulebook
is the authority.  So the import renames TripleA's powers, units and sea zones to the rulebook's
names, then applies a per-ruleset list of corrections (each citing the rulebook) and writes a YAML
comment next to every corrected datum.  Output is deterministic: re-running the import on the
same XML reproduces the committed files byte for byte, so the YAML is never edited by hand.

Only facts are taken from the XML (names, adjacency, values, placements); it is parsed with the
standard library and never executed or copied.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pbem.engine.problems import Problem, ProblemsError

__all__ = [
    "POWER_NAMES",
    "PROFILES",
    "UNIT_NAMES",
    "Connect",
    "ImportProfile",
    "SetCanalControl",
    "SetSpace",
    "SetTreasury",
    "import_triplea",
    "read_triplea",
    "render_yaml",
]

# --- Rename tables: TripleA name -> the rulebooks' name.  Names not listed are kept as they are.
# Powers of all five TripleA games we import (1942 2E, Revised, Europe, Pacific, Global 1940).
POWER_NAMES: Mapping[str, str] = {
    "Russians": "Soviet Union",
    "Germans": "Germany",
    "British": "United Kingdom",
    "Japanese": "Japan",
    "Americans": "United States",
    "Italians": "Italy",
    "Chinese": "China",
    "French": "France",
    "ANZAC": "ANZAC",
    "UK_Pacific": "United Kingdom Pacific",
    "Australians": "Australia",
    "Commonwealth": "Commonwealth",
    "Dutch": "Netherlands",
    "Mongolians": "Mongolia",
    "Neutral_Axis": "Pro-Axis Neutral",
    "Neutral_Allies": "Pro-Allies Neutral",
    "Neutral_True": "Strict Neutral",
}
# Unit types, named as the rulebooks' unit profiles name them.
UNIT_NAMES: Mapping[str, str] = {
    "armour": "tank",
    "aaGun": "antiaircraft artillery",
    "factory": "industrial complex",
    "carrier": "aircraft carrier",
    "factory_major": "major industrial complex",
    "factory_minor": "minor industrial complex",
    "mech_infantry": "mechanized infantry",
    "tactical_bomber": "tactical bomber",
    "airfield": "air base",
    "harbour": "naval base",
}
_NUMBERED_SEA_ZONE = re.compile(r"^(\d+) Sea Zone$")  # TripleA "15 Sea Zone" -> our "SZ 15"
_MONEY = ("PUs", "IPCs")  # TripleA's resource name for the treasury


# --- Corrections: where the rulebook and TripleA disagree, the rulebook wins.  Each one names the
# passage; the importer fails if a correction no longer matches the XML, so none goes stale.
@dataclass(frozen=True)
class SetSpace:
    """Set a field of a space (`None` removes it)."""

    space: str  # our name
    field: str
    value: Any
    rule: str


@dataclass(frozen=True)
class Connect:
    """Add an adjacency the XML lacks."""

    a: str
    b: str
    rule: str


@dataclass(frozen=True)
class SetCanalControl:
    """Replace the territories whose control opens a canal."""

    canal: str
    controlled_by: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class SetTreasury:
    power: str  # our name
    value: int
    rule: str


Correction = SetSpace | Connect | SetCanalControl | SetTreasury


@dataclass(frozen=True)
class ImportProfile:
    """What one rule system changes on top of the generic import."""

    space_names: Mapping[str, str] = field(default_factory=dict)  # TripleA -> rulebook name
    space_aliases: Mapping[str, tuple[str, ...]] = field(
        default_factory=dict
    )  # our name -> extra names
    victory_city_names: Mapping[str, str] = field(default_factory=dict)  # territory -> city
    corrections: tuple[Correction, ...] = ()
    unit_names: Mapping[str, str] = field(default_factory=dict)  # TripleA -> this rulebook's name
    power_names: Mapping[str, str] = field(default_factory=dict)  # TripleA -> this rulebook's name
    # TripleA names unnumbered sea zones "Azores Sea Sea Zone"; True: drop the suffix ("Azores Sea"),
    # keeping TripleA's name as an alias.
    strip_sea_zone_suffix: bool = False
    # Powers whose units belong to another power (Pacific: the Australians' to Great Britain, whose
    # countries India and Australia keep control and treasury apart): TripleA player -> unit owner.
    unit_owner_names: Mapping[str, str] = field(default_factory=dict)
    # A unit type that is another unit for one player (Pacific: China's infantry): (player, unit) -> ours.
    owner_unit_names: Mapping[tuple[str, str], str] = field(default_factory=dict)
    # TripleA units that stand for a printed board feature (Pacific's naval and air bases): unit ->
    # the map flag set on the space they stand in, instead of a unit.
    board_features: Mapping[str, str] = field(default_factory=dict)
    # TripleA players that are no power of the rulebook (Pacific's optional Commonwealth).
    dropped_players: tuple[str, ...] = ()


_A42 = "rulebook"  # the 1942 Second Edition rulebook (shared/rules/aa1942_2e.txt)
_EUR = "Europe rulebook"  # Axis & Allies Europe, 1999 (shared/rules/europe_1999.txt)
_REV = "Revised rulebook"
_PAC = "Pacific rulebook"  # Axis & Allies Pacific, 2001 (shared/rules/pacific_2001.txt)
_AMS = "AMS guide"  # the AMS house rules on 1940 Global (shared/rules/global_1940_ams_house_rules.txt)  # Axis & Allies Revised with errata and FAQ (shared/rules/revised.txt)
PROFILES: Mapping[str, ImportProfile] = {
    "1942-2e": ImportProfile(
        # The rulebook names the victory cities, TripleA only marks territories (map/vc.txt).
        victory_city_names={
            "Eastern United States": "Washington",
            "United Kingdom": "London",
            "Karelia S.S.R.": "Leningrad",
            "Russia": "Moscow",
            "India": "Calcutta",
            "Western United States": "San Francisco",
            "Germany": "Berlin",
            "France": "Paris",
            "Italy": "Rome",
            "Kiangsu": "Shanghai",
            "Philippine Islands": "Manila",
            "Japan": "Tokyo",
        },
        # The rulebook's caption of an air-movement example says "leaves Hawaii" (Unit Profiles).
        space_aliases={"Hawaiian Islands": ("Hawaii",)},
        corrections=(
            SetSpace(
                "Hawaiian Islands",
                "victory_city",
                None,
                f"{_A42} p. 6, How the War Is Won: twelve victory cities, the Hawaiian Islands not among them",
            ),
            SetCanalControl(
                "Suez Canal",
                ("Anglo-Egyptian Sudan", "Trans-Jordan"),
                f"{_A42} p. 9, Canals: the side that controls both Anglo-Egyptian Sudan and "
                "Trans-Jordan controls the Suez Canal",
            ),
            Connect(
                "Anglo-Egyptian Sudan",
                "Trans-Jordan",
                f"{_A42} p. 9, Canals: land units can move freely between Trans-Jordan and "
                "Anglo-Egyptian Sudan",
            ),
            # Only the treasury: territory values stay as printed on the board, which sum to 41 and
            # 31 (the rulebook gives no territory values to correct them by; see README.md).
            SetTreasury(
                "Germany",
                40,
                f"{_A42} p. 6, Combat Forces: starting income Germany 40; territory values still sum to 41",
            ),
            SetTreasury(
                "United Kingdom",
                30,
                f"{_A42} p. 6, Combat Forces: starting income United Kingdom 30; territory values still sum to 31",
            ),
        ),
    ),
    "revised": ImportProfile(
        # Spellings of the rulebook (revised.txt): "Anglo-Egypt" (Canals; Mideast Oil), "Kwangtung"
        # (Chinese Divisions); "Philipine" is a TripleA misspelling.  The TripleA names stay aliases.
        space_names={
            "Anglo Egypt": "Anglo-Egypt",
            "Kwantung": "Kwangtung",
            "Philipine Islands": "Philippine Islands",
        },
        # Island Bases: "a fighter (move 4) could travel from Hawaii to the East Indies".
        space_aliases={"Hawaiian Islands": ("Hawaii",), "Anglo-Egypt": ("Egypt",)},
        # How the War Is Won: the twelve victory cities by name; TripleA only marks territories.
        victory_city_names={
            "Eastern United States": "Washington",
            "United Kingdom": "London",
            "Karelia S.S.R.": "Leningrad",
            "Russia": "Moscow",
            "India": "Calcutta",
            "Western United States": "Los Angeles",
            "Germany": "Berlin",
            "Western Europe": "Paris",
            "Southern Europe": "Rome",
            "Kwangtung": "Shanghai",
            "Philippine Islands": "Manila",
            "Japan": "Tokyo",
        },
        # Unit Profiles: Revised calls the unit an "antiaircraft gun" (1942: antiaircraft artillery).
        unit_names={"aaGun": "antiaircraft gun"},
        corrections=tuple(
            SetSpace(
                name,
                "island",
                None,
                f"{_REV} FAQ (National Advantages, Japan): an island is a territory located entirely "
                f"inside a single sea zone; {name} borders {zones} sea zones",
            )
            for name, zones in (("Australia", 4), ("French Madagascar", 4), ("Japan", 2))
        ),
    ),
    "europe-1999": ImportProfile(
        # The rulebook calls the British power Great Britain throughout (Order of Play, the National
        # Reference Charts); its home territory keeps the board's name, United Kingdom.
        power_names={"British": "Great Britain"},
        # The Combat Units profiles: "Armor", "Antiaircraft Gun", "Aircraft Carrier".
        unit_names={"armour": "armor", "aaGun": "antiaircraft gun"},
        strip_sea_zone_suffix=True,
        space_aliases={"United Kingdom": ("Great Britain", "U.K."), "U.S. Eastern Coast": ("U.S. Coast",)},
        corrections=(
            *(
                SetSpace(
                    name,
                    "impassable",
                    True,
                    f"{_EUR}, The Gameboard, Neutral Territories: \"players may not move units into them nor fly over them\"",
                )
                for name in ("Eire", "Saudi Arabia", "Spain", "Spanish Morocco", "Sweden", "Switzerland", "Turkey")
            ),
            *(
                SetSpace(
                    name,
                    "tribute",
                    True,
                    f"{_EUR}, Collect Income, The Middle East (p. 19): its IPCs are paid to Germany by the Allies when Germany "
                    "controls it, and never count toward Allied income",
                )
                for name in ("Egypt", "Iran", "Iraq", "Palestine", "Syria", "Trans-Jordan")
            ),
            # Victory Conditions: the game is won by capturing a capital, not by counting cities;
            # TripleA marks the four capitals as victory cities.
            *(
                SetSpace(name, "victory_city", None, f"{_EUR}, Object of the Game: won by capturing and holding a capital; the game has no victory cities")
                for name in ("Germany", "Moscow", "United Kingdom", "United States")
            ),
        ),
    ),
    "global-1940": ImportProfile(
        # DIGEST §1.2: the United Kingdom is "one power with two economies, "UK Europe" and "UK
        # Pacific"" (AMS: "UK Europe", "UK Pacific"); TripleA's British and UK_Pacific players are
        # those two countries, their units the United Kingdom's.
        power_names={"British": "UK Europe", "UK_Pacific": "UK Pacific"},
        unit_owner_names={"British": "United Kingdom", "UK_Pacific": "United Kingdom"},
        # The AMS unit table: "AAA", "Tactical bomber", "Strategic bomber"; facilities stay units
        # (they are bought, damaged and repaired in this game).
        unit_names={"aaGun": "antiaircraft artillery"},
        corrections=tuple(
            # Kamikaze (P16): strikes only "in sea zones with a kamikaze symbol".  The XML marks them by a
            # trigger at game start (triggerAttachment ... territoryProperty kamikazeZone), which the
            # territory attachments this importer reads do not show.
            SetSpace(f"SZ {n}", "kamikaze", True, "P16 kamikaze zones; TripleA sets them by a game-start trigger: 6, 17, 19, 20, 22, 35 Sea Zone")
            for n in (6, 17, 19, 20, 22, 35)
        ),
    ),
    "pacific-2001": ImportProfile(
        # Pick a World Power: three powers; Great Britain "controls two countries: India and Australia",
        # the United States "two countries: USA and China".  Control markers and treasuries are the
        # countries' (TripleA's players British, Australians, Chinese, Americans); units are the powers'.
        power_names={"British": "India", "Australians": "Australia", "Americans": "USA"},
        unit_owner_names={"British": "Great Britain", "Australians": "Great Britain", "Chinese": "United States",
                          "Americans": "United States"},
        # China's pieces are its own: "Chinese infantry units may never board transports" (Phase 1, China).
        owner_unit_names={("Chinese", "infantry"): "Chinese infantry"},
        # The Combat Units profiles: "Tank", "Antiaircraft Gun", "U.S. Marines".
        unit_names={"aaGun": "antiaircraft gun", "marine": "marine"},
        # TripleA stands units for the bases the board prints (pacific.notes.html); ours are map marks.
        board_features={"harbour": "naval_base", "airfield": "air_base"},
        # TripleA's optional Commonwealth player is no power of the rulebook.
        dropped_players=("Commonwealth",),
        space_names={"Gilbert": "Gilbert Islands", "Mariana": "Mariana Islands", "Wake": "Wake Island"},
        corrections=(
            *(
                SetSpace(name, "impassable", True,
                         f"{_PAC}, The Gameboard, Soviet Union and Himalayas: \"Players may not move units into nor fly over either of these territories\"")
                for name in ("Himalayas", "Soviet Union")
            ),
            # Object of the Game: won by capitals held and victory points; the game has no victory
            # cities (TripleA marks the three capitals Japan may take or lose as such).
            *(
                SetSpace(name, "victory_city", None, f"{_PAC}, Object of the Game: won by capitals and victory points; the game has no victory cities")
                for name in ("India", "Japan", "New South Wales")
            ),
            # TripleA's map draws Queensland's coast on sea zone 32, but its XML connects only 29.
            Connect(
                "Queensland",
                "SZ 32",
                f"{_PAC}, Amphibious Assault Example #2 (a transport in sea zone 32 unloads into Queensland) and the "
                "Transport Movement Example (\"It moves into sea zone 32, where it picks up two infantry units, one from each "
                "of two territories, Queensland and Northern Territory\")",
            ),
        ),
    ),
}


# --- Reading the XML
@dataclass
class _Game:
    """What we keep from a TripleA XML, already renamed: plain data plus comments for corrections."""

    source: dict[str, str]
    spaces: dict[str, dict[str, Any]]
    adjacency: dict[str, set[str]]
    canals: list[dict[str, Any]]
    control: dict[str, str]
    units: dict[str, dict[str, dict[str, int]]]
    treasury: dict[str, int]
    map_comments: dict[tuple[Any, ...], str] = field(default_factory=dict)
    setup_comments: dict[tuple[Any, ...], str] = field(default_factory=dict)


def _problem(
    xml_path: Path, message: str, hint: str = "", line: int | None = None
) -> ProblemsError:
    return ProblemsError(
        [Problem("invalid", message, hint=hint, file=str(xml_path), line=line, code="triplea.xml")]
    )


def _truthy(value: str | None) -> bool:
    """TripleA writes flags as "true" and victory cities as "1" (a count of cities)."""
    if value is None:
        return False
    v = value.strip().lower()
    return v == "true" or (v.isdigit() and int(v) > 0)


def read_triplea(xml_path: Path, *, ruleset_id: str) -> _Game:
    """Parse a TripleA game XML into our names, with the ruleset's corrections applied."""
    xml_path = Path(xml_path)
    try:
        raw = xml_path.read_bytes()
    except OSError as e:
        raise _problem(xml_path, f"cannot read the TripleA XML: {e.strerror or e}") from None
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise _problem(xml_path, f"not well-formed XML: {e}", line=e.position[0]) from None
    if root.tag != "game" or root.find("map") is None:
        raise _problem(
            xml_path,
            "not a TripleA game file: expected <game> with a <map>",
            hint="pass a TripleA game XML such as WW2v5_1942_2nd.xml",
        )
    profile = PROFILES.get(ruleset_id, ImportProfile())
    info = root.find("info")
    source = {
        "file": xml_path.name,
        "game": info.get("name", "") if info is not None else "",
        "version": info.get("version", "") if info is not None else "",
        "sha256": hashlib.sha256(raw).hexdigest(),
    }

    def space_name(name: str) -> str:
        if name in profile.space_names:
            return profile.space_names[name]
        m = _NUMBERED_SEA_ZONE.match(name)
        if m:
            return f"SZ {m.group(1)}"
        if profile.strip_sea_zone_suffix and name.endswith(" Sea Zone"):
            return name.removesuffix(" Sea Zone")
        return name

    def power_name(name: str) -> str:
        return profile.power_names.get(name, POWER_NAMES.get(name, name))

    # Territories and sea zones.
    xml_map = root.find("map")
    assert xml_map is not None
    spaces: dict[str, dict[str, Any]] = {}
    renamed: dict[str, str] = {}  # TripleA name -> ours
    for t in xml_map.findall("territory"):
        name = t.get("name")
        if not name:
            raise _problem(xml_path, "a <territory> has no name")
        ours = space_name(name)
        if ours in spaces:
            raise _problem(xml_path, f"two territories are both called {ours!r}")
        renamed[name] = ours
        kind = "sea" if _truthy(t.get("water")) else "land"
        spaces[ours] = {"kind": kind, "ipc": 0}
        aliases = ([name] if name != ours else []) + list(profile.space_aliases.get(ours, ()))
        if aliases:
            spaces[ours]["aliases"] = aliases

    def known(name: str | None, what: str) -> str:
        if name is None or name not in renamed:
            raise _problem(xml_path, f"{what} names unknown territory {name!r}")
        return renamed[name]

    adjacency: dict[str, set[str]] = {s: set() for s in spaces}
    for c in xml_map.findall("connection"):
        a, b = known(c.get("t1"), "a <connection>"), known(c.get("t2"), "a <connection>")
        if a != b:
            adjacency[a].add(b)
            adjacency[b].add(a)

    # Territory attachments and canals.
    owners: dict[str, str] = {}
    for o in root.iter("territoryOwner"):
        owners[known(o.get("territory"), "<territoryOwner>")] = power_name(o.get("owner") or "")
    original: dict[str, str] = {}
    canal_parts: dict[str, dict[str, Any]] = {}
    for att in root.iter("attachment"):
        options = {o.get("name"): o.get("value") for o in att.findall("option")}
        java = att.get("javaClass") or ""
        att_name = att.get("name") or ""
        if att_name.startswith("canalAttachment") or java.endswith("CanalAttachment"):
            zone = known(att.get("attachTo"), "a canal attachment")
            canal = options.get("canalName") or att_name.removeprefix("canalAttachment")
            part = canal_parts.setdefault(canal, {"zones": set(), "land": set()})
            part["zones"].add(zone)
            for land in (options.get("landTerritories") or "").split(":"):
                if land.strip():
                    part["land"].add(known(land.strip(), f"canal {canal!r}"))
        elif att_name == "territoryAttachment" or java.endswith("TerritoryAttachment"):
            where = known(att.get("attachTo"), "a territory attachment")
            space = spaces[where]
            if options.get("production") is not None:
                try:
                    space["ipc"] = int(options["production"] or 0)
                except ValueError:
                    raise _problem(xml_path, f"{where}: production is not a number") from None
            if options.get("capital"):
                space["capital_of"] = power_name(options["capital"] or "")
            if _truthy(options.get("victoryCity")):
                space["victory_city"] = profile.victory_city_names.get(where, where)
            if _truthy(options.get("isImpassable")):
                space["impassable"] = True
            if options.get("originalOwner"):
                original[where] = power_name(options["originalOwner"] or "")

    for att in root.iter("attachment"):
        if (att.get("name") or "") != "territoryAttachment":
            continue
        options = {o.get("name"): o.get("value") for o in att.findall("option")}
        where = known(att.get("attachTo"), "a territory attachment")
        if spaces[where]["kind"] == "sea" and _truthy(options.get("convoyRoute")) and options.get("convoyAttached"):
            # A convoy route: the income of the territory it names counts only while its controller's
            # side also holds the route (Pacific, Convoy Routes).
            spaces[where]["convoy_route"] = known(options["convoyAttached"], f"the convoy route in {where}")
        if spaces[where]["kind"] == "sea" and _truthy(options.get("kamikazeZone")):
            spaces[where]["kamikaze"] = True
        if spaces[where]["kind"] == "sea" and _truthy(options.get("blockadeZone")):
            # a zone with a convoy image: enemy warships there cut the income of the territories
            # beside it (1940, Convoy Disruption, E24)
            spaces[where]["convoy_zone"] = True
    for name, space in spaces.items():
        if space["kind"] == "sea" and space.get("convoy_route") and name in owners:
            space["original_owner"] = original.get(name, owners[name])
        if space["kind"] == "sea" and space["ipc"] and name in owners:
            # A sea zone with an owner and an income value is a convoy centre (TripleA models the
            # convoy boxes of Europe and Pacific so): its owner collects its value while holding it.
            space["convoy"] = True
            space["original_owner"] = original.get(name, owners[name])
        if space["kind"] == "land":
            owner = original.get(name, owners.get(name))
            if owner:
                space["original_owner"] = owner
            land_neighbours = [n for n in adjacency[name] if spaces[n]["kind"] == "land"]
            if not land_neighbours and adjacency[name]:
                space["island"] = True  # "surrounded entirely by one or more sea zones"

    canals: list[dict[str, Any]] = []
    for canal_name in sorted(canal_parts):
        zones = sorted(canal_parts[canal_name]["zones"], key=_natural)
        pairs = [(a, b) for i, a in enumerate(zones) for b in zones[i + 1 :] if b in adjacency[a]]
        if not pairs:
            raise _problem(xml_path, f"canal {canal_name!r} joins no two adjacent sea zones")
        for a, b in pairs:
            canals.append(
                {
                    "name": canal_name,
                    "sea_zones": [a, b],
                    "controlled_by": sorted(canal_parts[canal_name]["land"], key=_natural),
                }
            )

    control = {t: p for t, p in owners.items()
               if spaces[t]["kind"] == "land" or spaces[t].get("convoy") or spaces[t].get("convoy_route")}
    units: dict[str, dict[str, dict[str, int]]] = {}
    for up in root.iter("unitPlacement"):
        where = known(up.get("territory"), "a <unitPlacement>")
        player = up.get("owner") or "Neutral"
        owner = profile.unit_owner_names.get(player, power_name(player))
        kind = up.get("unitType") or ""
        if kind in profile.board_features:
            spaces[where][profile.board_features[kind]] = True
            continue
        unit = profile.owner_unit_names.get((player, kind)) or profile.unit_names.get(kind, UNIT_NAMES.get(kind, kind))
        try:
            qty = int(up.get("quantity") or "1")
        except ValueError:
            raise _problem(xml_path, f"{where}: unit quantity is not a number") from None
        if not unit or qty < 0:
            raise _problem(
                xml_path, f"{where}: a <unitPlacement> has no unit type or a negative quantity"
            )
        if qty:
            stack = units.setdefault(where, {}).setdefault(owner, {})
            stack[unit] = stack.get(unit, 0) + qty
    treasury: dict[str, int] = {}
    for rg in root.iter("resourceGiven"):
        if rg.get("resource") in _MONEY and rg.get("player") and rg.get("player") not in profile.dropped_players:
            treasury[power_name(rg.get("player") or "")] = int(rg.get("quantity") or 0)

    game = _Game(source, spaces, adjacency, canals, control, units, treasury)
    for correction in profile.corrections:
        _apply(game, correction, xml_path)
    return game


def _apply(game: _Game, c: Correction, xml_path: Path) -> None:
    """Apply one correction; refuse one that no longer matches the XML or changes nothing."""

    def stale(what: str) -> ProblemsError:
        return _problem(
            xml_path,
            f"rulebook correction {c!r} does not apply: {what}",
            hint="update the corrections list in pbem/io/triplea.py",
        )

    if isinstance(c, SetSpace):
        if c.space not in game.spaces:
            raise stale(f"no space {c.space!r}")
        space = game.spaces[c.space]
        old = space.get(c.field)
        if old == c.value:
            raise stale(f"{c.space} {c.field} is already {c.value!r}")
        if c.value is None:
            del space[c.field]
            game.map_comments[("spaces", c.space)] = (
                f"corrected: no {c.field} (TripleA has one); {c.rule}"
            )
        else:
            space[c.field] = c.value
            game.map_comments[("spaces", c.space, c.field)] = (
                f"corrected (TripleA: {old}); {c.rule}"
            )
    elif isinstance(c, Connect):
        for s in (c.a, c.b):
            if s not in game.spaces:
                raise stale(f"no space {s!r}")
        if c.b in game.adjacency[c.a]:
            raise stale(f"{c.a} and {c.b} are already adjacent")
        game.adjacency[c.a].add(c.b)
        game.adjacency[c.b].add(c.a)
        for x, y in ((c.a, c.b), (c.b, c.a)):
            game.map_comments[("spaces", x, "adjacent", y)] = f"added (not in TripleA); {c.rule}"
            if game.spaces[y]["kind"] == "land":
                game.spaces[x].pop("island", None)  # a land neighbour: no island any more
    elif isinstance(c, SetCanalControl):
        hits = [i for i, k in enumerate(game.canals) if k["name"] == c.canal]
        if not hits:
            raise stale(f"no canal {c.canal!r}")
        for t in c.controlled_by:
            if t not in game.spaces:
                raise stale(f"no space {t!r}")
        for i in hits:
            old = game.canals[i]["controlled_by"]
            if old == list(c.controlled_by):
                raise stale(f"{c.canal} is already controlled by {old}")
            game.canals[i]["controlled_by"] = list(c.controlled_by)
            game.map_comments[("canals", i, "controlled_by")] = (
                f"corrected (TripleA: {', '.join(old)}); {c.rule}"
            )
    elif isinstance(c, SetTreasury):
        old_t = game.treasury.get(c.power)
        if old_t is None:
            raise stale(f"no treasury for {c.power!r}")
        if old_t == c.value:
            raise stale(f"{c.power} already starts with {c.value}")
        game.treasury[c.power] = c.value
        game.setup_comments[("treasury", c.power)] = f"corrected (TripleA: {old_t}); {c.rule}"


# --- Writing YAML: block style, deterministic order, comments where data was corrected
def _natural(name: str) -> tuple[Any, ...]:
    """Sort "SZ 2" before "SZ 10"."""
    return tuple(
        (0, int(p), "") if p.isdigit() else (1, 0, p.casefold())
        for p in re.split(r"(\d+)", name)
        if p
    )


def _space_order(spaces: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Land territories first, then sea zones, each in natural order."""
    return sorted(spaces, key=lambda n: (spaces[n]["kind"] == "sea", _natural(n)))


_PLAIN_UNSAFE = set("#:{}[],&*!|>'\"%@`\\")


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    s = str(value)
    plain = (
        s and s == s.strip() and not (_PLAIN_UNSAFE & set(s)) and s[0] not in "-?" and "\n" not in s
    )
    if plain:
        try:
            plain = yaml.safe_load(s) == s
        except yaml.YAMLError:
            plain = False
    return s if plain else _double_quoted(s)


def _double_quoted(s: str) -> str:
    """A YAML double-quoted scalar: unprintable characters escaped by code point."""
    out = []
    for ch in s:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def render_yaml(
    header: str, data: Mapping[str, Any], comments: Mapping[tuple[Any, ...], str]
) -> str:
    """Block-style YAML of plain data in the given key order, with end-of-line comments by path.

    A comment keyed by a path ending in a list item's value annotates that item.
    """
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]

    def note(path: tuple[Any, ...]) -> str:
        c = comments.get(path)
        return f"  # {c}" if c else ""

    def emit(node: Any, path: tuple[Any, ...], indent: int) -> None:
        pad = " " * indent
        if isinstance(node, Mapping):
            for k, v in node.items():
                p = (*path, k)
                if isinstance(v, (Mapping, list)) and v:
                    lines.append(f"{pad}{_scalar(k)}:{note(p)}")
                    emit(v, p, indent + 2)
                else:
                    empty = (
                        "{}"
                        if isinstance(v, Mapping)
                        else "[]"
                        if isinstance(v, list)
                        else _scalar(v)
                    )
                    lines.append(f"{pad}{_scalar(k)}: {empty}{note(p)}")
        else:
            for i, item in enumerate(node):
                if isinstance(item, Mapping):
                    start = len(lines)
                    emit(item, (*path, i), indent + 2)
                    lines[start] = f"{pad}- {lines[start][indent + 2 :]}"
                else:
                    lines.append(f"{pad}- {_scalar(item)}{note((*path, item))}")

    emit(data, (), 0)
    return "\n".join(lines) + "\n"


def _header(kind: str, game: _Game, ruleset_id: str) -> str:
    src = game.source
    return (
        f"{kind} of ruleset {ruleset_id}: generated by `pbem ruleset import-triplea {src['file']} "
        f"--ruleset {ruleset_id}`\n"
        f'from the TripleA game "{src["game"]}" (XML version {src["version"]}). Do not edit by hand:\n'
        "where the rulebook and TripleA disagree, the importer's corrections list (PROFILES in\n"
        "pbem/io/triplea.py) applies the rulebook and a comment names the passage; re-running the\n"
        "import reproduces this file byte for byte.\n"
    )


def _map_data(game: _Game, ruleset_id: str) -> dict[str, Any]:
    field_order = (
        "kind",
        "ipc",
        "original_owner",
        "capital_of",
        "victory_city",
        "island",
        "impassable",
        "convoy",
        "convoy_route",
        "tribute",
        "kamikaze",
        "convoy_zone",
        "naval_base",
        "air_base",
        "aliases",
    )
    spaces: dict[str, Any] = {}
    for name in _space_order(game.spaces):
        s = game.spaces[name]
        out: dict[str, Any] = {}
        for f in field_order:
            if f in s and not (f == "ipc" and s["kind"] == "sea" and not s[f]):
                out[f] = s[f]
        out["adjacent"] = sorted(game.adjacency[name], key=_natural)
        spaces[name] = out
    data: dict[str, Any] = {"ruleset": ruleset_id, "source": dict(game.source), "spaces": spaces}
    data["canals"] = game.canals
    return data


def _setup_data(game: _Game, ruleset_id: str) -> dict[str, Any]:
    def sorted_dict(d: Mapping[str, Any]) -> dict[str, Any]:
        return {k: d[k] for k in sorted(d, key=_natural)}

    order = _space_order(game.spaces)
    return {
        "ruleset": ruleset_id,
        "source": dict(game.source),
        "treasury": sorted_dict(game.treasury),
        "control": {t: game.control[t] for t in order if t in game.control},
        "units": {
            s: {owner: sorted_dict(stack) for owner, stack in sorted_dict(game.units[s]).items()}
            for s in order
            if s in game.units
        },
    }


def import_triplea(xml_path: Path, out_dir: Path, *, ruleset_id: str) -> list[Path]:
    """Write `map.yaml` and `setup.yaml` for `ruleset_id` from a TripleA game XML; return their paths.

    Raises `ProblemsError` (file and, for malformed XML, line) when the XML is not a usable
    TripleA game or a rulebook correction of the ruleset no longer matches it.
    """
    game = read_triplea(Path(xml_path), ruleset_id=ruleset_id)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, kind, data, comments in (
        ("map.yaml", "Map", _map_data(game, ruleset_id), game.map_comments),
        ("setup.yaml", "Opening setup", _setup_data(game, ruleset_id), game.setup_comments),
    ):
        text = render_yaml(_header(kind, game, ruleset_id), data, comments)
        if yaml.safe_load(text) != data:  # the emitter is ours: prove it wrote what we meant
            raise AssertionError(f"internal error: {filename} does not read back as written")
        path = out_dir / filename
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
