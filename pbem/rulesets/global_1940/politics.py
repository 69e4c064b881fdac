"""1940 Global's political rules: who is at war at the start, and who may declare war when.

Source: the AMS guide's per-power political rules, which restate the box with E/P citations
(DIGEST §1.2 "Political rules and declarations of war"; the two uncited movement restrictions are
AMS house rules and are not here).  A declaration is made "at the beginning of the combat move
phase of any turn" (orders `declare_war:`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.rules import Neutrals, Politics
from pbem.rulesets.global_1940.special import CHINA_AREA

EUROPEAN_AXIS = frozenset({"Germany", "Italy"})
AXIS = frozenset({"Germany", "Italy", "Japan"})
# Political rules, US: "an Axis power captures any territory in North America" (TripleA
# conditionAttachment_Axis_Land_In_North_America lists Canada's territories; the United States'
# own are listed with them).
NORTH_AMERICA = ("British Columbia", "Alberta Saskatchewan Manitoba", "Ontario", "Quebec", "Newfoundland Labrador",
                 "New Brunswick Nova Scotia", "Western United States", "Central United States", "Eastern United States",
                 "Alaska", "Mexico", "Southeast Mexico", "Central America")
# The fact a Japanese declaration on the UK or ANZAC sets when neither had declared on Japan.
UNPROVOKED = "japan_unprovoked_war_on_uk_anzac"

# At war from the start: "Germany: at war with France, UK and ANZAC from the start"; "Italy: at war
# with France, UK and ANZAC from the start"; "Japan: at war with China from the start".
AT_WAR = frozenset(
    {frozenset({axis, ally}) for axis in EUROPEAN_AXIS for ally in ("France", "United Kingdom", "ANZAC")}
    | {frozenset({"Japan", "China"})}
)


def _axis_holds(control: Mapping[str, str], names: tuple[str, ...], axis_countries: frozenset[str]) -> bool:
    return any(control.get(t) in axis_countries for t in names)


def may_declare_war(options: Mapping[str, Any], power: str, target: str, *, round: int, at_war: frozenset[frozenset[str]],
                    control: Mapping[str, str], facts: frozenset[str],
                    present: Mapping[str, frozenset[str]] | None = None, phase: str = "combat_move") -> str | None:
    """None, or why `power` may not declare war on `target` now (`present`: space -> the powers with a
    unit there; `phase`: at the start of combat move, as every declaration, or at Collect Income)."""
    # "captures London", "captures any territory in North America": ever, not only while held (Politics.remembered_captures)
    london_taken = control.get("United Kingdom") in AXIS or "taken by Axis: United Kingdom" in facts
    america_taken = _axis_holds(control, NORTH_AMERICA, AXIS) or any(f"taken by Axis: {t}" in facts for t in NORTH_AMERICA)
    if target not in AXIS and power not in AXIS:
        return "only powers of opposing sides declare war; attacks on neutral countries are not played yet"
    if power == "United States":
        # US: "May not declare war until the Collect Income phase of its turn 3, unless an Axis power
        # declares war on it, an Axis power captures London, an Axis power captures any territory in
        # North America, or Japan makes an unprovoked DOW on UK/ANZAC": a declaration in its turn-3
        # orders is made at that phase (Turn.declare_wars), one in a later turn at its combat move.
        attacked = any(frozenset({power, axis}) in at_war for axis in AXIS)
        if round >= 4 or (round == 3 and phase == "collect_income") or attacked or london_taken \
                or america_taken or UNPROVOKED in facts:
            return None
        return "the United States may declare war from the Collect Income phase of its turn 3, " \
               "or sooner once an Axis power declares war on it, captures London or a territory in North America, or Japan makes an unprovoked declaration of war on the UK or ANZAC"
    if power == "Soviet Union" and target in EUROPEAN_AXIS:
        # USSR: "May not DOW on any European Axis power until turn 4, unless a European Axis power DOW
        # on it first or London is captured. May declare war on Japan on any turn."
        attacked = any(frozenset({power, axis}) in at_war for axis in EUROPEAN_AXIS)
        if round >= 4 or attacked or london_taken:
            return None
        return "the Soviet Union may not declare war on a European Axis power before its turn 4, unless one declares war on it first or London is captured"
    if power == "China" and target in EUROPEAN_AXIS:
        # China: "Cannot DOW against a European Axis power unless they do first or they move a unit into
        # any territory China is allowed to occupy" (P38): the Chinese territories, Kwangtung and Burma.
        if any(target in (present or {}).get(t, ()) for t in CHINA_AREA):
            return None
        return (f"China may declare war on a European Axis power only once it has declared war on China or moved a unit "
                f"into a territory China may occupy; no unit of {target} is in one")
    return None


def on_declare(options: Mapping[str, Any], power: str, target: str, *,
               at_war: frozenset[frozenset[str]]) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The wars a declaration brings with it, and the facts it sets."""
    commonwealth = {"United Kingdom", "ANZAC"}
    if power == "Japan" and target in commonwealth:
        # Japan: "A DOW on UK or ANZAC is a DOW on both"; "An unprovoked DOW on UK/ANZAC lets the US
        # declare war on any Axis power" (neither had declared on Japan: else they would be at war).
        other = next(iter(commonwealth - {target}))
        return ((("Japan", other),), (UNPROVOKED,))
    if target == "Japan" and power in commonwealth:
        # ANZAC: "May declare war on Japan on any turn, which means war between Japan and both UK and
        # ANZAC, and removes Japan's trigger for bringing the US in" (so too the UK's, by the rule above).
        other = next(iter(commonwealth - {power}))
        return (((other, "Japan"),), ())
    return ((), ())


