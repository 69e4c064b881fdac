"""The map picture: SVG structure, colours, arrows, battles, determinism, and the PNG rendering."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.io.triplea_geometry import Geometry, SpaceGeometry, load_geometry
from pbem.report.mappng import PNG_MAGIC, png_size, svg_to_png
from pbem.report.mapsvg import (
    NEUTRAL_FILL,
    SEA_FILL,
    MapMove,
    MapView,
    badge_colour,
    render_map_svg,
    stack_items,
    view_from_setup,
    view_of_opening,
)

NS = {"s": "http://www.w3.org/2000/svg"}
REPO = Path(__file__).resolve().parents[2]


def _box(name: str, x: int, y: int, size: int = 100, *, sea: bool = False) -> SpaceGeometry:
    ring = ((x, y), (x + size, y), (x + size, y + size), (x, y + size))
    centre = (x + size // 2, y + size // 2)
    return SpaceGeometry(
        name=name, sea=sea, polygons=(ring,), centre=centre, label=(x + 5, y + 20), places=((x + 10, y + 40),)
    )


# A 1000-wide wrapping strip: West at the left edge, Eastland at the right edge.
GEO = Geometry(
    width=1000,
    height=300,
    wrap_x=True,
    spaces={
        "West": _box("West", 0, 0),
        "Middle": _box("Middle", 400, 0),
        "Eastland": _box("Eastland", 890, 0),
        "Rock": _box("Rock", 600, 0),
        "SZ 1": _box("SZ 1", 0, 150, sea=True),
        "SZ 2": _box("SZ 2", 400, 150, sea=True),
    },
)

VIEW = MapView(
    title="Round 1 & all that <test>",
    owners={"West": "Red", "Middle": "Blue", "Eastland": "Red", "Rock": None},
    colours={"Red": "#ff0000", "Blue": "#0000ff"},
    units={
        "Middle": {"Blue": {"infantry": 3, "tank": 1}, "Red": {"fighter": 2}},
        "SZ 2": {"Blue": {"transport": 1, "battleship": 1}},
    },
    moves=(
        MapMove("Red", "West", "Middle", "2 ftr"),
        MapMove("Red", "Eastland", "West", "1 inf"),  # across the east-west seam
    ),
    battles=("Middle",),
    impassable=frozenset({"Rock"}),
)


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _space_fills(root: ET.Element) -> dict[str, str]:
    fills = {}
    for path in root.iterfind(".//s:g[@id='land']/s:path", NS):
        fills[path.findtext("s:title", namespaces=NS, default="").split(" (")[0]] = path.get("fill", "")
    for path in root.iterfind(".//s:g[@id='sea']/s:path", NS):
        fills[path.findtext("s:title", namespaces=NS, default="").split(" (")[0]] = path.get("fill", "")
    return fills


def test_svg_is_valid_xml_with_a_title_and_every_space() -> None:
    root = _parse(render_map_svg(GEO, VIEW))

    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.findtext("s:title", namespaces=NS) == VIEW.title
    assert root.findtext("s:desc", namespaces=NS)
    assert set(_space_fills(root)) == set(GEO.spaces)
    names = {t.text for t in root.iterfind(".//s:g[@id='names']/s:text", NS)}
    assert names == set(GEO.spaces)


def test_spaces_are_coloured_by_controller() -> None:
    fills = _space_fills(_parse(render_map_svg(GEO, VIEW)))

    assert fills["West"] == fills["Eastland"] == "#ff7373"  # red, 45 % towards white
    assert fills["Middle"] == "#7373ff"
    assert fills["SZ 1"] == fills["SZ 2"] == SEA_FILL
    assert fills["Rock"] == "url(#impassable)"
    neutral = MapView(title="t", owners={}, colours={}, units={})
    assert _space_fills(_parse(render_map_svg(GEO, neutral)))["Rock"] == NEUTRAL_FILL


def test_unit_stacks_are_labelled_per_power_in_its_colour() -> None:
    root = _parse(render_map_svg(GEO, VIEW))
    texts = [t.text for t in root.iterfind(".//s:g[@id='units']//s:text", NS)]
    assert texts == ["2 ftr", "3 inf 1 tnk", "1 trn 1 bb"]
    fills = [r.get("fill") for r in root.iterfind(".//s:g[@id='units']//s:rect", NS)]
    # Red before Blue (the colours' order), each darkened where needed to read on its own land
    assert fills == [badge_colour("#ff0000"), badge_colour("#0000ff"), badge_colour("#0000ff")]


def test_stack_items_order_and_merge() -> None:
    assert stack_items({"battleship": 1, "infantry": 2, "armour": 1, "tank": 2, "zeppelin": 1}) == [
        "2 inf",
        "3 tnk",
        "1 bb",
        "1 zep",
    ]
    assert stack_items({"infantry": 0}) == []


def test_moves_are_arrows_in_the_power_colour_and_wrap_the_short_way() -> None:
    root = _parse(render_map_svg(GEO, VIEW))
    moves = root.find(".//s:g[@id='moves']", NS)
    assert moves is not None
    groups = moves.findall("s:g", NS)
    assert [g.findtext("s:title", namespaces=NS) for g in groups] == [
        "Red: 2 ftr West to Middle",
        "Red: 1 inf Eastland to West",
    ]
    red = badge_colour("#ff0000")  # the power's colour, darkened to read on its own territories
    for group in groups:
        shafts = [p for p in group.findall("s:path", NS) if p.get("stroke") == red]
        heads = [p for p in group.findall("s:path", NS) if p.get("fill") == red]
        assert shafts and len(heads) == 1
    # The seam move is two pieces, each shorter than half the map, none crossing the whole map.
    seam = [p for p in groups[1].findall("s:path", NS) if p.get("stroke") == red]
    assert len(seam) == 2
    for piece in seam:
        xs = [
            float(tok.split(",")[0]) for tok in piece.get("d", "").replace("M", "").replace("Q", "").split()
        ]
        assert max(xs) - min(xs) < GEO.width / 2
    labels = [t.text for t in root.iterfind(".//s:g[@id='move-labels']/s:text", NS)]
    assert labels == ["2 ftr", "1 inf"]


def test_battles_are_marked_at_the_space() -> None:
    root = _parse(render_map_svg(GEO, VIEW))
    rings = [
        c for c in root.iterfind(".//s:g[@id='battles']/s:circle", NS) if c.find("s:title", NS) is not None
    ]
    assert [(c.get("cx"), c.get("cy"), c.findtext("s:title", namespaces=NS)) for c in rings] == [
        ("450", "50", "battle in Middle")
    ]


def test_legend_lists_the_powers() -> None:
    root = _parse(render_map_svg(GEO, VIEW))
    legend = [t.text for t in root.iterfind(".//s:g[@id='legend']/s:text", NS)]
    assert legend[:2] == ["Red", "Blue"] and "battle" in legend


def test_output_is_deterministic_whatever_the_mapping_order() -> None:
    reordered = MapView(
        title=VIEW.title,
        owners=dict(reversed(list(VIEW.owners.items()))),
        colours=VIEW.colours,
        units={
            space: {p: dict(reversed(list(u.items()))) for p, u in reversed(list(powers.items()))}
            for space, powers in reversed(list(VIEW.units.items()))
        },
        moves=VIEW.moves,
        battles=VIEW.battles,
        impassable=VIEW.impassable,
    )
    assert render_map_svg(GEO, VIEW) == render_map_svg(GEO, VIEW) == render_map_svg(GEO, reordered)


def test_what_depends_on_the_map_alone_is_made_once_per_map() -> None:
    """An audit draws the board after every turn: outlines and names are laid out once per map,
    and a second map of the same size, made apart, is drawn from its own shapes."""
    import pbem.report.mapsvg as mapsvg

    first = render_map_svg(GEO, VIEW)
    assert mapsvg._drawn(GEO) is mapsvg._drawn(GEO)
    moved = Geometry(GEO.width, GEO.height, GEO.wrap_x, dict(GEO.spaces, Middle=_box("Middle", 420, 0)))
    assert mapsvg._drawn(moved) is not mapsvg._drawn(GEO)
    assert render_map_svg(GEO, VIEW) == first != render_map_svg(moved, VIEW)
    assert 'd="M420,0 520,0 520,100 420,100Z"' in render_map_svg(moved, VIEW)


def test_unknown_spaces_are_an_error() -> None:
    bad = MapView(title="t", owners={}, colours={}, units={}, moves=(MapMove("Red", "West", "Atlantis"),))
    with pytest.raises(KeyError, match="Atlantis"):
        render_map_svg(GEO, bad)


def test_view_from_setup() -> None:
    view = view_from_setup(
        "Opening",
        control={"West": "Red"},
        units={"West": {"Red": {"infantry": 2}}},
        colours={"Red": "#ff0000"},
        impassable=["Rock"],
    )
    assert view.owners == {"West": "Red"} and view.impassable == frozenset({"Rock"})
    assert "2 inf" in render_map_svg(GEO, view)


def test_png_has_the_requested_width() -> None:
    pytest.importorskip("resvg_py")
    png = svg_to_png(render_map_svg(GEO, VIEW), width=500)
    assert png.startswith(PNG_MAGIC)
    assert png_size(png) == (500, round(500 * (300 + 120) / 1000))
    with pytest.raises(ValueError):
        svg_to_png("<svg/>", width=0)


def test_the_1942_map_renders() -> None:
    geo = load_geometry(REPO / "pbem" / "rulesets" / "aa1942_2e" / "geometry.json")
    view = MapView(
        title="1942",
        owners={"Germany": "Germany"},
        colours={"Germany": "#5a5a5a", "United States": "#5a5a00"},
        units={"Germany": {"Germany": {"infantry": 3}}},
        moves=(MapMove("United States", "Western United States", "Central United States", "2 inf"),),
        battles=("SZ 15",),
    )
    root = _parse(render_map_svg(geo, view))
    assert len(_space_fills(root)) == 161


def test_the_opening_example_is_up_to_date() -> None:
    """examples/1942-2e/opening-map.svg is what the code draws from the ruleset's setup today.

    Regenerate with: python benchmarks/bench_map.py --write-examples
    """
    rulesets = pytest.importorskip("pbem.io.rulesets")
    example = REPO / "examples" / "1942-2e" / "opening-map.svg"
    geo = load_geometry(REPO / "pbem" / "rulesets" / "aa1942_2e" / "geometry.json")
    svg = render_map_svg(geo, view_of_opening(rulesets.load_ruleset("1942-2e")))
    assert svg == example.read_text(encoding="utf-8")
    assert (REPO / "examples" / "1942-2e" / "opening-map.png").read_bytes().startswith(PNG_MAGIC)


def _boxes(root: ET.Element) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float, float, float]]]:
    """The unit stacks' rectangles and the move labels' boxes, as the renderer sizes them."""
    from pbem.report.mapsvg import _text_width

    stacks = [(float(r.get("x")), float(r.get("y")), float(r.get("x")) + float(r.get("width")),
               float(r.get("y")) + float(r.get("height"))) for r in root.iterfind(".//s:g[@id='units']//s:rect", NS)]
    labels = []
    for t in root.iterfind(".//s:g[@id='move-labels']/s:text", NS):
        half = _text_width(t.text or "", 17, bold=True) / 2
        x, y = float(t.get("x")), float(t.get("y"))
        labels.append((x - half, y - 15, x + half, y + 3))
    return stacks, labels


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def test_move_labels_cover_no_unit_stack_and_no_other_label() -> None:
    """A crowded front (the 1942 opening around Moscow, a dozen arrows into and out of a few
    spaces): every label finds a place along its arrow clear of the stacks and the other labels,
    so each can be read (issue 14)."""
    from pbem.io.rulesets import load_ruleset, ruleset_dir

    ruleset = load_ruleset("1942-2e")
    geometry = load_geometry(ruleset_dir("1942-2e") / "geometry.json")
    base = view_of_opening(ruleset)
    moves = [MapMove("Soviet Union", frm, to, label) for frm, to, label in [
        ("Russia", "West Russia", "3 inf 1 art 2 tnk"), ("Karelia S.S.R.", "West Russia", "4 inf 1 art"),
        ("Archangel", "West Russia", "1 inf 1 tnk"), ("Caucasus", "West Russia", "3 inf 1 tnk"),
        ("Russia", "Caucasus", "1 aa"), ("Kazakh S.S.R.", "Russia", "1 inf"),
        ("Novosibirsk", "Russia", "1 inf"), ("Evenki National Okrug", "Archangel", "2 inf"),
        ("Vologda", "Russia", "1 inf"), ("Karelia S.S.R.", "Archangel", "1 ftr"),
    ] if frm in geometry.spaces and to in geometry.spaces]
    view = MapView(base.title, base.owners, base.colours, base.units, moves=moves, impassable=base.impassable)
    stacks, labels = _boxes(_parse(render_map_svg(geometry, view)))
    assert len(labels) == len(moves) >= 8
    for i, label in enumerate(labels):
        assert not any(_overlaps(label, s) for s in stacks), f"label {i} covers a unit stack"
        assert not any(_overlaps(label, other) for other in labels[:i]), f"label {i} covers another label"


def test_every_powers_badges_read_on_its_own_territories() -> None:
    """Unit stacks and move labels in a power's colour must stand out from that power's land:
    tan on tan and orange on orange did not (issue 14)."""
    from pbem.io.rulesets import load_ruleset
    from pbem.report.mapsvg import MIN_BADGE_CONTRAST, _contrast, land_tint

    for ruleset_id in ("1942-2e", "revised"):
        for power in load_ruleset(ruleset_id).powers:
            shade = badge_colour(power.colour)
            assert _contrast(shade, land_tint(power.colour)) >= MIN_BADGE_CONTRAST, (ruleset_id, power.name)


def test_png_labels_are_drawn_with_the_fonts_pbem_ships() -> None:
    """The rasteriser is given pbem's own fonts and never the machine's, so a map drawn where no
    font is installed still has its labels, and every machine draws the same picture (issue 21)."""
    import io

    Image = pytest.importorskip("PIL.Image")
    from pbem.report.mappng import FONT_FILES

    assert {f.name for f in FONT_FILES} == {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"}
    text = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60">'
            '<text x="10" y="40" font-size="30" font-family="DejaVu Sans" font-weight="bold">Moscow</text></svg>')
    blank = text.replace("Moscow", "")
    ink = [sum(1 for p in Image.open(io.BytesIO(svg_to_png(s))).convert("L").get_flattened_data() if p < 128) for s in (text, blank)]
    assert ink[0] > 300 and ink[1] == 0
