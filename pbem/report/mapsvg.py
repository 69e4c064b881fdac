"""The board after a turn as an SVG picture: control, unit stacks, this turn's moves and battles.

The picture is drawn from a geometry (outlines and anchor points in the map image's pixel
coordinates, see ``pbem.io.triplea_geometry``) and a :class:`MapView` that says what to show.  The
report layer may not import ``pbem.io``, so the geometry is taken by shape (the Protocols below),
not by class.  Output is deterministic: spaces, powers and units are drawn in a fixed order and
every number is written with the same formatting, so the same inputs give byte-identical SVG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape as _escape
from types import MappingProxyType
from typing import TYPE_CHECKING, Iterable, Mapping, NamedTuple, Protocol, Sequence

if TYPE_CHECKING:
    from pbem.engine.ruleset import Ruleset

Point = tuple[int, int]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

SEA_FILL = "#c6e0f2"
SEA_STROKE = "#8fb3cf"
SEA_TEXT = "#3f6f96"
NEUTRAL_FILL = "#f3f0e6"  # near white: apart from every power's tint and from the sea
IMPASSABLE_FILL = NEUTRAL_FILL
IMPASSABLE_HATCH = "#b3a990"
UNKNOWN_POWER = "#808080"
LAND_STROKE = "#3b3b3b"
BATTLE = "#d0021b"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
LAND_NAME_FONT = 17
SEA_NAME_FONT = 15
HEADER = 120  # height of the title and legend band above the map, in map units

from pbem.engine.unitnames import abbreviation

_NO_OVERRIDES: Mapping[str, str] = MappingProxyType({})


def escape(text: str) -> str:
    """&, < and > as entities, for text between tags: xml.sax.saxutils's escape, without its
    import (which pulls in urllib: some 30 ms of every command that draws the board)."""
    return _escape(text, quote=False)


# Stacks read land, then air, then sea, the way players list them.
UNIT_ORDER = (
    "inf", "mech", "art", "tnk", "aa", "ic", "ftr", "tac", "bmb", "trn", "sub", "dd", "ca", "cv", "bb",
)  # fmt: skip


class SpaceShape(Protocol):
    """What the renderer needs of one space (``SpaceGeometry`` has it)."""

    @property
    def sea(self) -> bool: ...
    @property
    def polygons(self) -> Sequence[Sequence[Point]]: ...
    @property
    def centre(self) -> Point: ...
    @property
    def label(self) -> Point: ...
    @property
    def places(self) -> Sequence[Point]: ...


class MapGeometry(Protocol):
    """What the renderer needs of a map (``Geometry`` has it)."""

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def wrap_x(self) -> bool: ...
    @property
    def spaces(self) -> Mapping[str, SpaceShape]: ...


@dataclass(frozen=True)
class MapMove:
    """One arrow: `power` moved `units_label` (e.g. "2 inf 1 tnk") from `frm` to `to`."""

    power: str
    frm: str
    to: str
    units_label: str = ""


@dataclass(frozen=True)
class MapView:
    """What to show on the map; plain mappings so any layer can build one."""

    title: str
    owners: Mapping[str, str | None]  # space -> controlling power (None: neutral / sea)
    colours: Mapping[str, str]  # power -> "#rrggbb"
    units: Mapping[str, Mapping[str, Mapping[str, int]]]  # space -> power -> unit -> count
    moves: Sequence[MapMove] = ()
    battles: Sequence[str] = ()
    impassable: frozenset[str] = frozenset()
    legend: Sequence[tuple[str, str]] = ()  # (label, colour); empty: the powers in `colours`
    abbreviations: Mapping[str, str] = field(default_factory=dict)  # unit -> short name, over ours


def view_from_setup(
    title: str,
    *,
    control: Mapping[str, str],
    units: Mapping[str, Mapping[str, Mapping[str, int]]],
    colours: Mapping[str, str],
    impassable: Iterable[str] = (),
    moves: Sequence[MapMove] = (),
    battles: Sequence[str] = (),
) -> MapView:
    """A view of a position given as plain mappings (a ruleset's setup or a game's state)."""
    return MapView(
        title=title,
        owners=dict(control),
        colours=dict(colours),
        units={space: {p: dict(u) for p, u in powers.items()} for space, powers in units.items()},
        moves=tuple(moves),
        battles=tuple(battles),
        impassable=frozenset(impassable),
    )


def view_of_opening(ruleset: Ruleset, title: str | None = None) -> MapView:
    """The opening setup of a rule system, coloured in its powers' colours (turn order)."""
    return view_from_setup(
        title or f"{ruleset.name}: opening setup",
        control=ruleset.setup.control,
        units=ruleset.setup.units,
        colours=ruleset.colours(),
        impassable=sorted(name for name, space in ruleset.board.spaces.items() if space.impassable),
    )


