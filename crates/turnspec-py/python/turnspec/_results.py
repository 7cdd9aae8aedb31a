"""Results of simulate, compare, diff and explore, with table views.

pandas and pyarrow are optional: ``to_pandas()`` and ``to_arrow()`` import
them when called and raise ImportError with the install command if they
are missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from . import _core

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    import pyarrow

    from ._core import Spec

FIGURES = (
    "steps",
    "windows",
    "passes",
    "actions",
    "pushes",
    "resolutions",
    "turn_actions",
    "triggers",
)

_HINT = "pip install pandas pyarrow (or: bash scripts/python.sh install, docs/python.md)"


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"to_pandas() needs pandas: {_HINT}") from e
    return pandas


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"to_arrow() needs pyarrow: {_HINT}") from e
    return pyarrow


def _columns_of(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[Any]]:
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    return {k: [r.get(k) for r in rows] for k in keys}


def table_to_pandas(columns: Mapping[str, Sequence[Any]]) -> "pandas.DataFrame":
    """A dict of equal-length columns as a pandas DataFrame."""
    return _pandas().DataFrame({k: list(v) for k, v in columns.items()})


def table_to_arrow(columns: Mapping[str, Sequence[Any]]) -> "pyarrow.Table":
    """A dict of equal-length columns as a pyarrow Table."""
    return _pyarrow().table({k: list(v) for k, v in columns.items()})


def events_table(events: Sequence[Mapping[str, Any]]) -> dict[str, list[Any]]:
    """Events from ``Game.events()`` as columns (one row per event; a
    field an event lacks is None)."""
    return _columns_of(
        [{k: (v if not isinstance(v, (list, dict)) else repr(v)) for k, v in e.items()} for e in events]
    )


@dataclass(frozen=True)
class SimulationResult:
    """``simulate``: the games' totals, the per-turn figures and one row per
    game (``table``: game, turns, steps, windows, passes, actions, pushes,
    resolutions, turn_actions, triggers, draw, status, winners)."""

    spec: str
    policy: str
    games: int
    turns: int
    players: int
    seed: int
    digest: str
    totals: dict[str, int]
    wins: list[int]
    per_turn: dict[str, float]
    table: dict[str, list[Any]]

    def to_pandas(self) -> "pandas.DataFrame":
        """One row per game."""
        return table_to_pandas(self.table)

    def to_arrow(self) -> "pyarrow.Table":
        """One row per game."""
        return table_to_arrow(self.table)

    def outcomes(self) -> dict[str, list[Any]]:
        """Outcomes per seat: seat, wins, share of games won."""
        seats = [f"P{i + 1}" for i in range(self.players)]
        return {
            "seat": seats,
            "wins": list(self.wins),
            "share": [w / self.games if self.games else 0.0 for w in self.wins],
        }


def simulate(
    spec: "Spec",
    games: int = 1000,
    turns: int = 10,
    policy: str = "all-pass",
    seed: int = 0,
    players: int = 2,
) -> SimulationResult:
    """Plays ``games`` games of ``spec`` inside Rust, exactly as
    ``turnspec simulate`` does (same counts, same digest)."""
    raw = _core._simulate(spec, games=games, turns=turns, policy=policy, seed=seed, players=players)
    order = ("game", "turns", *FIGURES, "draw", "status", "winners")
    table = raw["table"]
    raw["table"] = {k: table[k] for k in order if k in table}
    raw["per_turn"] = {k: raw["per_turn"][k] for k in FIGURES if k in raw["per_turn"]}
    return SimulationResult(**raw)


@dataclass(frozen=True)
class Comparison:
    """``compare``: the same simulation under several specs, one summary
    per spec (``specs``: dicts with "spec", "per_turn", "totals",
    "outcomes", "digest", "error")."""

    policy: str
    turns: int
    players: int
    seed: int
    games: int
    specs: list[dict[str, Any]]

    def per_turn(self) -> dict[str, list[Any]]:
        """Per-turn figures, one row per spec."""
        rows = [{"spec": s["spec"], **{k: s["per_turn"].get(k) for k in FIGURES}} for s in self.specs]
        return _columns_of(rows)

    def outcomes(self) -> dict[str, list[Any]]:
        """Wins per seat, one row per spec and seat."""
        rows: list[dict[str, Any]] = []
        for s in self.specs:
            wins = s["outcomes"]["wins"]
            for i, w in enumerate(wins):
                rows.append({"spec": s["spec"], "seat": f"P{i + 1}", "wins": w})
        return _columns_of(rows) if rows else {"spec": [], "seat": [], "wins": []}

    def to_pandas(self) -> "pandas.DataFrame":
        """Per-turn figures, one row per spec."""
        return table_to_pandas(self.per_turn())

    def to_arrow(self) -> "pyarrow.Table":
        """Per-turn figures, one row per spec."""
        return table_to_arrow(self.per_turn())


def compare(
    specs: Sequence["Spec"],
    labels: Optional[Sequence[str]] = None,
    games: int = 1000,
    turns: int = 10,
    policy: str = "all-pass",
    seed: int = 0,
    players: int = 2,
) -> Comparison:
    """Simulates the same games under each spec, as ``turnspec compare``
    does without scenarios. ``labels`` name the specs (default: their
    paths)."""
    names = list(labels) if labels is not None else [s.path for s in specs]
    raw = _core._compare(list(specs), names, games=games, turns=turns, policy=policy, seed=seed, players=players)
    return Comparison(**raw)


@dataclass(frozen=True)
class SpecDiff:
    """``diff``: the structural differences between two specs, as
    ``turnspec diff`` finds them; ``entries`` are dicts with section,
    change, element, field, left, right and their rules; ``text`` is the
    command's text form."""

    left: dict[str, Any]
    right: dict[str, Any]
    entries: list[dict[str, Any]]
    text: str
    extra: dict[str, Any]

    def __len__(self) -> int:
        return len(self.entries)

    def table(self) -> dict[str, list[Any]]:
        return _columns_of(self.entries)

    def to_pandas(self) -> "pandas.DataFrame":
        return table_to_pandas(self.table())

    def to_arrow(self) -> "pyarrow.Table":
        return table_to_arrow(self.table())


