"""The board after the last turn as a picture to attach to a report mail.

The same drawing as `pbem map` (control, units, the last turn's moves and battles), as bytes, so
a gateway can attach it without writing a file.  A game whose ruleset has no map geometry gets no
picture rather than a failed mail: the report itself is what matters.
"""

from __future__ import annotations

import json

from pbem.game.game import Game


#: pixels across of a mailed PNG map (benchmarks/bench_mail.py measures the mail it makes)
MAIL_WIDTH = 1200
#: colours of a mailed PNG map: the board is flat colours and text, so a palette keeps it sharp
MAIL_COLOURS = 128


def _turn_box(game: Game, report: dict) -> tuple[float, float, float, float] | None:  # type: ignore[type-arg]
    """Where on the board the last turn moved and fought, or None (no geometry, or all over)."""
    from pbem.io.rulesets import ruleset_file
    from pbem.io.triplea_geometry import load_geometry
    from pbem.report.mapsvg import focus_box

    path = ruleset_file(game.ruleset.id, "geometry.json")
    if not path.is_file():
        return None
    spaces = {m["from"] for m in report.get("moves", [])} | {m["to"] for m in report.get("moves", [])}
    spaces |= {b["space"] for b in report.get("battles", [])}
    return focus_box(load_geometry(path), spaces) if spaces else None


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

        # a mail-sized picture: the part of the board where the turn happened, at most MAIL_WIDTH
        # pixels wide, so a typical report mail stays under what mailing lists accept
        box = _turn_box(game, last)
        if box is not None:
            from pbem.report.mapsvg import crop_svg

            svg = crop_svg(svg, box)
        width = MAIL_WIDTH if box is None else min(MAIL_WIDTH, int(box[2]))
        return f"{name}.png", svg_to_png(svg, width=width, colours=MAIL_COLOURS), "image/png"
    return f"{name}.svg", svg.encode("utf-8"), "image/svg+xml"
