//! The published claims of a problem as constraints on its candidate starts (issue 16),
//! and where a printed line leaves legal or best play from a known start.
//!
//! Claims, for the player to move: line 1's first move is worth exactly line 1's final
//! margin, and when that margin is a win no other move wins; every further line's first
//! move is worth exactly its own final margin ("Be careful or you just get a draw").

use mancala_core::afrika::{Afrika, AfrikaMove};
use mancala_core::rows::{Row, Seated};
use mancala_core::{Game, Moves};
use mancala_solver::Solver;

use super::forward::Ply;

/// A ply as the engine's move.
pub fn engine_move(p: &Ply) -> AfrikaMove {
    if p.capture {
        AfrikaMove::Capture(p.hole as u8)
    } else {
        AfrikaMove::Sow(p.hole as u8)
    }
}

/// The claimed margin of a line for `me`: its final score `[south, north]`.
pub fn margin(score: [u32; 2], me: Row) -> i32 {
    let (s, n) = (score[0] as i32, score[1] as i32);
    if me == Row::South { s - n } else { n - s }
}

/// The exact value of playing `mv` from `g`, for `g`'s player to move; `None` when the
/// move is illegal.
pub fn move_value(solver: &Solver, g: &Afrika, mv: AfrikaMove) -> Option<i32> {
    if g.why_illegal(mv).is_some() {
        return None;
    }
    let after = g.play(mv);
    let v = solver
        .value(&after, 0)
        .expect("the search is never stopped");
    Some(if after.to_move() == g.to_move() {
        v
    } else {
        -v
    })
}

/// The verdict of the claims on one start.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Each line's first move's value (None: illegal or not computed: the checks stop at
    /// the first claim that fails, the other lines before line 1).
    pub first_values: Vec<Option<i32>>,
    /// Every legal move's value, when the cheap checks passed.
    pub move_values: Vec<(AfrikaMove, i32)>,
    pub confirmed: bool,
}

/// Checks the claims on `g`: the cheap ones first (the other lines' first moves, then
/// line 1's), every move only when they hold.
pub fn check(solver: &Solver, g: &Afrika, lines: &[Vec<Ply>], margins: &[i32]) -> Verdict {
    let mut v = Verdict {
        first_values: vec![None; lines.len()],
        move_values: Vec::new(),
        confirmed: false,
    };
    for i in (1..lines.len()).chain([0]) {
        let value = lines[i]
            .first()
            .and_then(|p| move_value(solver, g, engine_move(p)));
        v.first_values[i] = value;
        if value != Some(margins[i]) {
            return v;
        }
    }
    v.move_values = all_values(solver, g);
    let first = engine_move(&lines[0][0]);
    v.confirmed = margins[0] <= 0
        || v.move_values
            .iter()
            .all(|&(mv, value)| mv == first || value <= 0);
    v
}

/// Every legal move of `g` with its exact value for `g`'s player to move.
pub fn all_values(solver: &Solver, g: &Afrika) -> Vec<(AfrikaMove, i32)> {
    let mut ms = Moves::new();
    g.legal_moves(&mut ms);
    ms.iter()
        .map(|&mv| (mv, move_value(solver, g, mv).expect("legal")))
        .collect()
}

/// Where a printed line leaves the rules or best play from a known start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Departure {
    /// Plies legal as printed (with their amounts) from the start.
    pub legal: usize,
    /// The first ply (0-based) whose move is not a best move, with its value and the best
    /// value (mover's view); `None` if every legal ply is a best move.
    pub not_best: Option<(usize, i32, i32)>,
}

/// [`Departure`] of `line` from `start` (a solve per legal ply), best play looked for
/// from ply `from` (0-based) on.
pub fn departure(solver: &Solver, start: &Afrika, line: &[Ply], from: usize) -> Departure {
    let legal = super::forward::legal_prefix(start, line);
    let mut g = *start;
    let mut not_best = None;
    let mut ms = Moves::new();
    for (i, p) in line[..legal].iter().enumerate() {
        let mv = engine_move(p);
        if i < from {
            g = g.play(mv);
            continue;
        }
        g.legal_moves(&mut ms);
        let values: Vec<(AfrikaMove, i32)> = ms
            .iter()
            .map(|&m| (m, move_value(solver, &g, m).expect("legal")))
            .collect();
        let best = values.iter().map(|x| x.1).max().expect("a legal move");
        let played = values.iter().find(|x| x.0 == mv).expect("legal").1;
        if played < best {
            not_best = Some((i, played, best));
            break;
        }
        g = g.play(mv);
    }
    Departure { legal, not_best }
}

/// The mover's row of `g`.
pub fn mover(g: &Afrika) -> Row {
    Afrika::row(g.to_move())
}
