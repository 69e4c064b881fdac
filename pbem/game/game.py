"""A game is a git repository: the use cases that compose files, the engine, the dice and reports.

Layout of a game repository:

    game.yaml                         settings: ruleset and its data hash, players, options, dice anchor
    state.yaml                        the state after the last adjudication
    README.md                         for the players
    standing/<power>.yaml             each power's standing orders (how it defends)
    orders/round-NN/<i>-<power>.yaml  the orders submitted for each power-turn
    reports/round-NN/<i>-<power>.md   the turn report (and .json, from which every format is made)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from pbem import __version__
from pbem.engine.model import GameState
from pbem.engine.orders import Orders, StandingOrders
from pbem.engine.problems import Problem, ProblemsError
from pbem.engine.words import possessive, units_text  # noqa: F401 (the gateways take possessive from here)
from pbem.engine.ruleset import Ruleset
from pbem.io.options import option_problem
from pbem.engine.turn import TurnResult, run_turn
from pbem.game.config import GameConfig, dump_config, read_config
from pbem.game.reportdata import build_report
from pbem.game.reveal import check_seals, encode, opponent_links, revealed_for_turn
from pbem.game.layout import GAME_FILE, STATE_FILE, GameError, orders_path, report_path, slug, standing_path
from pbem.io.rulesets import rules_for


class Game:
    """An open game repository."""

    def __init__(self, path: str | Path):
        from pbem.game.repo import GameRepo, RepoError

        self.path = Path(path)
        try:
            self.repo = GameRepo(self.path)
        except RepoError as err:
            raise GameError(f"{self.path} is not a pbem game: {err}") from None
        raw = self.repo.read(GAME_FILE)
        if raw is None:
            raise GameError(f"{self.path} has no {GAME_FILE}: not a pbem game (create one with `pbem new`)")
        self.config = read_config(raw)
        from pbem.engine.problems import Problem, ProblemsError
        from pbem.io.rulesets import load_ruleset

        def located(message: str, path: tuple[str, ...], code: str, hint: str = "") -> ProblemsError:
            """A hand edit of game.yaml, at its line: the file is `pbem new`'s, and git revert undoes the edit."""
            from pbem.io.yamlfile import load_yaml

            doc = load_yaml(raw, str(self.path / GAME_FILE), expect_mapping=True)
            return ProblemsError([doc.problem(Problem("invalid", message, path=path, code=code,
                                                      hint=hint or "game.yaml is written by `pbem new`; undo the hand edit with git revert"))])

        try:
            self.ruleset = load_ruleset(self.config.ruleset)
        except ProblemsError as err:
            raise located(err.problems[0].message, ("ruleset",), "game.ruleset", err.problems[0].hint or "") from None
        if self.ruleset.data_hash != self.config.ruleset_hash:
            raise GameError(
                f"the {self.ruleset.id} ruleset data changed since this game began (hash {self.ruleset.data_hash[:12]} "
                f"is not {self.config.ruleset_hash[:12]} recorded in game.yaml); use the pbem version the game was started with ({self.config.engine})"
            )
        wrong = option_problem(self.ruleset, self.config.options)
        if wrong:
            name = next((o for o in self.config.options if option_problem(self.ruleset, {o: self.config.options[o]})), None)
            raise located(wrong, ("options", name) if name else ("options",), "game.option")
        stranger = next((p for p in self.config.players if p not in self.ruleset.turn_order), None)
        if stranger is not None:
            raise located(f"unknown power {stranger!r} among the players; powers of {self.ruleset.id}: {', '.join(self.ruleset.turn_order)}",
                          ("players", stranger), "game.player")
        self.rules, self.combat_rules = rules_for(self.ruleset)

    # --- reading --------------------------------------------------------------------------------
    def state(self, ref: str | None = None) -> GameState:
        return self.parse_state(self.state_text(ref))

    def state_text(self, ref: str | None = None) -> bytes:
        raw = self.repo.read(STATE_FILE, ref)
        if raw is None:
            raise GameError(f"no {STATE_FILE} at {ref or 'HEAD'}")
        return raw

    def parse_state(self, raw: bytes) -> GameState:
        """The state in `raw` (a state.yaml's bytes): for a caller that also needs the bytes."""
        from pbem.io.state import load_state

        return load_state(raw, self.ruleset)

    def power_to_move(self, state: GameState | None = None) -> str:
        state = state or self.state()
        return self.ruleset.powers[state.turn_index].name

    def capitals_lost(self, state: GameState) -> dict[str, str]:
        """country -> its capital, for every country whose capital is in enemy hands: it collects no
        income and buys nothing where the rules say so (CapitalRules)."""
        from pbem.engine.world import World

        w = World(self.ruleset, self.rules, state)
        return {c.name: w.capital(c.name) for p in self.ruleset.powers for c in p.economies
                if w.capital(c.name) is not None and not w.capital_held(c.name)}

    def standing_orders(self, ref: str | None = None) -> dict[str, StandingOrders]:
        from pbem.io.orders import read_orders_text

        out: dict[str, StandingOrders] = {}
        found = self.repo.read_many([standing_path(p.name) for p in self.ruleset.powers], ref)  # one git call
        for p in self.ruleset.powers:
            raw = found[standing_path(p.name)]
            if raw is None:
                out[p.name] = StandingOrders(p.name)
                continue
            _, parsed = read_orders_text(raw, standing_path(p.name), self.ruleset)
            assert isinstance(parsed, StandingOrders)
            out[p.name] = parsed
        return out

    def submitted_orders(self, state: GameState | None = None, ref: str | None = None) -> bytes | None:
        state = state or self.state(ref)
        return self.repo.read(orders_path(state, self.ruleset), ref)

    # --- validating and submitting ------------------------------------------------------------
    def check(self, text: bytes | str, filename: str, ref: str | None = None) -> tuple[Orders | StandingOrders, TurnResult | None]:
        """Validate an orders or standing-orders file against the state at `ref` (default: the
        branch tip); ProblemsError if wrong, GameError if the file may not change now.  For standing
        orders the result is the state unchanged, with no turn played, and their warnings."""
        from pbem.io.orders import capped, locate, read_orders_text

        try:
            doc, parsed = read_orders_text(text, filename, self.ruleset)
        except ProblemsError as err:
            if err.partial is None:
                raise
            self._check_the_rest(err, text, filename, ref)
            raise
        state = self.state(ref)
        if state.winner:  # standing orders too: nothing is fought any more (the mail gateway says the same)
            raise GameError(f"the game is over: the {state.winner} won")
        self._check_not_sealed(parsed, state, ref)
        if isinstance(parsed, StandingOrders):
            written = doc.data.get("game") if isinstance(doc.data, dict) else None
            if written is not None and str(written) != self.config.game:  # as for orders: never another game's
                raise ProblemsError(locate([Problem("illegal", f"these standing orders are for game {str(written)!r}, this is {self.config.game!r}",
                                                    path=("game",), hint=f"game: {self.config.game}", code="orders.wrong-game")], doc, filename))
            return parsed, self._check_standing(parsed, state, doc, filename)
        if parsed.game and parsed.game != self.config.game:
            raise ProblemsError(locate([Problem("illegal", f"these orders are for game {parsed.game!r}, this is {self.config.game!r}", path=("game",), hint=f"game: {self.config.game}", code="orders.wrong-game")], doc, filename))
        result = run_turn(self.ruleset, self.rules, self.combat_rules, state, parsed, self.standing_orders(ref), self.config.options, None)
        if result.problems:
            raise ProblemsError(locate([self._turn_taken(p, parsed, state, ref) for p in capped(result.problems)], doc, filename))
        result.warnings[:] = locate(result.warnings, doc, filename)
        return parsed, result

    def _check_standing(self, parsed: StandingOrders, state: GameState, doc: Any, filename: str) -> TurnResult:
        """Standing orders: what a system's own keys hold that its rules cannot use (ProblemsError), and
        keys the game never reads (warnings)."""
        from pbem.engine.standing import scramble_bases_now, standing_problems, unread_standing_orders
        from pbem.engine.turn import TurnLog
        from pbem.io.orders import locate

        found = standing_problems(parsed, self.ruleset, self.rules, self.config.options)
        problems = [p for p in found if p.kind != "warning"]
        if problems:
            raise ProblemsError(locate(problems, doc, filename))
        warnings = [p for p in found if p.kind == "warning"]
        warnings += unread_standing_orders(parsed, self.ruleset, self.rules, self.combat_rules, self.config.options)
        warnings += scramble_bases_now(parsed, self.ruleset, self.rules, state.units)
        located = sorted(locate(warnings, doc, filename), key=lambda w: (w.line or 0, w.column or 0))
        return TurnResult(state, TurnLog(), [], located)

    def _turn_taken(self, problem: Problem, parsed: Orders, state: GameState, ref: str | None) -> Problem:
        """Orders of a power whose turn this round is over: say so, and whether it passed because
        the power had nothing to order (pass_idle_turns), which its player may not have seen."""
        from dataclasses import replace

        if problem.code != "turn.wrong-power" or parsed.power not in self.ruleset.turn_order:
            return problem
        index = self.ruleset.turn_order.index(parsed.power)
        if index >= state.turn_index:
            return problem
        taken = orders_path(replace(state, turn_index=index), self.ruleset)
        text = self.repo.read(taken, ref)
        if text is None:
            return problem
        if is_idle_orders(text, self.config.game, parsed.power, state.round):
            why = f"{possessive(parsed.power)} turn of round {state.round} passed without orders, as it had nothing to order ({taken})"
        else:
            why = f"{possessive(parsed.power)} orders for round {state.round} were adjudicated already ({taken})"
        return replace(problem, hint=f"{why}; write orders with power: {self.power_to_move(state)}")

    def _check_the_rest(self, err: ProblemsError, text: bytes | str, filename: str, ref: str | None) -> None:
        """Orders with wrong names: validate what could be read too, so every problem shows in one
        run; the problems found are added to `err`, in file order."""
        from pbem.io.orders import capped, locate
        from pbem.io.yamlfile import load_yaml

        partial = err.partial
        state = self.state(ref)
        if state.winner:
            return
        result = run_turn(self.ruleset, self.rules, self.combat_rules, state, partial.orders,  # type: ignore[attr-defined]
                          self.standing_orders(ref), self.config.options, None,
                          unread_moves=partial.dropped_into)  # type: ignore[attr-defined]
        more = locate(capped(result.problems), load_yaml(text, filename, expect_mapping=True), filename)
        known = {(p.line, p.column, p.message) for p in err.problems}
        err.problems = sorted([*err.problems, *(p for p in more if (p.line, p.column, p.message) not in known)],
                              key=lambda p: (p.line is None, p.line or 0, p.column or 0))
        err.args = ("\n".join(p.format() for p in err.problems),)

    def _check_not_sealed(self, parsed: Orders | StandingOrders, state: GameState, ref: str | None) -> None:
        """With opponents' reveals, the first reveal seals the turn's orders and every power's
        standing orders until the adjudication: changed afterwards, they could be tried against
        dice that are then known (issue: a defender re-choosing its order of loss)."""
        if self.config.dice.get("reveal") != "opponents" or state.winner:
            return

        mover = self.power_to_move(state)
        revealed = sorted(p for p, link in revealed_for_turn(self, state.round, mover, ref).items() if link)
        if not revealed:
            return
        if isinstance(parsed, StandingOrders):
            raise GameError(f"standing orders are sealed until {possessive(mover)} turn of round {state.round} is adjudicated: "
                            f"{', '.join(revealed)} revealed dice links for it; change {possessive(parsed.power)} standing orders after that")
        raise GameError(f"{possessive(mover)} orders for round {state.round} are locked: opponents have revealed their dice links")

    def submit(self, text: bytes, filename: str) -> str:
        """Validate, then commit the orders (or standing orders); the commit's sha."""
        return self.commit_orders(text, filename)[0]

    def commit_orders(self, text: bytes, filename: str, trailers: Mapping[str, str] | None = None,
                      allowed_powers: list[str] | None = None, subject: str | None = None
                      ) -> tuple[str, Orders | StandingOrders, TurnResult | None]:
        """`submit` for front ends: extra trailers (e.g. the gateway a file came by), and refusal of
        orders for a power the sender does not play, before anything is written; `subject`: the
        commit's subject in place of "Orders of POWER for round N".

        Checked and written as a compare-and-swap on the head that was checked: orders validated
        against a state that an adjudication has since replaced are checked again, never committed
        unchecked into the next turn."""
        from pbem.game.repo import ConcurrentUpdate

        for attempt in range(self.WRITE_ATTEMPTS):
            head = self.repo.head()
            parsed, result = self.check(text, filename, head)
            if allowed_powers is not None and parsed.power not in allowed_powers:
                raise GameError(f"you play {', '.join(allowed_powers) or 'no power'} in this game, not {parsed.power}")
            if isinstance(parsed, StandingOrders):
                path = standing_path(parsed.power)
                message = f"Standing orders of {parsed.power}"
                base = {"Power": parsed.power, "Phase": "standing-orders"}
            else:
                state = self.state(head)
                path = orders_path(state, self.ruleset)
                message = subject or f"Orders of {parsed.power} for round {state.round}"
                base = {"Round": str(state.round), "Power": parsed.power, "Phase": "orders"}
            if self.repo.read(path, head) == (text.encode("utf-8") if isinstance(text, str) else text):
                if self.repo.head() != head:  # the game moved on while it was checked: check again against the new state
                    if attempt + 1 == self.WRITE_ATTEMPTS:
                        raise GameError(f"the game kept changing while {filename} was checked ({self.WRITE_ATTEMPTS} attempts); "
                                        "nothing was written: try again in a moment")
                    continue
                return head, parsed, result  # the very file already submitted: no empty commit
            try:
                sha = self.repo.commit({path: text}, message, {**base, **dict(trailers or {})}, expected_head=head,
                                       sign=self.signs_commits())
            except ConcurrentUpdate:
                if attempt + 1 == self.WRITE_ATTEMPTS:
                    raise GameError(f"the game kept changing while {filename} was checked ({self.WRITE_ATTEMPTS} attempts); "
                                    "nothing was written: try again in a moment") from None
                continue
            return sha, parsed, result
        raise AssertionError("unreachable")

    # --- adjudicating -------------------------------------------------------------------------
    def dice_for_turn(self, state_text: bytes, orders_text: bytes, index: int,
                      extra_links: Mapping[str, str] | None = None) -> tuple[Any, dict[str, Any]]:
        """The turn's dice: the holder's link `index`, the state and orders hashes, opponents' links."""
        from pbem import dice

        state_hash = dice.sha256_hex(state_text)
        orders_hash = dice.sha256_hex(orders_text)
        extra = dict(extra_links or {})
        mode = self.config.dice["mode"]
        if mode == "local":
            seed_text = f"{self.config.dice.get('local_seed', self.config.game)}/{index}"
            link = dice.sha256_hex(seed_text.encode())
            source = dice.SeededDice(dice.turn_seed(link, state_hash, orders_hash, extra), mode=dice.MODE_LOCAL)
        else:
            from pbem.game.dicekeys import load_secret

            secret = load_secret(self.config.game, self.key_dir(), anchor=self.config.dice["anchor"], chain_length=self.config.dice["chain_length"])
            link = dice.link_at(secret, int(self.config.dice["chain_length"]), index)
            source = dice.SeededDice(dice.turn_seed(link, state_hash, orders_hash, extra), mode=dice.MODE_COMMITTED)
        return source, {"mode": mode, "link": link, "index": index, "state_hash": state_hash, "orders_hash": orders_hash,
                        "opponents": extra}

    def signs_commits(self) -> bool:
        """Whether a player's commits here (orders, standing orders, dice reveals) are signed: when
        this clone's own git config says `commit.gpgsign = true`, as the git-push guide has players
        set it, so a server that takes only signed commits accepts what `pbem submit`/`ack` made."""
        import subprocess

        found = subprocess.run(["git", "-C", str(self.path), "config", "--local", "--type=bool", "--get", "commit.gpgsign"],
                               capture_output=True, text=True)
        return found.returncode == 0 and found.stdout.strip() == "true"

    def key_dir(self) -> Path | None:
        """Where this machine keeps the game's dice secret, if `pbem new --key-dir` named a folder.

        Kept in the repository's local git config, which is never committed or pushed."""
        import subprocess

        found = subprocess.run(["git", "-C", str(self.path), "config", "--local", "--get", "pbem.keydir"],
                               capture_output=True, text=True)
        return Path(found.stdout.strip()) if found.returncode == 0 and found.stdout.strip() else None

    def adjudications(self, ref: str | None = None) -> int:
        return sum(1 for c in self.repo.history(ref) if c.trailers.get("Phase") == "adjudication")

    #: how often a write is retried when the branch moved between reading and writing
    WRITE_ATTEMPTS = 3

    def adjudicate(self, *, deadline_passed: bool = False, notes: Sequence[str] = ()) -> tuple[str, dict[str, Any]]:
        """Resolve the submitted turn and commit state, report and map.  `notes` (e.g. a missed
        deadline) go into the report and into a trailer, from which `pbem audit` restores them.

        Everything is read at one commit of the branch and written as a compare-and-swap on it: a
        standing order (or anything else) committed meanwhile makes the attempt start again from
        the new head, so nothing committed in between is overwritten or left out."""
        from pbem.game.repo import ConcurrentUpdate

        for attempt in range(self.WRITE_ATTEMPTS):
            head = self.repo.head()
            files, trailers, report, message = self._adjudication_at(head, deadline_passed, notes)
            try:
                sha = self.repo.commit(files, message, trailers, expected_head=head)
            except ConcurrentUpdate:
                if attempt + 1 == self.WRITE_ATTEMPTS:
                    raise GameError(f"the game kept changing while the turn was adjudicated ({self.WRITE_ATTEMPTS} attempts); "
                                    "nothing was written: try again in a moment") from None
                continue
            return sha, report
        raise AssertionError("unreachable")

    def pass_idle_turns(self, limit: int = 64) -> list[tuple[str, dict[str, Any]]]:
        """Pass, one after another, the turns of powers to move that have nothing to order
        (pbem.engine.idle): empty orders are committed for each (trailer `Idle`), then its turn is
        adjudicated with the reason as a note.  Such a turn rolls no die anyone could steer, so with
        opponents' reveals it does not wait for them: the public stand-ins are used.  Returns the
        (sha, report) of each turn passed."""
        from pbem.engine.idle import nothing_to_order

        passed: list[tuple[str, dict[str, Any]]] = []
        for _ in range(limit):
            state = self.state()
            if state.winner or self.submitted_orders(state) is not None:
                break
            reason = nothing_to_order(self.ruleset, self.rules, state, self.config.options)
            if reason is None:
                break
            power = self.power_to_move(state)
            self.commit_orders(idle_orders(self.config.game, power, state.round, reason), orders_path(state, self.ruleset),
                               {"Idle": "nothing to order"}, subject=f"Empty orders of {power} for round {state.round}: nothing to order")
            passed.append(self.adjudicate(deadline_passed=True, notes=[reason]))
        return passed

    def _adjudication_at(self, head: str, deadline_passed: bool, notes: Sequence[str]
                         ) -> tuple[dict[str, bytes | None], dict[str, str], dict[str, Any], str]:
        from pbem.io.orders import read_orders_text

        state = self.state(head)
        if state.winner:
            raise GameError(f"the game is over: the {state.winner} won")
        power = self.power_to_move(state)
        orders_text = self.submitted_orders(state, head)
        if orders_text is None:
            raise GameError(f"no orders from {power} for round {state.round} yet (expected {orders_path(state, self.ruleset)}); submit them with `pbem submit`")
        filename = orders_path(state, self.ruleset)
        _, orders = read_orders_text(orders_text, filename, self.ruleset)
        assert isinstance(orders, Orders)
        index = self.adjudications(head) + 1
        opponents = None
        if self.config.dice.get("reveal") == "opponents":
            from pbem import dice

            check_seals(self, state.round, power, head)
            opponents = opponent_links(self, state.round, power, dice.sha256_hex(orders_text), deadline_passed=deadline_passed, ref=head)
        dice_source, dice_info = self.dice_for_turn(self.state_text(head), orders_text, index, opponents.links if opponents else None)
        standing = self.standing_orders(head)
        result = run_turn(self.ruleset, self.rules, self.combat_rules, state, orders, standing, self.config.options, dice_source)
        if result.problems:
            from pbem.io.orders import locate

            raise ProblemsError(locate(result.problems, None, filename))
        report = build_report(self, state, result, dice_info, dice_source)
        report["notes"] = [*report["notes"], *notes]
        written, report = adjudication_files(self.ruleset, state, result.state, report)
        files: dict[str, bytes | None] = dict(written)
        trailers = {
            "Round": str(state.round),
            "Power": power,
            "Phase": "adjudication",
            "Dice-Mode": dice_info["mode"],
            "Dice-Index": str(index),
            "Dice-Link": dice_info["link"],
        }
        if notes:
            trailers["Note"] = " | ".join(n.replace("\n", " ") for n in notes)
        if opponents is not None:

            trailers["Dice-Opponents"] = encode(opponents) or "none"
        return files, trailers, report, f"Adjudicate round {state.round}: {power}"


