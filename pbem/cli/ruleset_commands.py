"""`pbem ruleset ...`: list rule systems and import TripleA game files into our own data files."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.game_commands import user_errors


@click.group("ruleset")
def ruleset() -> None:
    """Rule systems and their data."""


@ruleset.command("list")
def list_rulesets() -> None:
    """The rule systems this pbem knows."""
    from pbem.io.rulesets import available_rulesets, load_ruleset

    for rid in available_rulesets():
        click.echo(f"{rid:<10} {load_ruleset(rid).name}")


@ruleset.command("import-triplea")
@click.argument("xml_file", type=click.Path(dir_okay=False, exists=True))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=".", show_default=True, help="Where map.yaml and setup.yaml are written.")
@click.option("--ruleset", "ruleset_id", default="1942-2e", show_default=True, help="Which corrections and names to apply.")
@user_errors
def import_triplea_cmd(xml_file: str, out_dir: str, ruleset_id: str) -> None:
    """Convert a TripleA game XML into pbem's map.yaml and setup.yaml."""
    from pbem.io.triplea import import_triplea

    written = import_triplea(Path(xml_file), Path(out_dir), ruleset_id=ruleset_id)
    for path in written:
        click.echo(f"wrote {path}")
