//! Descriptions of the elements a spec lists: phases, steps, turn-based
//! actions, windows, timing classes, counters, flags and effects, with the
//! words shared by tools that show them.

use super::*;

impl Describe for Phase {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Phase {
            id,
            name,
            rule,
            tags,
            kind,
            on_demand,
            only_if,
            skip,
            first_step,
            step_count,
            implicit_step,
            optional,
            between_turns,
        } = self;
        let r = *rule;
        let counts_as = spec
            .kinds()
            .get(*kind as usize)
            .cloned()
            .unwrap_or_default();
        let occurs = if *on_demand {
            words::ON_DEMAND
        } else if *between_turns {
            "between turns"
        } else if *optional {
            "only in a turn whose player elects it"
        } else {
            words::EVERY_TURN
        };
        let steps = if *implicit_step {
            "none (the phase is one step)".to_string()
        } else {
            "steps of its own".to_string()
        };
        // `first_step` and `step_count` place the phase's steps in the
        // step arena; `steps()` reads them.
        let _ = (first_step, step_count);
        let ids: Vec<String> = self.steps().map(|s| spec.id_of(s).to_string()).collect();
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("counts_as", counts_as, r),
            Field::text("tags", list(tags), r),
            Field::text("occurs", occurs, r),
            Field::text("only_if", opt_cond(spec, *only_if), r),
            Field::text("steps", steps, r),
            Field::derived(
                "step_ids",
                ids.join(", "),
                "the steps, each compared on its own",
            ),
            Field::of("skip", conditions(spec, skip), r),
            Field::rule(r),
        ]
    }
}

impl Describe for Step {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Step {
            id,
            name,
            rule,
            tags,
            phase,
            implicit,
            stages,
            only_if,
            skip,
            repeat,
            timing_mask,
            on_demand,
        } = self;
        let r = *rule;
        let (windows, keys): (Vec<Item>, Vec<String>) = stages
            .iter()
            .filter_map(|s| match s {
                Stage::Window(w) => spec
                    .window(*w)
                    .map(|w| (window_item(spec, w), window_key(spec, w))),
                Stage::Action(_) => None,
            })
            .unzip();
        let order: Vec<String> = stages
            .iter()
            .map(|s| match s {
                Stage::Action(t) => spec.id_of(*t).to_string(),
                Stage::Window(_) => "priority".to_string(),
            })
            .collect();
        let (repeat, repeat_rule) = match repeat {
            Some(Condition { cond, rule }) => (format!("if {}", cond_text(spec, *cond)), *rule),
            None => (words::NEVER_REPEATS.to_string(), RuleRef::NONE),
        };
        let allows: Vec<&str> = spec
            .timing()
            .iter()
            .enumerate()
            .filter(|(i, _)| timing_mask & (1u32 << i) != 0)
            .map(|(_, t)| t.id.as_str())
            .collect();
        let mut fields = vec![Field::id(id)];
        if *implicit {
            // The body of a phase without steps: its name, rule, tags and
            // conditions are the phase's.
            const FROM: &str = "the phase's (a phase without steps is one implicit step)";
            fields.extend([
                Field::derived("name", name, FROM),
                Field::derived("rule", spec.rule(r).unwrap_or(""), FROM),
                Field::derived("tags", list(tags), FROM),
                Field::derived("only_if", opt_cond(spec, *only_if), FROM),
                Field::derived("skip", conditions(spec, skip).text(), FROM),
            ]);
        } else {
            fields.extend([
                Field::text("name", name, r),
                Field::text("tags", list(tags), r),
                Field::text("only_if", opt_cond(spec, *only_if), r),
                Field::of("skip", conditions(spec, skip), r),
            ]);
        }
        fields.extend([
            Field::of("phase", Value::Place(spec.id_of(*phase).to_string()), r),
            Field::derived(
                "implicit",
                yes_no(*implicit),
                "whether the phase has steps of its own",
            ),
            Field::cited("repeat", repeat, repeat_rule),
            Field::text(
                "runs",
                if *on_demand {
                    words::RUN_BY_A_PLAY
                } else {
                    words::IN_ITS_PHASE
                },
                r,
            ),
            Field {
                name: "priority",
                value: Value::Seq {
                    items: windows,
                    keys,
                    each: "window",
                    empty: "never",
                },
                rule: RuleRef::NONE,
                own_rule: true,
            },
            Field::of("order", Value::Order(order), r),
            Field::derived(
                "allows",
                list(&allows.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
                "the timing classes' `during` and the step's tags",
            ),
        ]);
        if !*implicit {
            fields.push(Field::rule(r));
        }
        fields
    }
}

