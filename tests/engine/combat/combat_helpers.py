"""Shared fixtures for the combat tests: the 1942 profiles, fixed dice and hash-seeded dice."""

from __future__ import annotations

import hashlib
from typing import Iterable, Mapping

from pbem.engine.combat import Battle, Force
from pbem.engine.model import UnitType
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES

def load_units() -> dict[str, UnitType]:
    """The 1942 profiles, through the ruleset loader (schema-checked, as a game loads them)."""
    from pbem.io.rulesets import load_ruleset

    return dict(load_ruleset("1942-2e").units)


UNITS = load_units()


class Fixed:
    """Dice written out per label; running out or leaving dice unread is a test failure."""

    def __init__(self, values: Mapping[str, Iterable[int]]):
        self.left = {k: list(v) for k, v in values.items()}
        self.asked: list[tuple[str, int]] = []

    def roll(self, label: str, count: int) -> tuple[int, ...]:
        self.asked.append((label, count))
        stream = self.left.get(label, [])
        if len(stream) < count:
            raise AssertionError(f"{label}: asked {count} dice, {len(stream)} written")
        out, self.left[label] = stream[:count], stream[count:]
        return tuple(out)

    def unused(self) -> dict[str, list[int]]:
        return {k: v for k, v in self.left.items() if v}


class Seeded:
    """Deterministic stand-in for seeded dice: face = sha256(seed/label/i) mod 6 (bias-free rejection)."""

    def __init__(self, seed: str):
        self.seed = seed
        self.next: dict[str, int] = {}

    def roll(self, label: str, count: int) -> tuple[int, ...]:
        out = []
        while len(out) < count:
            i = self.next.get(label, 0)
            self.next[label] = i + 1
            b = hashlib.sha256(f"{self.seed}/{label}/{i}".encode()).digest()[0]
            if b < 252:
                out.append(b % 6 + 1)
        return tuple(out)


def forces(owner: str, spec: Mapping[str, int], seaborne: bool = False) -> tuple[Force, ...]:
    return tuple(Force(unit, owner, n, seaborne) for unit, n in spec.items())


def land(attack: Mapping[str, int], defend: Mapping[str, int], **kw: object) -> Battle:
    return Battle(
        space="Ukraine",
        kind="land",
        attacker="Germany",
        attackers=forces("Germany", attack) + tuple(kw.pop("extra_attackers", ())),  # type: ignore[arg-type]
        defenders=forces("Soviet Union", defend) + tuple(kw.pop("extra_defenders", ())),  # type: ignore[arg-type]
        units=UNITS,
        rules=COMBAT_RULES,
        **kw,  # type: ignore[arg-type]
    )


def sea(attack: Mapping[str, int], defend: Mapping[str, int], **kw: object) -> Battle:
    return Battle(
        space="SZ 5",
        kind="sea",
        attacker="Germany",
        attackers=forces("Germany", attack),
        defenders=forces("United Kingdom", defend),
        units=UNITS,
        rules=COMBAT_RULES,
        **kw,  # type: ignore[arg-type]
    )


def L(space: str, rnd: int, step: str) -> str:
    return f"battle/{space}/round-{rnd}/{step}"
