//! The one loop that plays a record's moves as written: `show`, `play`, `solve --ply` and
//! the statistics replay records through it, so that a move is read, checked and played
//! the same way everywhere. (`verify` replays with corrections and has its own loop.)

use crate::error::ParseError;
use crate::game::{Game, Moves, Notation};
use crate::record::{MoveTok, RecordFile};

/// One move of a record as played.
pub struct Step<'a, G: Game> {
    /// 1 for the record's first move.
    pub ply: usize,
    /// The move as written.
    pub written: &'a MoveTok,
    pub mv: G::Move,
    pub before: G,
    pub after: G,
}

/// Where in a record file a move stands, for error messages: `file:line L, column C, ply P`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlace {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub ply: usize,
}

impl std::fmt::Display for MovePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let MovePlace {
            file,
            line,
            column,
            ply,
        } = self;
        write!(f, "{file}:line {line}, column {column}, ply {ply}")
    }
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The move's text is no move of the game.
    #[error("{at}: {error}")]
    Unreadable { at: MovePlace, error: ParseError },
    /// The game is over before this move: the record goes on after its end.
    #[error("{at}: {written}: the game is already over, yet the record goes on")]
    AfterEnd { at: MovePlace, written: String },
    /// The move is not legal in the position reached.
    #[error("{at}: {written} is not legal here (legal: {})", legal.join(" "))]
    Illegal {
        at: MovePlace,
        written: String,
        legal: Vec<String>,
    },
}

/// A move that is a number of two digits or more is most likely a move number that lost
/// its dot ("12 xE"): say so.
fn with_hint(error: ParseError, written: &str) -> ParseError {
    if written.len() >= 2 && written.chars().all(|c| c.is_ascii_digit()) {
        ParseError::new(format!(
            "{error} (a move number is written with a dot: \"{written}.\")"
        ))
    } else {
        error
    }
}

impl RecordFile {
    /// The moves of the record in order, across its groups.
    pub fn moves(&self) -> impl Iterator<Item = &MoveTok> {
        self.body.groups.iter().flat_map(|g| g.moves.iter())
    }
}

/// Plays the first `limit` moves of `file` from `start`, each read and checked for
/// legality, calling `each` after every move; returns the position reached. `name` is the
/// file's name in error messages.
pub fn replay<G: Game + Notation>(
    name: &str,
    file: &RecordFile,
    start: G,
    limit: usize,
    mut each: impl FnMut(&Step<G>),
) -> Result<G, ReplayError> {
    let mut g = start;
    let mut legal = Moves::new();
    for (i, written) in file.moves().take(limit).enumerate() {
        let at = || MovePlace {
            file: name.to_string(),
            line: written.pos.line,
            column: written.pos.column,
            ply: i + 1,
        };
        if g.is_terminal() {
            return Err(ReplayError::AfterEnd {
                at: at(),
                written: written.name.clone(),
            });
        }
        let mv = g
            .parse_move(&written.name)
            .map_err(|error| ReplayError::Unreadable {
                at: at(),
                error: with_hint(error, &written.name),
            })?;
        g.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(ReplayError::Illegal {
                at: at(),
                written: written.name.clone(),
                legal: legal.iter().map(|&x| g.format_move(x)).collect(),
            });
        }
        let after = g.play(mv);
        each(&Step {
            ply: i + 1,
            written,
            mv,
            before: g,
            after,
        });
        g = after;
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::Kalah;
    use crate::record::parse_file;

    #[test]
    fn plays_every_move_and_names_the_first_illegal_one() {
        let start = Kalah::start(4, 3, Default::default());
        let file = parse_file("t.txt", "[Game \"kalah\"]\n1. B C\n").unwrap();
        let mut plies = Vec::new();
        let end = replay("t.txt", &file, start, usize::MAX, |s| plies.push(s.ply)).unwrap();
        assert_eq!(plies, [1, 2]);
        assert_ne!(end, start);
        let file = parse_file("t.txt", "[Game \"kalah\"]\n1. B B\n").unwrap();
        let e = replay("t.txt", &file, start, usize::MAX, |_| {}).unwrap_err();
        assert!(
            e.to_string().starts_with("t.txt:line 2, column 6, ply 2: "),
            "{e}"
        );
        assert!(matches!(
            e,
            ReplayError::Illegal { .. } | ReplayError::Unreadable { .. }
        ));
    }
}
