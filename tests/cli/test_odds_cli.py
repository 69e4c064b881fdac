"""`pbem odds` on the command line: forgiving unit lists, JSON output, user errors exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli.odds import odds


def run(*args: str):
    return CliRunner().invoke(odds, list(args))


def test_json_has_the_promised_keys_and_exact_one_v_one():
    """General Combat steps 3-4 (p. 17): 1 infantry vs 1 infantry, P(attacker wins) = 1/4."""
    res = run("--attack", "1 inf", "--defend", "1 infantry", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    for key in ("attacker_win", "defender_win", "draw", "capture", "expected_survivors", "expected_ipc_loss", "expected_rounds", "most_likely"):
        assert key in data
    assert abs(data["attacker_win"] - 0.25) < 1e-12 and data["kind"] == "land"


def test_sea_battle_is_inferred_and_aliases_parse():
    """Sea units fight in sea zones (Unit Profiles, Sea Units): only sea and air units → a sea battle."""
    res = run("--attack", "2 subs, 1 dd", "--defend", "1 cv, 2 fighters", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["kind"] == "sea" and json.loads(res.output)["capture"] is None


def test_the_short_names_the_map_draws_are_units_here_as_in_orders():
    """A player who reads "2 tnk" on the map writes it to `pbem odds` as to an orders file; an
    unknown name lists every unit with its short name."""
    short = run("--attack", "2 tnk, 1 art", "--defend", "2 inf, 1 aa", "--json")
    full = run("--attack", "2 tank, 1 artillery", "--defend", "2 infantry, 1 antiaircraft artillery", "--json")
    assert short.exit_code == 0 and short.output == full.output, short.output
    sea = run("--attack", "2 dd", "--defend", "1 trn, 1 ca", "--json")
    assert sea.exit_code == 0 and json.loads(sea.output)["kind"] == "sea", sea.output
    wrong = run("--attack", "2 dd", "--defend", "1 tp")
    assert wrong.exit_code == 2 and "transport (trn)" in wrong.output and "Traceback" not in wrong.output


def test_amphibious_with_bombardment_and_retreat_text():
    """Amphibious Assaults (p. 15): bombardment by a battleship supporting seaborne infantry."""
    res = run("--attack", "1 tank", "--seaborne", "2 infantry", "--bombard", "1 battleship", "--defend", "3 infantry", "--retreat", "after round 2")
    assert res.exit_code == 0, res.output
    assert "amphibious battle" in res.output and "attacker wins" in res.output


def test_a_stack_of_a_thousand_units_has_odds():
    """Unit Profiles (Submarine, attack 2): a stack of 1,100 submarines rolls 1,100 dice; its hit
    distribution once overflowed a float (comb(1100, 550)) and the command crashed."""
    res = run("--attack", "1100 sub", "--defend", "2 dd", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["attacker_win"] > 0.999 and data["kind"] == "sea"


def test_a_count_of_zero_is_no_unit():
    """A force of none: "0 destroyer" adds nothing, so an attack of nothing is a user error, not
    the engine's ValueError; a defence of nothing loses at once (Step 7, Conclude Combat, p. 18)."""
    res = run("--attack", "0 dd", "--defend", "2 aircraft carrier")
    assert res.exit_code == 2 and "no attacking units" in res.output and "Traceback" not in res.output, res.output
    res = run("--attack", "1 inf, 0 tank", "--defend", "0 inf", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["attacker_win"] == 1.0 and data["capture"] == 1.0 and "tank" not in data["expected_survivors"]["attacker"]


def test_an_antiaircraft_gun_does_not_attack():
    """Revised unit chart, Antiaircraft Gun: "Move: 1 (Noncombat only)"; 1942 Second Edition,
    Antiaircraft Artillery likewise moves in noncombat move only.  An attack or an amphibious
    landing with one is refused as orders refuse it; a Revised gun, never a casualty, left the
    attacker unable to lose and the calculator stuck ("a battle state cannot progress")."""
    for ruleset, gun in (("revised", "antiaircraft gun"), ("1942-2e", "antiaircraft artillery")):
        res = run("--ruleset", ruleset, "--attack", f"1 {gun}, 1 infantry", "--defend", "1 infantry")
        assert res.exit_code == 2 and "cannot attack" in res.output and "Traceback" not in res.output, res.output
    res = run("--ruleset", "revised", "--attack", "1 tank", "--seaborne", "1 aa", "--kind", "amphibious", "--defend", "1 infantry")
    assert res.exit_code == 2 and "--seaborne" in res.output, res.output
    res = run("--ruleset", "revised", "--attack", "1 tank", "--defend", "1 infantry, 1 aa", "--json")
    assert res.exit_code == 0, res.output


def test_user_errors_exit_2_without_traceback():
    for args in (
        ("--attack", "3 dragons", "--defend", "1 infantry"),
        ("--attack", "1 infantry", "--defend", "1 infantry", "--retreat", "sometimes"),
        ("--attack", "1 battleship", "--defend", "1 infantry", "--kind", "land"),
        ("--attack", "1 inf", "--defend", "1 inf", "--ruleset", "chess"),
    ):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert "Traceback" not in res.output


def test_a_negative_count_is_named_as_such():
    res = run("--attack", "-3 infantry", "--defend", "1 infantry")
    assert res.exit_code == 2 and "a count is 0 or more" in res.output


def test_a_fraction_and_an_army_beyond_any_board_are_refused_before_any_work():
    """A count is a whole number; more than 5,000 units a side would take the exact walk out of
    memory (10,000 infantry a side need more than a gigabyte), so it is refused at once."""
    res = run("--attack", "1.5 infantry", "--defend", "1 infantry")
    assert res.exit_code == 2 and "a count is a whole number" in res.output
    res = run("--attack", "99999999999999999999999 infantry", "--defend", "1 infantry")
    assert res.exit_code == 2 and "at most 5000 units a side" in res.output


def test_the_readme_lists_every_json_field() -> None:
    """README's `pbem odds --json` field list is the real one (issue: a player's view)."""
    import json
    import re
    from pathlib import Path

    from click.testing import CliRunner

    from pbem.cli import cli

    out = CliRunner().invoke(cli, ["odds", "--attack", "2 infantry", "--defend", "1 infantry", "--json"])
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    listed = re.search(r"`--json` \(fields (.*?)\)", readme, re.S)
    assert listed, "README names the --json fields"
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == set(json.loads(out.output))


def test_holding_a_land_unit_is_a_flag_and_costs_the_defender():
    """A defender holds its territory while any unit survives (General Combat, step 7), so keeping
    its last infantry behind the fighter (--defender-hold) only lowers its chances; an explicit
    attacker order of loss is followed as written unless --attacker-hold is given (issue 13)."""
    base = ["--attack", "3 infantry, 2 tank", "--defend", "2 infantry, 1 fighter", "--json"]
    default = json.loads(run(*base).output)
    hold = json.loads(run(*base, "--defender-hold").output)
    assert hold["attacker_win"] > default["attacker_win"]
    air = ["--attack", "2 infantry, 2 fighter", "--defend", "2 infantry", "--json"]
    literal = json.loads(run(*air, "--attacker-ool", "infantry, fighter").output)
    held = json.loads(run(*air, "--attacker-ool", "infantry, fighter", "--attacker-hold").output)
    assert held["capture"] > literal["capture"]


def _win(*args: str) -> float:
    res = run(*args, "--json")
    assert res.exit_code == 0, res.output
    return float(json.loads(res.output)["attacker_win"])


def test_pacific_first_turn_surprise_is_an_option_of_the_calculator():
    """Pacific, Phase 4, Japan's first turn: "Allied units may defend only with a roll of 1.
    Exception: Any attacks made in Chinese territory are defended by rolling at full strength";
    1 infantry v 1 infantry: the attacker wins 1/4 normally, (1/6 * 5/6)/(1 - 5/6 * 5/6) = 5/11 when
    the defender hits only on 1."""
    battle = ("--ruleset", "pacific", "--attack", "1 infantry", "--defend", "1 infantry")
    assert abs(_win(*battle) - 0.25) < 1e-12
    first = (*battle, "--attacker-power", "Japan", "--defender-power", "Great Britain", "--round", "1")
    assert abs(_win(*first) - 5 / 11) < 1e-12
    assert abs(_win(*first, "--controller", "China") - 0.25) < 1e-12
    assert abs(_win(*first, "--option", "first_turn_surprise=false") - 0.25) < 1e-12
    assert abs(_win(*battle, "--attacker-power", "Japan", "--defender-power", "Great Britain", "--round", "2") - 0.25) < 1e-12


def test_pacific_marines_attack_at_two_in_an_amphibious_assault():
    """Pacific, U.S. Marines: "A Marine unit attacking in an Amphibious Assault scores a hit on a
    roll of 2 or less"; 1 Marine landed v 1 infantry: (2/6 * 4/6)/(1 - 4/6 * 4/6) = 2/5, and 1/4 at 1."""
    battle = ("--ruleset", "pacific", "--attack", "", "--seaborne", "1 marine", "--defend", "1 infantry", "--kind", "amphibious")
    assert abs(_win(*battle, "--attacker-power", "United States", "--defender-power", "Japan") - 0.4) < 1e-12
    assert abs(_win(*battle) - 0.25) < 1e-12


def test_unknown_powers_and_options_are_user_errors():
    for args in (("--attacker-power", "Narnia"), ("--option", "first_turn_surprise"), ("--option", "nosuch=1")):
        res = run("--ruleset", "pacific", "--attack", "1 inf", "--defend", "1 inf", *args)
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output


def test_odds_imports_neither_the_turn_engine_nor_the_game_repository(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 19: a whole `pbem odds` took 0.4 s, a quarter of it importing the turn engine and the
    game repository (through pbem.game.game) only to find the ruleset's rules, and a tenth
    importing importlib.metadata to key the ruleset cache by the libraries' versions.  Once the
    ruleset is in the cache, it is read without PyYAML or jsonschema either."""
    import os
    import subprocess
    import sys

    code = ("import sys; sys.argv = ['pbem', 'odds', '--attack', '3 inf', '--defend', '2 inf']\n"
            "from pbem.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m in ('pbem.engine.turn', 'pbem.game.game', 'git', 'importlib.metadata',"
            " 'yaml', 'jsonschema')))")
    env = {k: v for k, v in os.environ.items() if k != "PBEM_NO_CACHE"} | {"XDG_CACHE_HOME": str(tmp_path)}
    first, second = (subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
                     for _ in range(2))
    assert "attacker" in first.lower() and "'pbem.engine.turn'" not in first and "'importlib.metadata'" not in first
    assert "attacker" in second.lower() and second.strip().splitlines()[-1] == "[]"


def test_the_text_counts_units_in_english():
    res = run("--ruleset", "revised", "--attack", "1 fighter", "--defend", "4 submarine", "--defender-submerge")
    assert "defender: 4 submarines" in res.output and "expected defender survivors: 3.50 submarines" in res.output
    assert "expected attacker survivors: 1.00 fighter\n" in res.output


def test_the_retreat_words_are_the_orders_words():
    """`--retreat` reads the vocabulary of a battle directive's `when:` (README, Battle directives),
    so a condition copied from one works in the other."""
    from pbem.cli.odds import parse_retreat
    from pbem.io.orders import parse_retreat_condition

    for text, kind, value in (("after round 2", "after_round", 2), ("when attackers < 3", "when_attackers_at_most", 2),
                              ("when defenders outnumber us", "when_defenders_outnumber", 0),
                              ("defenders outnumber", "when_defenders_outnumber", 0), ("never", "never", 0),
                              ("when no land units left", "when_no_land_units", 0)):
        cond = parse_retreat(text)
        assert (cond.kind, cond.value) == (kind, value), text
        assert parse_retreat_condition(text) is not None, text


def test_a_retreat_once_no_land_unit_is_left_takes_the_air_units_home():
    """Pacific, Amphibious Assault Example #1: "Without a land unit to take Guam, Japan decides to
    retreat" - the fighter withdraws once the tank, lost first, is gone."""
    base = ("--ruleset", "pacific-2001", "--attack", "1 tank, 1 fighter", "--defend", "2 infantry", "--attacker-ool", "tank, fighter", "--json")
    fight = json.loads(run(*base).output)
    home = json.loads(run(*base, "--retreat", "when no land units left").output)
    assert fight["retreat"] == 0 and home["retreat"] > 0.3
    assert home["capture"] == pytest.approx(fight["capture"])  # it retreats only once it could no longer capture


def test_units_are_read_as_orders_read_them_with_a_suggestion_for_a_typo() -> None:
    """One table of unit names for orders and odds (`pbem.io.names.unit_table`): the common names
    ("armour", "AA gun", "u-boat") work here too, and a typo gets the orders' suggestion."""
    res = run("--attack", "2 armour", "--defend", "1 infantry, 1 AA gun", "--json")
    assert res.exit_code == 0, res.output
    res = run("--attack", "2 u-boats", "--defend", "1 transport", "--json")
    assert res.exit_code == 0 and json.loads(res.output)["kind"] == "sea", res.output
    res = run("--attack", "3 infantri", "--defend", "1 infantry")
    assert res.exit_code == 2 and "unknown unit 'infantri' (did you mean 'infantry'?)" in res.output


def test_damage_in_order_spends_the_battleships_free_hit_later():
    """The orders' damage_first: false, in `pbem odds`: with the destroyer lost first and the
    battleship's free hit kept for later, the attacker keeps fewer dice and wins less often."""
    base = ["--attack", "1 battleship, 1 destroyer", "--defend", "3 destroyer", "--attacker-ool", "destroyer, battleship", "--json"]
    first = json.loads(run(*base).output)["attacker_win"]
    in_order = json.loads(run(*base, "--attacker-damage-in-order").output)["attacker_win"]
    assert in_order < first - 0.02


def test_a_sampled_answer_is_worded_as_everywhere_else():
    """README, odds: past its bound the figure is sampled, and 'every place the figure appears
    says so: "simulated, within ±2.2 points"' - pbem odds as the reports and validate do."""
    res = run("--attack", "400 infantry, 400 tank", "--defend", "400 infantry, 400 tank")
    assert res.exit_code == 0, res.output
    assert "battle, simulated, within ±" in res.output and " points" in res.output, res.output


def test_round_one_advantages_of_an_amphibious_assault_are_in_the_odds():
    """Revised Marines ("attacking in an amphibious assault ... on a 2 or less") and Atlantic Wall
    (German infantry defend on 3 against the landing's first cycle) change the first round only: the
    odds apply them as the game's battle does (they were left out: 51.7% instead of 68.0%)."""
    marines = run("--ruleset", "revised", "--attack", "", "--seaborne", "3 inf", "--defend", "2 inf", "--attacker-power",
                  "United States", "--defender-power", "Japan", "--option", "marines=true", "--json")
    assert marines.exit_code == 0, marines.output
    assert abs(json.loads(marines.output)["attacker_win"] - 0.68) < 0.001
    wall = run("--ruleset", "revised", "--attack", "", "--seaborne", "3 inf, 1 tank", "--defend", "3 inf", "--attacker-power",
               "United States", "--defender-power", "Germany", "--controller", "Germany", "--option", "atlantic_wall=true", "--json")
    assert wall.exit_code == 0, wall.output
    assert abs(json.loads(wall.output)["attacker_win"] - 0.6125) < 0.001
