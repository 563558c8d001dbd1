//! Reconstructing a lost Afrika start position from published lines (issue 4).
//!
//! A line that ends with the board empty can be unwound backwards from the empty board:
//! undoing a capture puts the captured stones back (deterministic), undoing a sowing
//! branches on the number of stones sown. Every backward step is checked forwards with
//! the rules engine ([`Game::legal_moves`] and [`Game::play`]), so the compulsory
//! smallest capture is enforced exactly as in play. Hand-typed lines contain typos, so
//! the search may also apply a bounded number of corrections: a wrong capture amount, a
//! wrong hole letter, a wrong letter case (the other player's hole), an extra move
//! (dropped), a lost move (inserted; also the reading of an empty entry "; ;").
//!
//! Start stores follow from the result statement: the final score minus what each side
//! captures during the (corrected) line.

pub mod claims;
pub mod forward;
pub mod lazy;
pub mod mend;

use mancala_core::rows::Seated;
use std::collections::{BTreeMap, HashSet};

use mancala_core::afrika::{Afrika, AfrikaMove, Rules};
use mancala_core::record::{Annotation, MoveTok, RecordFile, RecordGame};
use mancala_core::rows::{Row, hole_of_letter, letter, opposite, row_of};
use mancala_core::{Game, Moves, Player};

/// Largest capture amount tried when an amount is corrected or unknown.
pub const MAX_AMOUNT: u8 = 24;

/// One entry of a published line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineEntry {
    /// An empty entry ("; ;").
    Empty,
    /// A move as published.
    Move {
        mover: Row,
        capture: bool,
        hole: usize,
        /// The published capture amount; `None` for a sowing or an unreadable amount.
        amount: Option<u8>,
    },
}

/// A published line: entries in order and the final score (by row: South, North).
#[derive(Clone, Debug)]
pub struct Line {
    pub name: String,
    pub m: usize,
    pub entries: Vec<LineEntry>,
    /// The texts of the entries as published.
    pub texts: Vec<String>,
    pub to_move: Row,
    /// Final score `[south, north]` read from the result statement.
    pub score: [u32; 2],
    /// Note on the result statement (how the score was read).
    pub score_note: String,
}

/// The mover of a published move: uppercase sowings and lowercase captures are South's.
fn mover_of(capture: bool, hole_row: Row) -> Row {
    if capture { hole_row.other() } else { hole_row }
}

/// Reads the final score from a result statement: "South wins with 65:63 points",
/// "North wins with 64:60 points", "Draw" (half of `total` each).
pub fn parse_score(text: &str, total: u32) -> Result<[u32; 2], String> {
    let t = text
        .trim()
        .trim_start_matches(['-', '.', ' '])
        .to_lowercase();
    if t.starts_with("draw") {
        return Ok([total / 2, total / 2]);
    }
    let winner = if t.starts_with("south") {
        Row::South
    } else if t.starts_with("north") {
        Row::North
    } else {
        return Err(format!(
            "result \"{text}\": expected \"Draw\" or \"South/North wins with A:B points\""
        ));
    };
    let nums: Vec<u32> = t
        .split(|c: char| !c.is_ascii_digit() && c != ':')
        .find(|w| w.contains(':'))
        .and_then(|w| {
            let (a, b) = w.split_once(':')?;
            Some(vec![a.parse().ok()?, b.parse().ok()?])
        })
        .ok_or_else(|| format!("result \"{text}\": no score A:B"))?;
    Ok(match winner {
        Row::South => [nums[0], nums[1]],
        Row::North => [nums[1], nums[0]],
    })
}

