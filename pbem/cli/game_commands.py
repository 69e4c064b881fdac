"""Commands that work on a game repository: new, status, orders template, validate, submit, adjudicate,
report, log, show.  Every user error ends as a clear message and a non-zero exit code."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

game_option = click.option("--game", "game_dir", default=".", show_default=True, type=click.Path(file_okay=False), help="The game repository.")


def ends_line(text: str) -> str:
    """Printed text ends its last line, so what is printed next (the commit line, the shell's
    prompt) starts on a line of its own; the report's bytes in the game are left as they are."""
    return text if not text or text.endswith("\n") else text + "\n"


def user_errors(fn: F) -> F:
    """Turn every anticipated failure into a message and exit code 2; nothing else is printed."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from pbem.engine.problems import ProblemsError
        from pbem.game.game import GameError

        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:
            raise  # `pbem ... | head`: the reader left; click ends quietly, as a pipeline expects
        except ProblemsError as err:
            for p in err.problems:
                click.echo(p.format(), err=True)
            from pbem.engine.problems import problem_count

            n = problem_count(err.problems)
            click.echo(f"{n:,} problem{'s' if n != 1 else ''} found; nothing was changed.", err=True)
            sys.exit(2)
        except GameError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(2)
        except Exception as err:  # repository, dice key and file errors are all user-facing here
            from pbem.game.dicekeys import DiceKeyError
            from pbem.game.repo import RepoError

            if isinstance(err, (RepoError, DiceKeyError, OSError, KeyError, ValueError)):
                msg = err.args[0] if isinstance(err, KeyError) and err.args else err
                click.echo(f"error: {msg}", err=True)
                sys.exit(2)
            raise

    return wrapper  # type: ignore[return-value]


def _open(game_dir: str) -> Any:
    from pbem.game.game import Game

    return Game(game_dir)


@click.command("new")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--ruleset", "ruleset_id", default="1942-2e", show_default=True, help="Rule system id: `pbem ruleset list` names them.")
@click.option("--player", "players", multiple=True, metavar="POWER=EMAIL", help="A power and its player's address; repeat for each.")
@click.option("--id", "game_id", default=None, help="Game id (default: the directory's name).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option, e.g. victory=total or low_luck=true (a bare name, low_luck, is NAME=true).")
@click.option("--dice", "dice_mode", type=click.Choice(["committed", "local"]), default="committed", show_default=True,
              help="committed: a hash chain whose secret stays with the adjudicator; local: a fixed public seed (friendly games).")
@click.option("--seed", default=None, help="With --dice local: the seed text.")
@click.option("--key-dir", type=click.Path(file_okay=False), default=None, help="Where the dice secret is kept (outside the game).")
@click.option("--reveal", type=click.Choice(["holder", "opponents"]), default="holder", show_default=True,
              help="opponents: every enemy of the mover also reveals a link of its own chain (`pbem ack`), for games where the host plays.")
@click.option("--hosting", "hosting_file", type=click.Path(dir_okay=False, exists=True), default=None,
              help="A YAML file of hosting settings (deadlines, missing-orders policy, reminders; docs/hosting.md).")
@user_errors
def new(directory: str, ruleset_id: str, players: tuple[str, ...], game_id: str | None, options: tuple[str, ...],
        dice_mode: str, seed: str | None, key_dir: str | None, reveal: str, hosting_file: str | None) -> None:
    """Create a new game repository in DIRECTORY."""
    from pbem.game.game import GameError, new_game
    import yaml

    if seed is not None and dice_mode != "local":
        # a seed a committed game would ignore: the player meant a friendly game, or no seed at all
        raise GameError("--seed is the fixed seed of --dice local; committed dice keep their secret with the adjudicator "
                        "(add --dice local, or leave out --seed)")
    parsed_players: dict[str, str] = {}
    given: dict[str, str] = {}  # the power's name -> the --player that named it
    for item in players:
        if "=" not in item:
            raise GameError(f"--player {item!r}: write POWER=EMAIL, e.g. --player Germany=anna@example.org")
        power, email = item.split("=", 1)
        from pbem.io.rulesets import load_ruleset

        try:
            name = load_ruleset(ruleset_id).power(power.strip()).name
        except KeyError:
            name = power.strip()  # new_game says it is unknown
        if name in given:
            raise GameError(f"--player {item!r}: {name} is given twice (also --player {given[name]!r}); give each power once")
        given[name] = item
        parsed_players[power.strip()] = email.strip()
    parsed_options: dict[str, Any] = {}
    for item in options:
        if "=" not in item:
            # a bare name switches an on/off option on (--option radar); new_game checks the name
            if not item.strip() or any(c.isspace() for c in item.strip()):
                raise GameError(f"--option {item!r}: write NAME=VALUE, e.g. --option victory=total")
            parsed_options[item.strip()] = True
            continue
        name, value = item.split("=", 1)
        parsed_options[name.strip()] = yaml.safe_load(value)
    hosting = None
    if hosting_file:
        from pbem.gateways.hosting import check_hosting
        from pbem.io.rulesets import load_ruleset
        from pbem.io.yamlfile import load_yaml, read_user_file

        from pbem.engine.problems import Problem, ProblemsError
        from pbem.gateways.hosting import HostingError

        doc = load_yaml(read_user_file(hosting_file), hosting_file, expect_mapping=True)
        nested = "hosting" in doc.data
        hosting = doc.data.get("hosting", doc.data)  # the file may hold the section or just its keys
        try:
            check_hosting(hosting, load_ruleset(ruleset_id))
        except HostingError as err:  # each problem at its line in the file given
            found = [doc.problem(Problem("invalid", f"hosting.{key} {message}", path=(("hosting",) if nested else ()) + (key,),
                                         hint="docs/hosting.md lists the settings and their values", code="hosting.setting"))
                     for key, message in err.problems]
            raise ProblemsError(sorted(found, key=lambda p: (p.line or 0, p.column or 0))) from None
    game = new_game(directory, ruleset_id, parsed_players, game_id=game_id, options=parsed_options, dice_mode=dice_mode,
                    local_seed=seed, key_dir=Path(key_dir) if key_dir else None, reveal=reveal, hosting=hosting)
    click.echo(f"Created game {game.config.game} ({game.ruleset.name}) in {directory}.")
    if dice_mode == "committed":
        from pbem.game.dicekeys import secret_from_env

        from pbem.game.dicekeys import key_path

        kept = key_path(game.config.game, Path(key_dir) if key_dir else None, anchor=game.config.dice.get("anchor"))
        given = secret_from_env(game.config.game)
        if given is not None:
            click.echo(f"Dice secret: taken from ${given[1]}, as it is set here (a copy is in {kept} too).")
        else:
            click.echo(f"Dice secret: kept in {kept}, outside the game: back it up, the game cannot go on without it.")
    if dice_mode == "local" and seed is None:
        click.echo(f"Local dice: the seed is the game id, {game.config.dice.get('local_seed', game.config.game)!r} "
                   "(anyone who knows it can foresee the dice; --seed TEXT chooses another).")
    click.echo(f"{game.power_to_move()} moves first: `pbem orders template --game {directory}` writes a starting orders file.")


@click.command("status")
@game_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def status(game_dir: str, as_json: bool) -> None:
    """Round, whose turn, each power's treasury and income, and what is awaited."""
    from pbem.engine.economy import income as national_income

    game = _open(game_dir)
    state = game.state()
    power = game.power_to_move(state)
    submitted = game.submitted_orders(state) is not None
    rows = []
    for p in game.ruleset.powers:
        by_country = {c.name: {"treasury": state.treasury.get(c.name, 0),
                               "income": national_income(game.ruleset, game.rules.economy, state.control, c.name)}
                      for c in p.economies}
        row = {"power": p.name, "side": p.side, "treasury": sum(c["treasury"] for c in by_country.values()),
               "income": sum(c["income"] for c in by_country.values()), "player": game.config.players.get(p.name, "")}
        if p.countries:
            row["countries"] = by_country
        rows.append(row)
    from pbem.gateways.turns import missing_reveals

    missing = missing_reveals(game) if submitted and not state.winner else []
    awaiting = None if state.winner else {"power": power, "what": "reveals" if missing else "adjudication" if submitted else "orders",
                                          **({"from": missing} if missing else {})}
    data = {"game": game.config.game, "ruleset": game.ruleset.id, "round": state.round, "turn": power, "winner": state.winner,
            "awaiting": awaiting, "powers": rows}
    if state.winner:  # the turn that won: "round" and "turn" name the next, which is never played
        last = (state.turn_index - 1) % len(game.ruleset.powers)
        data["ended"] = {"round": state.round if state.turn_index > 0 else state.round - 1, "after": game.ruleset.powers[last].name}
    points = game.rules.victory.points
    if points is not None:  # a game won by victory points too (Pacific's Japan)
        data["victory_points"] = {"power": points.power, "to_win": points.to_win,
                                  "total": int(dict(state.pending.get("victory_points") or {}).get(points.power, 0))}
    tokens = game.rules.tokens
    if tokens is not None:  # victory tokens (AMS): who holds which, and the breakthroughs made
        held = dict(state.pending.get("tokens") or {})  # type: ignore[call-overload]
        data["victory_tokens"] = {"at_least": tokens.at_least, "lead": tokens.lead,
                                  "held": {side: sorted(n for n, s in held.items() if s == side) for side in sorted(game.ruleset.sides)}}
    if game.rules.capitals.no_income_without_capital:  # income that will not be collected (1940's France, Paris taken)
        lost = game.capitals_lost(state)
        if lost:
            data["capital_lost"] = lost
    held_since = state.pending.get("victory_held")
    if held_since and game.rules.victory.held_for_a_round:  # 1940: a condition held, to be held a complete round
        data["victory_held"] = dict(held_since)  # type: ignore[call-overload]
    if state.developments:
        data["developments"] = {p: sorted(d) for p, d in sorted(state.developments.items())}
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    from pbem.engine.words import possessive

    before_first = " (before the first turn: the cash advance, buying and placing only)" if state.round == 0 else ""
    if state.winner:
        ended = data["ended"]
        click.echo(f"{game.config.game}: {game.ruleset.name}, ended in round {ended['round']} with {possessive(ended['after'])} turn")
        click.echo(f"The game is over: the {state.winner} won.")
    else:
        click.echo(f"{game.config.game}: {game.ruleset.name}, round {state.round}{before_first}")
        from pbem.game.layout import orders_path
        from pbem.gateways.turns import idle

        awaiting = (f"dice reveals from {', '.join(missing)} (each runs `pbem ack`), then adjudication" if missing
                    else "adjudication (`pbem adjudicate`)" if submitted
                    else f"`pbem adjudicate`, which passes its turn: {power} has nothing to order" if idle(game)
                    else f"orders from {power} ({orders_path(state, game.ruleset)})")
        click.echo(f"{power} to move; awaiting {awaiting}")
    click.echo(f"{'power':<16}{'side':<8}{'treasury':>9}{'income':>8}  player")
    for r in rows:
        click.echo(f"{r['power']:<16}{r['side']:<8}{r['treasury']:>9}{r['income']:>8}  {r['player']}")
        for country, c in r.get("countries", {}).items():  # a power of several countries
            click.echo(f"{'  ' + country:<16}{'':<8}{c['treasury']:>9}{c['income']:>8}")
    for country, capital in data.get("capital_lost", {}).items():
        shown = next((c["income"] for r in rows for name, c in r.get("countries", {}).items() if name == country),
                     next((r["income"] for r in rows if r["power"] == country), 0))
        click.echo(f"{possessive(country)} income of {shown} is not collected while its capital, {capital}, is in enemy hands")
    if "victory_points" in data:
        vp = data["victory_points"]
        click.echo(f"{vp['power']}: {vp['total']} of the {vp['to_win']} victory points that win")
    if "victory_held" in data:
        vh = data["victory_held"]
        click.echo(f"The {vh['side']} hold their victory condition since {vh['power']}'s turn in round {vh['round']}: they win "
                   f"if they still hold it at the end of every turn until {vh['power']}'s turn in round {vh['round'] + 1} ends")
    if "victory_tokens" in data:
        vt = data["victory_tokens"]
        click.echo(f"Victory tokens ({vt['at_least']} and {vt['lead']} more than the other side win):")
        for side, names in vt["held"].items():
            click.echo(f"  {side}: {len(names)}" + (f" - {', '.join(names)}" if names else ""))
    names = getattr(game.rules.technology, "names", None) or {}
    for p, made in data.get("developments", {}).items():
        click.echo(f"{p} has developed: {', '.join(names.get(d, d.replace('_', ' ')) for d in made)}")


