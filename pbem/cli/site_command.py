"""`pbem site`: write a game's static site (pbem.gateways.site)."""

from __future__ import annotations

import click

from pbem.cli.game_commands import game_option, user_errors


@click.command("site")
@game_option
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Where to write the site (replaced whole; an existing directory must be an earlier pbem site).")
@user_errors
def site(game_dir: str, out_dir: str) -> None:
    """Write a static site of the game: board after every turn, reports, charts, the audit's verdict."""
    from pbem.gateways.site import write_site

    written = write_site(game_dir, out_dir)
    click.echo(f"Wrote {len(written)} files to {out_dir}; open {out_dir}/index.html.")