impl Line {
    /// Reads a record file whose `[Start]` is unknown. Errors name the file and the ply.
    /// The board size and the stones in play are those of the standard start the tags
    /// describe (`[Board]`, `[Stones]`).
    pub fn from_record(name: &str, rec: &RecordFile) -> Result<Line, String> {
        let standard = Afrika::standard_start(&rec.tags).map_err(|e| format!("{name}: {e}"))?;
        let m = standard.holes_per_row();
        let to_move = match rec.tags.get("ToMove") {
            Some(v) if v.eq_ignore_ascii_case("south") => Row::South,
            Some(v) if v.eq_ignore_ascii_case("north") => Row::North,
            None => {
                return Err(format!(
                    "{name}: the [ToMove] tag is missing: the side to move at the unknown start, South or North"
                ));
            }
            Some(other) => {
                return Err(format!(
                    "{name}: [ToMove \"{other}\"]: expected South or North"
                ));
            }
        };
        let total: u32 = standard.holes().iter().map(|&h| h as u32).sum();
        let mut entries = Vec::new();
        let mut texts = Vec::new();
        for g in &rec.body.groups {
            for mv in &g.moves {
                let at = format!(
                    "{name}:line {} (ply {}, \"{}\")",
                    mv.pos.line,
                    entries.len() + 1,
                    mv.name
                );
                let (entry, text) = entry_of(&at, mv, g.annotation.as_ref(), m)?;
                if let LineEntry::Move {
                    amount: Some(a), ..
                } = entry
                    && a as u32 > total
                {
                    return Err(format!(
                        "{at}: a capture of {a} stones, but the board holds {total} stones in all (expected an amount from 1 to {total})"
                    ));
                }
                entries.push(entry);
                texts.push(text);
            }
        }
        let (res, _) = rec
            .body
            .result
            .clone()
            .ok_or_else(|| format!("{name}: no result statement after the line"))?;
        let (score, score_note) = final_score(&res, total).map_err(|e| format!("{name}: {e}"))?;
        Ok(Line {
            name: name.to_string(),
            m,
            entries,
            texts,
            to_move,
            score,
            score_note,
        })
    }
}

/// One published move as an entry, and its text as published. `at` names it in errors.
fn entry_of(
    at: &str,
    mv: &MoveTok,
    group_annotation: Option<&Annotation>,
    m: usize,
) -> Result<(LineEntry, String), String> {
    if mv.name.is_empty() {
        return Ok((LineEntry::Empty, "(empty)".into()));
    }
    let (capture, l) = match mv.name.strip_prefix('x') {
        Some(r) => (true, r),
        None => (false, mv.name.as_str()),
    };
    let mut cs = l.chars();
    let (Some(c), None) = (cs.next(), cs.next()) else {
        return Err(format!("{at}: not an Afrika move"));
    };
    let hole = hole_of_letter(c, m).map_err(|e| format!("{at}: {}", e.0))?;
    let amount = match mv.annotation.as_ref().or(group_annotation) {
        Some(Annotation::Claim(c)) if capture => Some(u8::try_from(c.gained).map_err(|_| {
            format!(
                "{at}: a capture of {} stones is more than any board holds (at most 255)",
                c.gained
            )
        })?),
        _ => None,
    };
    let text = match &mv.annotation {
        Some(Annotation::Claim(c)) => format!("{}{} {}", mv.name, mv.marks, c.format()),
        Some(Annotation::Unreadable(u)) => format!("{}{} {u}", mv.name, mv.marks),
        None => format!("{}{}", mv.name, mv.marks),
    };
    let entry = LineEntry::Move {
        mover: mover_of(capture, row_of(hole, m)),
        capture,
        hole,
        amount,
    };
    Ok((entry, text))
}

/// The final score `[south, north]` a result statement gives, with a note on how it was
/// read: a score that does not add up to the `total` stones keeps its margin.
fn final_score(res: &str, total: u32) -> Result<([u32; 2], String), String> {
    let score = parse_score(res, total)?;
    let sum = score[0] + score[1];
    if sum == total {
        let note = format!("\"{res}\" read as South {}:{} North", score[0], score[1]);
        return Ok((score, note));
    }
    if (total as i64 - sum as i64) % 2 != 0 || sum > total {
        return Err(format!(
            "the result {}:{} cannot be read with {total} stones in all",
            score[0], score[1]
        ));
    }
    let d = (total - sum) / 2;
    let score = [score[0] + d, score[1] + d];
    let note = format!(
        "\"{res}\" sums to {sum}, not {total}: read as South {}:{} North (same margin)",
        score[0], score[1]
    );
    Ok((score, note))
}

/// A correction applied to a published line.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Correction {
    /// 1-based index of the published entry (for an insertion: the entry it follows).
    pub entry: usize,
    pub text: String,
    /// Whether it counts against the budget (reading an empty entry as nothing is free).
    pub cost: u8,
}