# --------------------------------------------------------------------------------------------------
# Formatting helpers


def _n(value: float) -> str:
    """One fixed format for every coordinate: at most one decimal, no trailing zero, no "-0"."""
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def _mix(colour: str, towards: str, share: float) -> str:
    """`colour` moved `share` of the way to `towards`: a lighter tint keeps labels legible on it."""
    a = _rgb(colour)
    b = _rgb(towards)
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """An estimate (SVG cannot be measured here); sized for DejaVu Sans, the widest common face."""
    return len(text) * size * (0.64 if bold else 0.6)


def _path(polygons: Sequence[Sequence[Point]]) -> str:
    parts = []
    for ring in polygons:
        pts = " ".join(f"{x},{y}" for x, y in ring)
        parts.append(f"M{pts}Z")
    return "".join(parts)


def abbreviate(unit: str, overrides: Mapping[str, str] = _NO_OVERRIDES) -> str:
    """A short unit name for stack labels: the view's own, then the engine's (which orders accept too)."""
    if unit in overrides:
        return overrides[unit]
    return abbreviation(unit)


def stack_items(units: Mapping[str, int], overrides: Mapping[str, str] = _NO_OVERRIDES) -> list[str]:
    """["3 inf", "1 tnk", ...] in a fixed order: land, air, sea, then unknown names alphabetically."""
    counts: dict[str, int] = {}
    for unit, count in units.items():
        if count > 0:
            short = abbreviate(unit, overrides)
            counts[short] = counts.get(short, 0) + count
    rank = {name: i for i, name in enumerate(UNIT_ORDER)}
    order = sorted(counts, key=lambda s: (rank.get(s, len(rank)), s))
    return [f"{counts[s]} {s}" for s in order]


# --------------------------------------------------------------------------------------------------
# Drawing


