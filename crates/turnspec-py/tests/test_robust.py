"""No input reaches a panic: every failure is an ordinary Python exception
(a Rust panic would surface as pyo3's PanicException, a BaseException,
which these tests do not catch)."""

from __future__ import annotations

import random
from typing import Any, Callable

import turnspec
from conftest import GAMES

JUNK: list[Any] = [None, -1, 0, 1, 2**40, "P0", "P256", "", "x", 1.5, [], {}, ("P1", 1), b"P1"]


def test_mutated_snapshots_never_panic(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    g.play_turns(3, policy="random", seed=2)
    data = bytearray(g.to_bytes())
    rng = random.Random(0)
    for _ in range(2000):
        bad = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        if rng.random() < 0.3:
            del bad[rng.randrange(len(bad)) :]
        try:
            h = turnspec.Game.from_bytes(mtg, bytes(bad))
        except turnspec.SnapshotError:
            continue
        # A snapshot the engine accepts is a game it can play on.
        for _ in range(20):
            if not h.running:
                break
            try:
                h.apply("pass")
            except turnspec.IllegalMove:
                break


def test_junk_arguments_never_panic(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    calls: list[Callable[[Any], object]] = [
        lambda j: g.apply({"pass": j}),
        lambda j: g.apply({"play": j, "by": "P1"}),
        lambda j: g.apply({"play": "instant", "by": j, "label": j}),
        lambda j: g.apply({"choose": j, "by": "P1"}),
        lambda j: g.apply({"leave": j}),
        lambda j: g.apply(j),
        lambda j: g.legal_moves(j),
        lambda j: g.report_trigger(j, 1),
        lambda j: g.add_mana(j, 1),
        lambda j: g.counter("attackers", j),
        lambda j: g.in_game(j),
        lambda j: g.set_fact(j),
        lambda j: g.apply_effect(j, "P1"),
        lambda j: g.declare_ending(j, "P1"),
        lambda j: g.is_legal(j),
        lambda j: turnspec.Game(mtg, players=j),
        lambda j: turnspec.Game(mtg, starting_player=j),
        lambda j: turnspec.loads(j),
    ]
    for call in calls:
        for j in JUNK:
            try:
                call(j)
            except (turnspec.TurnspecError, ValueError, TypeError, OverflowError):
                pass


def test_every_spec_plays_random_turns() -> None:
    for path in sorted(GAMES.glob("*.toml")):
        try:
            spec = turnspec.load(str(path))
        except turnspec.SpecError:
            continue
        for players in (spec.min_players, spec.max_players):
            g = turnspec.Game(spec, players=players, record_events=False)
            g.play_turns(3, policy="random", seed=players)
            assert turnspec.Game.from_bytes(spec, g.to_bytes()).to_bytes() == g.to_bytes()