/// A start position consistent with one line, with the corrected line.
#[derive(Clone, Debug)]
pub struct LineFit {
    pub start: Afrika,
    pub corrections: Vec<Correction>,
    /// The corrected line in the engine's notation with capture amounts.
    pub moves: Vec<(AfrikaMove, u8)>,
}

impl LineFit {
    pub fn cost(&self) -> usize {
        self.corrections.iter().map(|c| c.cost as usize).sum()
    }
    /// The corrected line as published notation ("G; e; xf (+1); ...").
    pub fn line_text(&self) -> String {
        let mut g = self.start;
        let mut out = Vec::new();
        for &(mv, a) in &self.moves {
            let l = letter(Afrika::hole(mv), g.holes_per_row());
            out.push(match mv {
                AfrikaMove::Sow(_) => l.to_string(),
                AfrikaMove::Capture(_) => format!("x{l} (+{a})"),
            });
            g = g.play(mv);
        }
        out.join("; ")
    }
}

fn player_of(row: Row) -> Player {
    Afrika::owner(row)
}

fn position(holes: &[u8], to_move: Row) -> Afrika {
    Afrika::from_parts(holes, [0, 0], player_of(to_move), Rules::default())
        .expect("board sizes are checked")
}

/// Undoes a capture of `hole` taking `amount` by `mover`: the position before, if legal.
fn undo_capture(after: &[u8], mover: Row, hole: usize, amount: u8) -> Option<Vec<u8>> {
    let m = after.len() / 2;
    if amount == 0 || row_of(hole, m) == mover || after[hole] != 0 {
        return None;
    }
    if after[opposite(hole, m)] != 0 {
        return None;
    }
    let mut before = after.to_vec();
    before[hole] = amount;
    let mut ms = Moves::new();
    position(&before, mover).legal_moves(&mut ms);
    ms.contains(&AfrikaMove::Capture(hole as u8))
        .then_some(before)
}

/// Undoes a sowing of `hole` by `mover`: every position before (one per stone count).
fn undo_sow(after: &[u8], mover: Row, hole: usize) -> Vec<(Vec<u8>, u8)> {
    let m = after.len() / 2;
    let mut out = Vec::new();
    if row_of(hole, m) != mover || after[hole] != 0 {
        return out;
    }
    let on_board: u32 = after.iter().map(|&x| x as u32).sum();
    for n in 1..=on_board.min(255) as u8 {
        let mut only = vec![0u8; 2 * m];
        only[hole] = n;
        let inc = position(&only, mover).play(AfrikaMove::Sow(hole as u8));
        let inc = inc.holes();
        let mut before = after.to_vec();
        let mut ok = true;
        for i in 0..2 * m {
            if before[i] < inc[i] {
                ok = false;
                break;
            }
            before[i] -= inc[i];
        }
        if !ok {
            continue;
        }
        before[hole] = n;
        let g = position(&before, mover);
        let mut ms = Moves::new();
        g.legal_moves(&mut ms);
        if ms.contains(&AfrikaMove::Sow(hole as u8))
            && g.play(AfrikaMove::Sow(hole as u8)).holes() == after
        {
            out.push((before, n));
        }
    }
    out
}

/// Every undo of any move by `mover` (for a lost move), captures up to [`MAX_AMOUNT`].
fn undo_any(after: &[u8], mover: Row) -> Vec<(Vec<u8>, AfrikaMove, u8)> {
    let m = after.len() / 2;
    let mut out = Vec::new();
    for h in 0..2 * m {
        if row_of(h, m) == mover {
            for (b, _) in undo_sow(after, mover, h) {
                out.push((b, AfrikaMove::Sow(h as u8), 0));
            }
        } else {
            for a in 1..=MAX_AMOUNT {
                if let Some(b) = undo_capture(after, mover, h, a) {
                    out.push((b, AfrikaMove::Capture(h as u8), a));
                }
            }
        }
    }
    out
}

/// One entry of the line to undo: entry `k` (published as `txt`), read as a capture or
/// sowing from `hole` with `amount`, leading to `board` with `to_move` to move.
#[derive(Clone, Copy)]
struct Undo<'a> {
    board: &'a [u8],
    to_move: Row,
    k: usize,
    txt: &'a str,
    capture: bool,
    hole: usize,
    amount: Option<u8>,
}

