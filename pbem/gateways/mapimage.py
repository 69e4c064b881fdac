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
    from pbem.game.game import board_svg

    state = game.state()
    reports = sorted(p for p in game.repo.list("reports") if p.endswith(".json"))
    last = json.loads(game.repo.read(reports[-1]) or b"{}") if reports else {}
    winner = f"the {state.winner} won" if state.winner else f"{game.power_to_move(state)} to move"
    svg = board_svg(game.ruleset, state, last, title=f"{game.config.game}: round {state.round}, {winner}")
    if svg is None:
        return None
    name = f"{game.config.game}-round-{state.round:02d}-map"
    if fmt == "png":
        from pbem.report.mappng import svg_to_png

        return f"{name}.png", svg_to_png(svg), "image/png"
    return f"{name}.svg", svg.encode("utf-8"), "image/svg+xml"
