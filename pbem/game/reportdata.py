"""Turn log + battle outcomes -> the report data every format is rendered from (schemas/report.schema.json)."""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from pbem import __version__
from pbem.engine.battles import DEFAULT_DEFENCE
from pbem.engine.combat import model as cm
from pbem.engine.combat.rules import CombatRules
from pbem.engine.economy import income
from pbem.engine.model import GameState
from pbem.engine.rules import Rules
from pbem.engine.words import count_of, possessive
from pbem.engine.ruleset import Ruleset
from pbem.engine.turn import TurnResult
from pbem.game.layout import GameError
from pbem.game.config import GameConfig


class Game(Protocol):
    """What a report is made from besides the turn: the game's settings and rules.
    `pbem.game.game.Game` provides it and calls this module, never the reverse."""

    config: GameConfig
    ruleset: Ruleset
    rules: Rules
    combat_rules: CombatRules

REASON_TEXT = {
    "directive": {"attacker": "the order of loss in the battle directive", "defender": "the order of loss in the standing orders"},
    "default": {"attacker": "cheapest first (not in an order of loss)",
                "defender": "cheapest first (not in the standing orders' order of loss)"},
    "default: two-hit units first": "the first hit on a two-hit unit comes first: it sinks nothing",
    "default: one land unit kept": {"attacker": "one land unit is kept back to take the territory (hold_territory)",
                                    "defender": "one land unit is kept back to hold the territory"},
    "directive: one land unit kept": {"attacker": "the order of loss in the battle directive, one land unit kept back to take the territory",
                                      "defender": "the order of loss in the standing orders, one land unit kept back to hold the territory"},
    "rule: as many hits as possible must be assigned": "as many hits as possible must be assigned (General Combat)",
    "rule: transports chosen last": "transports are chosen last (Transports)",
    "rule: the units ranked ahead cannot be hit by these dice": "the units ranked ahead cannot be hit by these dice",
    "rule: each die is aimed at one aircraft": "each antiaircraft die is aimed at one aircraft (FAQ: antiaircraft fire is targeted)",
    "rule: each kamikaze strikes the ship chosen for it": "each kamikaze strikes the ship chosen for it (Kamikaze: a hit is applied to the chosen unit)",
    "defenceless transports": "rule: defenceless transports are destroyed (General Combat, step 5)",
    "aa alone": "rule: antiaircraft artillery alone is destroyed (General Combat, step 7)",
}


NO_STANDING_ORDERS = "cheapest first (no standing orders written)"


def units_phrase(units: Mapping[str, int]) -> str:
    """"1 bomber, 2 fighters": the units a roll was aimed at, as the report names them."""
    from pbem.report.render import units_text

    return units_text(units)


def _reason(reason: str, side: str) -> str:
    text = REASON_TEXT.get(reason, reason)
    return text[side] if isinstance(text, dict) else text


# CombatRules.submerge_timing -> before or after the round's dice, and what the report says
SUBMERGE_WHEN = {"instead_of_surprise_strike": ("start", "submerge order, before the round's dice"),
                 "instead_of_return_fire": ("end", "submerge order, instead of firing back"),
                 "at_press_or_retreat": ("end", "submerge order, after the round's fire")}

CHOSEN_BY = {
    "directive": "directive",
    "default": "default",
    "default: two-hit units first": "default",
    "default: one land unit kept": "default",
    "directive: one land unit kept": "directive",
    "rule: as many hits as possible must be assigned": "rule",
    "rule: transports chosen last": "rule",
    "rule: the units ranked ahead cannot be hit by these dice": "rule",
    "rule: each die is aimed at one aircraft": "rule",
    "rule: each kamikaze strikes the ship chosen for it": "rule",
    "defenceless transports": "rule",
    "aa alone": "rule",
}


def _forces(counts: Mapping[str, Mapping[str, int]], damaged: Mapping[str, Mapping[str, int]] | None = None) -> list[dict[str, Any]]:
    """Units per owner; `damaged`: two-hit units among them that carry a hit (1940: from an earlier
    battle; every system: at the end of one that does not repair them), so one more hit sinks them."""
    out = []
    for owner, units in sorted(counts.items()):
        if not units:
            continue
        hurt = {u: min(n, units.get(u, 0)) for u, n in sorted((damaged or {}).get(owner, {}).items()) if n and units.get(u, 0)}
        out.append({"power": owner, "units": dict(sorted(units.items())), **({"damaged": hurt} if hurt else {})})
    return out


