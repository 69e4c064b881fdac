"""What every gateway does with a game: take orders, adjudicate ready turns, tell the players.

Mail, git hooks, CI and the deadline tick all arrive here, so a game behaves the same whichever
way a player reaches it.  Commits made through a gateway carry extra trailers saying how the
orders came (`Pbem-Via: mail`, `Pbem-Mail-Message-Id: ...`), which makes a re-delivered message
recognisable and the history explain itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from pbem.engine.orders import StandingOrders
from pbem.engine.words import possessive
from pbem.game.game import Game


@dataclass(frozen=True)
class Submission:
    sha: str
    power: str
    standing: bool
    round: int
    preview: tuple[Mapping[str, Any], ...]
    warnings: tuple[str, ...] = ()  # accepted, with something the player should read (file:line:col: ...), as `pbem validate` tells
    unchanged: bool = False  # the very file already submitted: nothing was committed (`sha` is the game's head)


@dataclass(frozen=True)
class Adjudicated:
    sha: str
    round: int
    power: str
    report: Mapping[str, Any]


def submit_orders(game: Game, text: bytes, filename: str, trailers: Mapping[str, str],
                  allowed_powers: list[str] | None = None) -> Submission:
    """Validate and commit orders (or standing orders) like `pbem submit`, with the gateway's trailers.

    With `allowed_powers`, orders for any other power are refused before anything is written.
    Raises ProblemsError (located problems) or GameError; nothing is committed then.
    """
    from pbem.game.preview import odds_preview

    before = game.repo.head()
    sha, parsed, result = game.commit_orders(text, filename, trailers, allowed_powers)
    state = game.state()  # submitting changes no state: the round is the one the orders are for
    preview = tuple(odds_preview(game, result)) if result is not None else ()
    warnings = tuple(w.format() for w in result.warnings) if result is not None else ()
    return Submission(sha, parsed.power, isinstance(parsed, StandingOrders), state.round, preview, warnings, unchanged=sha == before)


def ready(game: Game) -> bool:
    """The power to move has orders in and the game is not over."""
    state = game.state()
    return not state.winner and game.submitted_orders(state) is not None


def idle(game: Game) -> bool:
    """The power to move has nothing to order (pbem.engine.idle): its turn passes on its own."""
    from pbem.engine.idle import nothing_to_order

    return nothing_to_order(game.ruleset, game.rules, game.state(), game.config.options) is not None


def missing_reveals(game: Game) -> list[str]:
    """The opponents whose dice reveal the turn still waits for (games with opponents' reveals)."""
    if game.config.dice.get("reveal") != "opponents":
        return []
    from pbem.game.reveal import revealed_for_turn

    state = game.state()
    return sorted(p for p, link in revealed_for_turn(game, state.round, game.power_to_move(state)).items() if link is None)


def waiting_for(game: Game) -> str:
    """What the game waits for, in words: the mover's orders, or the opponents' dice reveals."""
    state = game.state()
    mover = game.power_to_move(state)
    if game.submitted_orders(state) is None:
        return f"{possessive(mover)} orders"
    missing = missing_reveals(game)
    return (f"dice reveals from {', '.join(missing)} (`pbem ack`) for {possessive(mover)} turn" if missing
            else f"the adjudication of {possessive(mover)} turn")


def adjudicate_ready(game_path: Any, *, limit: int = 64, notes: list[str] | None = None,
                     deadline_passed: bool = False) -> list[Adjudicated]:
    """Adjudicate for as long as the power to move has submitted orders (normally once), and with
    opponents' reveals, every reveal is in or the deadline has passed (stand-ins replace them).

    Turns of powers with nothing to order pass on their own (Game.pass_idle_turns), each one
    adjudicated and returned like the others.
    `notes` (e.g. a missed deadline) go into the first report and its commit, where the audit finds them."""
    done: list[Adjudicated] = []
    noted = False
    for _ in range(limit):
        game = Game(game_path)
        for sha, report in game.pass_idle_turns():
            done.append(Adjudicated(sha, int(report["round"]), str(report["power"]), report))
        if not ready(game) or (missing_reveals(game) and not deadline_passed):
            break
        state = game.state()
        sha, report = game.adjudicate(notes=[] if noted else list(notes or []), deadline_passed=deadline_passed)
        noted = True
        done.append(Adjudicated(sha, state.round, game.power_to_move(state), report))
    return done


def preview_text(preview: tuple[Mapping[str, Any], ...] | list[Mapping[str, Any]]) -> str:
    """The battle-odds preview as plain lines, as `pbem validate` shows it (its retreats, and whether
    the figures are simulated, included)."""
    from pbem.report.render import odds_phrase

    lines = []
    for b in preview:
        o = b.get("odds")
        if o is None:
            lines.append(f"  battle in {b['space']}: odds not available")
            continue
        lines.append(f"  battle in {b['space']}: {odds_phrase(o, b.get('kind') or 'land')}")
    return "\n".join(lines)


def report_message(game: Game, adjudicated: Adjudicated, sender: str, recipients: list[str],
                   notes: list[str] | None = None) -> EmailMessage:
    """The turn report for every player: HTML (with the map inline, by Content-ID) and a plain-text alternative."""
    from pbem.gateways.hosting import hosting_of
    from pbem.gateways.mapimage import map_image
    from pbem.report.render import render_email

    data = dict(adjudicated.report)
    site_url = hosting_of(game).site_url
    if site_url:
        from pbem.gateways.site import turn_page

        page = turn_page(int(data["round"]), game.ruleset.turn_order.index(data["power"]), data["power"])
        notes = [*(notes or []), f"This turn on the game's site: {site_url}/{page}"]
    if notes:
        data["notes"] = list(data.get("notes") or []) + list(notes)
    picture = map_image(game, hosting_of(game).report_map)
    cid = None
    if picture is not None:
        # the map travels inside the message as a related part that the HTML shows by Content-ID:
        # a link to a file beside the report means nothing in a mailbox
        cid = make_msgid("map", domain=sender.rsplit("@", 1)[-1].strip("> ") or None)
        board = dict(data.get("map") or {})
        board.pop("svg", None)
        data["map"] = {**board, "href": f"cid:{cid[1:-1]}", "alt": board.get("alt") or "The board after this turn"}
    html, text = render_email(data)
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = f"[pbem {game.config.game}] Round {adjudicated.round}: {adjudicated.power} report"
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid("report", domain=sender.rsplit("@", 1)[-1].strip("> ") or None)
    # every mail of a game refers to one root id, so mail clients show the game as one thread
    root = game_thread_id(game, sender)
    msg["In-Reply-To"] = root
    msg["References"] = root
    # quoted-printable: SMTP servers refuse lines over 998 octets, and reports have long ones
    msg.set_content(text, cte="quoted-printable")
    msg.add_alternative(html, subtype="html", cte="quoted-printable")
    if picture is not None:
        name, data_bytes, mime = picture
        from pbem.game.game import slug

        # named after the game, round and power, not the same name every turn
        name = f"{slug(game.config.game)}-round-{int(adjudicated.round):02d}-{slug(adjudicated.power)}-map.{name.rsplit('.', 1)[-1]}"
        maintype, subtype = mime.split("/", 1)
        html_part = msg.get_payload()[1]
        html_part.add_related(data_bytes, maintype=maintype, subtype=subtype, cid=cid, filename=name,
                              disposition="inline")
    return msg


def game_thread_id(game: Game, sender: str) -> str:
    """The Message-ID every mail of a game refers to (In-Reply-To, References): stable for the
    game, never sent itself, so clients thread the game's reports and answers together."""
    import hashlib

    domain = sender.rsplit("@", 1)[-1].strip("> ") or "pbem.invalid"
    seed = f"{game.config.game}/{game.config.dice.get('anchor') or game.config.ruleset_hash}"
    return f"<pbem-game-{hashlib.sha256(seed.encode()).hexdigest()[:24]}@{domain}>"


def player_addresses(players: Mapping[str, str]) -> list[str]:
    """Each distinct player address once, in turn order."""
    seen: list[str] = []
    for email in players.values():
        if email and email.lower() not in (s.lower() for s in seen):
            seen.append(email)
    return seen