def diff(left: "Spec", right: "Spec", left_label: Optional[str] = None, right_label: Optional[str] = None) -> SpecDiff:
    """Compares two specs element by element."""
    raw = dict(_core._diff(left, right, left_label or left.path, right_label or right.path))
    entries = raw.pop("differences", [])
    return SpecDiff(
        left=raw.pop("left"),
        right=raw.pop("right"),
        entries=list(entries),
        text=raw.pop("text"),
        extra=raw,
    )


@dataclass(frozen=True)
class Exploration:
    """``explore``: every sequence of legal moves within the bounds; what
    was never reached (``coverage``), and the findings (dead ends, cycles,
    the deepest stack), with ``text`` as ``turnspec explore`` prints it."""

    title: str
    states: int
    edges: int
    deepest_level: int
    stop: dict[str, Any]
    complete: bool
    coverage: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    text: str

    def to_pandas(self) -> "pandas.DataFrame":
        """The coverage table: kind, id, rule, reached_after."""
        return table_to_pandas(_columns_of(self.coverage))

    def to_arrow(self) -> "pyarrow.Table":
        """The coverage table: kind, id, rule, reached_after."""
        return table_to_arrow(_columns_of(self.coverage))

    def unreached(self) -> list[dict[str, Any]]:
        return [c for c in self.coverage if c["reached_after"] is None]


def explore(
    spec: "Spec",
    players: int = 2,
    turns: int = 1,
    depth: int = 12,
    max_states: int = 1_000_000,
    threads: int = 1,
) -> Exploration:
    """Explores every sequence of legal moves up to the bounds, as
    ``turnspec explore`` does."""
    raw = _core._explore(spec, players=players, turns=turns, depth=depth, max_states=max_states, threads=threads)
    return Exploration(**raw)


