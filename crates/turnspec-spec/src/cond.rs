//! Parsing conditions: the small expression language of `if = "..."` keys.
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
//! number counts as yes. Names are resolved to [`Atom`]s here, so the
//! compiled [`Conditions`] never look at a string. Nesting is bounded by
//! [`MAX_CONDITION_DEPTH`], so neither parsing nor evaluation can exhaust
//! the stack.

use std::ops::Range;

use turnspec_model::{
    Atom, CompareOp, CondId, ConditionBuilder, LimitError, MAX_CONDITION_DEPTH, NodeRef,
};

/// Parses `text` with `build`, a builder of the spec's conditions,
/// resolving names with `resolve`. Errors carry byte ranges relative to
/// `text`.
pub(crate) fn parse(
    build: ConditionBuilder<'_>,
    text: &str,
    resolve: &mut dyn FnMut(&str) -> Result<Atom, String>,
) -> Result<CondId, Vec<CondError>> {
    let tokens = lex(text).map_err(|e| vec![e])?;
    let mut parser = Parser {
        text,
        tokens: &tokens,
        pos: 0,
        build,
        resolve,
        errors: Vec::new(),
        end: text.len(),
        depth: 0,
    };
    let root = parser.or();
    if parser.errors.is_empty() && parser.pos < tokens.len() {
        let t = &tokens[parser.pos];
        parser.errors.push(CondError {
            range: t.range.clone(),
            message: format!("unexpected `{}`", &text[t.range.clone()]),
            help: "join conditions with `and` / `or`, or compare with `==`".into(),
            limit: None,
        });
    }
    if !parser.errors.is_empty() {
        return Err(parser.errors);
    }
    parser.build.finish(root, text).map_err(|e| {
        vec![CondError {
            range: 0..text.len(),
            message: e.to_string(),
            help: "split the condition, or give the steps and phases that need it a tag".into(),
            limit: Some(e),
        }]
    })
}

/// A mistake in a condition's text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CondError {
    pub(crate) range: Range<usize>,
    pub(crate) message: String,
    pub(crate) help: String,
    /// Set when the condition goes past a limit of the model.
    pub(crate) limit: Option<LimitError>,
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
                    limit: None,
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
                            limit: None,
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
                    limit: None,
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
    build: ConditionBuilder<'a>,
    resolve: &'r mut dyn FnMut(&str) -> Result<Atom, String>,
    errors: Vec<CondError>,
    end: usize,
    /// How many `not`s and parentheses enclose the current position.
    depth: usize,
}

impl<'a> Parser<'a, '_> {
    fn keyword(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some(t) if t.tok == Tok::Name && &self.text[t.range.clone()] == word)
    }

    fn or(&mut self) -> NodeRef {
        self.chain("or", Self::and, ConditionBuilder::or)
    }

    fn and(&mut self) -> NodeRef {
        self.chain("and", Self::unary, ConditionBuilder::and)
    }

    /// Operands parsed by `operand`, joined left to right by the keyword
    /// `word`, each pair built by `join`.
    fn chain(
        &mut self,
        word: &str,
        operand: fn(&mut Self) -> NodeRef,
        join: fn(&mut ConditionBuilder<'a>, NodeRef, NodeRef) -> NodeRef,
    ) -> NodeRef {
        let mut left = operand(self);
        while self.keyword(word) {
            self.pos += 1;
            let right = operand(self);
            left = join(&mut self.build, left, right);
        }
        left
    }

    fn unary(&mut self) -> NodeRef {
        if self.depth >= MAX_CONDITION_DEPTH {
            // Stop descending: a condition this deep is refused as a whole,
            // pointing at where the nesting went past the limit.
            let range = self
                .tokens
                .get(self.pos)
                .map(|t| t.range.clone())
                .unwrap_or(self.end..self.end);
            self.errors.push(CondError {
                range,
                message: format!(
                    "the condition nests deeper than {MAX_CONDITION_DEPTH} levels here"
                ),
                help: "write it with fewer parentheses and `not`s".into(),
                limit: Some(LimitError {
                    what: "levels of nesting in a condition",
                    limit: MAX_CONDITION_DEPTH,
                    value: self.depth + 1,
                }),
            });
            self.pos = self.tokens.len();
            return self.build.constant(0);
        }
        self.depth += 1;
        let node = if self.keyword("not") {
            self.pos += 1;
            let inner = self.unary();
            self.build.not(inner)
        } else {
            self.compare()
        };
        self.depth -= 1;
        node
    }

    fn compare(&mut self) -> NodeRef {
        let left = self.primary();
        if let Some(Token {
            tok: Tok::Op(op), ..
        }) = self.tokens.get(self.pos)
        {
            let op = *op;
            self.pos += 1;
            let right = self.primary();
            return self.build.compare(op, left, right);
        }
        left
    }

    fn primary(&mut self) -> NodeRef {
        let Some(t) = self.tokens.get(self.pos) else {
            self.errors.push(CondError {
                range: self.end..self.end,
                message: "condition ends too early".into(),
                help: "something is missing after the last word".into(),
                limit: None,
            });
            return self.build.constant(0);
        };
        self.pos += 1;
        match &t.tok {
            Tok::Num(n) => self.build.constant(*n),
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
                        limit: None,
                    }),
                }
                inner
            }
            Tok::Name => {
                let name = self.text[t.range.clone()].to_string();
                match name.as_str() {
                    "true" => self.build.constant(1),
                    "false" => self.build.constant(0),
                    "and" | "or" | "not" => {
                        self.errors.push(CondError {
                            range: t.range.clone(),
                            message: format!("`{name}` needs something on its left"),
                            help: "write e.g. `first_turn and players == 2`".into(),
                            limit: None,
                        });
                        self.build.constant(0)
                    }
                    _ => match (self.resolve)(&name) {
                        Ok(atom) => self.build.atom(atom),
                        Err(help) => {
                            self.errors.push(CondError {
                                range: t.range.clone(),
                                message: format!("unknown name `{name}`"),
                                help,
                                limit: None,
                            });
                            self.build.constant(0)
                        }
                    },
                }
            }
            Tok::Close | Tok::Op(_) => {
                self.errors.push(CondError {
                    range: t.range.clone(),
                    message: "expected a name, a number or `(`".into(),
                    help: "see docs/spec-format.md, \"Conditions\"".into(),
                    limit: None,
                });
                self.build.constant(0)
            }
        }
    }
}
