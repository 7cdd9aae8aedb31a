"""Exceptions and diagnostics of the turnspec package."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional


@dataclass(frozen=True)
class Related:
    """Another place a diagnostic points at."""

    file: str
    line: int
    column: int
    label: str


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a spec, where it is and how to fix it.

    ``line`` and ``column`` count from 1. ``severity`` is "error" or
    "warning". ``code`` is the stable code ``turnspec check`` prints
    (docs/spec-format.md); ``help`` says how to fix it, if the loader knows.
    """

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    code: str
    message: str
    label: str = ""
    help: Optional[str] = None
    related: tuple[Related, ...] = field(default_factory=tuple)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Diagnostic":
        return cls(
            file=d["file"],
            line=d["line"],
            column=d["column"],
            end_line=d["end_line"],
            end_column=d["end_column"],
            severity=d["severity"],
            code=d["code"],
            message=d["message"],
            label=d.get("label") or "",
            help=d.get("help"),
            related=tuple(
                Related(r["file"], r["line"], r["column"], r.get("label") or "")
                for r in d.get("related") or ()
            ),
        )

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}]: {self.message}"
        if self.help:
            text += f"\n  help: {self.help}"
        return text


def _diagnostics(raw: Iterable[dict[str, Any]]) -> list[Diagnostic]:
    return [Diagnostic.from_dict(d) for d in raw]


class TurnspecError(Exception):
    """Base class of every error the package raises on purpose."""


class SpecError(TurnspecError):
    """A spec has errors. ``diagnostics`` holds all of them (and the
    warnings); the first error's place and code are also attributes."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.is_error] or self.diagnostics
        first = errors[0] if errors else None
        self.file: Optional[str] = first.file if first else None
        self.line: Optional[int] = first.line if first else None
        self.column: Optional[int] = first.column if first else None
        self.code: Optional[str] = first.code if first else None
        self.help: Optional[str] = first.help if first else None
        count = sum(1 for d in self.diagnostics if d.is_error)
        head = str(first) if first else "the spec has errors"
        more = f" (and {count - 1} more)" if count > 1 else ""
        super().__init__(head + more)


class IllegalMove(TurnspecError):
    """The engine refused a move or a host command; nothing changed.

    ``message`` says why in the spec's words, ``rule`` is the rule it
    enforces (as the spec cites it, or None) and ``reason`` the engine's
    stable name for the refusal ("not_holder", "wrong_step",
    "not_running"...), as scenario files name it."""

    def __init__(self, message: str, rule: Optional[str] = None, reason: str = "") -> None:
        shown = message if rule is None or rule in message else f"{message} [{rule}]"
        super().__init__(shown)
        self.message = message
        self.rule = rule
        self.reason = reason


class HostError(TurnspecError):
    """A host hook returned something the engine cannot use."""


class SetupError(TurnspecError):
    """A game cannot be set up with these options (a player count the
    spec does not allow...)."""


class SnapshotError(TurnspecError):
    """Bytes given to ``Game.from_bytes`` are not a snapshot of this spec
    (another spec, another snapshot version, truncated or altered)."""
