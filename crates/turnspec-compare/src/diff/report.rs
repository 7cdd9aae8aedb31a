//! What a diff reports: its entries, grouped by section, and their text and
//! JSON forms.

use serde_json::{Value as Json, json};
use turnspec_spec::Spec;

/// Where a difference belongs; also the order of groups in the text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// The `[game]` table: name, edition, player counts, turn order.
    Game,
    /// The words the spec uses for priority, the stack, the active player.
    Terms,
    /// Who receives priority when, and the rules cited for it (117).
    Priority,
    /// When unspent mana empties, and mana burn (500.4).
    Mana,
    /// What happens when a player leaves the game (800.4).
    Leaving,
    /// Phases, with the windows that belong to them.
    Phases,
    /// Steps, with the windows that belong to them.
    Steps,
    /// Turn-based actions (703).
    TurnActions,
    /// Timing classes: when each kind of play is allowed.
    Timing,
    /// Structural effects: extra turns, skips, ending the turn...
    Effects,
    /// Counters the spec keeps (land plays, attackers declared...).
    Counters,
    /// Facts the host sets and conditions read.
    Facts,
    /// Rule variants chosen at set-up.
    Variants,
    /// `[game_end]`: the rules cited when the game ends by itself.
    GameEnd,
    /// The ways the game can end (`[endings.ID]`).
    Endings,
    /// `[objects]`: whether objects in play are kept.
    Objects,
    /// Facts the host sets on objects (`[objects.facts.ID]`).
    ObjectFacts,
}

impl Section {
    /// Every section, in the order the text form lists them.
    pub const ALL: [Section; 17] = [
        Section::Game,
        Section::Terms,
        Section::Priority,
        Section::Mana,
        Section::Leaving,
        Section::Phases,
        Section::Steps,
        Section::TurnActions,
        Section::Timing,
        Section::Effects,
        Section::Counters,
        Section::Facts,
        Section::Variants,
        Section::GameEnd,
        Section::Endings,
        Section::Objects,
        Section::ObjectFacts,
    ];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Section::Game => "game",
            Section::Terms => "terms",
            Section::Priority => "priority",
            Section::Mana => "mana",
            Section::Leaving => "leaving",
            Section::Phases => "phases",
            Section::Steps => "steps",
            Section::TurnActions => "turn_actions",
            Section::Timing => "timing",
            Section::Effects => "effects",
            Section::Counters => "counters",
            Section::Facts => "facts",
            Section::Variants => "variants",
            Section::GameEnd => "game_end",
            Section::Endings => "endings",
            Section::Objects => "objects",
            Section::ObjectFacts => "object_facts",
        }
    }

    /// The heading in the text form.
    pub fn title(self) -> &'static str {
        match self {
            Section::Game => "game",
            Section::Terms => "terms",
            Section::Priority => "priority model",
            Section::Mana => "mana",
            Section::Leaving => "a player leaving the game",
            Section::Phases => "phases (and their priority windows)",
            Section::Steps => "steps (and their priority windows)",
            Section::TurnActions => "turn-based actions",
            Section::Timing => "timing classes",
            Section::Effects => "effects",
            Section::Counters => "counters",
            Section::Facts => "facts",
            Section::Variants => "variants",
            Section::GameEnd => "how the game ends by itself",
            Section::Endings => "endings",
            Section::Objects => "objects in play",
            Section::ObjectFacts => "object facts",
        }
    }
}

/// What kind of difference an [`Entry`] records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Only the right-hand spec has it.
    Added,
    /// Only the left-hand spec has it.
    Removed,
    /// Both have it, with different values (or citations).
    Changed,
    /// Both have it, in a different place (turn order, step order, parent).
    Moved,
}

impl Change {
    /// The JSON name (`added`, `removed`, `changed`, `moved`).
    pub fn name(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
            Change::Moved => "moved",
        }
    }

    /// `+`, `-`, `~` (moved elements are marked `~` too; the field says
    /// `position`, `step` or `phase`).
    pub fn marker(self) -> char {
        match self {
            Change::Added => '+',
            Change::Removed => '-',
            Change::Changed | Change::Moved => '~',
        }
    }
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Where it belongs, for grouping.
    pub section: Section,
    /// Added, removed, changed or moved.
    pub change: Change,
    /// The element, e.g. `step combat_damage`, `action draw`, `mana`.
    pub element: String,
    /// The field or sub-item, e.g. `priority`, `skip`, `burn`; `None` when
    /// the whole element was added or removed.
    pub field: Option<String>,
    /// The value in the left-hand spec (absent when it lacks the element).
    pub left: Option<String>,
    /// The value in the right-hand spec (absent when it lacks the element).
    pub right: Option<String>,
    /// The rule the left-hand spec cites for it, if any.
    pub left_rule: Option<String>,
    /// The rule the right-hand spec cites for it, if any.
    pub right_rule: Option<String>,
    /// Same meaning, only the citation differs (a renumbering).
    pub citation_only: bool,
}

impl Entry {
    /// The citations, `[a → b]`, `[a]` when equal, or empty.
    pub fn rules_text(&self) -> String {
        match (&self.left_rule, &self.right_rule, self.change) {
            (None, None, _) => String::new(),
            (Some(l), None, Change::Removed) => format!("[{l}]"),
            (None, Some(r), Change::Added) => format!("[{r}]"),
            (Some(l), Some(r), _) if l == r => format!("[{l}]"),
            (l, r, _) => format!(
                "[{} → {}]",
                l.as_deref().unwrap_or("—"),
                r.as_deref().unwrap_or("—")
            ),
        }
    }

