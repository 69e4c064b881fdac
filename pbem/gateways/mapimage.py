"""The board after the last turn as a picture to attach to a report mail.

The same drawing as `pbem map` (control, units, the last turn's moves and battles), as bytes, so
a gateway can attach it without writing a file.  A game whose ruleset has no map geometry gets no
picture rather than a failed mail: the report itself is what matters.
"""

from __future__ import annotations

import json

from pbem.game.game import Game


def map_image(game: Game, fmt: str) -> tuple[str, bytes, str] | None:
    """(filename, bytes, MIME type) of the current board in "png" or "svg"; None if it cannot be drawn."""
    if fmt == "none":
        return None
    from pbem.io.rulesets import ruleset_dir
    from pbem.io.triplea_geometry import load_geometry
    from pbem.report.mapsvg import MapMove, render_map_svg, view_from_setup

    path = ruleset_dir(game.ruleset.id) / "geometry.json"
    if not path.is_file():
        return None
    state = game.state()
    moves: list[MapMove] = []
    battles: list[str] = []
    reports = sorted(p for p in game.repo.list("reports") if p.endswith(".json"))
    if reports:
        last = json.loads(game.repo.read(reports[-1]) or b"{}")
        moves = [MapMove(m["power"], m["from"], m["to"], ", ".join(f"{n} {u}" for u, n in m["units"].items()))
                 for m in last.get("moves", [])]
        battles = [b["space"] for b in last.get("battles", [])]
    winner = f"the {state.winner} won" if state.winner else f"{game.power_to_move(state)} to move"
    view = view_from_setup(
        f"{game.config.game}: round {state.round}, {winner}",
        control=state.control, units=state.units, colours={p.name: p.colour for p in game.ruleset.powers},
        impassable=[s.name for s in game.ruleset.board.spaces.values() if s.impassable], moves=moves, battles=battles,
    )
    svg = render_map_svg(load_geometry(path), view)
    name = f"{game.config.game}-round-{state.round:02d}-map"
    if fmt == "png":
        from pbem.report.mappng import svg_to_png

        return f"{name}.png", svg_to_png(svg), "image/png"
    return f"{name}.svg", svg.encode("utf-8"), "image/svg+xml"
