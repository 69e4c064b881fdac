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
@user_errors
def map_cmd(game_dir: str, ref: str | None, out: str, geometry: str | None) -> None:
    """Draw the board: control, units, and the last turn's moves and battles."""
    import json

    from pbem.game.game import GameError
    from pbem.io.rulesets import ruleset_dir
    from pbem.io.triplea_geometry import convert_geometry, load_geometry
    from pbem.report.mapsvg import MapMove, view_from_setup, render_map_svg

    game = _open(game_dir)
    state = game.state(ref)
    if geometry:
        g = Path(geometry)
        geo = load_geometry(g) if g.is_file() else convert_geometry(g)
    else:
        path = ruleset_dir(game.ruleset.id) / "geometry.json"
        if not path.is_file():
            raise GameError(f"no map geometry for {game.ruleset.id}; pass --geometry TRIPLEA_MAP_DIR")
        geo = load_geometry(path)
    moves: list[MapMove] = []
    battles: list[str] = []
    reports = sorted(p for p in game.repo.list("reports", ref) if p.endswith(".json"))
    if reports:
        last = json.loads(game.repo.read(reports[-1], ref) or b"{}")
        moves = [MapMove(m["power"], m["from"], m["to"], ", ".join(f"{n} {u}" for u, n in m["units"].items())) for m in last.get("moves", [])]
        battles = [b["space"] for b in last.get("battles", [])]
    view = view_from_setup(
        f"{game.config.game}: round {state.round}, {game.power_to_move(state)} to move",
        control=state.control, units=state.units, colours={p.name: p.colour for p in game.ruleset.powers},
        impassable=[s.name for s in game.ruleset.board.spaces.values() if s.impassable], moves=moves, battles=battles,
    )
    svg = render_map_svg(geo, view)
    if out.endswith(".png"):
        from pbem.report.mappng import svg_to_png

        Path(out).write_bytes(svg_to_png(svg))
    else:
        Path(out).write_text(svg, encoding="utf-8")
    click.echo(f"wrote {out}")
