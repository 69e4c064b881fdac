"""The `pbem` command line: the only place that prints or sets an exit code.

Sub-commands live in their own modules and are imported only when invoked, so `pbem --help` and
every command start fast.  Register a command in COMMANDS as "module:attribute".
"""

from __future__ import annotations

import importlib
import sys

import click

from pbem import __version__

COMMANDS: dict[str, str] = {
    # name: "module:attribute" of a click.Command
    "new": "pbem.cli.game_commands:new",
    "status": "pbem.cli.game_commands:status",
    "validate": "pbem.cli.game_commands:validate",
    "submit": "pbem.cli.game_commands:submit",
    "adjudicate": "pbem.cli.game_commands:adjudicate",
    "report": "pbem.cli.game_commands:report",
    "log": "pbem.cli.game_commands:log",
    "show": "pbem.cli.game_commands:show",
    "ack": "pbem.cli.game_commands:ack",
    "orders": "pbem.cli.template:orders",
    "demo": "pbem.cli.demo:demo",
    "ruleset": "pbem.cli.ruleset_commands:ruleset",
    "map": "pbem.cli.map_command:map_cmd",
    "audit": "pbem.cli.audit_commands:audit",
    "luck": "pbem.cli.audit_commands:luck",
    "mail": "pbem.cli.gateway_commands:mail",
    "serve": "pbem.cli.gateway_commands:serve",
    "init-ci": "pbem.cli.gateway_commands:init_ci",
    "tick": "pbem.cli.gateway_commands:tick",
    "odds": "pbem.cli.odds:odds",
    "site": "pbem.cli.site_command:site",
    "case": "pbem.cli.case_command:case",
}


# Each command's one-line help, so `pbem --help` lists them without importing every module (a
# test keeps these equal to the commands' own docstrings).
SHORT_HELP: dict[str, str] = {
    'ack': 'Reveal your dice link for the turn whose orders are in (games with `--reveal opponents`).',
    'adjudicate': 'Resolve the submitted turn with the committed dice; commit the new state and report.',
    'audit': 'Replay the whole history and check every turn; exit code 0 only when everything matches.',
    'case': 'Rule cases: one turn from a stated position, fixed dice, and what must come of it.',
    'demo': 'Create a game, submit the example standing orders and the orders of every power, adjudicate every turn, print the last report.',
    'init-ci': 'Write a CI file: validate orders on pull requests, adjudicate and apply deadlines on main.',
    'log': "The game's history as turns.",
    'luck': 'Per power and per battle: hits expected vs scored; and a chi-square test of the dice faces.',
    'mail': 'Play by email: read orders from a mailbox, answer, adjudicate, mail the reports.',
    'map': "Draw the board: control, units, and the last turn's moves and battles.",
    'new': 'Create a new game repository in DIRECTORY.',
    'odds': 'Exact odds of a battle (attacker win, defender win, draw, capture, expected losses).',
    'orders': 'Orders files.',
    'report': 'Show a turn report.',
    'ruleset': 'Rule systems and their data.',
    'serve': 'Host a game as a bare git repository that players push their orders to.',
    'show': 'The state at any point of history.',
    'site': "Write a static site of the game: board after every turn, reports, charts, the audit's verdict.",
    'status': "Round, whose turn, each power's treasury and income, and what is awaited.",
    'submit': 'Validate an orders (or standing orders) file, then commit it to the game.',
    'tick': 'Adjudicate a complete turn, send due reminders and apply the missing-orders policy at the deadline.',
    'validate': 'Check an orders file against the game, changing nothing; shows the odds of each battle.',
}


class LazyGroup(click.Group):
    """Loads each sub-command's module on first use."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.utils.make_default_short_help(SHORT_HELP.get(name, ""), max(limit, 45)))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module_name, attr = COMMANDS[cmd_name].split(":")
            module = importlib.import_module(module_name)
            command: click.Command = getattr(module, attr)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="pbem")
def cli() -> None:
    """Adjudicate Axis & Allies games played by email, forum or git."""


def main() -> None:
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        sys.exit(130)
