// Issue 19's battles in aacalc2 (github mshih01/aacalc2, MIT), the exact calculator players use,
// for benchmarks/bench_odds.py to print beside pbem's figures.  aacalc2's code is not kept here:
// bench_odds.py says how to build it from its repository.
//
// Usage: node aacalc2_bench.mjs AACALC2_DIR RUNS < battles.json
// battles.json: [{"name", "naval", "attack": {"units", "ool"}, "defense": {"units", "ool"}, "diceMode"?}, ...]
// Prints one JSON list: per battle and prune threshold, the best time of RUNS and the chances that
// each side has units left.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const { multiwaveExternal } = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
const battles = JSON.parse(readFileSync(0, 'utf8'));

function input(battle, prune) {
  // aaLast would keep one combat unit behind the AA gun; pbem takes the gun where the order of
  // loss puts it, so both follow the order of loss as given.
  const side = (s, aaLast) => ({ units: s.units, ool: s.ool, takes: 0, aaLast });
  return {
    wave_info: [
      {
        attack: side(battle.attack, false),
        defense: side(battle.defense, false),
        att_submerge: false,
        def_submerge: false,
        att_dest_last: false,
        def_dest_last: false,
        is_crash_fighters: false,
        rounds: 100,
        retreat_threshold: 0,
      },
    ],
    debug: false,
    prune_threshold: prune,
    report_prune_threshold: prune,
    is_naval: battle.naval,
    in_progress: false,
    num_runs: 1,
    verbose_level: 0,
    diceMode: battle.diceMode || 'standard',
    sortMode: 'ipc_cost',
    do_roundless_eval: true,
  };
}

const out = [];
for (const battle of battles) {
  for (const prune of [1e-12, 0]) {
    let best = Infinity;
    let result;
    for (let k = 0; k < runs; k++) {
      const t0 = performance.now();
      result = multiwaveExternal(input(battle, prune));
      best = Math.min(best, performance.now() - t0);
    }
    out.push({
      name: battle.name,
      prune,
      seconds: best / 1000,
      attacker_survives: result.attack.survives[0],
      defender_survives: result.defense.survives[0],
    });
  }
}
console.log(JSON.stringify(out));
