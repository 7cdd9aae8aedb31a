"""Loading, checking, moves, host commands, hooks, events and clones."""

from __future__ import annotations

from typing import Any, Optional

import pytest

import turnspec
from conftest import GAMES


def test_load_every_game() -> None:
    for path in sorted(GAMES.glob("*.toml")):
        text = path.read_text()
        if "[game]" not in text and "extends" not in text:
            continue  # stop profiles
        try:
            spec = turnspec.load(str(path))
        except turnspec.SpecError:
            continue
        assert spec.title


def test_spec_properties(mtg: turnspec.Spec) -> None:
    assert mtg.name == "Magic: The Gathering"
    assert "upkeep" in mtg.steps
    assert "instant" in mtg.timing_classes
    assert mtg.min_players <= 2 <= mtg.max_players
    assert mtg.warnings == []
    assert "Spec" in repr(mtg)


def test_spec_error_carries_diagnostics() -> None:
    with pytest.raises(turnspec.SpecError) as info:
        turnspec.loads("[game]\nname = 3\n", path="bad.toml")
    e = info.value
    assert e.file == "bad.toml"
    assert e.line == 2 and e.column == 8
    assert e.code
    assert e.diagnostics and all(isinstance(d, turnspec.Diagnostic) for d in e.diagnostics)
    d = e.diagnostics[0]
    assert d.severity == "error" and d.message
    assert "bad.toml:2:8" in str(e)


def test_check_returns_all_diagnostics(tmp_path: Any) -> None:
    assert turnspec.check(str(GAMES / "mtg.toml")) == []
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nname = 3\nedition = 4\n")
    diags = turnspec.check(str(bad))
    assert len(diags) >= 1
    assert all(d.file == str(bad) for d in diags)
    with pytest.raises(OSError):
        turnspec.check(str(tmp_path / "missing.toml"))


def test_extends_reads_bases_next_to_the_file(mtg2011: turnspec.Spec) -> None:
    assert "2011" in mtg2011.title or "Innistrad" in mtg2011.title


