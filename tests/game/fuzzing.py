"""What every random-orders test checks: orders that cannot be read are refused with a message;
orders that can are adjudicated with seeded dice, without a problem, and the state they leave
survives a round trip through its YAML."""

from __future__ import annotations

from typing import Any

from pbem.engine.problems import ProblemsError
from pbem.game.game import Game, GameError


def adjudicate_random_orders(game: Game, data: dict[str, Any], *, standing: bool = True) -> None:
    import yaml

    from pbem import dice
    from pbem.engine.turn import run_turn
    from pbem.io.state import dump_state, load_state

    text = yaml.safe_dump({"game": "fuzz", **data}, allow_unicode=True)
    try:
        parsed, _ = game.check(text.encode(), "fuzz.yaml")
    except (ProblemsError, GameError) as err:
        assert str(err)
        return
    result = run_turn(game.ruleset, game.rules, game.combat_rules, game.state(), parsed, game.standing_orders() if standing else {},
                      game.config.options, dice.SeededDice(dice.local_seed(text)))
    assert not result.problems
    assert load_state(dump_state(result.state, game.ruleset), game.ruleset) == result.state


class Vocabulary:
    """What random orders of one rule system are made of: its spaces (those near each power's units
    first), its units, and unit lists written both ways (a mapping, or "3 infantry")."""

    def __init__(self, ruleset_id: str, powers: tuple[str, ...]) -> None:
        from hypothesis import strategies as st

        from pbem.io.rulesets import load_ruleset

        self.ruleset = load_ruleset(ruleset_id)
        self.spaces = sorted(self.ruleset.board.spaces)
        self.mine = {p: sorted(s for s, by in self.ruleset.setup.units.items() if p in by) for p in powers}
        self.near = {p: sorted({n for s in spaces for n in self.ruleset.board.neighbours(s)} | set(spaces))
                     for p, spaces in self.mine.items()}
        self.unit_names = sorted(self.ruleset.units)
        self.units = st.one_of(
            st.dictionaries(st.sampled_from(self.unit_names), st.integers(min_value=0, max_value=12), max_size=3),
            st.builds(lambda n, u: f"{n} {u}", st.integers(min_value=0, max_value=20), st.sampled_from(self.unit_names)),
        )

    def space(self, power: str):  # type: ignore[no-untyped-def]
        from hypothesis import strategies as st

        return st.one_of(st.sampled_from(self.near[power]), st.sampled_from(self.spaces), st.text(max_size=12))