struct Search<'a> {
    line: &'a Line,
    budget: usize,
    seen: HashSet<(usize, Vec<u8>, Row, usize)>,
    /// Path from the end backwards: (move, amount) and corrections.
    path: Vec<(AfrikaMove, u8)>,
    corr: Vec<Correction>,
    found: Vec<LineFit>,
    pub nodes: u64,
    limit: u64,
}

impl Search<'_> {
    fn cost(&self) -> usize {
        self.corr.iter().map(|c| c.cost as usize).sum()
    }

    fn name(&self, h: usize) -> char {
        letter(h, self.line.m)
    }

    fn step(
        &mut self,
        to_move: Row,
        prev: Vec<u8>,
        mv: AfrikaMove,
        a: u8,
        k: usize,
        c: Option<Correction>,
    ) {
        self.path.push((mv, a));
        self.go_corrected(c, k, prev, to_move.other());
        self.path.pop();
    }

    /// [`Search::go`] with the correction `c` (if any) in force.
    fn go_corrected(&mut self, c: Option<Correction>, k: usize, board: Vec<u8>, to_move: Row) {
        let pushed = c.is_some();
        self.corr.extend(c);
        self.go(k, board, to_move);
        if pushed {
            self.corr.pop();
        }
    }

    /// Unwinds the line from entry `k` backwards, `board` being the position after it.
    fn go(&mut self, k: usize, board: Vec<u8>, to_move: Row) {
        self.nodes += 1;
        if self.nodes > self.limit {
            return;
        }
        // Stones on the board never exceed the stones in play (the final score's sum): a
        // board beyond it (captures undone with amounts too large) has no start.
        let in_play = self.line.score[0] + self.line.score[1];
        if board.iter().map(|&x| x as u32).sum::<u32>() > in_play {
            return;
        }
        let used = self.cost();
        if !self.seen.insert((k, board.clone(), to_move, used)) {
            return;
        }
        if k == 0 && to_move == self.line.to_move {
            self.record(&board);
        }
        let left = self.budget - used;
        if left >= 1 {
            self.insert_lost(k, &board, to_move);
        }
        if k == 0 {
            return;
        }
        match self.line.entries[k - 1].clone() {
            LineEntry::Empty => self.undo_empty(k, &board, to_move, left),
            LineEntry::Move {
                mover,
                capture,
                hole,
                amount,
            } => {
                // As published (an unreadable amount is free to choose).
                let txt = self.line.texts[k - 1].clone();
                if mover == to_move.other() {
                    let undo = Undo {
                        board: &board,
                        to_move,
                        k,
                        txt: &txt,
                        capture,
                        hole,
                        amount,
                    };
                    self.undo_as(undo, left);
                }
                if left >= 1 {
                    self.undo_misread(k, &board, to_move, (mover, capture, hole, amount));
                }
            }
        }
    }

    /// A lost move after entry `k` (inserted), at cost 1.
    fn insert_lost(&mut self, k: usize, board: &[u8], to_move: Row) {
        for (b, mv, a) in undo_any(board, to_move.other()) {
            let t = describe(mv, a, self.line.m);
            let c = Correction {
                entry: k,
                text: format!("insert lost move {t} after entry {k}"),
                cost: 1,
            };
            self.step(to_move, b, mv, a, k, Some(c));
        }
    }

    /// An empty entry ("; ;"): no move, or at cost 1 any lost move.
    fn undo_empty(&mut self, k: usize, board: &[u8], to_move: Row, left: usize) {
        let none = Correction {
            entry: k,
            text: format!("entry {k} is empty: read as no move"),
            cost: 0,
        };
        self.go_corrected(Some(none), k - 1, board.to_vec(), to_move);
        if left == 0 {
            return;
        }
        for (b, mv, a) in undo_any(board, to_move.other()) {
            let c = Correction {
                entry: k,
                text: format!(
                    "entry {k} is empty: the lost move was {}",
                    describe(mv, a, self.line.m)
                ),
                cost: 1,
            };
            self.step(to_move, b, mv, a, k - 1, Some(c));
        }
    }

    /// LineEntry `k` misread, each at cost 1: the same letter in the other row (wrong case),
    /// another hole of the same row (wrong letter), or a spurious entry (dropped).
    fn undo_misread(
        &mut self,
        k: usize,
        board: &[u8],
        to_move: Row,
        (published_mover, capture, hole, amount): (Row, bool, usize, Option<u8>),
    ) {
        let (m, mover) = (self.line.m, to_move.other());
        let txt = self.line.texts[k - 1].clone();
        let x = if capture { "x" } else { "" };
        let other = if hole < m { hole + m } else { hole - m };
        let undo = |hole| Undo {
            board,
            to_move,
            k,
            txt: &txt,
            capture,
            hole,
            amount,
        };
        if mover_of(capture, row_of(other, m)) == mover {
            let why = format!("wrong case: {x}{}", self.name(other));
            self.undo_corrected(undo(other), &why);
        }
        if published_mover == mover {
            let row = row_of(hole, m);
            for h in (row.start(m)..row.start(m) + m).filter(|&h| h != hole) {
                let why = format!("wrong letter: {x}{}", self.name(h));
                self.undo_corrected(undo(h), &why);
            }
        }
        let dropped = Correction {
            entry: k,
            text: format!("entry {k} \"{txt}\" is spurious: dropped"),
            cost: 1,
        };
        self.go_corrected(Some(dropped), k - 1, board.to_vec(), to_move);
    }

    /// LineEntry `k` undone as published; with `left` corrections to spend, with any other
    /// capture amount too.
    fn undo_as(&mut self, u: Undo, left: usize) {
        let printed: Vec<u8> = u.amount.into_iter().collect();
        self.undo_each(u, &printed, |_| None);
        // Other amounts: a correction when one was printed, free when it is unreadable.
        if u.capture && (u.amount.is_none() || left >= 1) {
            let others: Vec<u8> = (1..=MAX_AMOUNT).filter(|&a| Some(a) != u.amount).collect();
            let (k, txt) = (u.k, u.txt);
            self.undo_each(u, &others, |a2| {
                Some(match u.amount {
                    Some(a) => Correction {
                        entry: k,
                        text: format!("entry {k} \"{txt}\": amount +{a2}, not +{a}"),
                        cost: 1,
                    },
                    None => Correction {
                        entry: k,
                        text: format!("entry {k} \"{txt}\": unreadable amount read as +{a2}"),
                        cost: 0,
                    },
                })
            });
        }
    }

    /// LineEntry `k` undone as read by a correction at cost 1, `what` saying which.
    fn undo_corrected(&mut self, u: Undo, what: &str) {
        let amounts: Vec<u8> = match u.amount {
            Some(a) => vec![a],
            None => (1..=MAX_AMOUNT).collect(),
        };
        let (k, txt, capture) = (u.k, u.txt, u.capture);
        self.undo_each(u, &amounts, |a| {
            let amount = if capture {
                format!(" (+{a})")
            } else {
                String::new()
            };
            Some(Correction {
                entry: k,
                text: format!("entry {k} \"{txt}\": {what}{amount}"),
                cost: 1,
            })
        });
    }

    /// Steps back over `u`: a capture of each of `amounts` that can be undone, or every
    /// way a sowing can be; `correction(amount)` is what the step costs.
    fn undo_each(
        &mut self,
        u: Undo,
        amounts: &[u8],
        correction: impl Fn(u8) -> Option<Correction>,
    ) {
        let mover = u.to_move.other();
        if u.capture {
            let mv = AfrikaMove::Capture(u.hole as u8);
            for &a in amounts {
                if let Some(b) = undo_capture(u.board, mover, u.hole, a) {
                    self.step(u.to_move, b, mv, a, u.k - 1, correction(a));
                }
            }
        } else {
            let mv = AfrikaMove::Sow(u.hole as u8);
            for (b, _) in undo_sow(u.board, mover, u.hole) {
                self.step(u.to_move, b, mv, 0, u.k - 1, correction(0));
            }
        }
    }

    /// A start reached: derive the stores from the score and replay forwards.
    fn record(&mut self, board: &[u8]) {
        let line = self.line;
        let mut caps = [0u32; 2]; // by row: South, North
        let mut mover = line.to_move;
        for &(mv, a) in self.path.iter().rev() {
            if let AfrikaMove::Capture(_) = mv {
                caps[if mover == Row::South { 0 } else { 1 }] += a as u32;
            }
            mover = mover.other();
        }
        if caps[0] > line.score[0] || caps[1] > line.score[1] {
            return;
        }
        let mut stores = [0u8; 2];
        stores[player_of(Row::South).index()] = (line.score[0] - caps[0]) as u8;
        stores[player_of(Row::North).index()] = (line.score[1] - caps[1]) as u8;
        let g = Afrika::from_parts(board, stores, player_of(line.to_move), Rules::default())
            .expect("checked sizes");
        let moves: Vec<(AfrikaMove, u8)> = self.path.iter().rev().copied().collect();
        if replay(&g, &moves).is_err() {
            return;
        }
        let mut corrections = self.corr.clone();
        corrections.sort();
        self.found.push(LineFit {
            start: g,
            corrections,
            moves,
        });
    }
}