def render_map_svg(geometry: MapGeometry, view: MapView) -> str:
    """The SVG document (a string) of `view` drawn on `geometry`."""
    width, height = geometry.width, geometry.height
    total_h = height + HEADER
    names = sorted(geometry.spaces)
    unknown = sorted(
        {m.frm for m in view.moves} | {m.to for m in view.moves} | set(view.battles) | set(view.units)
    )
    missing = [s for s in unknown if s not in geometry.spaces]
    if missing:
        raise KeyError("spaces not on the map: " + ", ".join(missing))
    powers = _power_order(view)

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {width} {total_h}" '
            f'width="{width}" height="{total_h}" role="img" aria-labelledby="map-title map-desc" '
            f'font-family="{FONT}">'
        ),
        f'<title id="map-title">{escape(view.title)}</title>',
        f'<desc id="map-desc">{escape(_description(view))}</desc>',
        "<defs>",
        '<pattern id="impassable" patternUnits="userSpaceOnUse" width="14" height="14" '
        'patternTransform="rotate(45)"><rect width="14" height="14" fill="' + IMPASSABLE_FILL + '"/>'
        '<line x1="0" y1="0" x2="0" y2="14" stroke="' + IMPASSABLE_HATCH + '" stroke-width="6"/></pattern>',
        f'<clipPath id="board"><rect x="0" y="0" width="{width}" height="{height}"/></clipPath>',
        "</defs>",
        f'<rect x="0" y="0" width="{width}" height="{total_h}" fill="#ffffff"/>',
    ]
    out += _header(view, powers, width)
    out.append(f'<g id="board-layer" transform="translate(0,{HEADER})" clip-path="url(#board)">')
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{SEA_FILL}"/>')

    drawn = _drawn(geometry)
    out.append('<g id="sea" stroke="' + SEA_STROKE + '" stroke-width="2" stroke-linejoin="round">')
    for name in names:
        shape = geometry.spaces[name]
        if shape.sea:
            # a sea zone someone controls (a convoy centre) is tinted with its controller's colour
            owner = view.owners.get(name)
            fill = _mix(_colour(view, owner), SEA_FILL, 0.6) if owner else SEA_FILL
            out.append(_space_path(name, shape, drawn.paths[name], fill, view))
    out.append("</g>")
    out.append(f'<g id="land" stroke="{LAND_STROKE}" stroke-width="2" stroke-linejoin="round">')
    for name in names:
        shape = geometry.spaces[name]
        if not shape.sea:
            out.append(_space_path(name, shape, drawn.paths[name], _land_fill(name, view), view))
    out.append("</g>")

    origins = drawn.origins
    out += _battles(geometry, view)  # under the names, so a marked space's name still reads
    out += _names(geometry, origins)
    occupied = Boxes(drawn.name_boxes)
    out += _stacks(geometry, view, powers, origins, occupied)
    out += _moves(geometry, view, occupied)
    out.append("</g>")
    out.append(
        f'<rect x="0" y="{HEADER}" width="{width}" height="{height}" fill="none" stroke="#333333" '
        'stroke-width="3"/>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def focus_box(geometry: MapGeometry, spaces: Iterable[str], *, pad: float = 160.0, min_w: float = 1000.0,
              min_h: float = 620.0) -> tuple[float, float, float, float] | None:
    """The part of the board (x, y, w, h in document units) that shows `spaces` with room around
    them, for a picture of one turn's action; None when they spread over most of the board (or
    across the seam of a wrapping map), where the whole board is the better picture."""
    xs: list[float] = []
    ys: list[float] = []
    for name in spaces:
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        for ring in shape.polygons:
            xs.extend(float(p[0]) for p in ring)
            ys.extend(float(p[1]) for p in ring)
    if not xs:
        return None
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    w, h = max(x1 - x0, min_w), max(y1 - y0, min_h)
    if w > 0.6 * geometry.width:
        return None
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    x = min(max(0.0, cx - w / 2), geometry.width - w)
    y = min(max(0.0, cy - h / 2), geometry.height - h)
    return (x, y + HEADER, w, h)


def crop_svg(svg: str, box: tuple[float, float, float, float]) -> str:
    """The same drawing showing only `box` (document units): a new viewBox and size."""
    x, y, w, h = box
    head, rest = svg.split("<svg ", 1)
    tag, body = rest.split(">", 1)
    import re as _re

    tag = _re.sub(r'viewBox="[^"]*"', f'viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}"', tag)
    tag = _re.sub(r'\bwidth="[^"]*"', f'width="{_n(w)}"', tag)
    tag = _re.sub(r'\bheight="[^"]*"', f'height="{_n(h)}"', tag)
    return f"{head}<svg {tag}>{body}"


def _power_order(view: MapView) -> list[str]:
    """Powers in the order the view's colours list them (turn order), then any others by name."""
    seen = list(view.colours)
    extra = {p for p in view.owners.values() if p} | {p for u in view.units.values() for p in u}
    extra |= {m.power for m in view.moves}
    return seen + sorted(extra - set(seen))


def _colour(view: MapView, power: str | None) -> str:
    return view.colours.get(power, UNKNOWN_POWER) if power else NEUTRAL_FILL


def _land_fill(name: str, view: MapView) -> str:
    if name in view.impassable:
        return "url(#impassable)"
    owner = view.owners.get(name)
    if not owner:
        return NEUTRAL_FILL
    return land_tint(_colour(view, owner))


@lru_cache(maxsize=256)  # a handful of power colours, asked for every space and stack of every board
def land_tint(colour: str) -> str:
    """A territory's fill: dark power colours lightened so names stay readable on them, light ones
    left nearly as they are so they do not fade into the neutrals' near white."""
    return _mix(colour, "#ffffff", 0.45 if _luminance(colour) < 0.6 else 0.12)


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    def lum(colour: str) -> float:
        r, g, b = _rgb(colour)
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


