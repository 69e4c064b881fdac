"""1940 Global with the AMS house rules (Ω3.1): the box's choices (`global_1940/rules.py`) with the
guide's changes, each a `dataclasses.replace` citing the guide.

Where each house rule lives: victory tokens and national objectives in `objectives.py`, the two
technology charts in `technology.py`, wolf packs and pill boxes in `special.py`, the two movement limits without war in `politics.py`, the facilities in
`units.yaml`, the set-up in `setup.yaml`; README.md answers the guide's ambiguities (DIGEST §5 AMS.1-24).
"""

from dataclasses import replace

from pbem.engine.rules import Airborne, VictoryCheck
from pbem.rulesets.global_1940.rules import RULES as BOX
from pbem.rulesets.global_1940_ams.objectives import OBJECTIVES, TOKENS
from pbem.rulesets.global_1940_ams.politics import move_restriction
from pbem.rulesets.global_1940_ams.special import air_battle_bonus, battle_boosts, free_units, movement_bonus, standing_keys, standing_problems
from pbem.rulesets.global_1940_ams.technology import TECHNOLOGY

RULES = replace(
    BOX,
    capitals=replace(
        BOX.capitals,
        # Capitols: "the plunder of that player's IPCs only the first time the capitol is taken.
        # Subsequent recapture of the same capitol results in the player's IPCs being destroyed."
        plunder_once=True,
        # Political Exile: "In the event that UK Europe loses control of London, Ottawa will become the
        # new capitol of UK Europe for the remainder of the game" (Ottawa: the map's city in Ontario).
        exile={"UK Europe": "Ontario"},
    ),
    # Convoy Disruption: the box's (dice of 3 or less count); the dice per unit are units.yaml's convoy_dice.
    # Production Facilities: "A player liberating his/her own territory may choose whether to downgrade
    # facilities there": it keeps their level (README.md).
    production=replace(BOX.production, own_recapture_downgrades=False),
    # Victory by tokens, "at end of any player's turn" (Ω3.1: "timing of check for victory").
    victory=VictoryCheck(kind="tokens", checked_after=None, capitals_not_won=frozenset(), points=None, held_for_a_round=False),
    objectives=OBJECTIVES,
    tokens=TOKENS,
    # "Research rolls are no longer used to develop breakthroughs, instead, nations are awarded
    # development rolls when they receive a victory token."
    technology=TECHNOLOGY,
    # Airborne Assault: "up to 2 infantry units positioned on each territory with an operational airstrip
    # may attack hostile territories up to 2 spaces away (and up to 3 spaces away if there is an
    # operational airbase) ... all airborne assaults must be supported by a ground attack and/or an
    # amphibious assault" (both an air strip and an air base are air_base facilities).
    airborne=Airborne(units=frozenset({"infantry"}), per_base=2, base_tag="air_base", reach=2, farther_from="air base",
                      needs_support=True),
    hooks=replace(BOX.hooks, battle_boosts=battle_boosts, move_restriction=move_restriction,
                 air_battle_bonus=air_battle_bonus, free_units=free_units, movement_bonus=movement_bonus,
                 standing_keys=standing_keys, standing_problems=standing_problems),
)
