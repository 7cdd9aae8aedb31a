"""to_bytes / from_bytes: a compact, versioned snapshot that round-trips."""

from __future__ import annotations

import pytest

import turnspec
from conftest import GAMES


def test_round_trip_exactly(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    g.apply({"play": "instant", "by": "P1", "label": 3})
    g.report_trigger("P2", 9)
    data = g.to_bytes()
    assert isinstance(data, bytes) and data[:4] == b"TSGS"
    h = turnspec.Game.from_bytes(mtg, data)
    assert h.to_bytes() == data
    assert repr(h) == repr(g) and h.stack == g.stack
    # Both play on identically.
    for _ in range(30):
        if not g.running:
            break
        g.apply("pass")
        h.apply("pass")
        assert h.to_bytes() == g.to_bytes()
    # The snapshot holds the game, not its event buffer.
    assert turnspec.Game.from_bytes(mtg, data).events() == []


def test_round_trip_after_many_turns(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg, record_events=False)
    g.play_turns(7, policy="random", seed=11)
    h = turnspec.Game.from_bytes(mtg, g.to_bytes())
    g.play_turns(3, policy="random", seed=5)
    h.play_turns(3, policy="random", seed=5)
    assert g.to_bytes() == h.to_bytes()


def test_bad_snapshots(mtg: turnspec.Spec) -> None:
    data = turnspec.Game(mtg).to_bytes()
    other = turnspec.load(str(GAMES / "lorcana.toml"))
    for bad in (b"", b"nope", data[:-1], data[:10], bytes(len(data))):
        with pytest.raises(turnspec.SnapshotError):
            turnspec.Game.from_bytes(mtg, bad)
    with pytest.raises(turnspec.SnapshotError):
        turnspec.Game.from_bytes(other, data)
