"""Shared fixtures: the repository's specs (pytest runs from the root)."""

from __future__ import annotations

from pathlib import Path

import pytest

import turnspec

ROOT = Path(__file__).resolve().parents[3]
GAMES = ROOT / "games"


@pytest.fixture(scope="session")
def mtg() -> turnspec.Spec:
    return turnspec.load(str(GAMES / "mtg.toml"))


@pytest.fixture(scope="session")
def mtg2011() -> turnspec.Spec:
    return turnspec.load(str(GAMES / "mtg-2011.toml"))
