//! Conditions: the small expression language of `if = "..."` keys.
//!
//! ```text
//! expr    := or
//! or      := and ("or" and)*
//! and     := unary ("and" unary)*
//! unary   := "not" unary | compare
//! compare := primary (("==" | "!=" | "<" | "<=" | ">" | ">=") primary)?
//! primary := NUMBER | "true" | "false" | NAME | "(" expr ")"
//! ```
//!
//! Every value is a small integer; yes/no values are 1/0 and any non-zero
//! number counts as yes. Names are resolved to [`Atom`]s when the spec is
//! compiled, so evaluation never looks at a string.

use std::ops::Range;

/// Something the running game knows, named in a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Atom {
    /// `variant.NAME`: a variant chosen when the game starts (Archenemy).
    Variant(u8),
    /// `fact.NAME`: a yes/no the host or a scenario sets.
    Fact(u8),
    /// `counter.NAME`: a number kept by the engine (lands played, attackers).
    Counter(u8),
    /// `players`: players still in the game.
    Players,
    /// `teams`: sides still in the game: teams with shared team turns (805),
    /// else the same as `players`.
    Teams,
    /// `turn`: the turn number, counting from 1.
    Turn,
    /// `first_turn`: this is the active player's first turn.
    FirstTurn,
    /// `starting_player`: the active player took the game's first turn.
    StartingPlayer,
    /// `seat`: the active player's place in turn order (1 = starting player).
    Seat,
    /// `phase_number`: how many phases of the current phase's kind have
    /// begun this turn, this one included (the first main phase is 1).
    PhaseNumber,
    /// `repeat_count`: how many times the current step has already repeated.
    RepeatCount,
    /// `window_opened`: a priority window opened in this step instance.
    WindowOpened,
    /// `stack_empty`: the stack is empty.
    StackEmpty,
}

/// The names a condition may use apart from `variant.`, `fact.` and `counter.`.
pub const BUILTIN_ATOMS: &[(&str, Atom)] = &[
    ("players", Atom::Players),
    ("teams", Atom::Teams),
    ("turn", Atom::Turn),
    ("first_turn", Atom::FirstTurn),
    ("starting_player", Atom::StartingPlayer),
    ("seat", Atom::Seat),
    ("phase_number", Atom::PhaseNumber),
    ("repeat_count", Atom::RepeatCount),
    ("window_opened", Atom::WindowOpened),
    ("stack_empty", Atom::StackEmpty),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareOp {
    fn apply(self, a: i32, b: i32) -> bool {
        match self {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Lt => a < b,
            CompareOp::Le => a <= b,
            CompareOp::Gt => a > b,
            CompareOp::Ge => a >= b,
        }
    }
}

/// One node of a compiled condition; children are indices into the same
/// [`Conditions`] arena, so a whole spec's conditions live in one `Vec`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Node {
    Const(i32),
    Atom(Atom),
    Not(u16),
    And(u16, u16),
    Or(u16, u16),
    Compare(CompareOp, u16, u16),
}

/// Index of a condition's root node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CondId(pub u16);

/// Where a running game answers atoms from.
pub trait AtomSource {
    fn atom(&self, atom: Atom) -> i32;
    /// The facts that are set, one bit each, for a quick rejection of
    /// conditions that need a fact that is not set.
    fn fact_bits(&self) -> u64 {
        u64::MAX
    }
    /// The variants in play, one bit each.
    fn variant_bits(&self) -> u64 {
        u64::MAX
    }
}

/// Facts and variants a condition cannot be true without.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Needs {
    facts: u64,
    variants: u64,
}

/// All compiled conditions of a spec, plus their source text for display.
#[derive(Debug, Clone, Default)]
pub struct Conditions {
    nodes: Vec<Node>,
    sources: Vec<(CondId, String)>,
    /// Per node: the facts and variants that must be set for it to be true.
    needs: Vec<Needs>,
}

impl Conditions {
    pub fn eval(&self, cond: CondId, source: &impl AtomSource) -> bool {
        // Most gated conditions ("variant.archenemy and ...") fail here
        // without walking the tree.
        if let Some(n) = self.needs.get(cond.0 as usize) {
            if source.fact_bits() & n.facts != n.facts
                || source.variant_bits() & n.variants != n.variants
            {
                return false;
            }
        }
        self.value(cond.0, source) != 0
    }

    fn value(&self, index: u16, source: &impl AtomSource) -> i32 {
        match self.nodes[index as usize] {
            Node::Const(v) => v,
            Node::Atom(a) => source.atom(a),
            Node::Not(a) => (self.value(a, source) == 0) as i32,
            Node::And(a, b) => (self.value(a, source) != 0 && self.value(b, source) != 0) as i32,
            Node::Or(a, b) => (self.value(a, source) != 0 || self.value(b, source) != 0) as i32,
            Node::Compare(op, a, b) => {
                op.apply(self.value(a, source), self.value(b, source)) as i32
            }
        }
    }