ALLIES = frozenset({"Soviet Union", "United States", "China", "United Kingdom", "ANZAC", "France"})

# Neutral territories (E10, E11, E15; DIGEST §1.2): "A "friendly neutral" is a neutral territory that
# is either pro-axis or pro-allies. They can be moved into by one of the powers the neutral favors
# during the non-combat phase"; "Attacking an unfriendly neutral must be done during the combat phase";
# "Any attack by either side on a strict neutral will cause all other strict neutrals to become "pro"
# the other side"; "While a power is neutral, it cannot move land or air units into or through
# neutral territories".  The Dutch (UK, P34-35): the UK and ANZAC "may move land units into Dutch
# territories as a noncombat move to take them"; "Attacking the Dutch is a DOW against the UK": only a
# power at war with the UK attacks them (README.md).  Mongolia is a strict neutral with rules of its
# own (after_combat below).
NEUTRALS = Neutrals(
    taken_by_moving_in={"Pro-Allies Neutral": ALLIES, "Pro-Axis Neutral": AXIS,
                        "Netherlands": frozenset({"United Kingdom", "ANZAC"})},
    attackable_by={"Pro-Allies Neutral": AXIS, "Pro-Axis Neutral": ALLIES, "Strict Neutral": AXIS | ALLIES,
                   "Mongolia": AXIS | ALLIES},
    turn_when_attacked={"Strict Neutral": {"Axis": "Pro-Allies Neutral", "Allies": "Pro-Axis Neutral"}},
    only_powers_at_war=True,
    at_war_with_enemies_of={"Netherlands": "United Kingdom"},
    # No seed states it for powers at war; TripleA "Neutral Flyover Allowed": false.
    no_overflight=True,
)

# Mongolia (P39 and the Pacific 1940 FAQ, restated by the AMS guide): the Soviet territories beside it.
MONGOLIA = ("Olgiy", "Dzavhan", "Tsagaan Olom", "Central Mongolia", "Buyant-Uhaa", "Ulaanbaatar")
SOVIET_BESIDE_MONGOLIA = ("Timguska", "Yenisey", "Yakut S.S.R.", "Buryatia", "Amur")
# ... and every territory beside it, the Chinese ones Japan may hold too (P39: "if the USSR attacks Korea
# or any Japan-controlled territory bordering the Mongolian territories while Mongolia is still a strict
# neutral, then Mongolia will remain neutral and not ally itself with the USSR")
BESIDE_MONGOLIA = (*SOVIET_BESIDE_MONGOLIA, "Chahar", "Jehol", "Kansu", "Manchuria", "Suiyuyan")
MONGOLIA_STAYS_NEUTRAL = "Mongolia stays neutral: the Soviet Union attacked Japan beside it"


def moving_in_declares(options: Mapping[str, Any], power: str, *, entered: frozenset[str],
                       at_war: frozenset[frozenset[str]]) -> tuple[str, ...]:
    """China (P37): "Movement of Allied units into China is a DOW against Japan" (the UK, ANZAC and the
    United States may not enter China at peace at all: move_restriction)."""
    if power in ALLIES and power != "China" and frozenset({power, "Japan"}) not in at_war and entered & set(CHINA):
        return ("Japan",)
    return ()


