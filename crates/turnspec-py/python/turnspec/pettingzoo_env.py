"""A PettingZoo AEC environment over a turnspec game (docs/python.md).

Needs numpy, gymnasium and pettingzoo (``pip install turnspec[rl]``; the
script ``scripts/python.sh`` installs them). The agents are
``player_0``... (seat order); the one to act is the player holding
priority. Actions are those of :class:`turnspec.openspiel.GameState`
(0 passes, 1 + i plays timing class i, the last leaves the game), and each
observation is a dict with the public ``observation`` vector and the
``action_mask`` of the legal actions (all zeros for an agent who is not
to act). Chance nodes are resolved by the environment's random generator
(seeded by ``reset(seed=...)``). Rewards come only where the game ends:
+1 to each winner, -1 to the others (and -1 at once to a player who
leaves), 0 for a draw; the turn limit truncates the game with no reward.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._core import Spec
from .openspiel import GameState


class TurnspecEnv(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "name": "turnspec_v0", "is_parallelizable": False}

    def __init__(
        self,
        spec: Spec,
        players: int = 2,
        *,
        turn_limit: int = 10,
        chance: Optional[Mapping[str, Sequence[tuple[int, float]]]] = None,
        concede: bool = True,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self.spec = spec
        self.players = players
        self.turn_limit = turn_limit
        self.chance = dict(chance or {})
        self.concede = concede
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        probe = self._new_state()
        n_actions = probe.num_distinct_actions()
        n_obs = probe.observation_size()
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (n_obs,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.state: GameState = probe

    def _new_state(self) -> GameState:
        return GameState(
            self.spec, self.players, turn_limit=self.turn_limit, chance=self.chance, concede=self.concede
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _resolve_chance(self) -> None:
        while self.state.is_chance_node():
            outcomes = self.state.chance_outcomes()
            i = int(self._rng.choice(len(outcomes), p=[p for _, p in outcomes]))
            self.state.apply_action(outcomes[i][0])

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self._new_state()
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection: Optional[str] = None
        self._select()

    def _select(self) -> None:
        seat = self.state.current_player()
        if seat >= 0:
            self.agent_selection = self._agent(seat)
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        obs = np.asarray(self.state.observation_tensor(seat), dtype=np.float32)
        mask = np.zeros(self.state.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            for a in self.state.legal_actions():
                mask[a] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        in_game_before = self._in_game()
        self.state.apply_action(int(action))
        self._resolve_chance()
        if self.state.is_terminal():
            returns = self.state.returns()
            over = self.state.game.status == "over"
            for a in self.agents:
                seat = self.possible_agents.index(a)
                if over:
                    self.terminations[a] = True
                    if a in in_game_before:
                        self.rewards[a] = returns[seat]
                else:
                    self.truncations[a] = True
            self._select()
        else:
            left = [a for a in in_game_before if a not in self._in_game()]
            for a in left:
                self.terminations[a] = True
                self.rewards[a] = -1.0
            self._select()
            if left:
                self._skip_agent_selection = self.agent_selection
                self.agent_selection = left[0]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def _in_game(self) -> list[str]:
        """Agents whose player is still in the game (has not left)."""
        if self.state.is_terminal():
            return [a for a in self.agents if not self.terminations[a]]
        game = self.state.game
        return [a for a in self.agents if game.in_game(self.possible_agents.index(a))]

    def render(self) -> str:
        return str(self.state)

    def close(self) -> None:
        pass


def env(spec: Spec, **kwargs: Any) -> TurnspecEnv:
    """The environment for ``spec``; keyword arguments as ``TurnspecEnv``."""
    return TurnspecEnv(spec, **kwargs)
