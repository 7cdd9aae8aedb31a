//! Which file and line last set each element (`turnspec check --explain`).

use super::*;

impl Ctx {
    pub(super) fn record_origins(&mut self, raw: &RawSpec) {
        let mut add =
            |element: String, offset: usize| self.parts.origins.push(Origin { element, offset });
        if let Some(g) = &raw.game {
            add("game".into(), g.span().start);
        }
        if let Some(p) = &raw.priority {
            add("priority".into(), p.span().start);
        }
        if let Some(m) = &raw.mana {
            add("mana".into(), m.span().start);
        }
        for (what, table) in [("variant", &raw.variants), ("fact", &raw.facts)] {
            for (key, _) in in_file_order(table) {
                add(format!("{what} {}", key.get_ref()), key.span().start);
            }
        }
        for (key, _) in in_file_order(&raw.counters) {
            add(format!("counter {}", key.get_ref()), key.span().start);
        }
        for (key, _) in in_file_order(&raw.timing) {
            add(format!("timing {}", key.get_ref()), key.span().start);
        }
        for (key, _) in in_file_order(&raw.effects) {
            add(format!("effect {}", key.get_ref()), key.span().start);
        }
        for p in &raw.phase {
            let p = p.get_ref();
            add(format!("phase {}", p.id.get_ref()), p.id.span().start);
            let actions = |list: Option<&Spanned<Vec<Spanned<RawStage>>>>,
                           add: &mut dyn FnMut(String, usize)| {
                for a in list.map(|l| l.get_ref().as_slice()).unwrap_or(&[]) {
                    if let Some(id) = &a.get_ref().id {
                        add(format!("  action {}", id.get_ref()), id.span().start);
                    }
                }
            };
            actions(p.actions.as_ref(), &mut add);
            actions(p.sequence.as_ref(), &mut add);
            for st in &p.step {
                let st = st.get_ref();
                add(format!("  step {}", st.id.get_ref()), st.id.span().start);
                actions(st.actions.as_ref(), &mut add);
                actions(st.sequence.as_ref(), &mut add);
            }
        }
    }
}