def idle_orders(game_id: str, power: str, round_: int, reason: str) -> bytes:
    """The empty orders the game commits for a power with nothing to order (Game.pass_idle_turns)."""
    return f"# {reason}\ngame: {game_id}\npower: {power}\nround: {round_}\n".encode()


def is_idle_orders(text: bytes, game_id: str, power: str, round_: int) -> bool:
    """Whether `text` is what `idle_orders` writes, whatever the reason in its first line."""
    first = text.partition(b"\n")[0]
    return first.startswith(b"# ") and text == idle_orders(game_id, power, round_, first[2:].decode("utf-8", "replace"))


def board_svg(ruleset: Ruleset, state: GameState, report: Mapping[str, Any], title: str | None = None,
              geometry: Any = None) -> str | None:
    """The map after a turn, with its moves and battles; None for a ruleset without geometry."""
    from pbem.io.rulesets import ruleset_file
    from pbem.io.triplea_geometry import load_geometry
    from pbem.report.mapsvg import MapMove, render_map_svg, view_from_setup

    if geometry is None:
        path = ruleset_file(ruleset.id, "geometry.json")
        if not path.is_file():
            return None
        geometry = load_geometry(path)
    moves = [MapMove(m["power"], m["from"], m["to"], units_text(m["units"])) for m in report.get("moves", [])]
    view = view_from_setup(
        title or f"Round {report['round']}: after {possessive(report['power'])} turn",
        control=state.control, units=state.units, colours=ruleset.colours(),
        impassable=[s.name for s in ruleset.board.spaces.values() if s.impassable], moves=moves,
        battles=[b["space"] for b in report.get("battles", [])],
    )
    return render_map_svg(geometry, view)


