"""turnspec: card-game turn structures as data (docs/python.md).

Load a spec, play a game of it, simulate, compare, diff and explore::

    import turnspec
    spec = turnspec.load("games/mtg.toml")
    game = turnspec.Game(spec, players=2)
    game.apply("pass")
    print(game.events())
"""

from __future__ import annotations

from ._core import Game, Spec, check, load, loads
from ._errors import (
    Diagnostic,
    HostError,
    IllegalMove,
    Related,
    SetupError,
    SnapshotError,
    SpecError,
    TurnspecError,
)
from ._results import (
    Comparison,
    Exploration,
    SimulationResult,
    SpecDiff,
    compare,
    diff,
    events_table,
    explore,
    simulate,
    table_to_arrow,
    table_to_pandas,
)

__all__ = [
    "Comparison",
    "Diagnostic",
    "Exploration",
    "Game",
    "HostError",
    "IllegalMove",
    "Related",
    "SetupError",
    "SimulationResult",
    "SnapshotError",
    "Spec",
    "SpecDiff",
    "SpecError",
    "TurnspecError",
    "check",
    "compare",
    "diff",
    "events_table",
    "explore",
    "load",
    "loads",
    "simulate",
    "table_to_arrow",
    "table_to_pandas",
]

__version__ = "0.1.0"
