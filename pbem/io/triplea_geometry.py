"""Board geometry for map pictures, converted from a TripleA map folder.

TripleA describes a map in plain text files in the map image's pixel coordinates: ``polygons.txt``
(outlines), ``centers.txt`` (where a space's marker goes), ``name_place.txt`` (where its name is
written, left end of the baseline), ``place.txt`` (unit placement points) and ``map.properties``
(image size, east-west wrap).  The outlines are traced pixel by pixel (about 48 000 points for the
1942 map), far more than a picture needs, so we simplify them with Douglas-Peucker on integer
coordinates and keep the result as a compact JSON file beside the ruleset.  Only coordinates are
read from TripleA's files; the code is ours.

Usage, to regenerate the 1942 geometry from the repository root::

    python -m pbem.io.triplea_geometry ../shared/data/triplea/aa1942_2e/map \\
        pbem/rulesets/aa1942_2e/geometry.json --sea-zones-as-sz

and Europe's with ``--strip-sea-zone-suffix`` from ``../shared/data/triplea/europe_1999/map``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

Point = tuple[int, int]
Ring = tuple[Point, ...]

FORMAT = "pbem-geometry/1"
DEFAULT_TOLERANCE = 2.0
MAX_PLACES = 12  # unit placement points kept per space: enough for a busy stack, small on disk

_POINT = re.compile(r"\((-?\d+)\s*,\s*(-?\d+)\)")
_SEA_ZONE_NAME = re.compile(r"^\s*(\d+)\s+sea\s*zone\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class SpaceGeometry:
    """Where one space is drawn: outlines, a marker point, a name point and unit placement points."""

    name: str
    sea: bool
    polygons: tuple[Ring, ...]
    centre: Point
    label: Point  # left end of the name's baseline, as TripleA places names
    places: tuple[Point, ...] = ()

    def bounds(self) -> tuple[int, int, int, int]:
        """(min x, min y, max x, max y) over every outline."""
        xs = [x for ring in self.polygons for x, _ in ring]
        ys = [y for ring in self.polygons for _, y in ring]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Geometry:
    """The picture's coordinate system and every space's shapes, keyed by our space names."""

    width: int
    height: int
    wrap_x: bool
    spaces: Mapping[str, SpaceGeometry]

    def point_count(self) -> int:
        return sum(len(ring) for space in self.spaces.values() for ring in space.polygons)


# --------------------------------------------------------------------------------------------------
# Names


def sea_zone_as_sz(name: str) -> str:
    """TripleA's "15 Sea Zone" is our "SZ 15"; every other name is kept as TripleA spells it."""
    m = _SEA_ZONE_NAME.match(name)
    return f"SZ {int(m.group(1))}" if m else name


def looks_like_sea(name: str) -> bool:
    """TripleA's map folder does not say which spaces are water; its naming convention does."""
    return (bool(_SEA_ZONE_NAME.match(name)) or bool(re.match(r"^\s*sz\s*\d+\s*$", name, re.IGNORECASE))
            or name.strip().lower().endswith(" sea zone"))  # Europe's "Azores Sea Sea Zone"


# --------------------------------------------------------------------------------------------------
# Reading TripleA's files


def _split_name(line: str, opener: str) -> tuple[str, str] | None:
    index = line.find(opener)
    if index <= 0:
        return None
    name = line[:index].strip()
    return (name, line[index:]) if name else None


def _points(text: str) -> list[Point]:
    return [(int(x), int(y)) for x, y in _POINT.findall(text)]


def read_point_file(path: Path) -> dict[str, list[Point]]:
    """``Name  (x,y)  (x,y) ...`` lines, as in centers.txt, place.txt and name_place.txt."""
    result: dict[str, list[Point]] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = _split_name(line, "(")
        if parts:
            result[parts[0]] = _points(parts[1])
    return result


def read_polygons(path: Path) -> dict[str, list[list[Point]]]:
    """``Name  <  (x,y) ... >  <  (x,y) ... >`` lines: one or more outlines per space."""
    result: dict[str, list[list[Point]]] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = _split_name(line, "<")
        if not parts:
            continue
        rings = [_points(chunk) for chunk in parts[1].split("<")]
        result[parts[0]] = [ring for ring in rings if ring]
    return result