def facts_after_combat(options: Mapping[str, Any], power: str, *, attacked: frozenset[str], control_at_start: Mapping[str, str],
                       control: Mapping[str, str]) -> tuple[str, ...]:
    """Mongolia (P39): the USSR's attack on Korea or a Japanese territory beside Mongolia, while
    Mongolia is still a strict neutral, keeps it neutral for good (MONGOLIA_STAYS_NEUTRAL)."""
    targets = attacked & {"Korea", *BESIDE_MONGOLIA}
    if (power == "Soviet Union" and any(control_at_start.get(t) == "Japan" for t in targets)
            and any(control_at_start.get(t) == "Mongolia" for t in MONGOLIA)):
        return (MONGOLIA_STAYS_NEUTRAL,)
    return ()


def after_combat(options: Mapping[str, Any], power: str, *, attacked: frozenset[str], control_at_start: Mapping[str, str],
                 control: Mapping[str, str], at_war: frozenset[frozenset[str]] = AT_WAR,
                 order: tuple[str, ...] = (), facts: frozenset[str] = frozenset()) -> tuple[tuple[str, str], ...]:
    """Mongolia (P39, FAQ): "If Japan attacks a Soviet territory adjacent to Mongolia, the unoccupied,
    non-pro-Axis Mongolian territories go to the USSR at the end of Japan's Conduct Combat and their
    units become Soviet"; "If Japan attacks Mongolia and, in the same turn, a Soviet territory adjacent
    to Mongolia, all other strict neutrals become pro-Allies"; "Mongolia never becomes pro-Axis unless
    the USSR attacks it" - an attack on it, as on any strict neutral, turns the other strict neutrals
    pro the other side (E11)."""
    changes: list[tuple[str, str]] = []
    mongolian = [t for t in MONGOLIA if control.get(t) == "Mongolia"]
    hit_mongolia = any(control_at_start.get(t) == "Mongolia" for t in attacked)
    if (power == "Japan" and MONGOLIA_STAYS_NEUTRAL not in facts
            and any(control_at_start.get(t) == "Soviet Union" for t in attacked & set(SOVIET_BESIDE_MONGOLIA))):
        changes += [(t, "Soviet Union") for t in mongolian]
    elif power == "Soviet Union" and hit_mongolia:
        changes += [(t, "Pro-Axis Neutral") for t in mongolian]
    if hit_mongolia:
        becomes = "Pro-Allies Neutral" if power in AXIS else "Pro-Axis Neutral"
        changes += [(t, becomes) for t, holder in sorted(control.items()) if holder == "Strict Neutral"]
    # Neutral Territories (E11): "When an unfriendly neutral is attacked, it is no longer neutral and
    # joins the other side, but a power on the other side does not get to control it until they occupy
    # the territory. The standing army ... if not wiped out ... will be represented with units of the
    # other side's powers" - the guide does not say whose: the first of that side in the order of play
    # that is at war with the attacker, for "A power cannot attack a territory controlled by or
    # containing units of a power for which it is not at war" (P14) would otherwise shut it to the
    # attacker and let its allies at peace walk in (the Soviet Union is at peace with the European Axis
    # when the game begins).
    joins = {"Pro-Axis Neutral": (AXIS, ALLIES), "Pro-Allies Neutral": (ALLIES, AXIS)}
    for t in sorted(attacked):
        holder = control_at_start.get(t)
        if holder in joins and control.get(t) == holder and power in joins[holder][1]:
            side = [p for p in order if p in joins[holder][0]] or sorted(joins[holder][0])  # `order`: the order of play
            army = next((p for p in side if frozenset({p, power}) in at_war), side[0])
            changes.append((t, holder, army))
    return tuple(changes)


POLITICS = Politics(at_war=AT_WAR, may_declare_war=may_declare_war, on_declare=on_declare, neutrals=NEUTRALS,
                    moving_in_declares=moving_in_declares, after_combat=after_combat, facts_after_combat=facts_after_combat,
                    remembered_captures=frozenset({"United Kingdom", *NORTH_AMERICA}))


# Political rules, what powers not at war may not do (DIGEST §1.2, P14, P37, the UK's and ANZAC's):
CHINA = ("Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kweichow", "Manchuria",
         "Shantung", "Shensi", "Sikang", "Suiyuyan", "Szechwan", "Tsinghai", "Yunnan")