#: `pbem validate` exit codes, as schemas/validate.schema.json documents them
EXIT_REFUSED, EXIT_NO_GAME, EXIT_NO_FILE = 2, 3, 4


@click.command("validate")
@click.argument("file", type=click.Path())  # a folder is "file unreadable" (exit 4), in JSON too
@game_option
@click.option("--json", "as_json", is_flag=True,
              help="Print the outcome as JSON (schemas/validate.schema.json), failures included. "
                   "Exit codes: 0 valid, 2 refused, 3 no such game, 4 file unreadable.")
@user_errors
def validate(file: str, game_dir: str, as_json: bool) -> None:
    """Check an orders file against the game, changing nothing; shows the odds of each battle."""
    from pbem.engine.orders import StandingOrders
    from pbem.engine.problems import ProblemsError
    from pbem.game.game import GameError
    from pbem.game.repo import RepoError

    def fail(kind: str, message: str, code: int) -> None:
        if not as_json:
            click.echo(f"error: {message}", err=True)
            sys.exit(code)
        click.echo(json.dumps({"valid": False, "error": {"kind": kind, "message": message, "exit_code": code}}, indent=2))
        sys.exit(code)

    try:
        game = _open(game_dir)
    except (GameError, RepoError, OSError) as err:
        return fail("no-game", str(err), EXIT_NO_GAME)
    from pbem.io.yamlfile import read_user_file

    try:
        text = read_user_file(file)
    except OSError as err:
        return fail("no-file", f"cannot read {file}: {err.strerror or err}", EXIT_NO_FILE)
    except ProblemsError as err:
        if not as_json:
            raise
        p = err.problems[0]
        click.echo(json.dumps({"valid": False, "problem_count": 1, "problems": [{"file": p.file, "line": p.line, "column": p.column, "kind": p.kind,
                                                                                "message": p.message, "rule": p.rule, "hint": p.hint, "code": p.code}]}, indent=2))
        sys.exit(EXIT_REFUSED)
    try:
        parsed, result = game.check(text, file)
    except ProblemsError as err:
        if not as_json:
            raise
        problems = [{"file": p.file, "line": p.line, "column": p.column, "kind": p.kind, "message": p.message,
                     "rule": p.rule, "hint": p.hint, "code": p.code} for p in err.problems]
        from pbem.engine.problems import problem_count

        click.echo(json.dumps({"valid": False, "problem_count": problem_count(err.problems), "problems": problems}, indent=2))
        sys.exit(EXIT_REFUSED)
    except GameError as err:
        return fail("refused", str(err), EXIT_REFUSED)
    from pbem.game.preview import odds_preview

    preview = odds_preview(game, result) if result is not None else []
    warnings = list(result.warnings) if result is not None else []
    if as_json:
        kind = "standing_orders" if isinstance(parsed, StandingOrders) else "orders"
        click.echo(json.dumps({"valid": True, "power": parsed.power, "kind": kind, "battles": preview,
                               "warnings": [{"file": w.file, "line": w.line, "column": w.column, "message": w.message,
                                             "rule": w.rule, "hint": w.hint, "code": w.code} for w in warnings]}, indent=2))
        return
    click.echo(f"{file}: valid {'standing orders' if isinstance(parsed, StandingOrders) else 'orders'} for {parsed.power}.")
    for w in warnings:
        click.echo(w.format(), err=True)
    if preview:
        from pbem.gateways.turns import preview_text

        click.echo(preview_text(preview))


