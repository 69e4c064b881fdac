"""`pbem demo`: a game adjudicated end to end from the example orders in examples/<ruleset>/."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from pbem.cli.game_commands import ends_line, user_errors


def examples_dir() -> Path:
    from pbem.resources import data_dir

    return data_dir("examples")


@click.command("demo")
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.option("--ruleset", "ruleset_id", default="1942-2e", show_default=True, help="Rule system id: each has example orders (`pbem ruleset list`).")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 99), help="How many rounds of example orders to play.")
@click.option("--format", "fmt", type=click.Choice(["md", "bbcode", "html", "text", "json"]), default="text", show_default=True,
              help="Print the last turn report in this format.")
@user_errors
def demo(directory: str | None, ruleset_id: str, rounds: int, fmt: str) -> None:
    """Create a game, submit the example standing orders and the orders of every power, adjudicate every turn, print the last report.

    With DIRECTORY the game repository is left there to look at (`pbem log --game DIRECTORY`).
    """
    from pbem.game.game import Game, GameError, new_game, orders_path
    from pbem.io.rulesets import load_ruleset
    from pbem.report.render import render_report

    ruleset = load_ruleset(ruleset_id)
    folder = examples_dir() / ruleset.id
    if not folder.is_dir():
        raise GameError(f"no example orders for {ruleset.id} (looked in {folder})")
    with tempfile.TemporaryDirectory(prefix="pbem-demo-") as tmp:
        target = Path(directory) if directory else Path(tmp) / "game"
        players = {p.name: f"{p.name.lower().replace(' ', '.')}@example.org" for p in ruleset.powers}
        # Examples use the local fixed seed, so the scripted rounds meet the same dice every time;
        # every report of the demo says its dice are not verifiable.
        game = new_game(target, ruleset.id, players, game_id="demo", dice_mode="local", local_seed="pbem-demo")
        if directory:
            click.echo(f"Demo game in {target}", err=True)
        else:
            click.echo("Demo game in a temporary directory, removed at the end (give a DIRECTORY to keep it)", err=True)
        # standing orders the example players wrote in advance (examples/<ruleset>/standing/*.yaml)
        for file in sorted((folder / "standing").glob("*.yaml")):
            game.submit(file.read_bytes(), str(file.relative_to(folder.parent.parent)))
            game = Game(target)
        report = None
        while True:
            state = game.state()
            # round 0, where a rule system has one (a cash advance), comes before the rounds asked for
            if state.winner or state.round > rounds:
                break
            rel = orders_path(state, ruleset).removeprefix("orders/")
            file = folder / rel
            if not file.is_file():
                if report is None:
                    raise GameError(f"no example orders at {file}")
                click.echo(f"the example has no orders for {rel}: the demo stops there ({rounds} rounds were asked)", err=True)
                break
            game.submit(file.read_bytes(), str(file.relative_to(folder.parent.parent)))
            _, report = game.adjudicate()
            click.echo(f"round {state.round}: adjudicated {game.power_to_move(state)}", err=True)
            for _, passed in game.pass_idle_turns():
                click.echo(f"round {passed['round']}: {passed['power']} has nothing to order; its turn passed", err=True)
            game = Game(target)
        if report is not None:
            click.echo(ends_line(render_report(report, fmt)), nl=False)
            if not directory:
                click.echo("The map pictures the report names went with the temporary game; "
                           "`pbem demo DIRECTORY` keeps them.", err=True)
