//! Errors that name what was wrong and where.

use std::fmt;

/// What was wrong with some input text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl ParseError {
    pub fn new(msg: impl Into<String>) -> Self {
        ParseError(msg.into())
    }
}

/// An error with its place: file, line, column, ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub ply: Option<usize>,
    pub message: String,
}

impl Located {
    pub fn new(message: impl Into<String>) -> Self {
        Located {
            file: None,
            line: None,
            column: None,
            ply: None,
            message: message.into(),
        }
    }
    pub fn file(mut self, f: impl Into<String>) -> Self {
        self.file = Some(f.into());
        self
    }
    pub fn line(mut self, l: usize) -> Self {
        self.line = Some(l);
        self
    }
    pub fn column(mut self, c: usize) -> Self {
        self.column = Some(c);
        self
    }
    pub fn ply(mut self, p: usize) -> Self {
        self.ply = Some(p);
        self
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wrote = false;
        if let Some(file) = &self.file {
            write!(f, "{file}")?;
            wrote = true;
        }
        if let Some(l) = self.line {
            write!(f, "{}line {l}", if wrote { ":" } else { "" })?;
            wrote = true;
            if let Some(c) = self.column {
                write!(f, ", column {c}")?;
            }
        }
        if let Some(p) = self.ply {
            write!(f, "{}ply {p}", if wrote { ", " } else { "" })?;
            wrote = true;
        }
        if wrote {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Located {}

impl From<ParseError> for Located {
    fn from(e: ParseError) -> Self {
        Located::new(e.0)
    }
}