@click.command("submit")
@click.argument("file", type=click.Path(dir_okay=False))
@game_option
@user_errors
def submit(file: str, game_dir: str) -> None:
    """Validate an orders (or standing orders) file, then commit it to the game."""
    from pbem.engine.orders import StandingOrders
    from pbem.game.game import orders_path, possessive, standing_path

    game = _open(game_dir)
    from pbem.io.yamlfile import read_user_file

    before = game.repo.head()
    sha, parsed, result = game.commit_orders(read_user_file(file), file)
    for w in (result.warnings if result is not None else []):  # accepted, with what `pbem validate` would warn of
        click.echo(w.format(), err=True)
    path = standing_path(parsed.power) if isinstance(parsed, StandingOrders) else orders_path(game.state(), game.ruleset)
    what = "standing orders" if isinstance(parsed, StandingOrders) else f"orders for round {game.state().round}"
    if sha == before:
        click.echo(f"{file} is identical to {possessive(parsed.power)} {what} already submitted ({path}): nothing changed.")
        return
    earlier = game.repo.read(path, f"{sha}^")
    click.echo(f"Submitted {file} as commit {sha[:10]}"
               + (f"; it replaces {possessive(parsed.power)} {what} submitted earlier." if earlier is not None else "."))


@click.command("adjudicate")
@game_option
@click.option("--deadline-passed", is_flag=True, help="Opponents who have not revealed their dice link get the public stand-in (docs/dice.md).")
@click.option("--format", "fmt", type=click.Choice(["md", "bbcode", "html", "text", "json", "none"]), default="text", show_default=True,
              help="Print the turn report in this format.")