fn describe(mv: AfrikaMove, a: u8, m: usize) -> String {
    match mv {
        AfrikaMove::Sow(h) => letter(h as usize, m).to_string(),
        AfrikaMove::Capture(h) => format!("x{} (+{a})", letter(h as usize, m)),
    }
}

/// Replays a line forwards with the rules engine: every move legal, every capture amount
/// as stated, the board empty at the end. Returns the final position.
pub fn replay(start: &Afrika, moves: &[(AfrikaMove, u8)]) -> Result<Afrika, String> {
    let mut g = *start;
    for (i, &(mv, a)) in moves.iter().enumerate() {
        if let Some(why) = g.why_illegal(mv) {
            return Err(format!(
                "ply {}: {}: {why}",
                i + 1,
                describe(mv, a, g.holes_per_row())
            ));
        }
        if let AfrikaMove::Capture(h) = mv
            && g.holes()[h as usize] != a
        {
            return Err(format!(
                "ply {}: {} takes {}, not {a}",
                i + 1,
                describe(mv, a, g.holes_per_row()),
                g.holes()[h as usize]
            ));
        }
        g = g.play(mv);
    }
    if !g.is_terminal() {
        return Err("the board is not empty at the end".into());
    }
    Ok(g)
}

/// Every start consistent with `line` using at most `budget` corrections; `node_limit`
/// bounds the search (the result says whether it was reached).
pub fn fit_line(line: &Line, budget: usize, node_limit: u64) -> (Vec<LineFit>, u64, bool) {
    let mut s = Search {
        line,
        budget,
        seen: HashSet::new(),
        path: Vec::new(),
        corr: Vec::new(),
        found: Vec::new(),
        nodes: 0,
        limit: node_limit,
    };
    let empty = vec![0u8; 2 * line.m];
    // The player to move at the end is not known (an inserted or dropped move changes it).
    for end in [Row::South, Row::North] {
        s.go(line.entries.len(), empty.clone(), end);
    }
    // Keep the cheapest fit per start position.
    let mut best: BTreeMap<String, LineFit> = BTreeMap::new();
    for f in s.found {
        let key = format!("{:?}{:?}", f.start.holes(), f.start.stores());
        match best.get(&key) {
            Some(b) if b.cost() <= f.cost() => {}
            _ => {
                best.insert(key, f);
            }
        }
    }
    let mut v: Vec<LineFit> = best.into_values().collect();
    v.sort_by_key(|f| f.cost());
    (v, s.nodes, s.nodes > node_limit)
}

/// A start consistent with every line of a problem.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub start: Afrika,
    /// One fit per line, in the order of the lines.
    pub fits: Vec<LineFit>,
}

impl Candidate {
    pub fn cost(&self) -> usize {
        self.fits.iter().map(LineFit::cost).sum()
    }
}

/// Intersects the fits of several lines from the same start (each line within its own
/// budget): candidates cheapest first (fewest corrections in all).
pub fn intersect(per_line: &[Vec<LineFit>]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let Some(first) = per_line.first() else {
        return out;
    };
    'outer: for f in first {
        let mut fits = vec![f.clone()];
        for other in &per_line[1..] {
            match other
                .iter()
                .filter(|o| o.start == f.start)
                .min_by_key(|o| o.cost())
            {
                Some(o) => fits.push(o.clone()),
                None => continue 'outer,
            }
        }
        out.push(Candidate {
            start: f.start,
            fits,
        });
    }
    out.sort_by_key(Candidate::cost);
    out
}

#[cfg(test)]
mod tests;