impl Describe for TurnAction {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let TurnAction {
            id,
            name,
            rule,
            step,
            condition,
            answer_counter,
            answer_max,
            answer_play,
            play,
            ends_turn_effects,
            stack_triggers,
            answer_role,
        } = self;
        let r = *rule;
        let mut answer = Vec::new();
        if let Some(c) = answer_counter {
            answer.push(format!("into counter {}", spec.id_of(*c)));
        }
        if *answer_max > 0 {
            answer.push(format!("0..={answer_max}"));
        }
        if let Some(p) = answer_play {
            answer.push(format!("yes plays {}", spec.id_of(*p)));
        }
        if let Some(role) = answer_role {
            answer.push(format!("the seat that holds {}", role_name(spec, *role)));
        }
        let answer = if answer.is_empty() {
            "none".to_string()
        } else {
            answer.join(", ")
        };
        let play = play
            .map(|p| format!("puts a {} object on the stack", spec.id_of(p)))
            .unwrap_or_else(|| "none".into());
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::of("step", Value::Place(step_label(spec, *step)), r),
            Field::text("condition", opt_cond(spec, *condition), r),
            Field::text("answer", answer, r),
            Field::text("play", play, r),
            Field::text("ends_turn_effects", yes_no(*ends_turn_effects), r),
            Field::text("stack_triggers", yes_no(*stack_triggers), r),
            Field::rule(r),
        ]
    }
}

impl Describe for Window {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Window {
            name,
            rule,
            mode,
            close_when_stack_empty,
            step,
            solo,
            acts_role,
            refuse_pass,
        } = self;
        let r = *rule;
        let mode = opens_text(*mode);
        let who = match acts_role {
            Some(role) => role_name(spec, *role),
            None => "active player".to_string(),
        };
        let close = match (*close_when_stack_empty, *solo) {
            (true, false) => "once the stack is empty".to_string(),
            (false, false) => "when all pass in succession".to_string(),
            (true, true) => format!("once the stack is empty; only the {who} acts"),
            (false, true) => format!("when the {who} passes; only they act"),
        };
        vec![
            Field::text("name", name, r),
            Field::text("opens", mode, r),
            Field::text("closes", close, r),
            Field::of("step", Value::Place(step_label(spec, *step)), r),
            Field::of("refuse_pass", conditions(spec, refuse_pass), r),
            Field::rule(r),
        ]
    }
}