def adjudication_files(ruleset: Ruleset, before: GameState, after: GameState, report: Mapping[str, Any], *,
                       validate: bool = True) -> tuple[dict[str, bytes], dict[str, Any]]:
    """The files one adjudication writes, and the report with its map; `pbem audit` compares the
    bytes, and need not check its report against the schema again (`validate=False`)."""
    import json

    from pbem.io.state import dump_state
    from pbem.report.render import render_report

    power = ruleset.powers[before.turn_index].name
    files: dict[str, bytes] = {}
    svg = board_svg(ruleset, after, report)
    if svg is not None:
        svg_path = report_path(before.round, before.turn_index, power, "svg")
        files[svg_path] = svg.encode()
        report = dict(report, map={"href": svg_path.rsplit("/", 1)[-1], "alt": f"The board after {possessive(power)} turn, round {before.round}"})
    if validate:
        _check_state(after, ruleset)
    return files | {
        STATE_FILE: dump_state(after, ruleset).encode(),
        report_path(before.round, before.turn_index, power, "md"): render_report(report, "md", validate=validate).encode(),
        report_path(before.round, before.turn_index, power, "json"): (json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode(),
    }, dict(report)


def _check_state(state: GameState, ruleset: Ruleset) -> None:
    """The state an adjudication commits must be one every later command can read: the process that
    writes it trusts it (`pbem.io.state._written`), any other checks it against the schema.  A state
    the schema refuses is a fault of pbem's, so the turn is not committed at all."""
    from pbem.io.schemas import check
    from pbem.io.state import state_to_data

    problems = check("state", state_to_data(state, ruleset))
    if problems:
        raise GameError("pbem would write a state file it cannot read back (a bug; nothing was committed): "
                           + "; ".join(f"{'/'.join(str(k) for k in p.path)}: {p.message}" for p in problems[:3]))


def new_game(path: str | Path, ruleset_id: str, players: Mapping[str, str], *, game_id: str | None = None,
             options: Mapping[str, Any] | None = None, dice_mode: str = "committed", local_seed: str | None = None,
             key_dir: Path | None = None, identity: tuple[str, str] | None = None, reveal: str = "holder",
             hosting: Mapping[str, Any] | None = None) -> Game:
    from pbem import dice
    from pbem.game.repo import DEFAULT_IDENTITY, GameRepo, Identity
    from pbem.io.rulesets import load_ruleset
    from pbem.io.state import dump_state, initial_state

    ruleset = load_ruleset(ruleset_id)
    path = Path(path)
    game_id = game_id or slug(path.resolve().name) or "game"
    wrong = option_problem(ruleset, options or {})
    if wrong:
        raise GameError(wrong)
    opts = {**ruleset.option_defaults(), **(options or {})}
    resolved_players: dict[str, str] = {}
    for name, email in players.items():
        if not re.fullmatch(r"[^@\s<>,;]+@[^@\s<>,;]+", email):
            raise GameError(f"the player of {name} is {email!r}, not an e-mail address: orders, reports and reminders "
                            "go to it (write POWER=EMAIL, e.g. Germany=anna@example.org)")
        try:
            resolved_players[ruleset.power(name).name] = email
        except KeyError:
            raise GameError(f"unknown power {name!r}; powers of {ruleset.id}: " + ", ".join(ruleset.turn_order)) from None
    dice_cfg: dict[str, Any] = {"mode": dice_mode, "algorithm": dice.ALGORITHM, "reveal": reveal}
    if reveal not in ("holder", "opponents"):
        raise GameError(f"unknown reveal mode {reveal!r}: holder or opponents")
    secret = None
    if dice_mode == "committed":
        from pbem.game.dicekeys import secret_from_env

        given = secret_from_env(game_id)
        secret = given[0] if given is not None else dice.new_secret()
        dice_cfg["chain_length"] = dice.DEFAULT_CHAIN_LENGTH
        dice_cfg["anchor"] = dice.anchor(secret, dice.DEFAULT_CHAIN_LENGTH)
    elif dice_mode == "local":
        dice_cfg["local_seed"] = local_seed or game_id
    else:
        raise GameError(f"unknown dice mode {dice_mode!r}: committed or local")
    ident = Identity(*identity) if identity else DEFAULT_IDENTITY
    config = GameConfig(game_id, ruleset.id, ruleset.data_hash, f"pbem {__version__}",
                        {p.name: resolved_players.get(p.name, "") for p in ruleset.powers}, opts, dice_cfg,
                        {"name": ident.name, "email": ident.email}, dict(hosting or {}))
    if secret is not None:
        from pbem.game.dicekeys import save_secret

        save_secret(game_id, secret, key_dir, game_repo=path, overwrite=False, anchor=dice_cfg["anchor"])
    state = initial_state(ruleset, opts, rules_for(ruleset)[0])
    files = {
        GAME_FILE: dump_config(config).encode(),
        STATE_FILE: dump_state(state, ruleset).encode(),
        "README.md": _players_readme(config, ruleset).encode(),
    }
    GameRepo.init(path, initial_files=files, message=f"New {ruleset.name} game {game_id}",
                  trailers={"Round": str(state.round), "Phase": "new"}, identity=ident)
    if secret is not None and key_dir is not None:
        import subprocess

        subprocess.run(["git", "-C", str(path), "config", "--local", "pbem.keydir", str(Path(key_dir).resolve())], check=True)
    return Game(path)


def _players_readme(config: GameConfig, ruleset: Ruleset) -> str:
    lines = [
        f"# {config.game}: {ruleset.name}",
        "",
        "This repository is a pbem game.  Every submission and adjudication is a commit.",
        "",
        "| power | player |",
        "|---|---|",
        *[f"| {p} | {e or '-'} |" for p, e in config.players.items()],
        "",
        "- `pbem status` shows whose turn it is; `pbem orders template > my-orders.yaml` starts your orders.",
        "- `pbem validate my-orders.yaml` checks them; `pbem submit my-orders.yaml` commits them.",
        "- `pbem adjudicate` resolves the turn; `pbem report` shows the last report; `pbem audit` replays everything.",
        "",
    ]
    return "\n".join(lines)
