"""Figures for safe YAML loading: a real state file, hostile inputs refused, both parsers.

Run: python benchmarks/bench_yaml.py
Prints times; asserts nothing (timed assertions fail on a loaded machine, so they live here).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import yaml

from pbem.engine.problems import ProblemsError
from pbem.io import yamlfile
from pbem.io.yamlfile import dump_yaml, load_yaml


def best_ms(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        try:
            call()
        except ProblemsError:
            pass
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    state = {f"territory_{i}": {"owner": "Germany", "units": {"infantry": i, "tank": 1}} for i in range(67)}
    text = dump_yaml(state)
    laughs = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        laughs.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    hostile = {
        "billion laughs": "\n".join(laughs) + "\n",
        "500,000 open brackets": "[" * 500_000,
        "a 1 MB value": "a: " + "x" * (1 << 20) + "\n",
        "a 10,000-digit integer": "a: " + "9" * 10_000 + "\n",
        "20,000 duplicate keys": "".join("a: 1\n" for _ in range(20_000)),
    }
    parsers = [("pure-python", yaml.SafeLoader)]
    if getattr(yaml, "__with_libyaml__", False):
        parsers.insert(0, ("libyaml", yaml.CSafeLoader))
    for name, loader in parsers:
        yamlfile._Loader = loader  # type: ignore[attr-defined]
        print(f"parser {name}:")
        print(f"  load a {text.count(chr(10))}-line state: {best_ms(lambda: load_yaml(text, 'state.yaml'), 30):8.2f} ms")
        print(f"  dump it:                   {best_ms(lambda: dump_yaml(state, flow_leaves=True), 30):8.2f} ms")
        for label, bad in hostile.items():
            print(f"  refuse {label + ':':<24}{best_ms(lambda: load_yaml(bad, 'x.yaml'), 3):8.1f} ms")


if __name__ == "__main__":
    main()