# Japan "may not end the movement of its sea units within 2 sea zones of the US's mainland territories"
# while at peace with the United States (P37): the zones beside these territories and the zones beside
# those.  With Alaska as mainland this gives TripleA's list on the Pacific board (rulesAttachment Japanese,
# movementRestrictionTerritories: SZ 1, 2, 3, 8, 9, 10, 11, 12), which leaves out the Atlantic zones
# within 2 of the Eastern and Central US (SZ 89, 101, 102, 106); the rule's words win.
US_MAINLAND = ("Alaska", "Central United States", "Eastern United States", "Western United States")
# The Europe board's sea zones are numbered from 64 (the Pacific board's 1 to 63).
EUROPE_BOARD_FIRST_ZONE = 64
# The United States at peace with Germany and Italy "may end the movement of its sea units on the Europe
# board only in sea zones that are adjacent to US territories, except that US warships (not transports)
# may also move into SZ102" (P37).  TripleA closes a list of 13 zones instead (rulesAttachment Americans:
# SZ 65, 66, 85, 86, 88, 90, 103, 106, 107, 116, 117, 120, 122), leaving SZ 91 off Gibraltar, or SZ 102 for
# a transport, open; the rule's words win.
US_WARSHIPS_ALSO_IN = "SZ 102"


def _zone_number(space: str) -> int | None:
    return int(space[3:]) if space.startswith("SZ ") and space[3:].isdigit() else None


def near_the_us(board: Any) -> frozenset[str]:
    """The sea zones within 2 of the US mainland (US_MAINLAND)."""
    near = {n for t in US_MAINLAND for n in board.neighbours(t) if board.spaces[n].is_sea}
    return frozenset(near | {n for z in near for n in board.neighbours(z) if board.spaces[n].is_sea})


# "USSR: Starts as neutral power. P35. Neutral restrictions apply separately on each board. P36." The
# boards: TripleA's "Full pacific list" of territories (the XML's comment; the Europe board is every
# other one), less its ten "Border territories" on both boards (Evenkiyskiy, Urals, Novosibirsk,
# Himalayas, Kazakhstan, Timguska, India, Sikang, Tsinghai, Kansu), which are in neither list.
PACIFIC_BOARD = frozenset({
    "Alaska", "Aleutian Islands", "Amur", "Anhwe", "Borneo", "British Columbia", "Burma", "Buryatia",
    "Buyant-Uhaa", "Caroline Islands", "Celebes", "Central Mongolia", "Ceylon", "Chahar", "Dutch New Guinea",
    "Dzavhan", "Fiji", "Formosa", "French Indo China", "Gilbert Islands", "Guam", "Hainan", "Hawaiian Islands",
    "Hopei", "Hunan", "Iwo Jima", "Japan", "Java", "Jehol", "Johnston Island", "Kiangsi", "Kiangsu", "Korea",
    "Kwangsi", "Kwangtung", "Kweichow", "Line Islands", "Malaya", "Manchuria", "Marianas", "Marshall Islands",
    "Mexico", "Midway", "New Britain", "New Guinea", "New Hebrides", "New South Wales", "New Zealand",
    "Northern Territory", "Okinawa", "Olgiy", "Paulau Island", "Philippines", "Queensland", "Sakha", "Samoa",
    "Shan State", "Shantung", "Shensi", "Siam", "Siberia", "Solomon Islands", "South Australia",
    "Soviet Far East", "Suiyuyan", "Sumatra", "Szechwan", "Tsagaan Olom", "Ulaanbaatar", "Victoria",
    "Wake Island", "Western Australia", "Western United States", "Yakut S.S.R.", "Yenisey", "Yunnan",
})
BORDER = frozenset({"Evenkiyskiy", "Urals", "Novosibirsk", "Himalayas", "Kazakhstan", "Timguska", "India", "Sikang", "Tsinghai", "Kansu"})


def capture_country(options: Mapping[str, Any], power: str, space: Any, world: Any, *,
                    chosen: str | None = None) -> str | None:
    """UK Global (P34-35): "One power with two economies; track Pacific and Europe IPC separately";
    "Control, capture and liberation rules apply separately": a territory the United Kingdom takes
    that was no country's of its own goes to the economy of the board it lies on (the Pacific board:
    TripleA's list; the Chinese border territories count there, the Soviet ones with Europe)."""
    if power != "United Kingdom":
        return None
    pacific = space.name in PACIFIC_BOARD or (space.name in BORDER and space.original_owner == "China")
    return "UK Pacific" if pacific else "UK Europe"


def _at_war(world: Any, a: str, b: str) -> bool:
    return world.relation(a, b) == "war"