#: the least contrast of a power's badges and labels against its own territories (WCAG's 3:1 for
#: graphics is out of reach for a tint that must still show the power's colour; 2:1 reads)
MIN_BADGE_CONTRAST = 2.0


@lru_cache(maxsize=256)
def badge_colour(colour: str) -> str:
    """The power's colour for unit stacks and move labels, darkened just enough to read on the
    power's own territories: tan badges on tan land, orange on orange, were invisible."""
    tint = land_tint(colour)
    shade = colour
    for step in range(1, 10):
        if _contrast(shade, tint) >= MIN_BADGE_CONTRAST:
            break
        shade = _mix(colour, "#000000", step / 10)
    return shade


class _Drawn(NamedTuple):
    """What of a drawing depends on the map alone: made once per map (`_drawn`), as an audit draws
    the board after every turn."""

    paths: dict[str, str]  # each space's outlines as SVG path data
    origins: dict[str, tuple[float, float]]  # `_name_layout`
    name_boxes: list[Box]  # each name's box, spaces in name order


_DRAWN: dict[int, tuple[MapGeometry, _Drawn]] = {}  # id of a map -> the map (kept, so the id stays its) and its parts


def _drawn(geometry: MapGeometry) -> _Drawn:
    got = _DRAWN.get(id(geometry))
    if got is not None and got[0] is geometry:
        return got[1]
    origins = _name_layout(geometry)
    drawn = _Drawn({name: _path(shape.polygons) for name, shape in geometry.spaces.items()}, origins,
                   [_name_box(name, shape, origins[name]) for name, shape in sorted(geometry.spaces.items())])
    if len(_DRAWN) >= 8:
        _DRAWN.clear()
    _DRAWN[id(geometry)] = (geometry, drawn)
    return drawn


def _space_path(name: str, shape: SpaceShape, path: str, fill: str, view: MapView) -> str:
    owner = view.owners.get(name)
    if shape.sea:
        tip = f"{name} (convoy centre, {owner})" if owner else f"{name} (sea zone)"
    elif name in view.impassable:
        tip = f"{name} (impassable)"
    else:
        tip = f"{name} ({owner or 'neutral'})"
    return (
        f'<path d="{path}" fill="{fill}" fill-rule="evenodd">'
        f"<title>{escape(tip)}</title></path>"
    )


def _description(view: MapView) -> str:
    stacks = sum(1 for powers in view.units.values() for units in powers.values() if any(units.values()))
    return (
        f"Map of the board: territories coloured by controlling power, {stacks} unit stacks, "
        f"{len(view.moves)} moves drawn as arrows, {len(view.battles)} battles marked with red rings."
    )


def _header(view: MapView, powers: Sequence[str], width: int) -> list[str]:
    out = [
        f'<text x="24" y="56" font-size="44" font-weight="bold" fill="#111111">{escape(view.title)}</text>'
    ]
    legend = list(view.legend) or [(p, view.colours[p]) for p in powers if p in view.colours]
    items: list[tuple[str, str]] = [(label, colour) for label, colour in legend]
    items += [("neutral", NEUTRAL_FILL), ("impassable", "url(#impassable)"), ("sea", SEA_FILL)]
    x, y, size = 24.0, 84.0, 22
    out.append('<g id="legend" font-size="22" fill="#111111">')
    for label, colour in items:
        out.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="26" height="26" fill="{colour}" stroke="#333333" '
            'stroke-width="1.5"/>'
        )
        out.append(f'<text x="{_n(x + 34)}" y="{_n(y + 21)}">{escape(label)}</text>')
        x += 34 + _text_width(label, size) + 28
    x += 10
    out.append(
        f'<circle cx="{_n(x + 13)}" cy="{_n(y + 13)}" r="11" fill="none" stroke="{BATTLE}" stroke-width="5"/>'
    )
    out.append(f'<text x="{_n(x + 34)}" y="{_n(y + 21)}">battle</text>')
    x += 34 + _text_width("battle", size) + 28
    out.append(
        f'<line x1="{_n(x)}" y1="{_n(y + 13)}" x2="{_n(x + 40)}" y2="{_n(y + 13)}" stroke="#333333" '
        'stroke-width="6"/>'
        f'<polygon points="{_n(x + 52)},{_n(y + 13)} {_n(x + 36)},{_n(y + 3)} {_n(x + 36)},{_n(y + 23)}" '
        'fill="#333333"/>'
    )
    out.append(f'<text x="{_n(x + 62)}" y="{_n(y + 21)}">move</text>')
    out.append("</g>")
    return out


