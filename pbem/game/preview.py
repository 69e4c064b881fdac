"""The battle-odds preview a player sees before submitting: each declared battle, exactly computed."""

from __future__ import annotations

from typing import Any

from pbem.engine.turn import TurnResult
from pbem.game.reportdata import battle_odds, odds_budget


def odds_preview(game: Any, result: TurnResult) -> list[dict[str, Any]]:
    """Odds under the attacker's directives and the defenders' standing orders as they stand now."""
    low_luck = bool(game.config.options.get("low_luck", False))
    budget = odds_budget(game)
    out = []
    for entry in result.log.battles:
        battle = entry["battle"]
        out.append({"space": battle.space, "kind": "amphibious" if entry.get("amphibious") else battle.kind,
                    "odds": battle_odds(battle, entry["attacker_orders"], entry["defender_orders"], low_luck, budget)})
    return out