@user_errors
def adjudicate(game_dir: str, fmt: str, deadline_passed: bool) -> None:
    """Resolve the submitted turn with the committed dice; commit the new state and report.  Then
    the turns of powers with nothing to order (no unit, nothing they may buy) pass on their own."""
    game = _open(game_dir)
    passed = game.pass_idle_turns()  # a game left waiting for such a power
    if passed and game.submitted_orders(game.state()) is None:
        _tell_passed(passed)
        return
    sha, report = game.adjudicate(deadline_passed=deadline_passed)
    if fmt != "none":
        from pbem.report.render import render_report

        if fmt == "html":
            report = _with_inline_map(game, report, sha)
        click.echo(ends_line(render_report(report, fmt)), nl=False)
    click.echo(f"Adjudicated as commit {sha[:10]}.", err=True)
    _tell_passed(passed + game.pass_idle_turns())


def _tell_passed(passed: list[tuple[str, dict[str, Any]]]) -> None:
    for sha, report in passed:
        click.echo(f"Round {report['round']}: {report['power']} has nothing to order; its turn passed as commit {sha[:10]} "
                   f"(`pbem report --round {report['round']} --power \"{report['power']}\"`).", err=True)


@click.command("report")
@game_option
@click.option("--round", "round_", type=int, default=None, help="Round (default: the last adjudicated).")
@click.option("--power", default=None, help="Power (default: the last adjudicated in that round).")
@click.option("--format", "fmt", type=click.Choice(["md", "bbcode", "html", "text", "json"]), default="text", show_default=True,
              help="md for a git forge, bbcode for a forum, html for email, text for a terminal, json for programs.")
