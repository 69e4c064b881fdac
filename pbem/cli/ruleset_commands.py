"""`pbem ruleset ...`: list rule systems and import TripleA game files into our own data files."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.game_commands import user_errors


@click.group("ruleset")
def ruleset() -> None:
    """Rule systems and their data."""


@ruleset.command("list")
def list_rulesets() -> None:
    """The rule systems this pbem knows."""
    from pbem.io.rulesets import available_rulesets, load_ruleset

    ids = available_rulesets()
    width = max(map(len, ids), default=0)
    for rid in ids:
        click.echo(f"{rid:<{width}}  {load_ruleset(rid).name}")


@ruleset.command("import-triplea")
@click.argument("xml_file", type=click.Path(dir_okay=False, exists=True))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=".", show_default=True, help="Where map.yaml and setup.yaml are written.")
@click.option("--ruleset", "ruleset_id", default="1942-2e", show_default=True, help="Which corrections and names to apply.")
@user_errors
def import_triplea_cmd(xml_file: str, out_dir: str, ruleset_id: str) -> None:
    """Convert a TripleA game XML into pbem's map.yaml and setup.yaml."""
    from pbem.io.triplea import import_triplea

    written = import_triplea(Path(xml_file), Path(out_dir), ruleset_id=ruleset_id)
    for path in written:
        click.echo(f"wrote {path}")


SECTIONS = ("powers", "spaces", "units", "options", "declarations")


def describe_ruleset(ruleset_id: str) -> dict[str, object]:
    """Everything a player looks up while writing orders, as one plain structure (text and JSON share it)."""
    from pbem.io.rulesets import load_ruleset, rules_for

    ruleset = load_ruleset(ruleset_id)
    rules, _ = rules_for(ruleset)
    defaults = ruleset.option_defaults()
    board = ruleset.board
    owners = dict(ruleset.setup.control)
    declarations: dict[str, dict[str, str]] = {}
    if rules.hooks.declarations:
        # what each power may declare, and which rule option (switched on) makes it available
        for p in ruleset.powers:
            found = {name: f"{phase}" for name, phase in rules.hooks.declarations(defaults, p.name).items()}
            for option in ruleset.options.values():
                if option.default is False and True in option.allowed:
                    extra = rules.hooks.declarations({**defaults, option.name: True}, p.name)
                    found.update({name: f"{phase}, with --option {option.name}=true"
                                  for name, phase in extra.items() if name not in found})
            declarations[p.name] = dict(sorted(found.items()))
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "powers": [{"name": p.name, "side": p.side, "capital": p.capital, "starting_treasury": p.starting_treasury,
                    "aliases": list(p.aliases),
                    **({"countries": [{"name": c.name, "capital": c.capital, "starting_treasury": c.starting_treasury,
                                       "aliases": list(c.aliases)} for c in p.countries]} if p.countries else {})}
                   for p in ruleset.powers],
        "spaces": [{"name": s.name, "kind": s.kind, "ipc": s.ipc, "owner": owners.get(s.name),
                    "original_owner": s.original_owner, "capital_of": s.capital_of, "victory_city": s.victory_city,
                    "island": s.island, "impassable": s.impassable, "aliases": list(s.aliases),
                    "neighbours": sorted(board.neighbours(s.name))}
                   for s in sorted(board.spaces.values(), key=lambda s: (s.kind, s.name))],
        "units": [{"name": u.name, "domain": u.domain, "cost": u.cost, "attack": u.attack, "defense": u.defense,
                   "move": u.move, "hits": u.hits, "tags": sorted(u.tags), "aliases": list(u.aliases)}
                  for u in ruleset.units.values()],
        "options": [{"name": o.name, "default": o.default, "allowed": list(o.allowed), "rule": o.rule,
                     "description": o.description} for o in ruleset.options.values()],
        "declarations": {power: names for power, names in declarations.items() if names},
    }


