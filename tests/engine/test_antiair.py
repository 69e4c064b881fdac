"""Antiaircraft fire at aircraft flying over (Revised, Phase 3: Combat Move, Air Units; Step 7-8)."""

from __future__ import annotations

from pbem.engine.antiair import Flight, antiair_fire


class Fixed:
    def __init__(self, streams):
        self.left = {k: list(v) for k, v in streams.items()}
        self.asked = []

    def roll(self, label, count):
        self.asked.append((label, count))
        out, self.left[label] = self.left[label][:count], self.left[label][count:]
        assert len(out) == count, label
        return tuple(out)


def test_each_gun_on_the_path_fires_once_at_each_aircraft_in_path_order():
    """"resolve combat separately in each space along its path, starting with the first ... it shoots
    once at each air unit that enters"; a miss lets the aircraft continue."""
    f = Flight("g1", "United States", {"fighter": 2, "bomber": 1}, ("Western Europe", "SZ 7", "Germany", "Poland"))
    dice = Fixed({"aa/combat/g1/1-Western Europe": [6, 1, 6], "aa/combat/g1/3-Germany": [6, 6]})
    got = antiair_fire((f,), {"Western Europe": 1, "Germany": 1}, dice)
    assert [label for label, _ in dice.asked] == ["aa/combat/g1/1-Western Europe", "aa/combat/g1/3-Germany"]
    first = got.events[0]
    assert first.dice == (("bomber", (6,)), ("fighter", (1, 6))) and dict(first.lost) == {"fighter": 1}
    assert got.lost == {"g1": {"fighter": 1}} and got.survivors == {"g1": {"bomber": 1, "fighter": 1}}


def test_targeted_dice_hit_the_aircraft_they_were_rolled_at():
    """FAQ: AA fire is targeted "so that bombers will be forced to take hits from AA guns"."""
    f = Flight("g", "United Kingdom", {"fighter": 1, "bomber": 1}, ("France",))
    got = antiair_fire((f,), {"France": 1}, Fixed({"aa/combat/g/1-France": [1, 6]}))
    assert got.lost == {"g": {"bomber": 1}}


def test_shot_down_aircraft_fly_no_further_and_a_territory_fires_once_per_flight():
    f = Flight("g", "Japan", {"fighter": 1}, ("India", "Burma", "India", "Persia"))
    dice = Fixed({"aa/combat/g/1-India": [6], "aa/combat/g/4-Persia": [1]})
    got = antiair_fire((f,), {"India": 1, "Persia": 1}, dice)
    assert [e.territory for e in got.events] == ["India", "Persia"] and got.survivors == {"g": {}}


def test_retreat_and_return_flights_are_fired_on_again():
    """Step 7: "Retreating air units are subject to fire from enemy antiaircraft guns in any
    territories they move over"; Step 8: on the return trip "resolve any resulting combats"."""
    out = Flight("g", "Germany", {"bomber": 1}, ("Karelia S.S.R.", "Russia"))
    back = Flight("g", "Germany", {"bomber": 1}, ("Karelia S.S.R.", "Germany"), leg="return")
    dice = Fixed({"aa/combat/g/1-Karelia S.S.R.": [6], "aa/return/g/1-Karelia S.S.R.": [1]})
    got = antiair_fire((out, back), {"Karelia S.S.R.": 1}, dice, battles={})
    assert [(e.leg, e.territory) for e in got.events] == [("combat", "Karelia S.S.R."), ("return", "Karelia S.S.R.")]
    assert got.lost == {"g": {"bomber": 1}}


def test_the_battle_territory_is_left_to_the_battle_and_radar_hits_on_two_and_superfortresses_are_immune():
    """Step 2 fires the gun of the battle's own territory; Radar: U.K. guns in tan territories hit
    on 2; Superfortresses: "Your bombers are immune to antiaircraft fire"."""
    f = Flight("g", "Germany", {"fighter": 1}, ("Eire", "United Kingdom"))
    got = antiair_fire((f,), {"United Kingdom": 2, "Eire": 2}, Fixed({"aa/combat/g/1-Eire": [2]}),
                       battles={"g": frozenset({"United Kingdom"})})
    assert got.lost == {"g": {"fighter": 1}} and got.events[0].hit_on == 2
    b = Flight("b", "United States", {"bomber": 2}, ("Germany",))
    assert antiair_fire((b,), {"Germany": 1}, Fixed({}), immune=frozenset({"bomber"})).events == ()
