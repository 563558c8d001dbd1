//! Forward reconstruction with lazy holes (issue 16).
//!
//! Published lines are typed by hand: right at the start, wrong later. The backward
//! method ([`super::fit_line`]) starts from the end of a line, so an early error in it
//! poisons everything. Here every line is played forwards from one common start whose
//! holes are all unknown ([`Start::unknown`]), fixing a hole only as far as a move needs it
//! ([`super::lazy`]). No corrections: a line is trusted up to a prefix length, and for
//! every pair of prefix lengths (p1 of the first line, p2 of the second) the search counts
//! the complete start positions under which both prefixes are legal with their printed
//! capture amounts. The frontier is the set of longest prefix pairs with a position left.
//!
//! The totals come from the whole lines: the board is empty at a line's end, so the
//! stones on the board at the start are the sum of the line's capture amounts, and each
//! start store is the final score minus that side's captures ([`Totals::of`]).

use mancala_core::afrika::{Afrika, AfrikaMove, Rules};
use mancala_core::rows::{Row, Seated, opposite};

use super::lazy::{Cells, Start};
use super::{Line, LineEntry};

/// One ply of a line as published (empty entries are read as no move and skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// 1-based index of the published entry.
    pub entry: usize,
    pub mover: Row,
    pub capture: bool,
    pub hole: usize,
    /// The printed capture amount; `None` for a sowing or an unreadable amount.
    pub amount: Option<u8>,
}

/// The plies of a line.
pub fn plies(line: &Line) -> Vec<Ply> {
    line.entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match *e {
            LineEntry::Empty => None,
            LineEntry::Move {
                mover,
                capture,
                hole,
                amount,
            } => Some(Ply {
                entry: i + 1,
                mover,
                capture,
                hole,
                amount,
            }),
        })
        .collect()
}

/// What the lines' final claims and capture amounts imply about the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Totals {
    /// Stones on the board at the start.
    pub on_board: u8,
    /// Start stores by row: `[south, north]`.
    pub stores: [u8; 2],
    /// How each line's figures were read, in words.
    pub notes: Vec<String>,
    /// Each line's unreadable amounts, as the totals fix them (entry, amount).
    pub filled: Vec<Vec<(usize, u8)>>,
}

impl Totals {
    /// The totals of the lines: the first line with every amount readable fixes them
    /// (stones on the board = its captures; store = score - captures of that side); in
    /// the other lines a single unreadable amount per side is what makes that side's
    /// figures agree. Lines whose figures cannot agree are an error naming the line.
    pub fn of(lines: &[Line]) -> Result<Totals, String> {
        let caps = |l: &Line| {
            let mut known = [0u32; 2];
            let mut unknown = [Vec::new(), Vec::new()];
            for p in plies(l) {
                let side = (p.mover == Row::North) as usize;
                match (p.capture, p.amount) {
                    (true, Some(a)) => known[side] += a as u32,
                    (true, None) => unknown[side].push(p.entry),
                    (false, _) => {}
                }
            }
            (known, unknown)
        };
        let base = lines
            .iter()
            .find(|l| caps(l).1.iter().all(Vec::is_empty))
            .ok_or("no line has every capture amount readable: the totals are unknown")?;
        let (k, _) = caps(base);
        let stores = [0, 1].map(|s| base.score[s].checked_sub(k[s]));
        let [Some(ss), Some(sn)] = stores else {
            return Err(format!(
                "{}: the captures ({}, {}) exceed the final score",
                base.name, k[0], k[1]
            ));
        };
        let on_board = k[0] + k[1];
        let mut notes = Vec::new();
        let mut filled = Vec::new();
        for l in lines {
            let (k, unknown) = caps(l);
            let mut fill = Vec::new();
            for (s, store) in [ss, sn].into_iter().enumerate() {
                let need = l.score[s] as i64 - store as i64 - k[s] as i64;
                let who = if s == 0 { "South" } else { "North" };
                match unknown[s].as_slice() {
                    [] if need == 0 => {}
                    [e] if need >= 1 => fill.push((*e, need as u8)),
                    _ => {
                        return Err(format!(
                            "{}: {who} captures {} and scores {}, which does not agree with a start store of {store}",
                            l.name, k[s], l.score[s]
                        ));
                    }
                }
            }
            notes.push(format!(
                "{}: {}; captures South {} North {}{}",
                l.name,
                l.score_note,
                k[0],
                k[1],
                fill.iter()
                    .map(|(e, a)| format!("; unreadable amount of entry {e} is +{a}"))
                    .collect::<String>()
            ));
            filled.push(fill);
        }
        Ok(Totals {
            on_board: u8::try_from(on_board).map_err(|_| "too many stones")?,
            stores: [ss as u8, sn as u8],
            notes,
            filled,
        })
    }

