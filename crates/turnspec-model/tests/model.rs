//! The model's promises, checked on hand-built parts: a spec is consistent
//! by construction, ids come only from adding elements, specs refuse ids
//! past their limit and answer ids of another spec with `None`, and
//! conditions cannot nest without end.

use turnspec_model::{
    Atom, CompareOp, MAX_CONDITION_DEPTH, MAX_TIMING_CLASSES, Phase, PhaseId, Spec, SpecParts,
    Stage, Step, StepId, TimingClass, TimingId, Window, WindowId,
};

fn phase(id: &str) -> Phase {
    let mut phase = Phase::new(id);
    phase.implicit_step = true;
    phase
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
        on_demand: false,
    }
}

fn window(step: StepId) -> Window {
    Window {
        name: String::new(),
        rule: Default::default(),
        mode: turnspec_model::WindowMode::Always,
        close_when_stack_empty: false,
        step,
        solo: false,
        acts_role: None,
        refuse_pass: Vec::new(),
    }
}

/// One phase with one step holding one window: the smallest spec there
/// is. The step is added before its window, which names it, and then
/// given the window.
fn smallest() -> SpecParts {
    let mut parts = SpecParts::default();
    parts.game.name = "smallest".into();
    parts.game.min_players = 2;
    parts.game.max_players = 2;
    parts.kinds.push("main".into());
    let main: PhaseId = parts.add(phase("main")).unwrap();
    let first: StepId = parts.add(step("main", main, Vec::new())).unwrap();
    let w: WindowId = parts.add(window(first)).unwrap();
    parts.get_mut(first).unwrap().stages.push(Stage::Window(w));
    parts.turn.push(main);
    parts
}

#[test]
fn consistent_parts_make_a_spec_whose_ids_all_resolve() {
    let spec = Spec::new(smallest()).expect("consistent");
    for id in spec.steps().ids() {
        let phase = spec.step(id).expect("its own").phase;
        assert_eq!(spec.phase(phase).expect("its own").id, "main");
    }
    let main = spec.phase_by_id("main").expect("declared");
    let steps: Vec<StepId> = spec.phase(main).expect("its own").steps().collect();
    assert_eq!(steps, spec.steps().ids().collect::<Vec<_>>());
    assert_eq!(spec.step_by_id("main"), spec.steps().ids().next());
}

#[test]
fn ids_of_another_spec_are_answered_with_none() {
    // A bigger spec: three phases of one step each, and an effect.
    let mut bigger = smallest();
    for id in ["two", "three"] {
        let p: PhaseId = bigger.add(phase(id)).unwrap();
        let s: StepId = bigger.add(step(id, p, Vec::new())).unwrap();
        let w: WindowId = bigger.add(window(s)).unwrap();
        bigger.get_mut(s).unwrap().stages.push(Stage::Window(w));
        bigger.turn.push(p);
    }
    bigger.kinds.extend(["two".into(), "three".into()]);
    let bigger = Spec::new(bigger).expect("consistent");
    let small = Spec::new(smallest()).expect("consistent");
    let far_phase = bigger.phase_by_id("three").unwrap();
    let far_step = bigger.step_by_id("three").unwrap();
    let far_window = bigger.windows().ids().last().unwrap();
    assert!(small.phase(far_phase).is_none());
    assert!(small.step(far_step).is_none());
    assert!(small.window(far_window).is_none());
    assert!(small.phases().get(far_phase).is_none());
    assert!(!small.steps().contains(far_step));
    assert_eq!(small.id_of(far_phase), "?");
    assert_eq!(small.id_of(far_step), "?");
    // Their own ids resolve.
    assert_eq!(bigger.id_of(far_phase), "three");
}

#[test]
fn parts_whose_references_do_not_fit_are_refused() {
    // A window in a step of another spec: the bigger spec's second step.
    let mut bigger = smallest();
    let main = bigger.phases.ids().next().unwrap();
    let far: StepId = bigger.add(step("other", main, Vec::new())).unwrap();
    let mut parts = smallest();
    parts.windows = Default::default();
    let _: WindowId = parts.add(window(far)).unwrap();
    assert!(Spec::new(parts).is_err());

    // A phase's steps are one run: a step of another phase inside the run
    // (added between two of the phase's) is refused.
    let mut parts = smallest();
    let other: PhaseId = parts.add(phase("other")).unwrap();
    let main = parts.phases.ids().next().unwrap();
    let _: StepId = parts.add(step("other", other, Vec::new())).unwrap();
    let _: StepId = parts.add(step("late", main, Vec::new())).unwrap();
    parts.kinds.push("other".into());
    let problems = Spec::new(parts).unwrap_err().problems;
    assert!(
        problems.iter().any(|p| p.contains("of another phase")),
        "{problems:?}"
    );

    // A phase without steps.
    let mut parts = smallest();
    let _: PhaseId = parts.add(phase("empty")).unwrap();
    parts.kinds.push("empty".into());
    let problems = Spec::new(parts).unwrap_err().problems;
    assert!(
        problems.iter().any(|p| p.contains("steps outside")),
        "{problems:?}"
    );

    // No players.
    let mut parts = smallest();
    parts.game.min_players = 0;
    assert!(Spec::new(parts).is_err());
}

#[test]
fn specs_refuse_elements_past_their_limit() {
    let mut parts = smallest();
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
        by_object: false,
        object_limit: None,
        after: None,
        after_rule: Default::default(),
        claims: None,
        passes_rest: false,
        response_round: false,
        steps: None,
    };
    for _ in 0..MAX_TIMING_CLASSES {
        let _: TimingId = parts.add(class()).expect("within the limit");
    }
    let e = parts.add::<TimingId>(class()).unwrap_err();
    assert_eq!(
        (e.limit, e.value),
        (MAX_TIMING_CLASSES, MAX_TIMING_CLASSES + 1)
    );
    assert_eq!(parts.timing.len(), MAX_TIMING_CLASSES);
}

#[test]
fn conditions_deeper_than_the_limit_are_refused_and_leave_nothing_behind() {
    let mut parts = SpecParts::default();
    let mut b = parts.condition();
    let mut node = b.atom(Atom::Turn);
    for _ in 0..MAX_CONDITION_DEPTH + 10 {
        node = b.not(node);
    }
    assert!(b.finish(node, "deep").is_err());
    assert_eq!(parts.conditions.node_count(), 0);

    let mut b = parts.condition();
    let turn = b.atom(Atom::Turn);
    let two = b.constant(2);
    let root = b.compare(CompareOp::Gt, turn, two);
    let cond = b.finish(root, "turn > 2").expect("shallow");
    assert_eq!(parts.conditions.source(cond), "turn > 2");
    assert_eq!(parts.conditions.constant(cond), None);
}