def _halo(colour: str = "#ffffff", widthpx: float = 4) -> str:
    return f'stroke="{colour}" stroke-width="{_n(widthpx)}" stroke-linejoin="round" paint-order="stroke"'


def _name_size(shape: SpaceShape) -> int:
    return SEA_NAME_FONT if shape.sea else LAND_NAME_FONT


def _name_box(name: str, shape: SpaceShape, origin: tuple[float, float]) -> Box:
    size = _name_size(shape)
    x, y = origin
    return (x - 3.0, y - size - 2.0, x + _text_width(name, size) + 3.0, y + 5.0)


def _name_layout(geometry: MapGeometry) -> dict[str, tuple[float, float]]:
    """Left end of each name's baseline.

    Land names go where TripleA puts them.  TripleA's points for sea zone names sometimes sit close
    together on a border (its own labels are shorter), so a sea zone's name that would cover one
    already placed goes to the zone's centre instead.  Names are kept inside the map: on a
    wrapping map TripleA lets them run on across the edge; a picture cannot.
    """
    origins: dict[str, tuple[float, float]] = {}
    boxes = Boxes()
    for name in sorted(geometry.spaces, key=lambda n: (geometry.spaces[n].sea, n)):
        shape = geometry.spaces[name]
        w = _text_width(name, _name_size(shape))
        options = [(float(shape.label[0]), float(shape.label[1]))]
        if shape.sea:
            options.append((shape.centre[0] - w / 2, shape.centre[1] + _name_size(shape) / 3))
        options = [(max(4.0, min(x, geometry.width - 4.0 - w)), y) for x, y in options]
        chosen = options[0]
        for option in options:
            placed = _name_box(name, shape, option)
            if not any(_overlap(placed, box) for box in boxes.near(placed)):
                chosen = option
                break
        origins[name] = chosen
        boxes.append(_name_box(name, shape, chosen))
    return origins


def _names(geometry: MapGeometry, origins: Mapping[str, tuple[float, float]]) -> list[str]:
    out = [f'<g id="names" font-size="{LAND_NAME_FONT}" fill="#1a1a1a" {_halo("#ffffff", 3.5)}>']
    for name in sorted(geometry.spaces):
        shape = geometry.spaces[name]
        x, y = (_n(c) for c in origins[name])
        if shape.sea:
            out.append(
                f'<text x="{x}" y="{y}" font-size="{SEA_NAME_FONT}" fill="{SEA_TEXT}" stroke="{SEA_FILL}">'
                f"{escape(name)}</text>"
            )
        else:
            out.append(f'<text x="{x}" y="{y}">{escape(name)}</text>')
    out.append("</g>")
    return out


def _battles(geometry: MapGeometry, view: MapView) -> list[str]:
    out = [f'<g id="battles" fill="none" stroke="{BATTLE}">']
    for name in sorted(set(view.battles)):
        x, y = geometry.spaces[name].centre
        out.append(
            f'<circle cx="{x}" cy="{y}" r="46" stroke="#ffffff" stroke-width="12" opacity="0.6"/>'
            f'<circle cx="{x}" cy="{y}" r="46" stroke-width="8"><title>battle in {escape(name)}</title>'
            "</circle>"
            f'<path d="{_star(x, y - 46, 16, 7)}" fill="{BATTLE}" stroke="#ffffff" stroke-width="2"/>'
        )
    out.append("</g>")
    return out


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    pts = []
    for i, (cos, sin) in enumerate(_STAR_POINTS):
        r = outer if i % 2 == 0 else inner
        pts.append(f"{_n(cx + r * cos)},{_n(cy + r * sin)}")
    return "M" + " ".join(pts) + "Z"