    /// The complete position of start holes `holes`, `to_move` to move.
    pub fn position(&self, holes: &[u8], to_move: Row) -> Afrika {
        let mut st = [0u8; 2];
        st[Afrika::owner(Row::South).index()] = self.stores[0];
        st[Afrika::owner(Row::North).index()] = self.stores[1];
        Afrika::from_parts(holes, st, Afrika::owner(to_move), Rules::default())
            .expect("sizes are checked when the lines are read")
    }
}

/// A line played forward from a lazy start: the board and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: Cells,
    pub to_move: Row,
}

/// One conjunction of hole ranges ("hole h holds lo..=hi now").
type Conj = [(usize, u8, u8)];

/// Every start of `starts` restricted by one of the disjoint alternatives `alts`.
fn branch(cells: &Cells, starts: Vec<Start>, alts: &[&Conj]) -> Vec<Start> {
    let mut out = Vec::new();
    for s in starts {
        for alt in alts {
            let r = alt
                .iter()
                .try_fold(s, |s, &(h, lo, hi)| cells.require(s, h, lo, hi));
            out.extend(r);
        }
    }
    out
}

/// The starts of `s` under which the mover has no capture smaller than `amount` (a
/// sowing: no capture at all, `amount` 0): each own hole is full, or it and the hole
/// across are empty, or the hole across holds at least `amount`.
fn no_smaller_capture(st: &State, s: Start, amount: u8) -> Vec<Start> {
    let m = st.cells.holes as usize / 2;
    let mut starts = vec![s];
    for i in st.to_move.start(m)..st.to_move.start(m) + m {
        let o = opposite(i, m);
        let full: &Conj = &[(i, 1, u8::MAX)];
        let both: &Conj = &[(i, 0, 0), (o, 0, 0)];
        let larger: &Conj = &[(i, 0, 0), (o, amount.max(1), u8::MAX)];
        starts = if amount == 0 {
            branch(&st.cells, starts, &[full, both])
        } else {
            branch(&st.cells, starts, &[full, both, larger])
        };
        if starts.is_empty() {
            break;
        }
    }
    starts
}

/// The starts of `s` (with the line in state `st`) under which `ply` is legal with its
/// printed amount, each with the state after it. An unreadable amount is any amount.
pub fn advance(s: Start, st: &State, ply: &Ply) -> Vec<(Start, State)> {
    let m = st.cells.holes as usize / 2;
    let mut out = Vec::new();
    if ply.mover != st.to_move {
        return out;
    }
    let h = ply.hole;
    if ply.capture {
        let Some(s) = st.cells.require(s, opposite(h, m), 0, 0) else {
            return out;
        };
        let exact = match ply.amount {
            Some(a) => st
                .cells
                .require(s, h, a, a)
                .map(|s| (s, a))
                .into_iter()
                .collect(),
            None => st.cells.split_exact(s, h),
        };
        for (s, a) in exact.into_iter().filter(|&(_, a)| a > 0) {
            for s in no_smaller_capture(st, s, a) {
                let mut next = *st;
                next.cells.empty(h);
                next.to_move = st.to_move.other();
                out.push((s, next));
            }
        }
    } else {
        let Some(s) = st.cells.require(s, h, 1, u8::MAX) else {
            return out;
        };
        for s in no_smaller_capture(st, s, 0) {
            for (s, v) in st.cells.split_exact(s, h) {
                let mut next = *st;
                next.cells.sow(h, v);
                next.to_move = st.to_move.other();
                out.push((s, next));
            }
        }
    }
    out
}

/// Plies of each line, the totals, and who moves first: what the search needs.
#[derive(Clone, Debug)]
pub struct Problem {
    pub m: usize,
    pub to_move: Row,
    pub totals: Totals,
    /// The plies of each line (one or two lines), unreadable amounts filled from the
    /// totals.
    pub lines: Vec<Vec<Ply>>,
}

impl Problem {
    /// The problem of one or two lines from the same start.
    pub fn new(lines: &[Line]) -> Result<Problem, String> {
        if lines.is_empty() || lines.len() > 2 {
            return Err(format!(
                "the forward method takes one or two lines, not {}",
                lines.len()
            ));
        }
        let totals = Totals::of(lines)?;
        let plies = lines
            .iter()
            .zip(&totals.filled)
            .map(|(l, fill)| {
                let mut ps = plies(l);
                for p in &mut ps {
                    if let Some(&(_, a)) = fill.iter().find(|(e, _)| *e == p.entry) {
                        p.amount = Some(a);
                    }
                }
                ps
            })
            .collect();
        Ok(Problem {
            m: lines[0].m,
            to_move: lines[0].to_move,
            totals,
            lines: plies,
        })
    }

    fn first_state(&self) -> State {
        State {
            cells: Cells::start(2 * self.m),
            to_move: self.to_move,
        }
    }

    fn unknown(&self) -> Start {
        Start::unknown(2 * self.m, self.totals.on_board)
    }
}