def read_properties(path: Path) -> dict[str, str]:
    """Java-style ``key=value`` lines; comments and blanks ignored."""
    props: dict[str, str] = {}
    if not path.is_file():
        return props
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line[0] in "#!" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        props[key.strip()] = value.strip()
    return props


def find_map_folder(map_dir: Path) -> Path:
    """The folder holding polygons.txt: the one given, its ``map/`` child, or a unique descendant.

    A TripleA map downloaded by a user has the files in ``<map>/map/`` (or deeper, when unpacked from
    an archive), so we accept any of these rather than make people find the right folder.
    """
    map_dir = Path(map_dir)
    for candidate in (map_dir, map_dir / "map"):
        if (candidate / "polygons.txt").is_file():
            return candidate
    found = sorted(p.parent for p in map_dir.rglob("polygons.txt"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise FileNotFoundError(f"no polygons.txt in {map_dir}")
    raise ValueError(f"several TripleA maps under {map_dir}: " + ", ".join(map(str, found)))


# --------------------------------------------------------------------------------------------------
# Simplification


def _dedupe(ring: Sequence[Point]) -> list[Point]:
    out: list[Point] = []
    for p in ring:
        if not out or out[-1] != p:
            out.append(p)
    while len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(p[0] - ax, p[1] - ay)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _douglas_peucker(points: Sequence[Point], tolerance: float) -> list[Point]:
    """Keep the points of an open polyline that lie further than `tolerance` from the simplified line."""
    n = len(points)
    if n < 3:
        return list(points)
    keep = [False] * n
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        first, last = stack.pop()
        worst, worst_at = -1.0, -1
        for i in range(first + 1, last):
            d = _segment_distance(points[i], points[first], points[last])
            if d > worst:
                worst, worst_at = d, i
        if worst > tolerance:
            keep[worst_at] = True
            stack.append((first, worst_at))
            stack.append((worst_at, last))
    return [p for p, k in zip(points, keep, strict=True) if k]


def signed_area(ring: Sequence[Point]) -> float:
    """Shoelace area; the sign tells the winding."""
    total = 0
    for i, (x1, y1) in enumerate(ring):
        x2, y2 = ring[(i + 1) % len(ring)]
        total += x1 * y2 - x2 * y1
    return total / 2.0


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def _segments_touch(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1, d2, d3, d4 = _cross(c, d, a), _cross(c, d, b), _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and d1 != 0 and d2 != 0 and ((d3 > 0) != (d4 > 0)) and d3 and d4:
        return True
    return (
        (d1 == 0 and _on_segment(a, c, d))
        or (d2 == 0 and _on_segment(b, c, d))
        or (d3 == 0 and _on_segment(c, a, b))
        or (d4 == 0 and _on_segment(d, a, b))
    )


def is_simple_ring(ring: Sequence[Point]) -> bool:
    """A closed ring with at least three corners, some area, and no edge touching a non-neighbour."""
    n = len(ring)
    if n < 3 or len(set(ring)) != n or signed_area(ring) == 0:
        return False
    edges = [(ring[i], ring[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        a, b = edges[i]
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # the closing edge shares the first corner
            c, d = edges[j]
            if _segments_touch(a, b, c, d):
                return False
    return True


def simplify_ring(ring: Sequence[Point], tolerance: float) -> Ring:
    """Douglas-Peucker on a closed ring, keeping it a valid polygon.

    The ring is cut at its first point and the point furthest from it, and each half simplified.
    If the result is degenerate or crosses itself, the tolerance is halved and we try again; below
    half a pixel the (de-duplicated) original is kept, so small islands never vanish.
    """
    points = _dedupe(ring)
    if len(points) < 4:
        return tuple(points)
    start = points[0]
    far = max(
        range(len(points)), key=lambda i: (points[i][0] - start[0]) ** 2 + (points[i][1] - start[1]) ** 2
    )
    tol = tolerance
    while tol >= 0.5:
        first = _douglas_peucker(points[: far + 1], tol)
        second = _douglas_peucker(points[far:] + [start], tol)
        candidate = first[:-1] + second[:-1]
        if len(candidate) >= 3 and is_simple_ring(candidate) and _same_winding(candidate, points):
            return tuple(candidate)
        tol /= 2
    return tuple(points)


def _same_winding(a: Sequence[Point], b: Sequence[Point]) -> bool:
    return (signed_area(a) > 0) == (signed_area(b) > 0)


# --------------------------------------------------------------------------------------------------
# Conversion


def _centroid(rings: Sequence[Sequence[Point]]) -> Point:
    """Area-weighted centre of the largest ring: a fallback when centers.txt lacks the space."""
    ring = max(rings, key=lambda r: abs(signed_area(r)))
    area = signed_area(ring)
    if area == 0:
        xs = [p[0] for p in ring]
        ys = [p[1] for p in ring]
        return (round(sum(xs) / len(xs)), round(sum(ys) / len(ys)))
    cx = cy = 0.0
    for i, (x1, y1) in enumerate(ring):
        x2, y2 = ring[(i + 1) % len(ring)]
        f = x1 * y2 - x2 * y1
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    return (round(cx / (6 * area)), round(cy / (6 * area)))


def convert_geometry(
    map_dir: Path,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    rename: Callable[[str], str] | None = None,
    is_sea: Callable[[str], bool] | None = None,
) -> Geometry:
    """Read a TripleA map folder and return simplified geometry under our space names.

    `rename` maps a TripleA name to ours (e.g. :func:`sea_zone_as_sz`); `is_sea` decides which
    spaces are water, judged on TripleA's name (default: :func:`looks_like_sea`).
    """
    folder = find_map_folder(Path(map_dir))
    rename = rename or (lambda name: name)
    is_sea = is_sea or looks_like_sea
    polygons = read_polygons(folder / "polygons.txt")
    centres = _optional_points(folder / "centers.txt")
    labels = _optional_points(folder / "name_place.txt")
    places = _optional_points(folder / "place.txt")
    props = read_properties(folder / "map.properties")

    spaces: dict[str, SpaceGeometry] = {}
    max_x = max_y = 0
    for tname in sorted(polygons):
        rings = [simplify_ring(r, tolerance) for r in polygons[tname] if len(_dedupe(r)) >= 3]
        rings = [r for r in rings if len(r) >= 3]
        if not rings:
            continue
        name = rename(tname)
        if name in spaces:
            raise ValueError(f"two TripleA spaces are both named {name!r} after renaming")
        centre = (centres.get(tname) or [_centroid(polygons[tname])])[0]
        label = (labels.get(tname) or [centre])[0]
        spaces[name] = SpaceGeometry(
            name=name,
            sea=is_sea(tname),
            polygons=tuple(sorted(rings, key=lambda r: (-abs(signed_area(r)), r))),
            centre=centre,
            label=label,
            places=tuple(places.get(tname, [])[:MAX_PLACES]),
        )
        for ring in polygons[tname]:
            max_x = max(max_x, *(p[0] for p in ring))
            max_y = max(max_y, *(p[1] for p in ring))
    if not spaces:
        raise ValueError(f"no outlines in {folder / 'polygons.txt'}")
    width = _int_property(props, "map.width", max_x + 1)
    height = _int_property(props, "map.height", max_y + 1)
    wrap_x = props.get("map.scrollWrapX", "false").strip().lower() == "true"
    return Geometry(width=width, height=height, wrap_x=wrap_x, spaces=dict(sorted(spaces.items())))


def _optional_points(path: Path) -> dict[str, list[Point]]:
    return read_point_file(path) if path.is_file() else {}


def _int_property(props: Mapping[str, str], key: str, default: int) -> int:
    try:
        return int(props[key])
    except (KeyError, ValueError):
        return default


# --------------------------------------------------------------------------------------------------
# The JSON file


def _flat(points: Iterable[Point]) -> list[int]:
    return [c for p in points for c in p]


def _pairs(flat: Sequence[int]) -> tuple[Point, ...]:
    if len(flat) % 2:
        raise ValueError("a point list has an odd number of coordinates")
    return tuple((int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2))


def dumps_geometry(geometry: Geometry) -> str:
    """Deterministic JSON: one space per line (readable diffs), points as flat x,y integer lists."""
    head = {
        "format": FORMAT,
        "width": geometry.width,
        "height": geometry.height,
        "wrap_x": geometry.wrap_x,
    }
    lines = []
    for name in sorted(geometry.spaces):
        s = geometry.spaces[name]
        body = {
            "sea": s.sea,
            "centre": list(s.centre),
            "label": list(s.label),
            "places": _flat(s.places),
            "polygons": [_flat(ring) for ring in s.polygons],
        }
        lines.append(json.dumps(name) + ":" + json.dumps(body, sort_keys=True, separators=(",", ":")))
    header = json.dumps(head, sort_keys=True, separators=(",", ":"))[:-1]
    return header + ',"spaces":{\n' + ",\n".join(lines) + "\n}}\n"


def write_geometry(geometry: Geometry, path: Path) -> None:
    Path(path).write_text(dumps_geometry(geometry), encoding="utf-8", newline="\n")


def strip_sea_zone_suffix(name: str) -> str:
    """TripleA's "Azores Sea Sea Zone" is the rulebook's "Azores Sea" (Europe 1999; the importer's
    ImportProfile.strip_sea_zone_suffix does the same to the map)."""
    return name.removesuffix(" Sea Zone")


def load_geometry(path: Path) -> Geometry:
    """The geometry in `path`; read once per process while the file is unchanged (an audit draws
    the board after every turn)."""
    stat = Path(path).stat()
    key = (str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
    cached = _LOADED.get(key)
    if cached is None:
        cached = _LOADED[key] = _read_geometry(Path(path))
    return cached


_LOADED: dict[tuple[str, int, int], Geometry] = {}


def _read_geometry(path: Path) -> Geometry:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    spaces = {
        name: SpaceGeometry(
            name=name,
            sea=bool(body["sea"]),
            polygons=tuple(_pairs(ring) for ring in body["polygons"]),
            centre=_pairs(body["centre"])[0],
            label=_pairs(body["label"])[0],
            places=_pairs(body.get("places", [])),
        )
        for name, body in sorted(data["spaces"].items())
    }
    return Geometry(
        width=int(data["width"]), height=int(data["height"]), wrap_x=bool(data["wrap_x"]), spaces=spaces
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Convert a TripleA map folder into pbem geometry JSON.")
    parser.add_argument("map_dir", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    parser.add_argument("--sea-zones-as-sz", action="store_true", help='name "15 Sea Zone" as "SZ 15"')
    parser.add_argument("--strip-sea-zone-suffix", action="store_true", help='name "Azores Sea Sea Zone" as "Azores Sea"')
    parser.add_argument("--ruleset", help="also rename territories as the importer does for this ruleset (e.g. Pacific's \"Gilbert\" as \"Gilbert Islands\")")
    parser.add_argument("--only-spaces-of", type=Path, metavar="MAP_YAML",
                        help="keep only the spaces of this map.yaml (a map folder shared by several games outlines some that are not in this one)")
    args = parser.parse_args(argv)
    rename = sea_zone_as_sz if args.sea_zones_as_sz else None
    if args.strip_sea_zone_suffix:
        rename = strip_sea_zone_suffix
    if args.ruleset:
        from pbem.io.triplea import PROFILES

        names = dict(PROFILES[args.ruleset].space_names)
        base = rename
        rename = lambda n: names.get(n) or (base(n) if base else n)  # noqa: E731
    geometry = convert_geometry(args.map_dir, tolerance=args.tolerance, rename=rename)
    if args.only_spaces_of:
        import yaml

        known = set(yaml.safe_load(args.only_spaces_of.read_text(encoding="utf-8"))["spaces"])
        dropped = sorted(n for n in geometry.spaces if n not in known)
        geometry = Geometry(width=geometry.width, height=geometry.height, wrap_x=geometry.wrap_x,
                            spaces={n: s for n, s in geometry.spaces.items() if n in known})
        if dropped:
            print("left out, not on the map: " + ", ".join(dropped))
    write_geometry(geometry, args.output)
    print(f"{len(geometry.spaces)} spaces, {geometry.point_count()} points -> {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