def _star_points() -> tuple[tuple[float, float], ...]:
    """(cos, sin) of the star's ten points, from the top clockwise (every 36 degrees), by square
    roots: the C library's cos and sin may differ in the last bit between machines, and the
    picture is part of the report audit replays byte for byte; IEEE square roots do not."""
    root5 = math.sqrt(5.0)
    c36, s36 = (1.0 + root5) / 4.0, math.sqrt(10.0 - 2.0 * root5) / 4.0
    c72, s72 = (root5 - 1.0) / 4.0, math.sqrt(10.0 + 2.0 * root5) / 4.0
    return ((0.0, -1.0), (s36, -c36), (s72, -c72), (s72, c72), (s36, c36),
            (0.0, 1.0), (-s36, c36), (-s72, c72), (-s72, -c72), (-s36, -c36))


_STAR_POINTS = _star_points()


# Unit stacks ---------------------------------------------------------------------------------------

STACK_FONT = 16
STACK_LINE = 21
STACK_ITEMS_PER_LINE = 3


def _stacks(
    geometry: MapGeometry,
    view: MapView,
    powers: Sequence[str],
    origins: Mapping[str, tuple[float, float]],
    occupied: "Boxes | None" = None,
) -> list[str]:
    """One badge per power and space, in the power's colour, stacked downwards.

    Stacks go where they cover no name and no other stack, so both stay readable (see
    :func:`_stack_anchor`); `occupied` starts with the names' boxes and gains each stack's.
    """
    rank = {p: i for i, p in enumerate(powers)}
    if occupied is None:
        occupied = Boxes(_name_box(name, shape, origins[name]) for name, shape in sorted(geometry.spaces.items()))
    names_index = {name: i for i, name in enumerate(sorted(geometry.spaces))}
    out = [f'<g id="units" font-size="{STACK_FONT}" font-weight="bold">']
    for name in sorted(view.units):
        shape = geometry.spaces[name]
        badges = []
        for power in sorted(view.units[name], key=lambda p: (rank.get(p, len(rank)), p)):
            items = stack_items(view.units[name][power], view.abbreviations)
            if items:
                lines = [
                    " ".join(items[i : i + STACK_ITEMS_PER_LINE])
                    for i in range(0, len(items), STACK_ITEMS_PER_LINE)
                ]
                w = max(_text_width(line, STACK_FONT, bold=True) for line in lines) + 12
                badges.append((power, items, lines, w, STACK_LINE * len(lines) + 6.0))
        if not badges:
            continue
        block_w = max(b[3] for b in badges)
        block_h = sum(b[4] + 3 for b in badges) - 3
        name_box = occupied[names_index[name]]
        x, y = _stack_anchor(shape, name_box, block_w, block_h, occupied, geometry.width)
        occupied.append((x - block_w / 2, y, x + block_w / 2, y + block_h))
        for power, items, lines, w, h in badges:
            colour = badge_colour(_colour(view, power))
            ink = "#ffffff" if _luminance(colour) < 0.6 else "#111111"
            out.append(
                f"<g><title>{escape(f'{power} in {name}: ' + ', '.join(items))}</title>"
                f'<rect x="{_n(x - w / 2)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="5" '
                f'fill="{colour}" stroke="#1a1a1a" stroke-width="1.5"/>'
            )
            for i, line in enumerate(lines):
                out.append(
                    f'<text x="{_n(x)}" y="{_n(y + STACK_LINE * (i + 1) - 2)}" text-anchor="middle" '
                    f'fill="{ink}">{escape(line)}</text>'
                )
            out.append("</g>")
            y += h + 3
    out.append("</g>")
    return out


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class Boxes:
    """Boxes already placed (names, stacks, labels), with a grid of cells so that a new box is
    compared with its neighbours only, not with every box of the board.  `near` gives them in the
    order they were added, so sums of overlaps come out to the same last bit as over all boxes
    (the others would only have added exact zeros)."""

    CELL = 128.0

    def __init__(self, boxes: Iterable[Box] = ()):
        self.boxes: list[Box] = []
        self.cells: dict[tuple[int, int], list[int]] = {}
        for box in boxes:
            self.append(box)

    def _cells(self, box: Box) -> Iterable[tuple[int, int]]:
        c = self.CELL
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield (i, j)

    def append(self, box: Box) -> None:
        index = len(self.boxes)
        self.boxes.append(box)
        for cell in self._cells(box):
            self.cells.setdefault(cell, []).append(index)

    def __getitem__(self, index: int) -> Box:
        return self.boxes[index]

    def __len__(self) -> int:
        return len(self.boxes)

    def near(self, box: Box) -> list[Box]:
        found: set[int] = set()
        for cell in self._cells(box):
            found.update(self.cells.get(cell, ()))
        return [self.boxes[i] for i in sorted(found)]

    def cover(self, box: Box) -> float:
        """How much of `box` the boxes placed cover."""
        # fsum: the same sum on every Python (3.12's sum() compensates, 3.11's does not)
        return math.fsum(_overlap(box, other) for other in self.near(box))


