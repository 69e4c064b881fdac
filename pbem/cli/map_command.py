"""`pbem map`: the board as an SVG or PNG picture, at any point of the game's history."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.game_commands import _open, game_option, user_errors


@click.command("map")
@game_option
@click.option("--at", "ref", default=None, help="A commit, tag or branch (default: now).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default="map.svg", show_default=True, help="FILE.svg or FILE.png.")
@click.option("--geometry", type=click.Path(exists=True), default=None,
              help="A TripleA map folder (or our geometry .json) to draw other maps.")
@click.option("--width", type=click.IntRange(200, 10000), default=1400, show_default=True,
              help="Pixels across of a PNG (a forum shows about 1400; the full board is 3500).")
@user_errors
def map_cmd(game_dir: str, ref: str | None, out: str, geometry: str | None, width: int) -> None:
    """Draw the board: control, units, and the last turn's moves and battles."""
    import json

    from pbem.game.game import GameError, board_svg
    from pbem.io.triplea_geometry import convert_geometry, load_geometry

    kind = Path(out).suffix.lower()
    if kind not in (".svg", ".png"):
        raise GameError(f"--out {out}: the picture is written as .svg or .png, not {kind or 'a file with no extension'}")
    if not Path(out).resolve().parent.is_dir():
        raise GameError(f"--out {out}: the folder {Path(out).parent} does not exist")
    game = _open(game_dir)
    state = game.state(ref)
    geo = None
    if geometry:
        g = Path(geometry)
        geo = load_geometry(g) if g.is_file() else convert_geometry(g)
    reports = sorted(p for p in game.repo.list("reports", ref) if p.endswith(".json"))
    last = json.loads(game.repo.read(reports[-1], ref) or b"{}") if reports else {}
    title = f"{game.config.game}: round {state.round}, {game.power_to_move(state)} to move"
    svg = board_svg(game.ruleset, state, last, title=title, geometry=geo)
    if svg is None:
        raise GameError(f"no map geometry for {game.ruleset.id}; pass --geometry TRIPLEA_MAP_DIR")
    if kind == ".png":
        from pbem.report.mappng import svg_to_png

        Path(out).write_bytes(svg_to_png(svg, width=width))
    else:
        Path(out).write_text(svg, encoding="utf-8")
    click.echo(f"wrote {out}")
