//! The record's moves as the checks see them: one token per move with its group and
//! annotations, and how they read back in messages.

use super::*;

/// One move of the record, flattened out of its group.
#[derive(Clone, Debug)]
pub(super) struct Tok {
    /// 1-based index in the record as written; 0 for a move a correction inserted.
    pub(super) orig: usize,
    pub(super) number: Option<u32>,
    pub(super) name: String,
    pub(super) marks: String,
    pub(super) annotation: Option<Annotation>,
    /// Annotation covering the whole group, held by the group's last move.
    pub(super) group_annotation: Option<Annotation>,
    pub(super) group: usize,
    pub(super) group_len: usize,
    pub(super) pos: Pos,
    /// Whether the move's capture is checked against its annotation (or the absence of
    /// one): not in a record that annotates no capture at all ([`annotates_captures`]).
    pub(super) claims: bool,
}

impl Tok {
    pub(super) fn written(&self) -> String {
        let mut s = if self.name.is_empty() {
            "(empty entry)".to_string()
        } else {
            self.name.clone()
        };
        s += &self.marks;
        if let Some(a) = &self.annotation {
            s += " ";
            s += &ann_text(a);
        }
        s
    }
}

pub(super) fn ann_text(a: &Annotation) -> String {
    match a {
        Annotation::Claim(c) if c.gained == 0 && c.lost == 0 => "(+0)".into(),
        Annotation::Claim(c) => c.format(),
        Annotation::Unreadable(s) => s.clone(),
    }
}

pub(super) fn claim_text(c: &Claim) -> String {
    if c.gained == 0 && c.lost == 0 {
        "no capture".into()
    } else {
        c.format()
    }
}

/// Whether a record annotates captures at all. A move without an annotation claims to
/// capture nothing, but a plain move list (the usual Kalah or Andada record, or a
/// Progressive game written without its `(+n)`) annotates nothing: checked move by move
/// it would fail at its first capture and stop there. In such a record the captures are
/// not checked, and the report says so ([`Report::captures_checked`]).
fn annotates_captures(rec: &RecordFile) -> bool {
    rec.body
        .groups
        .iter()
        .any(|g| g.annotation.is_some() || g.moves.iter().any(|m| m.annotation.is_some()))
}

pub(super) fn flatten(rec: &RecordFile) -> Vec<Tok> {
    let claims = annotates_captures(rec);
    let mut toks = Vec::new();
    let mut orig = 0;
    for (gi, g) in rec.body.groups.iter().enumerate() {
        for (mi, m) in g.moves.iter().enumerate() {
            orig += 1;
            toks.push(Tok {
                orig,
                number: g.number,
                name: m.name.clone(),
                marks: m.marks.clone(),
                annotation: m.annotation.clone(),
                group_annotation: if mi + 1 == g.moves.len() {
                    g.annotation.clone()
                } else {
                    None
                },
                group: gi,
                group_len: g.moves.len(),
                pos: m.pos,
                claims,
            });
        }
    }
    toks
}
