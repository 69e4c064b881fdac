"""`pbem --help` lists every command without importing their modules (issue 19: it spent 0.10 of
its 0.14 s importing them), from a table kept equal to the commands' own help."""

from __future__ import annotations

import subprocess
import sys

import click

from pbem.cli import COMMANDS, SHORT_HELP, cli


def test_the_table_matches_each_commands_own_help() -> None:
    ctx = click.Context(cli)
    assert set(SHORT_HELP) == set(COMMANDS)
    for name in COMMANDS:
        assert SHORT_HELP[name] == cli.get_command(ctx, name).get_short_help_str(limit=1000), name  # type: ignore[union-attr]


def test_help_imports_no_command_module() -> None:
    code = ("import sys; sys.argv = ['pbem', '--help']\nfrom pbem.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('pbem.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
    assert "validate" in out and "Check an orders file" in out


def _commands(group: click.Group, ctx: click.Context, prefix: str = "") -> list[tuple[str, click.Command]]:
    out = []
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)
        assert command is not None
        out.append((prefix + name, command))
        if isinstance(command, click.Group):
            out += _commands(command, click.Context(command, parent=ctx), prefix + name + " ")
    return out


def test_every_option_says_what_it_does() -> None:
    """A new user reads `--help`: an option listed with no words (`--json` of `pbem log`) is a guess."""
    ctx = click.Context(cli)
    bare = [f"pbem {name} {param.opts[0]}" for name, command in _commands(cli, ctx) for param in command.params
            if isinstance(param, click.Option) and not param.help and param.opts[0] != "--help"]
    assert bare == []
