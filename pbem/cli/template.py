"""`pbem orders template`: a pre-filled, commented orders file for the power to move."""

from __future__ import annotations

import click

from pbem.cli.game_commands import _open, game_option, user_errors
from pbem.game.game import possessive


def orders_template(game) -> str:  # type: ignore[no-untyped-def]
    state = game.state()
    power = game.power_to_move(state)
    ruleset = game.ruleset
    lines = [
        f"# Orders of {power} for round {state.round} of {game.config.game} ({ruleset.name}).",
        f"# Treasury: {state.treasury.get(power, 0)} IPCs.  Check with `pbem validate FILE`, send with `pbem submit FILE`.",
        "# Units are written '3 infantry, 1 tank'; spaces by name ('SZ 5' for sea zones).",
        f"game: {game.config.game}",
        f"power: {power}",
        f"round: {state.round}",
        "",
        "# Unit costs: " + ", ".join(f"{u.name} {u.cost}" for u in ruleset.units.values()),
        "purchase: {}",
        "",
        "# Combat moves, in order: {units: \"2 infantry\", from: A, to: B}.  Load a transport by moving land",
        "# units into its sea zone, move the transport, then move them from the sea zone to the coast.",
        "combat_move: []",
        "",
        "# Battle directives per attacked space: order_of_loss (first listed is lost first), retreat.",
        "#   Ukraine: {order_of_loss: [infantry, artillery, tank], retreat: {to: Eastern Europe, when: \"attackers <= 2\"}}",
        "battles: {}",
        "",
        "noncombat_move: []",
        "",
        "# Mobilize: space -> units (only what purchase buys).",
        "place: {}",
        "",
        f"# {possessive(power)} units:",
    ]
    for space, by_owner in sorted(state.units.items()):
        mine = by_owner.get(power)
        if mine:
            lines.append(f"#   {space}: " + ", ".join(f"{n} {u}" for u, n in sorted(mine.items())))
    return "\n".join(lines) + "\n"


@click.group("orders")
def orders() -> None:
    """Orders files."""


@orders.command("template")
@game_option
@user_errors
def template(game_dir: str) -> None:
    """Print a commented orders file for the power to move."""
    click.echo(orders_template(_open(game_dir)), nl=False)
