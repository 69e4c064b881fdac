"""`pbem audit` (replay and prove every turn) and `pbem luck` (expected vs actual hits, face test)."""

from __future__ import annotations

import json
import sys

import click

from pbem.cli.game_commands import game_option, user_errors


@click.command("audit")
@game_option
@click.option("--turn", "turn", type=click.IntRange(1), default=None,
              help="Explain one turn: N is its Dice-Index, the N-th adjudication of the game.")
@click.option("--all-diffs", is_flag=True, help="Show the diff of every difference, not only the first.")
@user_errors
def audit(game_dir: str, turn: int | None, all_diffs: bool) -> None:
    """Replay the whole history and check every turn; exit code 0 only when everything matches."""
    from pbem.game.audit import audit_game, explain_turn

    if turn is not None:
        data = explain_turn(game_dir, turn)
        click.echo(f"turn {data['turn']}: round {data['round']}, {data['power']}, commit {data['commit'][:12]}")
        d = data["dice"]
        click.echo(f"dice: {d.get('mode')}, link {d.get('link')}")
        click.echo(f"      state sha256 {d.get('state_hash')}, orders sha256 {d.get('orders_hash')}")
        click.echo(f"{len(data['rolls'])} roll(s):")
        for r in data["rolls"]:
            click.echo(f"  {r['label']}: {' '.join(map(str, r['values']))}")
        click.echo("casualties:" if data["casualties"] else "casualties: none")
        for c in data["casualties"]:
            hurt = "damaged" if c.get("damaged") else "lost"
            click.echo(f"  {c['space']} round {c['round']} ({c['step']}): {c['power']} {hurt} {c['count']} {c['unit']} ({c['chosen_by']})")
        click.echo("replay matches the committed files" if data["matches"] else "REPLAY DIFFERS from the committed files: run `pbem audit`")
        sys.exit(0 if data["matches"] else 1)

    result = audit_game(game_dir)
    for t in result.turns:
        click.echo(t.line())
    for w in result.warnings:
        click.echo(f"note: {w}")
    if result.ok:
        click.echo(f"audit ok: {result.commits} commit(s), {len(result.turns)} turn(s), every file reproduced byte for byte")
        sys.exit(0)
    first = result.first
    assert first is not None
    click.echo(f"\nAUDIT FAILED: {len(result.findings)} difference(s); the first:")
    click.echo(f"commit {first.commit}\nfile   {first.file}\n{first.message}")
    if first.diff:
        click.echo(first.diff.rstrip("\n"))
    rest = result.findings[1:]
    if rest:
        click.echo("\nthen:")
        for f in rest:
            click.echo(f.format(with_diff=all_diffs))
    sys.exit(1)


@click.command("luck")
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@user_errors
def luck(game_dir: str, as_json: bool) -> None:
    """Per power and per battle: hits expected vs scored; and a chi-square test of the dice faces."""
    from pbem.game.audit import luck_data

    data = luck_data(game_dir)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return

    labels = [f"{b['battle']} [{b['power']}]" for b in data["battles"]]
    width = max([len(x) for x in labels + [p["power"] for p in data["powers"]]] + [12])  # whole names, never cut

    def row(name: str, t: dict) -> str:
        luck, z = round(t["luck"], 2) + 0.0, round(t["z"], 2) + 0.0  # + 0.0: no "-0.00"
        return f"  {name:<{width}} {t['dice']:>5} {t['expected_hits']:>9.2f} {t['actual_hits']:>6} {luck:>+7.2f} {z:>+6.2f}"

    header = f"  {'':<{width}} {'dice':>5} {'expected':>9} {'hits':>6} {'luck':>7} {'z':>6}"
    click.echo("By power:")
    click.echo(header)
    for p in data["powers"]:
        click.echo(row(p["power"], p))
    click.echo(row("all", data["total"]))
    click.echo("\nBy battle:")
    click.echo(header)
    for label, b in zip(labels, data["battles"]):
        click.echo(row(label, b))
    f = data["faces"]
    click.echo(f"\nFaces 1-6: {' '.join(map(str, f['counts']))} of {f['total']} dice; chi-square {f['chi_square']:.2f} "
               f"({f['dof']} dof), p = {f['p_value']:.3f}"
               + ("" if f["reliable"] else "  (fewer than 30 dice: too few to judge)"))