    /// The condition as the designer wrote it.
    pub fn source(&self, cond: CondId) -> &str {
        self.sources
            .iter()
            .find(|(c, _)| *c == cond)
            .map(|(_, s)| s.as_str())
            .unwrap_or("")
    }

    /// The value if the condition does not depend on the game at all.
    pub fn constant(&self, cond: CondId) -> Option<bool> {
        self.const_value(cond.0).map(|v| v != 0)
    }

    fn const_value(&self, index: u16) -> Option<i32> {
        Some(match self.nodes[index as usize] {
            Node::Const(v) => v,
            Node::Atom(_) => return None,
            Node::Not(a) => (self.const_value(a)? == 0) as i32,
            Node::And(a, b) => match (self.const_value(a), self.const_value(b)) {
                (Some(0), _) | (_, Some(0)) => 0,
                (Some(_), Some(_)) => 1,
                _ => return None,
            },
            Node::Or(a, b) => match (self.const_value(a), self.const_value(b)) {
                (Some(x), _) | (_, Some(x)) if x != 0 => 1,
                (Some(_), Some(_)) => 0,
                _ => return None,
            },
            Node::Compare(op, a, b) => op.apply(self.const_value(a)?, self.const_value(b)?) as i32,
        })
    }

    /// Atoms a condition reads (for validation).
    pub fn atoms(&self, cond: CondId) -> Vec<Atom> {
        let mut out = Vec::new();
        self.collect(cond.0, &mut out);
        out
    }

    /// The node at `index`: a [`CondId`]'s root, or a child another node
    /// names. For analyses of conditions (the loop check); `None` outside
    /// the arena.
    pub fn node(&self, index: u16) -> Option<Node> {
        self.nodes.get(index as usize).copied()
    }

    fn collect(&self, index: u16, out: &mut Vec<Atom>) {
        match self.nodes[index as usize] {
            Node::Const(_) => {}
            Node::Atom(a) => out.push(a),
            Node::Not(a) => self.collect(a, out),
            Node::And(a, b) | Node::Or(a, b) | Node::Compare(_, a, b) => {
                self.collect(a, out);
                self.collect(b, out);
            }
        }
    }

    /// Parses `text`, resolving names with `resolve`. Errors carry byte ranges
    /// relative to `text`.
    pub fn parse(
        &mut self,
        text: &str,
        resolve: &mut dyn FnMut(&str) -> Result<Atom, String>,
    ) -> Result<CondId, Vec<CondError>> {
        let tokens = lex(text).map_err(|e| vec![e])?;
        let mark = self.nodes.len();
        let mut parser = Parser {
            text,
            tokens: &tokens,
            pos: 0,
            arena: self,
            resolve,
            errors: Vec::new(),
            end: text.len(),
        };
        let root = parser.or();
        if parser.errors.is_empty() && parser.pos < tokens.len() {
            let t = &tokens[parser.pos];
            parser.errors.push(CondError {
                range: t.range.clone(),
                message: format!("unexpected `{}`", &text[t.range.clone()]),
                help: "join conditions with `and` / `or`, or compare with `==`".into(),
            });
        }
        let errors = std::mem::take(&mut parser.errors);
        if !errors.is_empty() {
            self.nodes.truncate(mark);
            self.needs.truncate(mark);
            return Err(errors);
        }
        let root = CondId(root);
        self.sources.push((root, text.to_string()));
        Ok(root)
    }

    fn push(&mut self, node: Node) -> u16 {
        let needs = match node {
            Node::Atom(Atom::Fact(f)) => Needs {
                facts: 1 << (f & 63),
                variants: 0,
            },
            Node::Atom(Atom::Variant(v)) => Needs {
                facts: 0,
                variants: 1 << (v & 63),
            },
            Node::And(a, b) => {
                let (a, b) = (self.needs[a as usize], self.needs[b as usize]);
                Needs {
                    facts: a.facts | b.facts,
                    variants: a.variants | b.variants,
                }
            }
            Node::Or(a, b) => {
                let (a, b) = (self.needs[a as usize], self.needs[b as usize]);
                Needs {
                    facts: a.facts & b.facts,
                    variants: a.variants & b.variants,
                }
            }
            // A bare number, a negation or a comparison guarantees nothing.
            _ => Needs::default(),
        };
        self.nodes.push(node);
        self.needs.push(needs);
        (self.nodes.len() - 1) as u16
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CondError {
    pub range: Range<usize>,
    pub message: String,
    pub help: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i32),
    Name,
    Op(CompareOp),
    Open,
    Close,
}

struct Token {
    tok: Tok,
    range: Range<usize>,
}

fn lex(text: &str) -> Result<Vec<Token>, CondError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let tok = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'(' => {
                i += 1;
                Tok::Open
            }
            b')' => {
                i += 1;
                Tok::Close
            }
            b'0'..=b'9' => {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let n = text[start..i].parse::<i32>().map_err(|_| CondError {
                    range: start..i,
                    message: "number too large".into(),
                    help: "numbers in conditions are small whole numbers".into(),
                })?;
                Tok::Num(n)
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric()
                        || bytes[i] == b'_'
                        || bytes[i] == b'.'
                        || bytes[i] == b'-')
                {
                    i += 1;
                }
                Tok::Name
            }
            b'=' | b'!' | b'<' | b'>' => {
                let two = bytes.get(i + 1) == Some(&b'=');
                let op = match (c, two) {
                    (b'=', true) => CompareOp::Eq,
                    (b'!', true) => CompareOp::Ne,
                    (b'<', true) => CompareOp::Le,
                    (b'>', true) => CompareOp::Ge,
                    (b'<', false) => CompareOp::Lt,
                    (b'>', false) => CompareOp::Gt,
                    _ => {
                        return Err(CondError {
                            range: i..i + 1,
                            message: format!("`{}` alone is not an operator", c as char),
                            help: "compare with `==` or `!=`; negate with `not`".into(),
                        });
                    }
                };
                i += if two { 2 } else { 1 };
                Tok::Op(op)
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or(' ');
                return Err(CondError {
                    range: i..i + ch.len_utf8(),
                    message: format!("unexpected character `{ch}`"),
                    help: "conditions use names, numbers, `and`, `or`, `not`, comparisons and parentheses".into(),
                });
            }
        };
        out.push(Token {
            tok,
            range: start..i,
        });
    }
    Ok(out)
}