@click.option("--templates", type=click.Path(file_okay=False), default=None, help="Your own templates directory.")
@user_errors
def report(game_dir: str, round_: int | None, power: str | None, fmt: str, templates: str | None) -> None:
    """Show a turn report."""
    from pbem.game.game import GameError
    from pbem.report.render import render_report

    game = _open(game_dir)
    paths = sorted(p for p in game.repo.list("reports") if p.endswith(".json"))
    if round_ is not None:
        paths = [p for p in paths if f"/round-{round_:02d}/" in p]
    if power is not None:
        want = game.ruleset.power(power).name
        from pbem.game.game import slug

        paths = [p for p in paths if p.endswith(f"-{slug(want)}.json")]
    if not paths:
        raise GameError("no report matches: nothing has been adjudicated yet" if round_ is None and power is None else "no report for that round and power")
    data = json.loads(game.repo.read(paths[-1]) or b"{}")
    if fmt == "html":
        data = _with_inline_map(game, data, None, folder=paths[-1].rsplit("/", 1)[0])
    click.echo(ends_line(render_report(data, fmt, templates_dir=Path(templates) if templates else None)), nl=False)


def _with_inline_map(game: Any, report: dict[str, Any], ref: str | None, folder: str | None = None) -> dict[str, Any]:
    """The report with its map's SVG inside: an HTML report is one file that survives being saved,
    mailed or posted, never a page pointing at an SVG file beside it."""
    board = report.get("map")
    if not board or board.get("svg") or not board.get("href"):
        return report
    if folder is None:
        folder = f"reports/round-{report['round']:02d}"
    svg = game.repo.read(f"{folder}/{board['href']}", ref)
    if svg is None:
        return report
    return dict(report, map=dict(board, svg=svg.decode("utf-8")))