def _force_counts(forces: tuple[cm.Force, ...]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for f in forces:
        out.setdefault(f.owner, {}).setdefault(f.unit, 0)
        out[f.owner][f.unit] += f.count
    return out


def _with_sacrificed(battle: cm.Battle, side: str) -> dict[str, dict[str, int]]:
    """A side's units before the battle: those on the strip and the units that strike once and are
    lost (Revised kaiten, kamikaze aircraft; not the kamikaze tokens of Pacific and 1940, Sacrifice.token)."""
    counts = _force_counts(battle.attackers if side == "attacker" else battle.defenders)
    for x in battle.sacrifices:
        if x.side == side and not x.token:
            mine = counts.setdefault(x.owner, {})
            mine[x.unit] = mine.get(x.unit, 0) + x.count
    return counts


def odds_budget(game: Any) -> int:
    """The work each battle's exact odds may take in this game (game.yaml hosting.odds_seconds)."""
    from pbem.game.config import odds_seconds
    from pbem.odds import REPORT_BUDGET, budget_for

    try:
        seconds = odds_seconds(game.config.hosting or {})
    except ValueError as err:
        raise GameError(f"game.yaml {err}") from None
    return REPORT_BUDGET if seconds is None else budget_for(seconds)


def battle_odds(battle: cm.Battle, att: cm.Orders, dfn: cm.Orders, low_luck: bool, budget: int) -> dict[str, float] | None:
    """The odds before the dice, from the same rules the adjudicator applies; None if not computable."""
    try:
        from pbem.odds import battle_odds as exact
    except ImportError:  # pragma: no cover - odds module absent
        return None
    from pbem.report.render import stored_odds

    odds = exact(battle, att, dfn, low_luck=low_luck, budget=budget)
    # Ten decimals (stored_odds): every command shows a figure from the same rounding, and a
    # reordering of the calculator's sums leaves committed reports as they are.
    out = {
        "attacker_win": stored_odds(odds.attacker_win),
        "defender_win": stored_odds(odds.defender_win),
        "draw": stored_odds(odds.draw),
        "retreat": stored_odds(odds.retreat),
        "stalemate": stored_odds(odds.stalemate),
        "capture": stored_odds(getattr(odds, "capture", 0.0) or 0.0),
    }
    if not odds.exact:  # past the odds' bound (pbem.odds.REPORT_BUDGET): sampled, and said so
        out.update(exact=False, confidence=stored_odds(odds.confidence or 0.0))
    return out


def _battle(entry: Mapping[str, Any], mover: str, low_luck: bool, held_by: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One battle of the report; `held_by`: who held each territory when the turn began (a capture is
    from the territory's holder, not from an ally whose units defended it)."""
    battle: cm.Battle = entry["battle"]
    outcome: cm.BattleOutcome = entry["outcome"]
    # units that strike once and are lost (Revised kaiten and kamikaze aircraft) are off the battle
    # strip, but they were there and they fought: their owners are sides of the battle
    sacrificing = {side: sorted({x.owner for x in battle.sacrifices if x.side == side}) for side in ("attacker", "defender")}
    defenders = sorted({f.owner for f in battle.defenders} | set(sacrificing["defender"]))
    rounds: dict[int, list[dict[str, Any]]] = {}
    casualties: dict[tuple[int, str], list[dict[str, Any]]] = {}
    guns: dict[str, int] = {}  # AA fires before round 1 only, so the guns at the start
    gunners: set[str] = set()
    for f in battle.defenders:
        if battle.profile(f.owner, f.unit).has("aa"):
            guns[f.unit] = guns.get(f.unit, 0) + f.count
            gunners.add(f.owner)
    unwritten = DEFAULT_DEFENCE in entry.get("defaults", [])  # the defender wrote no standing orders at all
    # whose standing orders chose, where allies defend together or a territory's entry replaced the default
    governed = entry.get("defence_orders")
    mixed = len({f.owner for f in battle.defenders}) > 1
    whose = ""
    if governed and (mixed or governed["space"]):
        whose = (f"{possessive(governed['power'])} standing orders"
                 + (f" for {governed['space']} (in place of their default)" if governed["space"] else "")
                 + (", which choose for every defender here" if mixed else ""))
    governed_text = {"directive": f"the order of loss in {whose}", "default": f"cheapest first: not in the order of loss of {whose}"}
    for ev in outcome.events:
        if isinstance(ev, cm.CasualtiesChosen):
            merged: dict[tuple[str, str, bool, str], int] = {}
            for c in ev.casualties:
                key = (c.owner, c.unit, c.effect == "damaged", c.reason)
                merged[key] = merged.get(key, 0) + 1
            casualties.setdefault((ev.round, ev.step), []).extend(
                {"power": o, "unit": u, "count": n, "damaged": d, "chosen_by": CHOSEN_BY.get(r, "rule"),
                 "reason": NO_STANDING_ORDERS if (r, ev.side) == ("default", "defender") and unwritten
                 else governed_text[r] if whose and ev.side == "defender" and r in governed_text else _reason(r, ev.side)}
                for (o, u, d, r), n in merged.items()
            )
    for ev in outcome.events:
        if isinstance(ev, cm.DiceRolled):
            power = mover if ev.side == "attacker" else (defenders[0] if defenders else mover)
            # Dice grouped by strength, as players roll them: "4 dice at 2" whatever units they are.
            by_value: dict[int, dict[str, Any]] = {}
            for g in ev.groups:
                if ev.low_luck and g.group.unit != cm.REMAINDER and not g.dice:
                    continue  # pooled: told in `low_luck` below
                row = by_value.setdefault(g.group.value, {"hit_on": g.group.value, "units": {}, "dice": [], "hits": 0})
                # units, not dice: a heavy bomber rolls two (DiceGroup.dice_each)
                row["units"][g.group.unit] = row["units"].get(g.group.unit, 0) + g.group.count // g.group.dice_each
                row["dice"].extend(g.dice)
                row["hits"] += g.hits
            if ev.step == "aa":  # dice per aircraft, not per gun: the row names the guns that fire
                for r in by_value.values():
                    r["units"] = guns
            groups = [dict(r, units=dict(sorted(r["units"].items()))) for _, r in sorted(by_value.items())]
            low_luck: dict[str, Any] | None = None
            if ev.low_luck:
                # Low Luck: the units' strength is pooled and makes sure hits; only remainders roll
                pooled = [g.group for g in ev.groups if g.group.unit != cm.REMAINDER and not g.dice]
                low_luck = {"units": [{"unit": g.unit, "count": g.count // g.dice_each, "value": g.value,
                                       **({"dice_each": g.dice_each} if g.dice_each > 1 else {})}
                                      for g in sorted(pooled, key=lambda g: (g.value, g.unit))],
                            "strength": sum(g.count * g.value for g in pooled), "sure_hits": ev.guaranteed_hits}
            step = ev.step if ev.step in ("aa", "bombard", "surprise-attacker", "surprise-defender", "sacrifice-attacker",
                                          "sacrifice-defender", "attacker", "defender", "parting-shot") else ev.side
            rolling = (sorted(gunners) if ev.step == "aa" and gunners  # AA: the guns' owners only
                       else sacrificing["defender"] if ev.step == "sacrifice-defender" else defenders)
            if ev.side == "defender":
                power = rolling[0] if rolling else power
            together = {"powers": rolling} if ev.side == "defender" and len(rolling) > 1 else {}
            taken = casualties.get((ev.round, ev.step), [])
            scored = sum(r["hits"] for r in groups) + (low_luck["sure_hits"] if low_luck else 0)
            # the units that struck are lost for it, whatever the dice (Revised, Kamikaze Attacks: "That air
            # unit automatically becomes an opening fire casualty"); a Pacific or 1940 token is no unit
            struck = [{"power": x.owner, "unit": x.unit, "count": x.count, "damaged": False, "chosen_by": "rule",
                       "reason": "a casualty the moment it attacks (Revised FAQ, Kamikaze and Kaiten)"} for x in battle.sacrifices
                      if ev.step == f"sacrifice-{x.side}" and not x.token]
            # hits with no unit to take them (submarines' dice when only air units are left): said,
            # or "2 hits" with no loss reads as a mistake
            # ... or more hits than units they may fall on (a fighter's die beside a cruiser's against a
            # lone submarine): "2 hits" and one loss would read as a mistake too
            used = sum(c["count"] for c in taken)
            unused = {"hits_unused": scored - used} if scored > used else {}
            rounds.setdefault(ev.round, []).append({"step": step, "side": ev.side, "power": power, **together, "groups": groups,
                                                    "casualties": [*struck, *taken], **unused,
                                                    **({"low_luck": low_luck} if low_luck is not None else {})})
    # Units removed by a rule with no dice (lone transports, antiaircraft guns left alone): shown
    # apart from the rounds, so "attacker won" is never the whole story of a battle without dice.
    rolled_steps = {(ev.round, ev.step) for ev in outcome.events if isinstance(ev, cm.DiceRolled)}
    removed = [dict(c, round=rnd) for (rnd, step), rows in sorted(casualties.items()) if (rnd, step) not in rolled_steps
               for c in rows]
    retreat = None
    ground: dict[str, int] = {}
    air: dict[str, int] = {}
    for by in outcome.retreated.values():
        for u, n in by.items():
            into = air if battle.units[u].domain == "air" else ground
            into[u] = into.get(u, 0) + n
    # Retreating air units stay where they fought and land in the noncombat move (General Combat,
    # step 6): they are not said to reach the land units' retreat space, where the report's
    # noncombat move would then seem to fly them a second time.
    aloft = f"; the air units ({units_phrase(air)}) leave the battle and land in the noncombat move" if air else ""
    # the round they left: an amphibious assault's overland units may go while the seaborne fight on
    left = next((ev.round for ev in outcome.events if isinstance(ev, cm.Retreated)), max(outcome.rounds, 1))
    if ground and outcome.retreated_to:
        retreat = {"round": left, "to": outcome.retreated_to, "units": dict(sorted(ground.items())),
                   "reason": "the attacker's retreat directive" + aloft}
    elif air:
        # no space to name: the aircraft leave the battle and fly on in the noncombat move (1942: they
        # retreat where they are; Europe, Pacific: to a friendly space within range, by that move)
        retreat = {"round": left, "to": None, "units": dict(sorted(air.items())),
                   "reason": "the attacker's retreat directive; the air units leave the battle and land in the noncombat move"}
    # each submerging where the battle's log has it: its round, and before or after that round's dice
    went: dict[tuple[int, bool, str, str, str], dict[str, int]] = {}
    for ev in outcome.events:
        if isinstance(ev, cm.Submerged):
            when, why = SUBMERGE_WHEN[ev.timing]
            for owner, unit, n in ev.units:
                by = went.setdefault((ev.round, when == "end", ev.side, owner, why), {})
                by[unit] = by.get(unit, 0) + n
    submerged = [{"round": rnd, "when": "end" if end else "start", "side": side, "power": owner,
                  "units": dict(sorted(by.items())), "reason": why}
                 for (rnd, end, side, owner, why), by in sorted(went.items())]
    for s in submerged:
        rounds.setdefault(s["round"], [])  # a round where subs only submerged, no die rolled, is told too
    # "none": both sides keep units that cannot hit each other (air units and submarines alone)
    result = {"attacker": "attacker-won", "defender": "defender-won", "draw": "draw", "retreat": "retreated",
              "none": "stalemate"}[outcome.winner]
    expected = {"attacker": 0.0, "defender": 0.0}
    actual = {"attacker": 0, "defender": 0}
    for ev in outcome.events:
        if isinstance(ev, cm.DiceRolled) and ev.low_luck:
            # Low Luck: the pooled strength over six, sure hits and remainders alike; units rolling
            # apart (best of several dice) as ordinary dice
            expected[ev.side] += sum(g.group.count * g.group.value for g in ev.groups if g.group.unit != cm.REMAINDER and not g.dice) / 6
            for g in ev.groups:
                if g.group.unit != cm.REMAINDER and g.dice:
                    chance = min(g.group.value, 6) / 6
                    expected[ev.side] += g.group.count * (1 - (1 - chance) ** g.group.best_of)
            actual[ev.side] += ev.hits
        elif isinstance(ev, cm.DiceRolled):
            for g in ev.groups:
                chance = min(g.group.value, 6) / 6
                expected[ev.side] += g.group.count * (chance if g.group.best_of == 1 else 1 - (1 - chance) ** g.group.best_of)
                actual[ev.side] += g.hits
    capture = ({"space": battle.space, "from_power": (held_by or {}).get(battle.space) or defenders[0], "to_power": mover}
               if outcome.captured and defenders else None)
    if capture is not None and _forces(outcome.defender_survivors):
        # the defender's units left standing in a captured territory (AA guns) change hands
        capture["units"] = _forces(outcome.defender_survivors)
    # the defender's default order of loss is told only where it chose a loss
    defender_lost = any(c["power"] in defenders for rows in casualties.values() for c in rows)
    defaults = [{"power": mover if "directive" in d else (defenders[0] if defenders else mover), "about": f"battle in {battle.space}", "used": d}
                for d in entry.get("defaults", []) if d != DEFAULT_DEFENCE or defender_lost]
    return {
        "space": battle.space,
        "kind": "amphibious" if entry.get("amphibious") else battle.kind,
        "attacker": mover,
        "defenders": defenders,
        "forces": {side: _forces(_with_sacrificed(battle, side), battle.attacker_damaged if side == "attacker" else battle.damaged)
                   for side in ("attacker", "defender")},
        "odds": entry.get("odds"),
        "rounds": [{"number": n, "steps": steps} for n, steps in sorted(rounds.items())],
        "retreat": retreat,
        "submerged": submerged,
        "result": result,
        **({"removed": removed} if removed else {}),
        # land units aboard a sunk transport, aircraft aboard a sunk carrier: they never fought, so no
        # casualty list has them, yet the player must read that they are gone
        **({"lost_aboard": [{"power": o, "unit": u, "count": len(hosts), "aboard": h, "ships": len(set(hosts))}
                            for (o, u, h), hosts in sorted(entry["lost_aboard"].items())]} if entry.get("lost_aboard") else {}),
        "survivors": {side: _forces(survivors, None if outcome.repaired else outcome.damaged)
                      for side, survivors in (("attacker", outcome.attacker_survivors), ("defender", outcome.defender_survivors))},
        "capture": capture,
        "liberation": None,
        "defaults_used": defaults,
        "luck": {side: {"expected_hits": round(expected[side], 3), "actual_hits": actual[side]} for side in ("attacker", "defender")},
    }


def build_report(game: Game, before: GameState, result: TurnResult, dice_info: Mapping[str, Any], dice_source: Any) -> dict[str, Any]:
    ruleset = game.ruleset
    log = result.log
    power = ruleset.powers[before.turn_index].name
    low_luck = bool(game.config.options.get("low_luck", False))
    after = result.state
    budget = odds_budget(game)
    for entry in log.battles:
        if entry.get("outcome") is not None and "odds" not in entry:
            entry["odds"] = battle_odds(entry["battle"], entry["attacker_orders"], entry["defender_orders"], low_luck, budget)

    def production(state: GameState, p: str) -> int:
        return sum(income(ruleset, game.rules.economy, state.control, c) for c in ruleset.countries_of(p))

    mode = dice_info["mode"]
    dice = {
        "mode": mode,
        "algorithm": game.config.dice.get("algorithm", ""),
        "commitment": game.config.dice.get("anchor"),
        "revealed": dice_info["link"] if mode == "committed" else None,
        "seed": dice_info["link"] if mode == "local" else None,
        "verify": "pbem audit",
        "note": ("a fixed seed for friendly games and examples: anyone who knows the seed text can foresee the dice"
                 if mode == "local" else f"link {dice_info['index']} of the chain whose end is in game.yaml; run `pbem audit` to recompute every die"),
    }
    if dice_info.get("opponents"):
        dice["note"] = (dice["note"] or "") + "; combined with the opponents' links: " + ", ".join(
            f"{p} {link[:12]}" for p, link in sorted(dice_info["opponents"].items()))
    purchases = None
    if log.purchases or log.repairs or log.research:
        purchases = {
            "power": power,
            "bought": [{"unit": u, "count": n, "cost": log.unit_prices.get(u, ruleset.units[u].cost) * n} for u, n in sorted(log.purchases.items())],
            "repairs": [{"space": s, "damage_removed": n, "cost": log.repair_costs.get(s, n * game.rules.production.repair_cost_per_point)}
                        for s, n in sorted(log.repairs.items())],
            "research": dict(log.research) if log.research else None,
            "total": log.purchase_cost + log.research_cost,
            "treasury_before": ruleset.treasury_of(before.treasury, power),
            "treasury_after": ruleset.treasury_of(before.treasury, power) - log.purchase_cost - log.research_cost,
        }
        countries = ruleset.countries_of(power)
        if len(countries) > 1:
            # each economy buys and repairs from its own treasury (1940: "Each economy must make its own
            # separate purchases and pay for its own repairs"; Pacific's India and Australia)
            per = []
            for c in countries:
                units = dict(sorted(log.purchases_by_country.get(c, {}).items()))
                spent = log.spent_by_country.get(c, 0)  # at the prices charged (technology, options)
                had = before.treasury.get(c, 0)
                per.append({"country": c, "units": units, "spent": spent, "treasury_before": had, "treasury_after": had - spent})
            purchases["by_country"] = per
    bombing = []
    for raid in log.bombing:
        out = raid.get("outcome")
        if out is None:
            continue
        rules = game.combat_rules
        treasury_loss = rules.sbr_loss == "treasury"
        applied = out.ipcs_lost if treasury_loss else out.damage_applied
        if raid.get("max_damage") is not None:  # the complex's own cap (1940: major 20, minor 6)
            cap = raid["max_damage"]
        elif rules.sbr_damage_cap_per_ipc is None:  # no cap but what the owner holds (Europe)
            cap = before.treasury.get(before.control.get(raid["space"], ""), 0)
        else:
            # per bomber: each one left to bomb (Revised, Strategic Bombing Raid: "Any bombers that
            # survive may attack ... each bomber can inflict a maximum IPC loss equal to the territory's income")
            survivors = raid["bombers"] + raid.get("dive_bombers", 0) - out.bombers_lost - out.dive_bombers_lost
            cap = raid["ipc"] * (survivors if rules.sbr_cap_per_bomber else rules.sbr_damage_cap_per_ipc)
        # Every roll of the raid in order (air battle, AA fire at each kind of raider, damage), each
        # naming the units that rolled it: a fighter's die is never shown as a bomber's.
        def fired_at(ev: cm.DiceRolled) -> str:
            if ev.step != "aa":
                return ""
            dive = {u: n for u, n in raid.get("raiders", {}).items() if u != "bomber"}
            if ev.label.endswith("/aa-all"):  # Europe: the gun fires at escorts too
                return units_phrase({**raid.get("raiders", {}), **raid.get("escort_units", {})})
            return units_phrase(dive) if ev.label.endswith("/aa-dive") else units_phrase({"bomber": raid["bombers"]})

        def note(ev: cm.DiceRolled, group: cm.DiceGroup) -> str:
            if ev.step != "damage":
                return group.note
            if ev.label.endswith("/dive-damage"):
                return "each die halved, rounded up"
            parts = [f"the best of {group.best_of} dice for each bomber"] if group.best_of > 1 else []
            bonus = raid.get("damage_bonus", rules.sbr_damage_bonus)  # 1940: tactical bombers have none
            if bonus:
                parts.append(f"+{bonus} a die")
            return "; ".join(parts + raid.get("damage_extras", []))

        rolls = [{"step": ev.step, "side": ev.side, "label": ev.label, "unit": g.group.unit, "count": len(g.dice) if g.group.best_of > 1 else g.group.count,
                  "hit_on": g.group.value, "target": fired_at(ev), "dice": list(g.dice), "result": g.hits,
                  "note": note(ev, g.group)}
                 for ev in out.events for g in ev.groups]
        aa_rolls = [r for r in rolls if r["step"] == "aa"]
        aa = None
        if aa_rolls:
            aa = {"hit_on": aa_rolls[0]["hit_on"], "units": {aa_rolls[0]["unit"]: 1},
                  "dice": [d for r in aa_rolls for d in r["dice"]], "hits": sum(r["result"] for r in aa_rolls)}
        bombing.append({
            "space": raid["space"], "attacker": power,
            "defender": before.control.get(raid["space"], ""),
            "bombers": raid.get("raiders") or {"bomber": raid["bombers"]},
            **({"escorts": raid["escort_units"]} if raid.get("escort_units") else {}),
            "aa": aa,
            "shot_down": out.bombers_lost + out.dive_bombers_lost,
            **({"air_battle": {"escorts_lost": out.escorts_lost, "interceptors_lost": out.interceptors_lost,
                               # Europe, Pacific: the gun fires first and its victims are counted here too
                               **({"with_aa": True} if aa and aa["hits"] and rules.sbr_aa_before_air_battle else {}),
                               # 1940: the territory's raids fight one air battle, told with the first
                               **({"with_raids": raid["air_battle_with"]} if raid.get("air_battle_first") else {})}}
               if any(r["step"] in ("escort", "interceptor") for r in rolls) else {}),
            **({"air_battle": {"escorts_lost": 0, "interceptors_lost": 0, "told_with": raid["air_battle_with"][0]}}
               if raid.get("air_battle_with") and not raid.get("air_battle_first") else {}),
            "damage_dice": [d for r in rolls if r["step"] == "damage" for d in r["dice"]],
            "damage_bonus": raid.get("damage_bonus", rules.sbr_damage_bonus),
            **({"facility": raid["facility"]} if raid.get("facility") else {}),
            "damage_rolled": out.damage_rolled, "damage_before": 0 if treasury_loss else raid["damage_before"], "damage_applied": applied,
            "damage_after": applied if treasury_loss else raid["damage_before"] + applied, "cap": cap,
            "loss": "treasury" if treasury_loss else "damage",
            "rolls": rolls,
        })
        if treasury_loss and out.bombers_lost + out.dive_bombers_lost < raid["bombers"] + raid.get("dive_bombers", 0):
            log.notes.append(f"The bombing of {raid['space']} costs {before.control.get(raid['space'], '')} {count_of(applied, 'IPC')}")
    captures = []
    for c in log.captures:
        if c.get("taken_over") and not any(e.get("outcome") is not None and e["battle"].space == c["space"] for e in log.battles):
            # taken with no battle (only antiaircraft guns there): no battle report names the guns' new owner
            log.notes.append(f"{c['by']} takes over {', '.join(c['taken_over'])} in {c['space']} with it")
        sp = ruleset.board.spaces[c["space"]]
        final = after.control.get(c["space"], c["by"])
        route = sp.convoy_route  # a convoy route carries its territory's value (Pacific)
        # a liberation: the space goes to an ally, or back to its taker's own original holding (1942,
        # p. 20: "If that power or one on its side liberates the capital")
        freed = final != c["by"] or sp.original_owner == final
        captures.append({"space": c["space"], "kind": "liberation" if freed else "capture", "by": c["by"], "from": c["from"],
                         "to": final, "ipc": ruleset.board.spaces[route].ipc if route else c["ipc"], "capital": bool(c.get("capital", sp.capital_of)),
                         "plunder": int(c.get("plunder", 0)), **({"convoy_route": route} if route else {})})
    economy = []
    for p in ruleset.powers:
        economy.append({"power": p.name, "side": p.side, "income_before": production(before, p.name), "income_after": production(after, p.name),
                        "collected": sum(log.income.get(c, 0) for c in ruleset.countries_of(p.name)) if p.name == power else None,
                        "treasury": ruleset.treasury_of(after.treasury, p.name)})
        for c in p.countries:  # a power of several countries: a row for each (Power.countries)
            economy.append({"power": p.name, "country": c.name, "side": p.side,
                            "income_before": income(ruleset, game.rules.economy, before.control, c.name),
                            "income_after": income(ruleset, game.rules.economy, after.control, c.name),
                            "collected": log.income.get(c.name) if p.name == power else None, "treasury": after.treasury.get(c.name, 0)})
    victory_points = None
    if game.rules.victory.points is not None:
        vp = game.rules.victory.points
        victory_points = {"power": vp.power, "total": int(dict(after.pending.get("victory_points") or {}).get(vp.power, 0)),  # type: ignore[call-overload]
                          "to_win": vp.to_win, "scored": (log.victory_points or {}).get("scored") if power == vp.power else None}
    held: dict[str, list[str]] = {}
    for name, sp in sorted(ruleset.board.spaces.items()):
        if sp.victory_city and name in after.control:
            held.setdefault(ruleset.side_of(after.control[name]), []).append(sp.victory_city)
    victory = ruleset.victory
    victory_cities = []
    if victory.kind == "cities":
        needed = victory.conditions[str(game.config.options.get(victory.option, ruleset.options[victory.option].default))]
        sides = sorted({p.side for p in ruleset.powers})
        victory_cities = [{"side": s, "cities": sorted(held.get(s, [])), "count": len(held.get(s, [])), "needed": needed} for s in sides]
    elif game.rules.tokens is not None:
        # victory tokens (AMS): each side's, with the count that wins
        held_tokens = dict(after.pending.get("tokens") or {})  # type: ignore[call-overload]
        for side in sorted({p.side for p in ruleset.powers}):
            mine = sorted(n for n, s in held_tokens.items() if s == side)
            victory_cities.append({"side": f"{side}: victory tokens", "cities": mine, "count": len(mine), "needed": game.rules.tokens.at_least})
    elif victory.kind == "city_groups":
        # each side's groups, as "Axis: the Europe board" rows (1940 Global)
        for side, how in sorted(victory.sides.items()):
            for group in how.any_of:
                cities = sorted(ruleset.board.spaces[t].victory_city or t for t in group.cities
                                if t in after.control and ruleset.side_of(after.control[t]) == side)
                victory_cities.append({"side": f"{side}: {group.name}", "cities": cities, "count": len(cities), "needed": group.at_least})
            if how.holding_one_of:
                # "while they hold" one of these: without it the cities win nothing
                kept = sorted(ruleset.board.spaces[t].victory_city or t for t in how.holding_one_of
                              if t in after.control and ruleset.side_of(after.control[t]) == side)
                victory_cities.append({"side": f"{side}: while holding one of {', '.join(how.holding_one_of)}", "cities": kept,
                                       "count": len(kept), "needed": 1})
    next_power = ruleset.powers[after.turn_index].name
    awaiting = None if after.winner else {"power": next_power, "player": game.config.players.get(next_power) or None,
                                          "phase": _next_phase(game, after), "deadline": None}
    defaults_used = []
    for text in log.defaults_used:
        defaults_used.append({"power": power, "about": "air unit landing", "used": text})
    luck_rows: dict[str, dict[str, float]] = {}
    battles = [_battle(e, power, low_luck, before.control) for e in log.battles if e.get("outcome") is not None]
    freed = {c["space"]: c["to"] for c in captures if c["kind"] == "liberation"}
    for b in battles:
        if b["capture"] and b["space"] in freed:  # won back for its owner: said as the captures list says it
            b["liberation"], b["capture"] = {**b["capture"], "to_power": freed[b["space"]]}, None
    for b in battles:
        for d in b["defaults_used"]:
            defaults_used.append(d)
        for side in ("attacker", "defender"):
            # allies defending together roll their dice together: their luck is theirs jointly
            who = power if side == "attacker" else (" and ".join(b["defenders"]) if b["defenders"] else power)
            row = luck_rows.setdefault(who, {"expected_hits": 0.0, "actual_hits": 0})
            row["expected_hits"] += b["luck"][side]["expected_hits"]
            row["actual_hits"] += b["luck"][side]["actual_hits"]
    notes = list(log.notes)
    for s in log.skipped:
        notes.append(f"Skipped {s['phase']} order ({', '.join(count_of(n, u) for u, n in s['units'].items())} to {s['to']}): {s['reason']}")
    for a in log.lost_air:
        notes.append(f"{a['unit']} of {a['owner']} in {a['space']} was lost: {a['reason']}")
    if after.winner:
        how = after.victory
        if how and "capital" in how:
            notes.append(f"The game is over: the {after.winner} win, {how['held_by']} holding {how['capital']} to the start of its next turn"
                         + (f"; the individual winner is {how['individual']}." if how.get("individual") else "."))
        elif how and "tokens" in how:
            notes.append(f"The game is over: the {after.winner} win with {how['tokens']} victory tokens "
                         f"(at least {how['needed']}, and {how['lead']} more than the other side).")
        elif how and "group" in how:
            notes.append(f"The game is over: the {after.winner} win with {how['cities']} victory cities of {how['group']} ({how['needed']} were needed)"
                         + (f"; the individual winner is {how['individual']}." if how.get("individual") else "."))
        else:
            notes.append(f"The game is over: the {after.winner} win" + (
                f", a {how['level']} victory with {how['cities']} victory cities ({how['needed']} were needed)" if how and "level" in how else "")
                + (f"; the individual winner is {how['individual']}." if how.get("individual") else "."))
    return {
        "version": 1,
        "game": {"id": game.config.game, "title": None, "ruleset": {"id": ruleset.id, "name": ruleset.name}, "engine_version": __version__},
        "round": before.round,
        "power": power,
        "dice": dice,
        "purchases": purchases,
        "moves": [{"phase": m["phase"], "power": m["power"], "units": dict(m["units"]), "from": m["from"], "to": m["to"], "path": list(m.get("path", [])), "mission": m.get("mission")} for m in log.moves],
        "battles": battles,
        "bombing": bombing,
        "captures": captures,
        "placements": [{"space": s, "power": power, "units": dict(sorted(u.items()))} for s, u in log.placements.items()],
        **({"free_units": [dict(f) for f in log.free_units]} if log.free_units else {}),
        "refunds": [{"power": power, "units": dict(sorted(log.refunds.items())), "ipc": log.refund_ipcs, "reason": "bought but not placed"}] if log.refunds else [],
        "economy": economy,
        "victory_cities": victory_cities,
        **({"victory_points": victory_points} if victory_points else {}),
        "defaults_used": defaults_used,
        "awaiting": awaiting,
        "luck": [{"power": p, "expected_hits": round(r["expected_hits"], 3), "actual_hits": int(r["actual_hits"])} for p, r in luck_rows.items()],
        "rolls": [dict(r) for r in log.rolls],
        "notes": notes,
        **({"declarations": list(log.declarations)} if log.declarations else {}),
        **({"winner": after.winner} if after.winner else {}),  # the side that won with this turn (the notes say how)
    }


def _next_phase(game: Game, after: GameState) -> str:
    """What the next power's turn waits for: its orders, or nothing when it has nothing to order
    (pbem.engine.idle: the game passes that turn at once, Game.pass_idle_turns)."""
    from pbem.engine.idle import nothing_to_order

    return "orders" if nothing_to_order(game.ruleset, game.rules, after, game.config.options) is None else "nothing to order: its turn passes"