/// Prefix lengths (plies) of line 1 and line 2.
pub type Pair = (usize, usize);

/// The positions left for every pair of prefix lengths.
#[derive(Clone, Debug)]
pub struct Table {
    /// `count[p1][p2]`: complete starts under which the first p1 plies of line 1 and the
    /// first p2 plies of line 2 are legal (one line: p2 is always 0).
    pub count: Vec<Vec<u64>>,
    /// Lazy starts expanded.
    pub nodes: u64,
    /// Lazy starts reached at each ply of line 1 (summed over line 2).
    pub nodes_at: Vec<u64>,
    /// False when the node limit stopped the search: the counts are then lower bounds.
    pub complete: bool,
}

impl Table {
    /// The longest prefix pairs with a position left: no other pair with a position is at
    /// least as long in both lines.
    pub fn frontier(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (p1, row) in self.count.iter().enumerate() {
            for (p2, &c) in row.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                let dominated = self.count.iter().enumerate().any(|(q1, r)| {
                    r.iter()
                        .enumerate()
                        .any(|(q2, &d)| d > 0 && q1 >= p1 && q2 >= p2 && (q1, q2) != (p1, p2))
                });
                if !dominated {
                    out.push((p1, p2));
                }
            }
        }
        out
    }
}

/// The search over both lines: line 1 forward, and from each of its lazy starts line 2.
struct Walk<'a, F: FnMut(u64)> {
    problem: &'a Problem,
    table: Table,
    /// Prefix pairs whose lazy starts are kept.
    keep: &'a [(usize, usize)],
    kept: Vec<(Pair, Start)>,
    limit: u64,
    progress: F,
}

impl<F: FnMut(u64)> Walk<'_, F> {
    /// Counts a lazy start at ply `p1` of line 1; false when the node limit is reached.
    fn tick(&mut self, p1: usize) -> bool {
        self.table.nodes += 1;
        self.table.nodes_at[p1] += 1;
        if self.table.nodes.is_multiple_of(1 << 16) {
            (self.progress)(self.table.nodes);
        }
        if self.table.nodes > self.limit {
            self.table.complete = false;
        }
        self.table.complete
    }

    fn line1(&mut self, p1: usize, s: Start, st: State) {
        if !self.tick(p1) {
            return;
        }
        let first = self.problem.first_state();
        self.line2(p1, 0, s, first);
        let Some(ply) = self.problem.lines[0].get(p1) else {
            return;
        };
        for (s, st) in advance(s, &st, ply) {
            self.line1(p1 + 1, s, st);
        }
    }

    fn line2(&mut self, p1: usize, p2: usize, s: Start, st: State) {
        if p2 > 0 && !self.tick(p1) {
            return;
        }
        let c = &mut self.table.count[p1][p2];
        *c = c.saturating_add(s.count());
        if self.keep.contains(&(p1, p2)) {
            self.kept.push(((p1, p2), s));
        }
        let Some(ply) = self.problem.lines.get(1).and_then(|l| l.get(p2)) else {
            return;
        };
        for (s, st) in advance(s, &st, ply) {
            self.line2(p1, p2 + 1, s, st);
        }
    }
}

/// The count of every prefix pair, and the lazy starts of the pairs in `keep` (disjoint
/// within a pair), expanding at most `limit` lazy starts. `progress` hears the node count
/// now and then.
pub fn search(
    problem: &Problem,
    keep: &[(usize, usize)],
    limit: u64,
    progress: impl FnMut(u64),
) -> (Table, Vec<(Pair, Start)>) {
    let len = |i: usize| problem.lines.get(i).map_or(0, Vec::len);
    let mut w = Walk {
        problem,
        table: Table {
            count: vec![vec![0; len(1) + 1]; len(0) + 1],
            nodes: 0,
            nodes_at: vec![0; len(0) + 1],
            complete: true,
        },
        keep,
        kept: Vec::new(),
        limit,
        progress,
    };
    w.line1(0, problem.unknown(), problem.first_state());
    (w.table, w.kept)
}

/// How far each line is legal, with its printed amounts, from the complete `start`
/// (plies).
pub fn legal_prefix(start: &Afrika, line: &[Ply]) -> usize {
    use mancala_core::Game;
    let m = start.holes_per_row();
    let mut g = *start;
    for (i, p) in line.iter().enumerate() {
        let mv = if p.capture {
            AfrikaMove::Capture(p.hole as u8)
        } else {
            AfrikaMove::Sow(p.hole as u8)
        };
        let ok = Afrika::row(g.to_move()) == p.mover
            && g.why_illegal(mv).is_none()
            && (!p.capture || p.amount.is_none_or(|a| g.holes()[p.hole] == a));
        if !ok || p.hole >= 2 * m {
            return i;
        }
        g = g.play(mv);
    }
    line.len()
}

#[cfg(test)]
mod tests;