    /// One line for people: marker, element, field, values, citations.
    pub fn to_line(&self) -> String {
        let mut s = format!("{} {}", self.change.marker(), self.element);
        if let Some(f) = &self.field {
            s.push_str(" · ");
            s.push_str(f);
        }
        let value = match self.change {
            Change::Added => self.right.clone(),
            Change::Removed => self.left.clone(),
            Change::Changed | Change::Moved => {
                if self.citation_only && self.field.as_deref() == Some("rule") {
                    // The citations below say it all.
                    None
                } else if self.left == self.right {
                    self.left.clone()
                } else {
                    Some(format!(
                        "{} → {}",
                        self.left.as_deref().unwrap_or("—"),
                        self.right.as_deref().unwrap_or("—")
                    ))
                }
            }
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            s.push_str(": ");
            s.push_str(&v);
        }
        let rules = self.rules_text();
        if !rules.is_empty() {
            s.push_str("  ");
            s.push_str(&rules);
        }
        s
    }

    /// One object of the JSON form's `differences` list.
    pub fn to_json(&self) -> Json {
        json!({
            "section": self.section.name(),
            "change": self.change.name(),
            "element": self.element,
            "field": self.field,
            "left": self.left,
            "right": self.right,
            "left_rule": self.left_rule,
            "right_rule": self.right_rule,
            "citation_only": self.citation_only,
        })
    }
}

/// Name, edition and date of one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// The game's name, from `[game]`.
    pub name: String,
    /// The edition of the rules, empty if the spec gives none.
    pub edition: String,
    /// The edition's date, empty if the spec gives none.
    pub date: String,
}

impl Side {
    pub(super) fn of(spec: &Spec) -> Side {
        Side {
            name: spec.game().name.clone(),
            edition: spec.game().edition.clone(),
            date: spec.game().edition_date.clone(),
        }
    }

    /// The heading line: `name — edition (date)`, leaving out what is empty.
    pub fn title(&self) -> String {
        let mut s = self.name.clone();
        if !self.edition.is_empty() {
            s = format!("{s} — {}", self.edition);
        }
        if !self.date.is_empty() {
            s = format!("{s} ({})", self.date);
        }
        s
    }
}

/// The differences between two specs, left to right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecDiff {
    /// Which game and edition the left-hand spec is.
    pub left: Side,
    /// Which game and edition the right-hand spec is.
    pub right: Side,
    /// Every difference, citation-only ones included.
    pub entries: Vec<Entry>,
}

impl SpecDiff {
    /// True when the two specs are the same, citations included.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Differences in meaning (not only in citations).
    pub fn semantic(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| !e.citation_only)
    }

    /// Differences that only renumber a citation.
    pub fn citations(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.citation_only)
    }

    /// The entries about one element (and one field of it, if given).
    pub fn find(&self, element: &str, field: Option<&str>) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| e.element == element && (field.is_none() || e.field.as_deref() == field))
            .collect()
    }

    fn count(&self, change: Change) -> usize {
        self.semantic().filter(|e| e.change == change).count()
    }

    /// Grouped text for people. `citations`: also list citation-only
    /// differences one per line (otherwise only their number).
    pub fn to_text(&self, left_label: &str, right_label: &str, citations: bool) -> String {
        let mut out = format!(
            "--- {left_label}: {}\n+++ {right_label}: {}\n",
            self.left.title(),
            self.right.title()
        );
        for section in Section::ALL {
            let lines: Vec<&Entry> = self.semantic().filter(|e| e.section == section).collect();
            if lines.is_empty() {
                continue;
            }
            out.push_str(&format!("\n{}\n", section.title()));
            for e in lines {
                out.push_str(&format!("  {}\n", e.to_line()));
            }
        }
        let renumbered: Vec<&Entry> = self.citations().collect();
        if citations && !renumbered.is_empty() {
            out.push_str("\nrule citations only (same meaning, renumbered)\n");
            for e in &renumbered {
                out.push_str(&format!("  {}\n", e.to_line()));
            }
        }
        let semantic = self.semantic().count();
        out.push_str(&format!(
            "\n{semantic} difference(s): {} added, {} removed, {} changed, {} moved; {} citation-only{}\n",
            self.count(Change::Added),
            self.count(Change::Removed),
            self.count(Change::Changed),
            self.count(Change::Moved),
            renumbered.len(),
            if citations || renumbered.is_empty() {
                ""
            } else {
                " (--citations lists them)"
            }
        ));
        out
    }

    /// The JSON form: both sides (with the file labels given), every
    /// difference, and the counts.
    pub fn to_json(&self, left_label: &str, right_label: &str) -> Json {
        let side = |label: &str, s: &Side| json!({ "file": label, "name": s.name, "edition": s.edition, "edition_date": s.date });
        json!({
            "left": side(left_label, &self.left),
            "right": side(right_label, &self.right),
            "differences": self.entries.iter().map(Entry::to_json).collect::<Vec<_>>(),
            "counts": {
                "added": self.count(Change::Added),
                "removed": self.count(Change::Removed),
                "changed": self.count(Change::Changed),
                "moved": self.count(Change::Moved),
                "citation_only": self.citations().count(),
            },
        })
    }
}
