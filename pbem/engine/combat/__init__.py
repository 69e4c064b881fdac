"""Battles: one implementation of the combat rules for the adjudicator and the odds calculator.

`fight` resolves a `Battle` with a dice source; `bombing_raid` resolves a strategic bombing raid;
`pbem.odds.battle_odds` walks the same step functions (`engine.Engine`) with exact probabilities.
"""

from pbem.engine.combat.fight import fight
from pbem.engine.combat.model import (
    Battle,
    BattleOutcome,
    Casualty,
    CasualtiesChosen,
    DiceGroup,
    DiceRolled,
    DiceSource,
    Force,
    Orders,
    RetreatCondition,
    Retreated,
    Sacrifice,
    Submerged,
)
from pbem.engine.combat.rules import CombatRules
from pbem.engine.combat.sbr import RaidOutcome, RocketOutcome, bombing_raid, rocket_strike

__all__ = [
    "Battle",
    "BattleOutcome",
    "Casualty",
    "CasualtiesChosen",
    "CombatRules",
    "DiceGroup",
    "DiceRolled",
    "DiceSource",
    "Force",
    "Orders",
    "RaidOutcome",
    "RocketOutcome",
    "RetreatCondition",
    "Retreated",
    "Sacrifice",
    "Submerged",
    "bombing_raid",
    "rocket_strike",
    "fight",
]