impl Describe for TimingClass {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let TimingClass {
            id,
            name,
            rule,
            who,
            who_rule,
            stack,
            stack_rule,
            during,
            during_rule,
            effect,
            limit,
            require,
            ends,
            enters,
            cost,
            attributes,
            by_object,
            object_limit,
            after,
            after_rule,
            claims,
            passes_rest,
            response_round,
            steps,
        } = self;
        let r = *rule;
        let after = match after {
            Some(h) => holder_text(*h, true).to_string(),
            None => "as [priority] after_action says".to_string(),
        };
        let claims = match claims {
            Some(role) => format!("the player takes {}", role_name(spec, *role)),
            None => "nothing".to_string(),
        };
        let passes = if *passes_rest {
            "the play is also the player's pass, for the rest of the window"
        } else {
            "no"
        };
        let steps = match steps {
            Some(s) => format!("runs the on-demand steps from {}", spec.id_of(*s)),
            None => "none".to_string(),
        };
        let by = match by_object {
            true => "an object in play its player controls",
            false => "the player",
        };
        let (ends, ends_rule) = match ends {
            Some(PlayEnds { turn: true, rule }) => ("the turn", *rule),
            Some(PlayEnds { turn: false, rule }) => ("the phase", *rule),
            None => ("nothing", RuleRef::NONE),
        };
        let enters = match enters {
            Some(p) => format!("elects phase {}", spec.id_of(*p)),
            None => "nothing".into(),
        };
        let (cost, cost_rule) = match cost {
            Some(Cost {
                counter,
                amount,
                rule,
            }) => (format!("{amount} of {}", spec.id_of(*counter)), *rule),
            None => ("free".to_string(), RuleRef::NONE),
        };
        let attributes = if attributes.is_empty() {
            "none".to_string()
        } else {
            attributes
                .iter()
                .map(|(a, v)| {
                    let name = spec
                        .attributes()
                        .get(*a as usize)
                        .map_or("?", |s| s.as_str());
                    format!("{name} = {v}")
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        // A restriction without a citation of its own cites the class's.
        let or_class = |x: &RuleRef| if x.is_none() { r } else { *x };
        let (limit, limit_rule) = match limit {
            Some(Limit {
                counter,
                max,
                raised_by,
                rule,
            }) => {
                let raised = raised_by
                    .map(|c| format!(", raised by {}", spec.id_of(c)))
                    .unwrap_or_default();
                (format!("{max} per {}{raised}", spec.id_of(*counter)), *rule)
            }
            None => ("none".to_string(), RuleRef::NONE),
        };
        let (limit, limit_rule) = match object_limit {
            Some(ObjectLimit {
                slot: _,
                max,
                each_turn,
                rule,
            }) => {
                let period = if *each_turn {
                    "per turn"
                } else {
                    "while in play"
                };
                let each = format!("{max} for each object {period}");
                match limit_rule.is_none() {
                    true => (each, *rule),
                    false => (format!("{limit}; {each}"), limit_rule),
                }
            }
            None => (limit, limit_rule),
        };
        let require = Value::Set(
            require
                .iter()
                .map(|q| {
                    let Requirement { condition, explain } = q;
                    let c = cond_text(spec, condition.cond);
                    let text = if *explain == c {
                        format!("if {c}")
                    } else {
                        format!("if {c} (\"{explain}\")")
                    };
                    Item {
                        text,
                        rule: condition.rule,
                    }
                })
                .collect(),
        );
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("effect", effect_text(spec, *effect), r),
            Field::cited("who", who_text(spec, *who), or_class(who_rule)),
            Field::cited("stack", stack_text(*stack), or_class(stack_rule)),
            Field::cited("during", during_text(during), or_class(during_rule)),
            Field::text("by", by, r),
            Field::cited("limit", limit, limit_rule),
            Field::of("require", require, r),
            Field::cited("cost", cost, cost_rule),
            Field::cited("ends", ends, ends_rule),
            Field::text("enters", enters, r),
            Field::text("attributes", attributes, r),
            Field::cited("after", after, *after_rule),
            Field::text("claims", claims, r),
            Field::text("passes", passes, r),
            Field::text(
                "response_round",
                if *response_round {
                    "all passing after the play returns to the active player"
                } else {
                    "no"
                },
                r,
            ),
            Field::text("steps", steps, r),
            Field::rule(r),
        ]
    }
}

/// Who may use a timing class, in words.
pub fn who_text(spec: &Spec, w: Who) -> String {
    match w {
        Who::Any => "any player".into(),
        Who::ActivePlayer => "active player only".into(),
        Who::NonActivePlayer => "non-active players only".into(),
        Who::Nobody => "no player (turn-based actions only)".into(),
        Who::Role(role) => format!("the {} only", role_name(spec, role)),
    }
}

/// Who holds priority after a play or a resolution, in words.
pub fn holder_text(h: Holder, after_action: bool) -> &'static str {
    match h {
        Holder::ActivePlayer => "active player",
        Holder::Actor if after_action => "the player who acted",
        Holder::Actor => "the actor",
        Holder::NextPlayer => "the next player after the one who acted",
    }
}

/// A timing class's stack requirement, in words.
pub fn stack_text(s: StackRequirement) -> &'static str {
    match s {
        StackRequirement::Any => "any",
        StackRequirement::Empty => "must be empty",
    }
}

