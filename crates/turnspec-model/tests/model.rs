//! The model's promises, checked on hand-built parts: a spec is consistent
//! by construction, arenas refuse ids past their limit, and conditions
//! cannot nest without end.

use turnspec_model::{
    Arena, Atom, CompareOp, Conditions, MAX_CONDITION_DEPTH, MAX_TIMING_CLASSES, Phase, PhaseId,
    Spec, SpecParts, Stage, Step, StepId, TimingClass, TimingId, Window, WindowId,
};

fn phase(id: &str, first_step: StepId, step_count: u16) -> Phase {
    Phase {
        id: id.into(),
        name: id.into(),
        rule: Default::default(),
        tags: Vec::new(),
        kind: 0,
        on_demand: false,
        only_if: None,
        skip: Vec::new(),
        first_step,
        step_count,
        implicit_step: true,
        optional: false,
        between_turns: false,
    }
}

fn step(id: &str, phase: PhaseId, stages: Vec<Stage>) -> Step {
    Step {
        id: id.into(),
        name: id.into(),
        rule: Default::default(),
        tags: Vec::new(),
        phase,
        implicit: true,
        stages,
        only_if: None,
        skip: Vec::new(),
        repeat: None,
        timing_mask: 0,
    }
}

/// One phase with one step holding one window: the smallest spec there is.
fn smallest() -> SpecParts {
    let mut parts = SpecParts::default();
    parts.game.name = "smallest".into();
    parts.game.min_players = 2;
    parts.game.max_players = 2;
    parts.kinds.push("main".into());
    let first = parts.steps.next_id().unwrap();
    let main = parts.phases.alloc(phase("main", first, 1)).unwrap();
    let window = Window {
        name: String::new(),
        rule: Default::default(),
        mode: turnspec_model::WindowMode::Always,
        close_when_stack_empty: false,
        step: first,
        solo: false,
    };
    let w: WindowId = parts.windows.alloc(window).unwrap();
    parts
        .steps
        .alloc(step("main", main, vec![Stage::Window(w)]))
        .unwrap();
    parts.turn.push(main);
    parts
}

#[test]
fn consistent_parts_make_a_spec_whose_ids_all_resolve() {
    let spec = Spec::new(smallest()).expect("consistent");
    for id in spec.steps().ids() {
        assert_eq!(spec.phase(spec.step(id).phase).id, "main");
    }
    assert_eq!(spec.step_by_id("main"), spec.steps().ids().next());
}

#[test]
fn parts_whose_references_do_not_fit_are_refused() {
    // An id from a bigger spec: a step range past the steps there are.
    let mut bigger = smallest();
    let extra = bigger.steps.next_id().unwrap();
    let mut parts = smallest();
    parts.phases = Arena::new();
    parts.phases.alloc(phase("main", extra, 1)).unwrap();
    let problems = Spec::new(parts).unwrap_err().problems;
    assert!(
        problems.iter().any(|p| p.contains("steps outside")),
        "{problems:?}"
    );

    // A window in a step of another spec.
    let main = bigger.phases.ids().next().unwrap();
    bigger.steps.alloc(step("other", main, Vec::new())).unwrap();
    let far = bigger.steps.ids().last().unwrap();
    let mut parts = smallest();
    parts.windows = Arena::new();
    parts
        .windows
        .alloc(Window {
            name: String::new(),
            rule: Default::default(),
            mode: turnspec_model::WindowMode::Always,
            close_when_stack_empty: false,
            step: far,
            solo: false,
        })
        .unwrap();
    assert!(Spec::new(parts).is_err());

    // No players.
    let mut parts = smallest();
    parts.game.min_players = 0;
    assert!(Spec::new(parts).is_err());
}

#[test]
fn arenas_refuse_ids_past_their_limit() {
    let mut timing: Arena<TimingId, TimingClass> = Arena::new();
    let class = || TimingClass {
        id: "t".into(),
        name: "t".into(),
        rule: Default::default(),
        who: turnspec_model::Who::Any,
        who_rule: Default::default(),
        stack: turnspec_model::StackRequirement::Any,
        stack_rule: Default::default(),
        during: Vec::new(),
        during_rule: Default::default(),
        effect: turnspec_model::Effect::Stack,
        limit: None,
        require: Vec::new(),
        ends: None,
        enters: None,
        cost: None,
        attributes: Vec::new(),
    };
    for _ in 0..MAX_TIMING_CLASSES {
        timing.alloc(class()).expect("within the limit");
    }
    let e = timing.alloc(class()).unwrap_err();
    assert_eq!(
        (e.limit, e.value),
        (MAX_TIMING_CLASSES, MAX_TIMING_CLASSES + 1)
    );
    assert_eq!(timing.len(), MAX_TIMING_CLASSES);
}

#[test]
fn conditions_deeper_than_the_limit_are_refused_and_leave_nothing_behind() {
    let mut conditions = Conditions::default();
    let mut b = conditions.builder();
    let mut node = b.atom(Atom::Turn);
    for _ in 0..MAX_CONDITION_DEPTH + 10 {
        node = b.not(node);
    }
    assert!(b.finish(node, "deep").is_err());
    assert_eq!(conditions.node_count(), 0);

    let mut b = conditions.builder();
    let turn = b.atom(Atom::Turn);
    let two = b.constant(2);
    let root = b.compare(CompareOp::Gt, turn, two);
    let cond = b.finish(root, "turn > 2").expect("shallow");
    assert_eq!(conditions.source(cond), "turn > 2");
    assert_eq!(conditions.constant(cond), None);
}