struct Parser<'a, 'r> {
    text: &'a str,
    tokens: &'a [Token],
    pos: usize,
    arena: &'a mut Conditions,
    resolve: &'r mut dyn FnMut(&str) -> Result<Atom, String>,
    errors: Vec<CondError>,
    end: usize,
}

impl Parser<'_, '_> {
    fn keyword(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some(t) if t.tok == Tok::Name && &self.text[t.range.clone()] == word)
    }

    fn or(&mut self) -> u16 {
        let mut left = self.and();
        while self.keyword("or") {
            self.pos += 1;
            let right = self.and();
            left = self.arena.push(Node::Or(left, right));
        }
        left
    }

    fn and(&mut self) -> u16 {
        let mut left = self.unary();
        while self.keyword("and") {
            self.pos += 1;
            let right = self.unary();
            left = self.arena.push(Node::And(left, right));
        }
        left
    }

    fn unary(&mut self) -> u16 {
        if self.keyword("not") {
            self.pos += 1;
            let inner = self.unary();
            return self.arena.push(Node::Not(inner));
        }
        self.compare()
    }

    fn compare(&mut self) -> u16 {
        let left = self.primary();
        if let Some(Token {
            tok: Tok::Op(op), ..
        }) = self.tokens.get(self.pos)
        {
            let op = *op;
            self.pos += 1;
            let right = self.primary();
            return self.arena.push(Node::Compare(op, left, right));
        }
        left
    }

    fn primary(&mut self) -> u16 {
        let Some(t) = self.tokens.get(self.pos) else {
            self.errors.push(CondError {
                range: self.end..self.end,
                message: "condition ends too early".into(),
                help: "something is missing after the last word".into(),
            });
            return self.arena.push(Node::Const(0));
        };
        self.pos += 1;
        match &t.tok {
            Tok::Num(n) => self.arena.push(Node::Const(*n)),
            Tok::Open => {
                let inner = self.or();
                match self.tokens.get(self.pos) {
                    Some(Token {
                        tok: Tok::Close, ..
                    }) => self.pos += 1,
                    _ => self.errors.push(CondError {
                        range: t.range.clone(),
                        message: "this `(` is never closed".into(),
                        help: "add a `)`".into(),
                    }),
                }
                inner
            }
            Tok::Name => {
                let name = self.text[t.range.clone()].to_string();
                match name.as_str() {
                    "true" => self.arena.push(Node::Const(1)),
                    "false" => self.arena.push(Node::Const(0)),
                    "and" | "or" | "not" => {
                        self.errors.push(CondError {
                            range: t.range.clone(),
                            message: format!("`{name}` needs something on its left"),
                            help: "write e.g. `first_turn and players == 2`".into(),
                        });
                        self.arena.push(Node::Const(0))
                    }
                    _ => match (self.resolve)(&name) {
                        Ok(atom) => self.arena.push(Node::Atom(atom)),
                        Err(help) => {
                            self.errors.push(CondError {
                                range: t.range.clone(),
                                message: format!("unknown name `{name}`"),
                                help,
                            });
                            self.arena.push(Node::Const(0))
                        }
                    },
                }
            }
            Tok::Close | Tok::Op(_) => {
                self.errors.push(CondError {
                    range: t.range.clone(),
                    message: "expected a name, a number or `(`".into(),
                    help: "see docs/spec-format.md, \"Conditions\"".into(),
                });
                self.arena.push(Node::Const(0))
            }
        }
    }
}