/// Where a timing class may be used, in words.
pub fn during_text(during: &[String]) -> String {
    if during.is_empty() {
        "any step with a window".into()
    } else {
        during.join(", ")
    }
}

/// What a play of a timing class does, in words.
pub fn effect_text(spec: &Spec, e: Effect) -> String {
    match e {
        Effect::Stack => "goes on the stack".into(),
        Effect::Special => "special action (no stack)".into(),
        Effect::StartPhase(p) => format!("starts phase {}", spec.id_of(p)),
    }
}

impl Describe for Counter {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let Counter {
            id,
            description,
            rule,
            reset,
            per_player,
            slot,
            start,
        } = self;
        let r = *rule;
        let reset = match reset {
            Reset::Game => "never (whole game)",
            Reset::Turn => "each turn",
            Reset::Phase => "each phase",
            Reset::Step => "each step",
        };
        let per = if *per_player {
            "player (one count per player)"
        } else {
            "game (one count)"
        };
        vec![
            Field::id(id),
            Field::text("description", description, r),
            Field::text("reset", reset, r),
            Field::text("per", per, r),
            Field::text("start", start.to_string(), r),
            Field::derived(
                "slot",
                if *per_player {
                    slot.to_string()
                } else {
                    "none".into()
                },
                "the order of the per-player counters",
            ),
            Field::rule(r),
        ]
    }
}

impl Describe for Flag {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let Flag {
            id,
            name,
            description,
            rule,
            default,
        } = self;
        let r = *rule;
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("description", description, r),
            Field::text("default", yes_no(*default), r),
            Field::rule(r),
        ]
    }
}

impl Describe for EffectDef {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let EffectDef {
            id,
            name,
            rule,
            kind,
            own_turn_only,
        } = self;
        let r = *rule;
        let (own, own_rule) = match own_turn_only {
            Some(x) => ("only during the player's own turn", *x),
            None => ("any turn", RuleRef::NONE),
        };
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("kind", effect_kind_text(spec, kind), r),
            Field::cited("own_turn_only", own, own_rule),
            Field::rule(r),
        ]
    }
}

/// What a structural effect does, in words.
pub fn effect_kind_text(spec: &Spec, kind: &EffectKind) -> String {
    let phase = |p: &PhaseId| spec.id_of(*p);
    let step = |s: &StepId| spec.id_of(*s);
    match kind {
        EffectKind::ExtraTurn { each_player: false } => "extra turn".into(),
        EffectKind::ExtraTurn { each_player: true } => "extra turn for each player".into(),
        EffectKind::ExtraPhases(ps) => format!(
            "extra phases: {}",
            ps.iter().map(phase).collect::<Vec<_>>().join(", ")
        ),
        EffectKind::ExtraStep {
            step: s,
            after_phase,
        } => format!(
            "extra {} step after this {}",
            step(s),
            if *after_phase { "phase" } else { "step" }
        ),
        EffectKind::Skip(SkipTarget::Step(s)) => format!("skip the next {} step", step(s)),
        EffectKind::Skip(SkipTarget::Phase(p)) => format!("skip the next {} phase", phase(p)),
        EffectKind::Skip(SkipTarget::Turn) => "skip the next turn".into(),
        EffectKind::EndTurn { goto } => format!("end the turn, go to {}", step(goto)),
        EffectKind::EndPhase { phase: p, goto } => match goto {
            Some(g) => format!("end the {} phase, go to {}", phase(p), step(g)),
            None => format!("end the {} phase", phase(p)),
        },
        EffectKind::Grant { counter, amount } => {
            format!("grant {amount} {}", spec.id_of(*counter))
        }
        EffectKind::LastingSkip {
            target,
            each_player,
        } => {
            let whose = if *each_player {
                "every player's"
            } else {
                "the player's"
            };
            let what = match target {
                SkipTarget::Step(s) => format!("{} steps", step(s)),
                SkipTarget::Phase(p) => format!("{} phases", phase(p)),
                SkipTarget::Turn => "turns".into(),
            };
            format!("skip {whose} {what} while it lasts")
        }
        EffectKind::ReverseTurnOrder => "reverse the turn order".into(),
        EffectKind::ControlTurn => "control another player's next turn".into(),
    }
}