def move_restriction(options: Mapping[str, Any], power: str, *, units: list[Any], owners: frozenset[str], phase: str,
                     domain: str, path: tuple[str, ...], frm: str, world: Any) -> str | None:
    """Why `power` may not make this move while at peace with some power, or None."""
    end = path[-1] if path else frm
    if power in ("United States", "United Kingdom", "ANZAC") and not _at_war(world, power, "Japan"):
        # US: "not at war with Japan: may not move into or through China"; UK (and ANZAC): "Not at war
        # with Japan: may not move into or through China, air units included".
        entered = [s for s in path if s in CHINA]
        if entered:
            return f"{power} is not at war with Japan: its units may not move into or through China ({entered[0]})"
    if power == "United States" and domain == "sea" and world.is_sea(end):
        if not _at_war(world, power, "Japan") and any(
                world.control.get(t) == "Japan" for t in world.board.neighbours(end) if world.space(t).is_land):
            return "the United States is not at war with Japan: its ships may not end a move beside a Japanese territory"
        number = _zone_number(end)
        if (not (_at_war(world, power, "Germany") or _at_war(world, power, "Italy")) and number is not None
                and number >= EUROPE_BOARD_FIRST_ZONE
                and not any(world.control.get(t) == power for t in world.board.neighbours(end) if world.space(t).is_land)
                and not (end == US_WARSHIPS_ALSO_IN and not any(u.has("transport") for u in units))):
            why = (f"a transport may not end its move in {end}, open to warships only" if end == US_WARSHIPS_ALSO_IN
                   else f"{end} is beside none")
            return (f"the United States is not at war with Germany or Italy: its ships end moves on the Europe board only "
                    f"beside a US territory (or, warships, in {US_WARSHIPS_ALSO_IN}); {why}")
    if power == "Japan" and domain == "sea" and world.is_sea(end) and not _at_war(world, power, "United States") \
            and end in near_the_us(world.board):
        return f"Japan is not at war with the United States: its ships may not end a move within 2 sea zones of the US mainland ({end})"
    soviet = _soviet_board_neutrality(power, path, world)
    if soviet is not None:
        return soviet
    # P14: "When not at war, US may not move units into territories or onto ships belonging to another
    # power" - a power at war with no one keeps to its own territories (and sea zones).
    if not any(_at_war(world, power, p.name) for p in world.ruleset.powers if p.name != power):
        foreign = [s for s in path if world.space(s).is_land and world.control.get(s) is not None
                   and world.ruleset.power_name(world.control[s]) != power]
        if foreign:
            return f"{power} is at war with no one: its units may not move into another power's territory ({foreign[0]})"
    # "... and other powers may not move its units into US territories" (P14): nor into any territory
    # of a power at war with no one.
    for s in path:
        holder = world.control.get(s)
        owner = world.ruleset.power_name(holder) if holder is not None and world.space(s).is_land else None
        if (owner is not None and owner != power and owner in {p.name for p in world.ruleset.powers}
                and not any(_at_war(world, owner, p.name) for p in world.ruleset.powers if p.name != owner)):
            return f"{owner} is at war with no one: no other power's unit may move into its territory ({s})"
    return None


def _soviet_board_neutrality(power: str, path: tuple[str, ...], world: Any) -> str | None:
    """P36: the Soviet Union at war on one board only is still neutral on the other: there its units
    move into no territory of a power it is not at war with, nor into a neutral's, and no such power's
    unit into a Soviet one (P14, E15: "into or through").  A border territory is on both boards and
    stays open."""
    europe = _at_war(world, "Soviet Union", "Germany") or _at_war(world, "Soviet Union", "Italy")
    pacific = _at_war(world, "Soviet Union", "Japan")
    if europe == pacific:  # at war on both boards, or on neither (the rule for a power at war with no one)
        return None
    board, enemy = ("Pacific", "Japan") if europe else ("Europe", "Germany or Italy")
    powers = {p.name for p in world.ruleset.powers}
    for s in path:
        if not world.space(s).is_land or s in BORDER or (s in PACIFIC_BOARD) != (board == "Pacific"):
            continue
        holder = world.control.get(s)
        owner = world.ruleset.power_name(holder) if holder is not None else None
        if power == "Soviet Union" and holder is not None and owner not in powers:
            # a neutral's territory (E15: "While a power is neutral, it cannot move land or air units into
            # or through neutral territories")
            return (f"the Soviet Union is not at war with {enemy}: on the {board} board it is neutral, and its land and air "
                    f"units may not move into or through a neutral territory ({s})")
        if owner not in powers or owner == power or _at_war(world, "Soviet Union", owner if power == "Soviet Union" else power):
            continue  # war between the two is fought on any board
        if power == "Soviet Union":
            return (f"the Soviet Union is not at war with {enemy}: on the {board} board it is neutral, and its units may not "
                    f"move into another power's territory ({s})")
        if owner == "Soviet Union":
            return (f"the Soviet Union is not at war with {enemy}: on the {board} board it is neutral, and no other power's "
                    f"unit may move into its territory ({s})")
    return None
