"""`pbem case run PATH...` and `pbem case list PATH...`: rule cases as data (pbem.game.cases)."""

from __future__ import annotations

import sys

import click


@click.group("case")
def case() -> None:
    """Rule cases: one turn from a stated position, fixed dice, and what must come of it."""


@case.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--quiet", is_flag=True, help="Print only the failures and the closing count.")
def run(paths: tuple[str, ...], quiet: bool) -> None:
    """Run the cases in these files and folders (*.yaml): a line per case, PASS or FAIL and why,
    then 'N passed, M failed'. Exit code 1 if any failed."""
    from pbem.game.cases import run_paths

    passed = failed = 0
    for result in run_paths(paths):
        if result.passed:
            passed += 1
        else:
            failed += 1
        if not (quiet and result.passed):
            click.echo(result.line())
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


@case.command("list")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
def list_cases(paths: tuple[str, ...]) -> None:
    """List the cases with the rulebook section each shows, sorted by section."""
    from pbem.game.cases import case_files, read_cases

    listed, broken = [], []
    for path in case_files(paths):
        cases, unread = read_cases(path)
        listed.extend((c.section, c.where) for c in cases)
        broken.extend(unread)
    for section, where in sorted(listed):
        click.echo(f"{section}\t{where}")
    for result in broken:  # a file that cannot be read lists nothing: say so, as `case run` does
        click.echo(result.line(), err=True)
    if broken:
        sys.exit(1)