def _text(data: dict[str, object], sections: tuple[str, ...]) -> str:
    """The description as a reader scans it: one line per power, space, unit and option."""
    out = [f"{data['name']} ({data['id']})"]
    # a capital no one can enter stands for none (1940's China: "China does not have a capitol")
    sealed = {s["name"] for s in data["spaces"] if s["impassable"]}  # type: ignore[attr-defined]

    def capital(name: str) -> str:
        return "no capital" if name in sealed else f"capital {name}"

    if "powers" in sections:
        out += ["", "Powers, in turn order:"]
        for p in data["powers"]:  # type: ignore[attr-defined]
            if p.get("countries"):  # a power of several countries: each its own capital and treasury
                out.append(f"  {p['name']:<16} {p['side']:<7} countries " + ", ".join(c["name"] for c in p["countries"])
                           + (f"; also {', '.join(p['aliases'])}" if p["aliases"] else ""))
                out += [f"    {c['name']:<14} {'':<7} {capital(c['capital'])}, starts with {c['starting_treasury']} IPCs"
                        + (f"; also {', '.join(c['aliases'])}" if c["aliases"] else "") for c in p["countries"]]
            else:
                out.append(f"  {p['name']:<16} {p['side']:<7} {capital(p['capital'])}, starts with {p['starting_treasury']} IPCs"
                           + (f"; also {', '.join(p['aliases'])}" if p["aliases"] else ""))
    if "spaces" in sections:
        out += ["", "Territories and sea zones (name, value, owner at the start, neighbours):"]
        for s in data["spaces"]:  # type: ignore[attr-defined]
            notes = [f"{s['ipc']} IPC" if s["kind"] == "land" else "sea",
                     *(["owner " + s["owner"]] if s["owner"] else (["neutral"] if s["kind"] == "land" else [])),
                     *([f"capital of {s['capital_of']}"] if s["capital_of"] and not s["impassable"] else []),
                     *([f"victory city {s['victory_city']}"] if s["victory_city"] else []),
                     *(["island"] if s["island"] else []), *(["impassable"] if s["impassable"] else [])]
            out.append(f"  {s['name']} ({', '.join(notes)})")
            out.append(f"      next to: {', '.join(s['neighbours']) or 'nothing'}")
    if "units" in sections:
        out += ["", "Units (cost, attack, defense, move):"]
        out += [f"  {u['name']:<18} {u['cost']:>3} {u['attack']:>3} {u['defense']:>3} {u['move']:>3}"
                + (f"  {u['hits']} hits" if u["hits"] > 1 else "")
                + (f"  [{', '.join(u['tags'])}]" if u["tags"] else "") for u in data["units"]]  # type: ignore[attr-defined]
    if "options" in sections:
        out += ["", "Rule options (`pbem new --option NAME=VALUE`):"]
        for o in data["options"]:  # type: ignore[attr-defined]
            allowed = ", ".join(str(a) for a in o["allowed"])
            out.append(f"  {o['name']} = {o['default']}  (one of: {allowed})")
            if o["description"] or o["rule"]:
                out.append(f"      {o['description'] or ''}{' - ' if o['description'] and o['rule'] else ''}{o['rule']}")
    if "declarations" in sections:
        out += ["", "Declarations (`declare: [NAME]` in orders), with the phase each takes effect in:"]
        declared = data["declarations"]
        if not declared:
            out.append("  none")
        for power, names in declared.items():  # type: ignore[attr-defined]
            out.append(f"  {power}: " + ", ".join(f"{n} ({phase})" for n, phase in names.items()))
    return "\n".join(out) + "\n"


@ruleset.command("show")
@click.argument("ruleset_id", metavar="ID")
@click.option("--only", "only", type=click.Choice(SECTIONS), multiple=True,
              help="Show only these parts (repeatable); all by default.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: id, name, powers, spaces, units, options, declarations.")
@user_errors
def show_ruleset(ruleset_id: str, only: tuple[str, ...], as_json: bool) -> None:
    """Territories and sea zones with neighbours, values and owners; units; rule options; declarations."""
    import json

    data = describe_ruleset(ruleset_id)
    sections = only or SECTIONS
    if as_json:
        keep = {"id", "name", *sections}
        click.echo(json.dumps({k: v for k, v in data.items() if k in keep}, indent=1, sort_keys=False))
    else:
        click.echo(_text(data, sections), nl=False)
