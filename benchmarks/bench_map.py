"""How long the 1942 map picture takes: the SVG, and its PNG at the example's width.

Run from anywhere:  python benchmarks/bench_map.py [--repeat N] [--write-examples]

The timed view is the opening setup plus a busy turn's worth of moves and battles (every owned
territory moving into its first neighbour by name), so arrows and labels are part of the cost.
``--write-examples`` also (re)writes ``examples/1942-2e/opening-map.svg`` and ``.png``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable, TypeVar

from pbem.io.rulesets import load_ruleset
from pbem.io.triplea_geometry import load_geometry
from pbem.report.mappng import svg_to_png
from pbem.report.mapsvg import MapMove, MapView, render_map_svg, view_of_opening

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[1]
GEOMETRY = REPO / "pbem" / "rulesets" / "aa1942_2e" / "geometry.json"
EXAMPLES = REPO / "examples" / "1942-2e"
EXAMPLE_PNG_WIDTH = 2100  # 0.6 of the map image: the smallest size whose labels read well


def busy_view(opening: MapView, adjacency: dict[str, frozenset[str]]) -> MapView:
    """The opening plus one move out of every controlled territory and a battle at each target."""
    moves = []
    for space, owner in sorted(opening.owners.items()):
        if owner and adjacency.get(space):
            moves.append(MapMove(owner, space, min(adjacency[space]), "1 inf"))
    return MapView(
        title=opening.title + " (busy turn)",
        owners=opening.owners,
        colours=opening.colours,
        units=opening.units,
        moves=tuple(moves),
        battles=tuple(sorted({m.to for m in moves})),
        impassable=opening.impassable,
    )


def _best_of(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    """The fastest of `repeat` runs (the least disturbed by the rest of the machine) and a result."""
    times = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write-examples", action="store_true")
    args = parser.parse_args()

    ruleset = load_ruleset("1942-2e")
    load_s, geometry = _best_of(args.repeat, lambda: load_geometry(GEOMETRY))
    opening = view_of_opening(ruleset)
    busy = busy_view(opening, {k: frozenset(v) for k, v in ruleset.board.adjacency.items()})

    svg_s, svg = _best_of(args.repeat, lambda: render_map_svg(geometry, opening))
    busy_s, busy_svg = _best_of(args.repeat, lambda: render_map_svg(geometry, busy))
    png_s, png = _best_of(args.repeat, lambda: svg_to_png(svg, width=EXAMPLE_PNG_WIDTH))
    full_s, _ = _best_of(args.repeat, lambda: svg_to_png(busy_svg))

    print(f"load geometry           {load_s * 1000:8.1f} ms")
    print(f"SVG, opening            {svg_s * 1000:8.1f} ms  {len(svg):>9,} bytes")
    print(f"SVG, {len(busy.moves):3d} moves          {busy_s * 1000:8.1f} ms  {len(busy_svg):>9,} bytes")
    print(f"PNG, {EXAMPLE_PNG_WIDTH} px wide       {png_s * 1000:8.1f} ms  {len(png):>9,} bytes")
    print(f"PNG, busy, full size    {full_s * 1000:8.1f} ms")

    if args.write_examples:
        EXAMPLES.mkdir(parents=True, exist_ok=True)
        (EXAMPLES / "opening-map.svg").write_text(svg, encoding="utf-8", newline="\n")
        (EXAMPLES / "opening-map.png").write_bytes(png)
        print(f"wrote {EXAMPLES.relative_to(REPO)}/opening-map.svg and .png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