def test_game_starts_and_passes(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    assert (g.turn, g.phase, g.step, g.holder) == (1, "beginning", "upkeep", "P1")
    assert g.status == "running" and g.running
    assert g.legal_moves()[0] == {"pass": "P1"}
    assert {"play": "instant", "by": "P1", "label": 0} in g.legal_moves()
    assert g.legal_moves("P2") == []
    g.apply("pass")
    assert g.holder == "P2"
    g.apply({"pass": "P2"})
    assert g.step == "precombat_main"  # the starting player skips the draw (103.8a)


def test_illegal_move_changes_nothing(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    before = repr(g)
    with pytest.raises(turnspec.IllegalMove) as info:
        g.apply({"pass": "P2"})
    assert info.value.rule == "117.1"
    assert info.value.reason == "not_holder"
    assert repr(g) == before
    with pytest.raises(turnspec.IllegalMove) as info2:
        g.apply({"play": "sorcery", "by": "P1"})
    assert info2.value.rule
    assert repr(g) == before
    assert not g.is_legal({"play": "sorcery", "by": "P1"})
    assert g.is_legal("pass")


@pytest.mark.parametrize(
    "bad",
    [{"play": "nope", "by": "P1"}, {"pass": "Q1"}, {"pass": 999}, {"what": 1}, 3, "hold", {"play": "instant", "label": -1}],
)
def test_bad_moves_raise_python_errors(mtg: turnspec.Spec, bad: Any) -> None:
    g = turnspec.Game(mtg)
    with pytest.raises((ValueError, TypeError, turnspec.IllegalMove)):
        g.apply(bad)
    assert g.holder == "P1"


def test_play_and_stack(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    g.apply({"play": "instant", "by": "P1", "label": 7})
    assert g.stack == [{"controller": "P1", "kind": "play", "timing": "instant", "label": 7}]
    g.apply("pass")
    g.apply("pass")
    assert g.stack == []
    kinds = [e["event"] for e in g.events()]
    assert "resolve" in kinds


def test_events_carry_rules(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    events = g.events()
    assert events[0] == {"event": "turn_began", "player": "P1", "turn": 1}
    assert any(e.get("rule") == "501.1" for e in events)
    assert g.events() == []  # drained
    g.apply("pass")
    assert "P1 passes" in g.trace()


def test_game_options(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg, players=3, starting_player="P2", turn_limit=1, record_events=False)
    assert g.players == 3 and g.active_player == "P2"
    g.play_turns(5)
    assert g.status == "turn_limit" and g.holder is None
    assert g.events() == []
    with pytest.raises(turnspec.SetupError):
        turnspec.Game(mtg, players=0)
    with pytest.raises(turnspec.IllegalMove) as info:
        g.apply("pass")
    assert info.value.reason == "not_running"


def test_clone_is_independent(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    c = g.clone()
    c.apply("pass")
    assert g.holder == "P1" and c.holder == "P2"
    import copy

    d = copy.copy(g)
    assert repr(d) == repr(g)


class Recorder:
    """A host: two attackers when asked, a trigger when an attacker's
    object resolves."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def turn_action(self, hook: dict[str, Any]) -> Any:
        self.calls.append(hook["action"])
        if hook["action"] == "declare_attackers":
            return (2, [(hook["active"], 100)])
        return 0

    def resolved(self, hook: dict[str, Any]) -> Optional[list[tuple[str, int]]]:
        obj = hook["object"]
        if obj["label"] == 100:
            return [(obj["controller"], 101)]
        return None

    def step_began(self, hook: dict[str, Any]) -> None:
        self.calls.append("began:" + hook["step"])


def test_host_hooks(mtg: turnspec.Spec) -> None:
    host = Recorder()
    g = turnspec.Game(mtg, host=host)
    assert g.host is host
    while g.turn == 1 and g.running:
        g.apply("pass")
    assert "draw" not in host.calls or True
    assert "declare_attackers" in host.calls
    assert "began:upkeep" in host.calls
    labels = [e.get("label") for e in g.events() if e["event"] == "resolve"]
    assert 100 in labels and 101 in labels
    assert g.counter("attackers") is not None


class Raises:
    def turn_action(self, hook: dict[str, Any]) -> int:
        raise KeyError("boom")


class BadAnswer:
    def turn_action(self, hook: dict[str, Any]) -> Any:
        return "many"


class BadTrigger:
    def step_began(self, hook: dict[str, Any]) -> Any:
        return [("P9", 1)]


def test_host_exceptions_are_raised_after_apply(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg, start=False, host=Raises())
    with pytest.raises(KeyError):
        g.start()
    g = turnspec.Game(mtg)
    g.host = Raises()
    with pytest.raises(KeyError):
        for _ in range(50):
            g.apply("pass")
    with pytest.raises(TypeError):
        turnspec.Game(mtg, host=BadAnswer())
    with pytest.raises(turnspec.HostError):
        turnspec.Game(mtg, host=BadTrigger())
    g = turnspec.Game(mtg, host=None)
    g.host = None
    g.apply("pass")


def test_host_commands(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    g.report_trigger("P1", 5)
    g.apply("pass")
    g.apply("pass")
    with pytest.raises(ValueError):
        g.set_fact("no_such_fact")
    with pytest.raises(turnspec.IllegalMove):
        g.report_trigger("P7", 1)
    g.add_mana("P1", 3)
    assert mtg.endings
    g.declare_ending(mtg.endings[0], "P2")
    assert g.status in ("over", "running")
    g2 = turnspec.Game(mtg)
    g2.remove_player("P2")
    assert g2.status == "over"
    assert g2.outcome is not None and g2.outcome["winners"] == ["P1"]
    assert g2.outcome["rule"]


def test_effects(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    assert mtg.effects
    effect = mtg.effects[0]
    try:
        g.apply_effect(effect, "P1")
    except turnspec.IllegalMove as e:
        assert e.rule is not None or e.reason


def test_play_turns_batch(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg, record_events=False)
    n = g.play_turns(10)
    assert g.turn == 11 and n > 0
    r = turnspec.Game(mtg, record_events=False)
    r.play_turns(3, policy="random", seed=7)
    r2 = turnspec.Game(mtg, record_events=False)
    r2.play_turns(3, policy="random", seed=7)
    assert repr(r) == repr(r2)
    with pytest.raises(ValueError):
        g.play_turns(1, policy="clever")  # type: ignore[arg-type]


def test_delayed_triggers_and_durations(mtg: turnspec.Spec) -> None:
    g = turnspec.Game(mtg)
    g.delay_trigger("P1", 42, "end")
    g.delay_trigger("P2", 43, "phase:ending", own_turn=True)
    g.delay_trigger("P1", 44, "upkeep", next_turn=True)
    g.report_pending_trigger("P2", 45)
    with pytest.raises(ValueError):
        g.delay_trigger("P1", 1, "nowhere")
    g.start_duration(7, "turn")
    g.start_duration(8, "until_next", player="P1", at="upkeep")
    with pytest.raises(ValueError):
        g.start_duration(9, "until_next", player="P1")
    with pytest.raises(ValueError):
        g.start_duration(9, "forever")
    g.end_duration(8)
    with pytest.raises(turnspec.IllegalMove):
        g.end_duration(1234)
    while g.turn < 4 and g.running:
        g.apply("pass")
    labels = {e.get("label") for e in g.events()}
    # 44 triggers in P1's next turn (turn 3), at its upkeep.
    assert {42, 43, 44, 45} <= labels
