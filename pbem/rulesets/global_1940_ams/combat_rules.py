"""The battle rules of 1940 Global with the AMS house rules: the box's (global-1940) with the guide's changes.

Bombing Raids (DIGEST §1.2): "any remaining bombers roll 1d6 to reflect the amount of damage done,
and, in addition strategic bombers may add +1 to their roll for each of the following: (i) if the
strategic bomber departed from an operational air base; and (ii) if the strategic bomber did not
encounter any enemy interceptors" - the box's +2 gives way to these two.  Every other battle rule
is the box's as the guide restates it (E/P pages).
"""

import dataclasses

from pbem.rulesets.global_1940.combat_rules import COMBAT_RULES as BOX

COMBAT_RULES = dataclasses.replace(
    BOX,
    sbr_damage_bonus=0,
    sbr_unintercepted_bonus=1,
    sbr_air_base_bonus=1,
    # "an operational air base": the guide's Air Base (22 IPCs), not its Air Strip (README.md, AMS.6)
    sbr_air_base="air base",
)