def _stack_anchor(
    shape: SpaceShape, name_box: Box, w: float, h: float, occupied: "Boxes", width: int
) -> tuple[float, float]:
    """Top centre of a w-by-h stack, at the candidate point that covers the least of the names and
    stacks already placed: TripleA's placement points first, then the centre, then under the name."""
    nx0, _, nx1, ny1 = name_box
    # TripleA's place point is the top left of a 48-pixel unit image: centre the stack on it.
    candidates = [(px + 24.0, py + 24.0 - min(h, 48.0) / 2) for px, py in shape.places]
    candidates.append((float(shape.centre[0]), shape.centre[1] - h / 2))
    candidates.append(((nx0 + nx1) / 2, ny1 + 2.0))
    candidates = [(max(w / 2 + 4, min(cx, width - w / 2 - 4)), top) for cx, top in candidates]
    best, best_cost = candidates[0], math.inf
    for cx, top in candidates:
        box = (cx - w / 2 - 2, top - 2, cx + w / 2 + 2, top + h + 2)
        cost = occupied.cover(box)
        if cost < best_cost:
            best, best_cost = (cx, top), cost
        if cost == 0:
            break
    return best


# Moves ---------------------------------------------------------------------------------------------


def _moves(geometry: MapGeometry, view: MapView, occupied: "Boxes | None" = None) -> list[str]:
    """Curved arrows, bent to their left so a move and its return do not overlap.  On a map that
    wraps east-west, a move across the seam is drawn the short way, as two pieces each clipped at
    the map's edge, the arrowhead on the piece that arrives.  Each label goes at the point along
    its arrow that covers least of the names, unit stacks and labels already placed (`occupied`)."""
    occupied = Boxes(occupied.boxes if occupied is not None else ())  # labels added here stay this function's
    out = ['<g id="moves" fill="none" stroke-linecap="round">']
    labels: list[str] = []
    for move in view.moves:
        colour = badge_colour(_colour(view, move.power))
        p0 = geometry.spaces[move.frm].centre
        p1 = geometry.spaces[move.to].centre
        pieces: list[tuple[tuple[float, float], tuple[float, float], bool]] = []
        dx = p1[0] - p0[0]
        if geometry.wrap_x and abs(dx) > geometry.width / 2:
            shift = geometry.width if dx < 0 else -geometry.width
            pieces.append(((p0[0], p0[1]), (p1[0] + shift, p1[1]), False))
            pieces.append(((p0[0] - shift, p0[1]), (p1[0], p1[1]), True))
        else:
            pieces.append(((p0[0], p0[1]), (p1[0], p1[1]), True))
        title = f"{move.power}: {move.units_label + ' ' if move.units_label else ''}{move.frm} to {move.to}"
        out.append(f"<g><title>{escape(title)}</title>")
        spots: list[list[tuple[float, float]]] = []
        for a, b, head in pieces:
            path, tip, _ = _arrow(a, b, head)
            spots.append(_along(a, b))
            out.append(f'<path d="{path}" stroke="#ffffff" stroke-width="11" opacity="0.85"/>')
            out.append(f'<path d="{path}" stroke="{colour}" stroke-width="6"/>')
            if tip:
                out.append(f'<path d="{tip}" fill="{colour}" stroke="#ffffff" stroke-width="2"/>')
        out.append("</g>")
        if move.units_label:
            # One label per move, on the arriving piece when it lies on the map, kept inside the map.
            arriving = [p for pts in reversed(spots) for p in pts if 0 <= p[0] <= geometry.width] or spots[-1]
            half = _text_width(move.units_label, 17, bold=True) / 2 + 4
            best, best_cost = None, math.inf
            for px, py in arriving:
                lx = max(half, min(px, geometry.width - half))
                for ly in (py - 8, py + 22, py - 30):
                    box = (lx - half, ly - 17, lx + half, ly + 5)
                    cost = occupied.cover(box)
                    if cost < best_cost:
                        best, best_cost = (lx, ly, box), cost
                    if cost == 0:
                        break
                if best_cost == 0:
                    break
            assert best is not None
            lx, ly, box = best
            occupied.append(box)
            labels.append(
                f'<text x="{_n(lx)}" y="{_n(ly)}" text-anchor="middle" fill="{colour}" '
                f"{_halo('#ffffff', 5)}>{escape(move.units_label)}</text>"
            )
    out.append("</g>")
    out.append(f'<g id="move-labels" font-size="17" font-weight="bold">{"".join(labels)}</g>')
    return out


