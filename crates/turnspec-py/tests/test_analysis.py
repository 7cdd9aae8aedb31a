"""simulate, compare, diff and explore, with their tables."""

from __future__ import annotations

import turnspec
from conftest import GAMES


def test_simulate(mtg: turnspec.Spec) -> None:
    r = turnspec.simulate(mtg, games=50, turns=3)
    assert r.games == 50 and r.policy == "all-pass"
    assert len(r.table["game"]) == 50
    assert r.per_turn["steps"] > 0
    assert r.totals["turns"] == 150
    df = r.to_pandas()
    assert list(df.columns)[:3] == ["game", "turns", "steps"]
    assert len(df) == 50
    t = r.to_arrow()
    assert t.num_rows == 50
    again = turnspec.simulate(mtg, games=50, turns=3)
    assert again.digest == r.digest
    rnd = turnspec.simulate(mtg, games=20, turns=2, policy="random", seed=3)
    assert rnd.totals["actions"] >= 0
    assert rnd.outcomes()["seat"] == ["P1", "P2"]


def test_compare(mtg: turnspec.Spec, mtg2011: turnspec.Spec) -> None:
    c = turnspec.compare([mtg, mtg2011], labels=["2025", "2011"], games=20, turns=2, policy="busy")
    assert [s["spec"] for s in c.specs] == ["2025", "2011"]
    df = c.to_pandas()
    assert list(df["spec"]) == ["2025", "2011"]
    assert c.to_arrow().num_rows == 2
    assert c.outcomes()["seat"] == ["P1", "P2", "P1", "P2"]


def test_diff(mtg: turnspec.Spec, mtg2011: turnspec.Spec) -> None:
    d = turnspec.diff(mtg, mtg2011)
    assert len(d) > 0
    assert d.text.startswith("---")
    assert "section" in d.to_pandas().columns
    assert len(turnspec.diff(mtg, mtg)) == 0


def test_explore() -> None:
    spec = turnspec.load(str(GAMES / "pokemon-tcg.toml"))
    x = turnspec.explore(spec, depth=4, max_states=20_000)
    assert x.states > 0
    assert x.text
    df = x.to_pandas()
    assert {"kind", "id", "rule", "reached_after"} <= set(df.columns)
    assert isinstance(x.unreached(), list)


def test_events_table(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    g.play_turns(1)
    table = turnspec.events_table(g.events())
    df = turnspec.table_to_pandas(table)
    assert "event" in df.columns and "rule" in df.columns
    assert turnspec.table_to_arrow(table).num_rows == len(df)
    wins = turnspec.table_to_pandas(turnspec.simulate(mtg, games=5, turns=1).outcomes())
    assert list(wins["seat"]) == ["P1", "P2"]
