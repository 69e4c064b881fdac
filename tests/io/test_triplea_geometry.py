"""The TripleA geometry converter: reading map folders, simplifying outlines, the JSON file."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.io.triplea_geometry import (
    Geometry,
    convert_geometry,
    dumps_geometry,
    is_simple_ring,
    load_geometry,
    sea_zone_as_sz,
    signed_area,
    simplify_ring,
    write_geometry,
)

REPO = Path(__file__).resolve().parents[2]
SHARED_1942 = REPO.parent / "shared" / "data" / "triplea" / "aa1942_2e" / "map"
COMMITTED_1942 = REPO / "pbem" / "rulesets" / "aa1942_2e" / "geometry.json"


def _ring_text(points: list[tuple[int, int]]) -> str:
    return "<  " + " ".join(f"({x},{y})" for x, y in points) + "  >"


def _square(x0: int, y0: int, size: int) -> list[tuple[int, int]]:
    """A square traced pixel by pixel along its edges, as TripleA's tracer writes outlines."""
    pts = [(x0 + i, y0) for i in range(size)]
    pts += [(x0 + size, y0 + i) for i in range(size)]
    pts += [(x0 + size - i, y0 + size) for i in range(size)]
    pts += [(x0, y0 + size - i) for i in range(size)]
    return pts


def _write_map(folder: Path, *, properties: bool = True) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    land = _square(10, 10, 40)
    islands = [_square(60, 10, 20), [(90, 10), (92, 10), (92, 12), (90, 12)]]
    sea = _square(0, 60, 100)
    (folder / "polygons.txt").write_text(
        f"Westland  {_ring_text(land)}\n"
        f"Isles  {'  '.join(_ring_text(r) for r in islands)}\n"
        f"3 Sea Zone  {_ring_text(sea)}\n"
    )
    (folder / "centers.txt").write_text("Westland  (30,30)\n3 Sea Zone  (50,110)\n")
    (folder / "name_place.txt").write_text("Westland  (15,25)\n")
    (folder / "place.txt").write_text("Westland  (20,20)  (30,20)  (40,20)\n3 Sea Zone  (10,70)\n")
    if properties:
        (folder / "map.properties").write_text(
            "# comment\nmap.width=200\nmap.height=180\nmap.scrollWrapX=true\n"
        )


def test_converts_a_small_map_folder(tmp_path: Path) -> None:
    _write_map(tmp_path)
    geo = convert_geometry(tmp_path, rename=sea_zone_as_sz)

    assert (geo.width, geo.height, geo.wrap_x) == (200, 180, True)
    assert list(geo.spaces) == ["Isles", "SZ 3", "Westland"]
    west = geo.spaces["Westland"]
    assert not west.sea and geo.spaces["SZ 3"].sea
    # The pixel-traced square keeps exactly its four corners.
    assert sorted(west.polygons[0]) == [(10, 10), (10, 50), (50, 10), (50, 50)]
    assert west.centre == (30, 30) and west.label == (15, 25)
    assert west.places == ((20, 20), (30, 20), (40, 20))
    # Both islands survive, the big one first, even the tiny one.
    isles = geo.spaces["Isles"]
    assert len(isles.polygons) == 2
    assert abs(signed_area(isles.polygons[0])) > abs(signed_area(isles.polygons[1])) > 0
    # No centre given: the centre of the largest outline; no name place: the centre.
    assert isles.centre == (70, 20) and isles.label == isles.centre


def test_accepts_a_downloaded_map_folder_and_guesses_the_size(tmp_path: Path) -> None:
    _write_map(tmp_path / "my_map-master" / "map", properties=False)
    geo = convert_geometry(tmp_path)

    assert "3 Sea Zone" in geo.spaces  # no rename asked for
    assert (geo.width, geo.height, geo.wrap_x) == (101, 161, False)


def test_a_folder_without_outlines_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        convert_geometry(tmp_path)


def test_two_names_renamed_alike_are_an_error(tmp_path: Path) -> None:
    _write_map(tmp_path)
    with pytest.raises(ValueError, match="both named"):
        convert_geometry(tmp_path, rename=lambda name: "Same")