def _arrow(
    a: tuple[float, float], b: tuple[float, float], head: bool
) -> tuple[str, str, tuple[float, float]]:
    """Path of a quadratic curve from a to b, trimmed clear of the centres, its arrowhead and midpoint."""
    ax, ay = a
    bx, by = b
    cx, cy, length = _bend(a, b)
    start = _towards((ax, ay), (cx, cy), min(18.0, length / 4))
    end = _towards((bx, by), (cx, cy), min(26.0, length / 4) if head else 0.0)
    tip = ""
    if head:
        ux, uy = end[0] - cx, end[1] - cy
        ulen = math.hypot(ux, uy) or 1.0
        ux, uy = ux / ulen, uy / ulen
        size = 24.0
        base = (end[0] - ux * size, end[1] - uy * size)
        left = (base[0] - uy * size * 0.55, base[1] + ux * size * 0.55)
        right = (base[0] + uy * size * 0.55, base[1] - ux * size * 0.55)
        tip = (
            f"M{_n(end[0] + ux * 4)},{_n(end[1] + uy * 4)} {_n(left[0])},{_n(left[1])} "
            f"{_n(right[0])},{_n(right[1])}Z"
        )
        end = base
    path = f"M{_n(start[0])},{_n(start[1])} Q{_n(cx)},{_n(cy)} {_n(end[0])},{_n(end[1])}"
    mid = (0.25 * start[0] + 0.5 * cx + 0.25 * end[0], 0.25 * start[1] + 0.5 * cy + 0.25 * end[1])
    return path, tip, mid


def _bend(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float, float]:
    """The control point of the curve from a to b, bent to its left, and the distance a-b."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    bend = min(0.18 * length, 90.0)
    return (ax + bx) / 2 + dy / length * bend, (ay + by) / 2 - dx / length * bend, length


def _along(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """Points on the arrow's curve from a to b where a label may sit, the middle first."""
    ax, ay = a
    bx, by = b
    cx, cy, _ = _bend(a, b)
    out = []
    for t in (0.5, 0.38, 0.62, 0.27, 0.73):
        u = 1 - t
        out.append((u * u * ax + 2 * u * t * cx + t * t * bx, u * u * ay + 2 * u * t * cy + t * t * by))
    return out


def _towards(p: tuple[float, float], q: tuple[float, float], distance: float) -> tuple[float, float]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0 or distance == 0:
        return p
    f = min(distance / length, 0.45)
    return p[0] + dx * f, p[1] + dy * f
