"""The AMS guide's political rules beyond the box's (`global_1940/politics.py`): two movement limits
without a declaration of war, stated in "Global Political Situation and DOW Rules" with no citation
(DIGEST §3.3 item 11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rulesets.global_1940.politics import move_restriction as box_move_restriction

EUROPEAN_AXIS = ("Germany", "Italy")
# Japan: "When not at war with Russia, Japan may not move its units into any originally Russian
# territory controlled by European Axis."
# USSR: "When not at war with Japan, Russia may not move its units into any non-Russian Allied
# territory in Asia, other than Syria, Trans-Jordan, Iraq, Persia, Northwest Persia, and East Persia."
# Asia on this map: the Middle East and Central Asia, India and Burma, China, South-East Asia and its
# islands, Japan's islands off the mainland (the Soviet territories are Russian; the neutrals and
# Mongolia are no power's).
ASIA = frozenset({
    "Syria", "Trans-Jordan", "Iraq", "Persia", "Northwest Persia", "Eastern Persia", "Saudi Arabia", "Turkey", "Afghanistan",
    "West India", "India", "Ceylon", "Burma", "Shan State", "Himalayas", "Malaya", "Siam", "French Indo China", "Kwangtung",
    "Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kweichow", "Manchuria", "Shantung",
    "Shensi", "Sikang", "Suiyuyan", "Szechwan", "Tsinghai", "Yunnan", "Korea", "Hainan", "Formosa", "Sumatra", "Java", "Borneo",
    "Celebes", "Philippines",
})
RUSSIA_MAY_ENTER = frozenset({"Syria", "Trans-Jordan", "Iraq", "Persia", "Northwest Persia", "Eastern Persia"})


def _at_war(world: Any, a: str, b: str) -> bool:
    return bool(world.relation(a, b) == "war")


def move_restriction(options: Mapping[str, Any], power: str, **move: Any) -> str | None:
    """The box's limits, then the guide's two."""
    box = box_move_restriction(options, power, **move)
    if box is not None:
        return box
    world, path = move["world"], tuple(move["path"])
    if power == "Japan" and not _at_war(world, power, "Soviet Union"):
        for s in path:
            holder = world.control.get(s)
            if (world.space(s).is_land and world.space(s).original_owner == "Soviet Union" and holder is not None
                    and world.ruleset.power_name(holder) in EUROPEAN_AXIS):
                return (f"Japan is not at war with the Soviet Union: its units may not move into an originally Russian "
                        f"territory the European Axis hold ({s})")
    if power == "Soviet Union" and not _at_war(world, power, "Japan"):
        for s in path:
            holder = world.control.get(s)
            if (s in ASIA and s not in RUSSIA_MAY_ENTER and holder is not None and world.ruleset.power_name(holder) != power
                    and world.ruleset.power_name(holder) in {p.name for p in world.ruleset.powers}
                    and world.ruleset.side_of(holder) == world.ruleset.side_of(power)):
                return (f"the Soviet Union is not at war with Japan: its units may not move into an Allied territory in Asia "
                        f"({s}); only Syria, Trans-Jordan, Iraq, Persia, Northwest Persia and Eastern Persia are open")
    return None
