//! Objects in play: `[objects]` and `[objects.facts.*]`.

use super::*;

impl Ctx {
    /// `[objects]` and its facts, before the timing classes whose
    /// conditions read them.
    pub(super) fn objects(&mut self, raw: &RawSpec) {
        let Some(o) = &raw.objects else { return };
        let o = o.get_ref();
        self.parts.objects = ObjectRules {
            tracked: true,
            rule: self.rule(o.rule.as_ref()),
            control_rule: self.rule(o.control_rule.as_ref()),
        };
        for (key, f) in in_file_order(&o.facts) {
            if OBJECT_ATOMS.iter().any(|(n, _)| n == key.get_ref()) {
                self.error(
                    "turnspec::reserved-name",
                    span_of(&key),
                    format!("`object.{}` is a built-in name", key.get_ref()),
                )
                .help = Some("give the fact another id".into());
                continue;
            }
            let each_turn = self.choice(
                f.reset.as_ref(),
                false,
                &[("game", false), ("turn", true)],
                "`reset`",
            );
            let fact = ObjectFact {
                id: key.get_ref().clone(),
                name: text_or(&f.name, key.get_ref()),
                description: text_or(&f.description, ""),
                rule: self.rule(f.rule.as_ref()),
                each_turn,
            };
            if self.add::<ObjectFactId>(fact, span_of(&key)).is_none() {
                break;
            }
        }
    }

    /// `limit = { per = "object", max, reset, rule }` of a class: the
    /// next free use count of each object.
    pub(super) fn object_limit(
        &mut self,
        key: &Text,
        raw: &Spanned<RawLimit>,
        by_object: bool,
    ) -> Option<ObjectLimit> {
        let l = raw.get_ref();
        if let Some(c) = &l.counter {
            self.error(
                "turnspec::bad-value",
                span_of(c),
                "a limit `per = \"object\"` counts for each object, not in a counter",
            )
            .help = Some(
                "remove `counter`; say when the count starts afresh with `reset = \"turn\"`".into(),
            );
        }
        if let Some(r) = &l.raised_by {
            self.error(
                "turnspec::unused-key",
                span_of(r),
                "`raised_by` is only used with a counter's limit",
            );
        }
        if !by_object {
            self.error(
                "turnspec::bad-value",
                span_of(raw),
                format!(
                    "timing class `{}` counts uses per object but is not made by one",
                    key.get_ref()
                ),
            )
            .help = Some("add `by = \"object\"` to the class".into());
        }
        let each_turn = self.choice(
            l.reset.as_ref(),
            true,
            &[("turn", true), ("game", false)],
            "`reset`",
        );
        let max = *l.max.get_ref();
        if !(0..=u16::MAX as i64).contains(&max) {
            self.error(
                "turnspec::bad-value",
                span_of(&l.max),
                format!("limit {max} is out of range"),
            );
        }
        let slot = self.object_limit_slots;
        if slot as usize >= MAX_OBJECT_LIMITS {
            self.over_limit = true;
            self.error(
                "turnspec::limit",
                span_of(raw),
                format!("too many classes limited per object (the limit is {MAX_OBJECT_LIMITS})"),
            )
            .help = Some("each object keeps a fixed number of use counts; see \"Engine limits\" in docs/spec-format.md".into());
            return None;
        }
        self.object_limit_slots += 1;
        Some(ObjectLimit {
            slot,
            max: max.clamp(0, u16::MAX as i64) as u16,
            each_turn,
            rule: self.rule(l.rule.as_ref()),
        })
    }
}
