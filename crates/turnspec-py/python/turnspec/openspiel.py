"""An OpenSpiel-style view of a turnspec game (docs/python.md).

``GameState`` is a state with integer actions, as OpenSpiel's
``pyspiel.State`` has them (it does not need OpenSpiel installed):

* actions: ``0`` passes; ``1 + i`` plays the spec's timing class ``i``
  (``spec.timing_classes[i]``; a class made by an object uses the first
  object that may, with the engine's label for it); ``1 + T`` (T timing
  classes) resolves the first trigger the player may choose from a bag
  (Lorcana); ``2 + T`` leaves the game (a concession), when
  ``concede=True``.
* players are seat indices from 0; ``current_player()`` is the holder, or
  ``CHANCE`` (-1) at a chance node, or ``TERMINAL`` (-4) once the game has
  stopped.
* chance nodes give the host's randomness a place in the tree: ``chance``
  maps a turn-based action of the spec to a distribution of its answers,
  e.g. ``{"declare_attackers": [(0, 0.5), (1, 0.25), (2, 0.25)]}``. The
  answer the host gives the *next* time that action happens is drawn at a
  chance node: before the game starts (one node per action, in the order
  given) and again after every player move that used the drawn answer. If
  an action happens twice within one move, both times get the same draw.
  ``legal_actions()`` at a chance node are the answers, and
  ``chance_outcomes()`` the (answer, probability) pairs.
* ``returns()``: all zeros until the game is over by its rules; then +1
  for each winner, -1 for each other player, zeros for a draw. A game
  stopped by the turn limit returns zeros. ``rewards()`` are the returns
  at the end and zeros before: rewards only where the game ends.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ._core import Game, Spec

CHANCE = -1
TERMINAL = -4
PASS = 0


class _ChanceHost:
    """The host that answers turn-based actions with the drawn answers."""

    def __init__(self, actions: Sequence[str]) -> None:
        self.actions = list(actions)
        self.drawn: dict[str, int] = {}
        self.last: dict[str, int] = {}

    def copy(self) -> "_ChanceHost":
        h = _ChanceHost(self.actions)
        h.drawn = dict(self.drawn)
        h.last = dict(self.last)
        return h

    def turn_action(self, hook: dict[str, Any]) -> int:
        action = hook["action"]
        if action not in self.last and action not in self.drawn:
            return 0
        if action in self.drawn:
            self.last[action] = self.drawn.pop(action)
        return self.last[action]

    def undrawn(self) -> Optional[str]:
        for a in self.actions:
            if a not in self.drawn:
                return a
        return None


class GameState:
    """An OpenSpiel-style state over a :class:`turnspec.Game`."""

    def __init__(
        self,
        spec: Spec,
        players: int = 2,
        *,
        turn_limit: int = 10,
        chance: Optional[Mapping[str, Sequence[tuple[int, float]]]] = None,
        concede: bool = True,
    ) -> None:
        self.spec = spec
        self.num_players = players
        self.turn_limit = turn_limit
        self.concede = concede
        self._chance: dict[str, list[tuple[int, float]]] = {}
        for action, dist in (chance or {}).items():
            if action not in spec.turn_actions:
                raise ValueError(f"{spec.title} has no turn-based action {action!r}")
            pairs = [(int(a), float(p)) for a, p in dist]
            total = sum(p for _, p in pairs)
            if not pairs or abs(total - 1.0) > 1e-9 or any(p < 0 for _, p in pairs):
                raise ValueError(f"the answers of {action!r} need probabilities that sum to 1")
            self._chance[action] = pairs
        self._timings = spec.timing_classes
        self._host = _ChanceHost(list(self._chance))
        self.game = Game(spec, players, turn_limit=turn_limit, host=self._host, record_events=False, start=False)
        self._history: list[int] = []
        self._maybe_start()

    # --- sizes ---------------------------------------------------------

    def num_distinct_actions(self) -> int:
        """Pass, one per timing class, choose, and leave."""
        return len(self._timings) + 3

    @property
    def choose_action(self) -> int:
        return len(self._timings) + 1

    @property
    def leave_action(self) -> int:
        return len(self._timings) + 2

    def observation_size(self) -> int:
        return len(self.spec.steps) + 2 * self.num_players + 2

    # --- whose move ----------------------------------------------------

    def _chance_action(self) -> Optional[str]:
        if not self.game.running:
            return None
        return self._host.undrawn()

    def _maybe_start(self) -> None:
        if not self.game.started and self._chance_action() is None:
            self.game.start()

    def is_chance_node(self) -> bool:
        return self._chance_action() is not None

    def is_terminal(self) -> bool:
        return self.game.started and not self.game.running

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        holder = self.game.holder
        return int(holder[1:]) - 1 if holder else TERMINAL

    # --- actions -------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        action = self._chance_action()
        if action is None:
            return []
        return list(self._chance[action])

    def _moves(self) -> dict[int, dict[str, Any]]:
        """The current player's legal actions and the move each makes."""
        out: dict[int, dict[str, Any]] = {}
        for m in self.game.legal_moves():
            if "pass" in m:
                out.setdefault(PASS, m)
            elif "play" in m:
                out.setdefault(1 + self._timings.index(m["play"]), m)
            elif "choose" in m:
                out.setdefault(self.choose_action, m)
        holder = self.game.holder
        if self.concede and holder is not None:
            out[self.leave_action] = {"leave": holder}
        return out

    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()] if player in (None, CHANCE) else []
        if player is not None and player != self.current_player():
            return []
        return sorted(self._moves())

    def legal_actions_mask(self, player: Optional[int] = None) -> list[int]:
        mask = [0] * self.num_distinct_actions()
        if not self.is_chance_node():
            for a in self.legal_actions(player):
                mask[a] = 1
        return mask

    def action_to_move(self, action: int) -> dict[str, Any]:
        """The engine move an action id stands for now."""
        moves = self._moves()
        if action not in moves:
            raise ValueError(f"action {action} is not legal now (legal: {sorted(moves)})")
        return moves[action]

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"answer {action}"
        if action == PASS:
            return "pass"
        if action == self.leave_action:
            return "leave"
        if action == self.choose_action:
            return "choose"
        return f"play {self._timings[action - 1]}"

    def apply_action(self, action: int) -> None:
        action = int(action)
        chance = self._chance_action()
        if chance is not None:
            answers = [a for a, _ in self._chance[chance]]
            if action not in answers:
                raise ValueError(f"{action} is not an answer of the chance node {chance!r} ({answers})")
            self._host.drawn[chance] = action
            self._history.append(action)
            self._maybe_start()
            return
        if self.is_terminal():
            raise ValueError("the game is over")
        self.game.apply(self.action_to_move(action))
        self._history.append(action)

    def history(self) -> list[int]:
        return list(self._history)

    # --- results -------------------------------------------------------

    def returns(self) -> list[float]:
        outcome = self.game.outcome
        if not self.is_terminal() or outcome is None or outcome["draw"]:
            return [0.0] * self.num_players
        winners = {int(p[1:]) - 1 for p in outcome["winners"]}
        return [1.0 if i in winners else -1.0 for i in range(self.num_players)]

    def rewards(self) -> list[float]:
        return self.returns()

    # --- views ---------------------------------------------------------

    def observation_tensor(self, player: Optional[int] = None) -> list[float]:
        """Public information, values in [0, 1]: one-hot step, one-hot
        active player, one-hot holder, stack size / 10 (at most 1), turn /
        turn limit (at most 1)."""
        steps = self.spec.steps
        v = [0.0] * self.observation_size()
        if self.game.started:
            v[steps.index(self.game.step)] = 1.0
            v[len(steps) + int(self.game.active_player[1:]) - 1] = 1.0
            holder = self.game.holder
            if holder is not None:
                v[len(steps) + self.num_players + int(holder[1:]) - 1] = 1.0
        v[-2] = min(len(self.game.stack), 10) / 10
        v[-1] = min(self.game.turn, self.turn_limit) / max(self.turn_limit, 1)
        return v

    def observation_string(self, player: Optional[int] = None) -> str:
        return str(self)

    def clone(self) -> "GameState":
        other = object.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other._host = self._host.copy()
        other.game = self.game.clone()
        other.game.host = other._host
        other._history = list(self._history)
        return other

    def __str__(self) -> str:
        g = self.game
        return (
            f"turn {g.turn} {g.phase}/{g.step} active {g.active_player} holder {g.holder} "
            f"stack {len(g.stack)} {g.status}"
        )
