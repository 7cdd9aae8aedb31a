"""The OpenSpiel-style state and the PettingZoo AEC environment."""

from __future__ import annotations

import random

import pytest

import turnspec
from turnspec.openspiel import CHANCE, PASS, TERMINAL, GameState


def test_state_basics(mtg: turnspec.Spec) -> None:
    s = GameState(mtg, turn_limit=2)
    assert s.current_player() == 0
    assert PASS in s.legal_actions()
    assert s.leave_action in s.legal_actions()
    assert s.num_distinct_actions() == len(mtg.timing_classes) + 3
    assert len(s.legal_actions_mask()) == s.num_distinct_actions()
    c = s.clone()
    s.apply_action(PASS)
    assert s.current_player() == 1 and c.current_player() == 0
    assert not s.is_terminal() and s.returns() == [0.0, 0.0]
    obs = s.observation_tensor()
    assert len(obs) == s.observation_size() and all(0.0 <= v <= 1.0 for v in obs)
    with pytest.raises(ValueError):
        s.apply_action(999)


def test_turn_limit_is_terminal_without_reward(mtg: turnspec.Spec) -> None:
    s = GameState(mtg, turn_limit=1)
    while not s.is_terminal():
        s.apply_action(PASS)
    assert s.current_player() == TERMINAL
    assert s.returns() == [0.0, 0.0] and s.legal_actions() == []


def test_leaving_ends_with_returns(mtg: turnspec.Spec) -> None:
    s = GameState(mtg)
    s.apply_action(s.leave_action)
    assert s.is_terminal()
    assert s.returns() == [-1.0, 1.0]


def test_chance_nodes(mtg: turnspec.Spec) -> None:
    dist = [(0, 0.5), (2, 0.5)]
    s = GameState(mtg, turn_limit=3, chance={"declare_attackers": dist})
    assert s.is_chance_node() and s.current_player() == CHANCE
    assert s.chance_outcomes() == dist
    assert s.legal_actions() == [0, 2]
    s.apply_action(2)
    assert not s.is_chance_node() and s.game.started
    seen_chance = 0
    rng = random.Random(1)
    while not s.is_terminal():
        if s.is_chance_node():
            seen_chance += 1
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(PASS)
    assert seen_chance >= 1
    # The answer drawn was the host's answer: attackers was set to 2 once.
    with pytest.raises(ValueError):
        GameState(mtg, chance={"declare_attackers": [(1, 0.3)]})
    with pytest.raises(ValueError):
        GameState(mtg, chance={"nope": [(1, 1.0)]})


def test_clone_keeps_its_own_chance_draws(mtg: turnspec.Spec) -> None:
    s = GameState(mtg, turn_limit=2, chance={"declare_attackers": [(0, 0.5), (1, 0.5)]})
    s.apply_action(1)
    c = s.clone()
    for _ in range(200):
        if s.is_terminal():
            break
        s.apply_action(0 if not s.is_chance_node() else 0)
    assert c.history() == [1]
    assert not c.is_terminal()


def test_random_playouts_are_deterministic(mtg: turnspec.Spec) -> None:
    def play(seed: int) -> list[int]:
        rng = random.Random(seed)
        s = GameState(mtg, turn_limit=3, concede=False)
        while not s.is_terminal():
            # Mostly passes: a uniform choice would pile plays on the stack
            # faster than two passes in a row resolve them.
            legal = s.legal_actions()
            s.apply_action(PASS if rng.random() < 0.8 else rng.choice(legal))
        return s.history()

    assert play(4) == play(4)


def test_pettingzoo_api_test(mtg: turnspec.Spec) -> None:
    from pettingzoo.test import api_test

    from turnspec.pettingzoo_env import TurnspecEnv

    env = TurnspecEnv(mtg, turn_limit=3, chance={"declare_attackers": [(0, 0.5), (1, 0.5)]})
    api_test(env, num_cycles=500, verbose_progress=False)


def test_pettingzoo_three_players_and_rewards(mtg: turnspec.Spec) -> None:
    from turnspec.pettingzoo_env import TurnspecEnv

    env = TurnspecEnv(mtg, players=3, turn_limit=4)
    from pettingzoo.test import api_test

    api_test(env, num_cycles=300, verbose_progress=False)
    env.reset(seed=3)
    total = {a: 0.0 for a in env.possible_agents}
    leave = env.state.leave_action
    steps = 0
    while env.agents and steps < 10_000:
        agent = env.agent_selection
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
        else:
            env.step(leave)  # everyone concedes in turn: the last one wins
        steps += 1
    assert sorted(total.values()) == [-1.0, -1.0, 1.0]


def test_every_spec_always_has_a_legal_action() -> None:
    from conftest import GAMES

    for path in sorted(GAMES.glob("*.toml")):
        try:
            spec = turnspec.load(str(path))
        except turnspec.SpecError:
            continue
        rng = random.Random(path.name)
        s = GameState(spec, players=spec.min_players, turn_limit=3, concede=False)
        for _ in range(3000):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            assert legal, (path.name, str(s))
            s.apply_action(PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal))