@click.command("log")
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print the turns as JSON: commit, round, power, phase, subject.")
@user_errors
def log(game_dir: str, as_json: bool) -> None:
    """The game's history as turns."""
    game = _open(game_dir)
    rows = []
    for c in game.repo.history():
        rows.append({"commit": c.sha[:10], "round": c.trailers.get("Round"), "power": c.trailers.get("Power"),
                     "phase": c.trailers.get("Phase"), "subject": c.subject})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(f"{r['commit']}  round {r['round'] or '-':>2}  {r['phase'] or '-':<16} {r['power'] or '':<16} {r['subject']}")


@click.command("show")
@game_option
@click.option("--at", "ref", default=None, help="A commit, tag or branch (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
@user_errors
def show(game_dir: str, ref: str | None, as_json: bool) -> None:
    """The state at any point of history."""
    game = _open(game_dir)
    if as_json:
        from pbem.io.state import state_to_data

        click.echo(json.dumps(state_to_data(game.state(ref), game.ruleset), indent=2))
    else:
        click.echo(game.state_text(ref).decode(), nl=False)


@click.command("ack")
@game_option
@click.option("--power", required=True, help="Your power.")
@click.option("--init", "init", is_flag=True, help="Create your power's dice chain and publish its anchor (once per game).")
@click.option("--key-dir", type=click.Path(file_okay=False), default=None, help="Where your secret is kept (outside the game).")
@user_errors
def ack(game_dir: str, power: str, init: bool, key_dir: str | None) -> None:
    """Reveal your dice link for the turn whose orders are in (games with `--reveal opponents`)."""
    from pbem.game.reveal import register, reveal

    game = _open(game_dir)
    if game.config.dice.get("reveal") != "opponents":
        from pbem.game.game import GameError

        raise GameError("this game's dice are the adjudicator's alone (created without --reveal opponents): nothing to acknowledge")
    kd = Path(key_dir) if key_dir else None
    sha = register(game, power, kd) if init else reveal(game, power, kd)
    click.echo(f"{'Published the dice chain' if init else 'Revealed the dice link'} of {game.ruleset.power(power).name} as commit {sha[:10]}.")
