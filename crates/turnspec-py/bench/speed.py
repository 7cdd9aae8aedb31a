"""All-pass Magic turns per second, driven from Python (docs/performance.md,
"Python bindings").

    target/py-venv/bin/python crates/turnspec-py/bench/speed.py [--turns N] [--repeat R]

Prints three figures, each the best of R runs on one thread:
* one ``Game.apply("pass")`` per pass, events not kept;
* the same, keeping events and reading them as dicts every turn;
* ``Game.play_turns(N)``: the all-pass policy inside Rust, one call.
Compare with ``turnspec simulate --policy all-pass --threads 1``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

import turnspec

ROOT = Path(__file__).resolve().parents[3]


def per_pass(spec: turnspec.Spec, turns: int, events: bool) -> float:
    g = turnspec.Game(spec, record_events=events)
    end = g.turn + turns
    apply = g.apply
    start = time.perf_counter()
    if events:
        while g.turn < end:
            apply("pass")
            if g.passes == 0:
                g.events()
    else:
        while g.turn < end:
            apply("pass")
    return turns / (time.perf_counter() - start)


def batch(spec: turnspec.Spec, turns: int) -> float:
    g = turnspec.Game(spec, record_events=False)
    start = time.perf_counter()
    g.play_turns(turns)
    return turns / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spec = turnspec.load(str(ROOT / "games" / "mtg.toml"))
    rows: list[tuple[str, Callable[[], float]]] = [
        ("Python, one apply per pass", lambda: per_pass(spec, args.turns, False)),
        ("Python, one apply per pass, events as dicts", lambda: per_pass(spec, args.turns, True)),
        ("play_turns (inside Rust)", lambda: batch(spec, args.turns * 10)),
    ]
    for name, f in rows:
        best = max(f() for _ in range(args.repeat))
        print(f"{name:46} {best:12,.0f} turns/s")


if __name__ == "__main__":
    main()
