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


class LazyGroup(click.Group):
    """Loads each sub-command's module on first use."""

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