def test_sea_zone_names() -> None:
    assert sea_zone_as_sz("15 Sea Zone") == "SZ 15"
    assert sea_zone_as_sz("Western United States") == "Western United States"


def test_json_round_trip_is_exact_and_deterministic(tmp_path: Path) -> None:
    _write_map(tmp_path / "src")
    geo = convert_geometry(tmp_path / "src", rename=sea_zone_as_sz)
    write_geometry(geo, tmp_path / "a.json")
    loaded = load_geometry(tmp_path / "a.json")

    assert loaded == geo
    write_geometry(loaded, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_loading_rejects_other_json(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"format": "something else"}')
    with pytest.raises(ValueError):
        load_geometry(tmp_path / "x.json")


@st.composite
def noisy_star_rings(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Simple polygons: points at increasing angles around a centre, radii with pixel noise."""
    n = draw(st.integers(8, 120))
    base = draw(st.integers(20, 300))
    radii = draw(st.lists(st.integers(-base // 3, base // 3), min_size=n, max_size=n))
    points = []
    for i, noise in enumerate(radii):
        angle = 2 * math.pi * i / n
        r = base + noise
        points.append((500 + round(r * math.cos(angle)), 500 + round(r * math.sin(angle))))
    return points


@settings(max_examples=60, deadline=None)
@given(noisy_star_rings(), st.sampled_from([0.5, 1.0, 2.0, 4.0, 10.0]))
def test_simplification_keeps_shapes_valid(ring: list[tuple[int, int]], tolerance: float) -> None:
    simplified = simplify_ring(ring, tolerance)

    assert set(simplified) <= set(ring)  # integer points of the original, nothing invented
    if is_simple_ring(list(dict.fromkeys(ring))):
        assert is_simple_ring(simplified)
        assert (signed_area(simplified) > 0) == (signed_area(ring) > 0)
        assert len(simplified) <= len(set(ring))


def test_simplification_removes_pixel_steps_but_keeps_the_shape() -> None:
    ring = _square(0, 0, 200)
    simplified = simplify_ring(ring, 2.0)
    assert len(simplified) == 4
    assert signed_area(simplified) == signed_area(ring)


def test_simple_ring_check() -> None:
    assert is_simple_ring([(0, 0), (10, 0), (10, 10), (0, 10)])
    assert not is_simple_ring([(0, 0), (10, 10), (10, 0), (0, 10)])  # a bow tie
    assert not is_simple_ring([(0, 0), (5, 0), (10, 0)])  # no area


@pytest.mark.skipif(not SHARED_1942.is_dir(), reason="../shared TripleA data not present")
def test_the_1942_map_converts_to_the_committed_geometry() -> None:
    geo = convert_geometry(SHARED_1942, rename=sea_zone_as_sz)

    assert len(geo.spaces) == 161
    seas = [name for name, space in geo.spaces.items() if space.sea]
    assert len(seas) == 65 and all(name.startswith("SZ ") for name in seas)
    assert {"Germany", "SZ 15", "Western United States", "Caroline Islands"} <= set(geo.spaces)
    assert (geo.width, geo.height, geo.wrap_x) == (3500, 2000, True)
    for space in geo.spaces.values():
        assert space.polygons and all(len(ring) >= 3 for ring in space.polygons)
        for ring in space.polygons:
            assert all(0 <= x < geo.width and 0 <= y < geo.height for x, y in ring)
    # The committed file is exactly what the converter makes today.
    assert dumps_geometry(geo) == COMMITTED_1942.read_text(encoding="utf-8")


def test_the_committed_1942_geometry_is_compact_and_valid() -> None:
    assert COMMITTED_1942.stat().st_size < 300_000
    geo: Geometry = load_geometry(COMMITTED_1942)
    assert len(geo.spaces) == 161
    bad = [name for name, space in geo.spaces.items() for ring in space.polygons if not is_simple_ring(ring)]
    assert bad == []
