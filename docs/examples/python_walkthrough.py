"""The walkthrough of docs/python.md: two Magic editions, 10,000 games
each (the `busy` workload: one instant-speed play in every window that
opens, one attacker), and their per-turn counts side by side.

    bash scripts/python.sh install
    target/py-venv/bin/python docs/examples/python_walkthrough.py

Draws a bar chart (python_walkthrough.png) if matplotlib is installed,
and always prints the table. CI runs it as it is.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import turnspec

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000, help="games per edition")
    parser.add_argument("--turns", type=int, default=10, help="turns per game")
    parser.add_argument("--policy", default="busy", choices=["all-pass", "busy", "random"])
    parser.add_argument("--plot", default="python_walkthrough.png", help="where to save the chart")
    args = parser.parse_args()

    # 1. Load two editions: today's rules and those of 2011 (before the
    #    2024 and 2025 changes); the second `extends` the first's bases.
    editions = {
        "2025": turnspec.load(str(ROOT / "games" / "mtg.toml")),
        "2011": turnspec.load(str(ROOT / "games" / "mtg-2011.toml")),
    }
    for label, spec in editions.items():
        print(f"{label}: {spec.title}")

    # 2. What differs in their structure.
    d = turnspec.diff(editions["2025"], editions["2011"], "2025", "2011")
    print(f"{len(d)} structural differences")

    # 3. Simulate each edition inside Rust; every game is one row.
    results = {}
    for label, spec in editions.items():
        start = time.perf_counter()
        results[label] = turnspec.simulate(spec, games=args.games, turns=args.turns, policy=args.policy)
        took = time.perf_counter() - start
        print(f"{label}: {args.games} games of {args.turns} turns in {took:.2f} s")

    # 4. Per-turn counts side by side: one row per figure, one column per
    #    edition (pandas if installed, else a plain table).
    figures = list(results["2025"].per_turn)
    try:
        import pandas as pd

        table = pd.DataFrame({label: r.per_turn for label, r in results.items()}).loc[figures]
        print(table.round(3).to_string())
        per_game = pd.concat(
            [r.to_pandas().assign(edition=label) for label, r in results.items()], ignore_index=True
        )
        print(per_game.groupby("edition")[["steps", "windows", "passes"]].mean().round(2).to_string())
    except ImportError:
        print("figure".ljust(14) + "".join(label.rjust(10) for label in results))
        for f in figures:
            print(f.ljust(14) + "".join(f"{r.per_turn[f]:10.3f}" for r in results.values()))

    # 5. Plot them if matplotlib is there.
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no chart)")
        return
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.4
    for i, (label, r) in enumerate(results.items()):
        xs = [j + (i - 0.5) * width for j in range(len(figures))]
        ax.bar(xs, [r.per_turn[f] for f in figures], width, label=label)
    ax.set_xticks(range(len(figures)))
    ax.set_xticklabels(figures, rotation=30)
    ax.set_ylabel(f"per turn ({args.policy})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot)
    print(f"chart: {args.plot}")


if __name__ == "__main__":
    main()
