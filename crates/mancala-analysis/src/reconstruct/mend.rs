//! The fewest corrections that make a printed line legal from a known start and end it
//! with its printed score (issue 16): after the forward reconstruction fixes a start, what
//! is left of each line is explained by typos of the kinds of [`super::fit_line`] (wrong
//! amount, wrong letter or case, spurious entry, lost move), searched forwards.

use std::collections::HashSet;

use mancala_core::afrika::{Afrika, AfrikaMove};
use mancala_core::rows::{Row, Seated, letter};
use mancala_core::{Game, Moves};

use super::claims::engine_move;
use super::forward::Ply;

/// One correction, in words, with the 1-based published entry it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mend {
    pub entry: usize,
    pub text: String,
}

/// The corrected line: every move with its capture amount, and the corrections.
#[derive(Clone, Debug)]
pub struct Mended {
    pub moves: Vec<(AfrikaMove, u8)>,
    pub mends: Vec<Mend>,
}

/// A move in published notation ("G", "xf (+1)").
pub fn describe(g: &Afrika, mv: AfrikaMove) -> String {
    let m = g.holes_per_row();
    match mv {
        AfrikaMove::Sow(h) => letter(h as usize, m).to_string(),
        AfrikaMove::Capture(h) => {
            format!("x{} (+{})", letter(h as usize, m), g.holes()[h as usize])
        }
    }
}

struct Search<'a> {
    line: &'a [Ply],
    score: [u32; 2],
    failed: HashSet<(usize, Afrika, usize)>,
    moves: Vec<(AfrikaMove, u8)>,
    mends: Vec<Mend>,
    nodes: u64,
    limit: u64,
}

impl Search<'_> {
    /// Whether the rest of the line from entry `k` fits `g` with `left` corrections.
    fn go(&mut self, g: Afrika, k: usize, left: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit || self.failed.contains(&(k, g, left)) {
            return false;
        }
        let ok = self.try_all(g, k, left);
        if !ok {
            self.failed.insert((k, g, left));
        }
        ok
    }

    fn try_all(&mut self, g: Afrika, k: usize, left: usize) -> bool {
        if k == self.line.len() && g.is_terminal() {
            let s = [Row::South, Row::North].map(|r| g.captured(Afrika::owner(r)));
            return s == self.score;
        }
        let mut ms = Moves::new();
        g.legal_moves(&mut ms);
        if let Some(p) = self.line.get(k) {
            let printed = engine_move(p);
            let amount_ok = |mv: AfrikaMove| match mv {
                AfrikaMove::Capture(h) => p.amount.is_none_or(|a| g.holes()[h as usize] == a),
                AfrikaMove::Sow(_) => true,
            };
            if ms.contains(&printed)
                && amount_ok(printed)
                && self.play(g, printed, k + 1, left, None)
            {
                return true;
            }
            if left == 0 {
                return false;
            }
            let m = g.holes_per_row();
            let same_letter = |mv: AfrikaMove| {
                letter(Afrika::hole(mv), m).eq_ignore_ascii_case(&letter(p.hole, m))
            };
            for &mv in ms.iter() {
                let kind = matches!(mv, AfrikaMove::Capture(_)) == p.capture;
                let why = if mv == printed {
                    "amount"
                } else if kind && amount_ok(mv) && same_letter(mv) {
                    "case"
                } else if kind && amount_ok(mv) && Afrika::row(g.to_move()) == p.mover {
                    "letter"
                } else {
                    continue;
                };
                let text = format!(
                    "entry {} read as {} (wrong {why})",
                    p.entry,
                    describe(&g, mv)
                );
                if self.play(
                    g,
                    mv,
                    k + 1,
                    left - 1,
                    Some(Mend {
                        entry: p.entry,
                        text,
                    }),
                ) {
                    return true;
                }
            }
            let text = format!("entry {} is spurious: dropped", p.entry);
            self.mends.push(Mend {
                entry: p.entry,
                text,
            });
            if self.go(g, k + 1, left - 1) {
                return true;
            }
            self.mends.pop();
        }
        if left == 0 {
            return false;
        }
        let entry = self.line.get(k).map_or(usize::MAX, |p| p.entry);
        for &mv in ms.iter() {
            let text = format!(
                "lost move {} inserted before entry {entry}",
                describe(&g, mv)
            );
            if self.play(g, mv, k, left - 1, Some(Mend { entry, text })) {
                return true;
            }
        }
        false
    }

    fn play(
        &mut self,
        g: Afrika,
        mv: AfrikaMove,
        k: usize,
        left: usize,
        mend: Option<Mend>,
    ) -> bool {
        let amount = match mv {
            AfrikaMove::Capture(h) => g.holes()[h as usize],
            AfrikaMove::Sow(_) => 0,
        };
        self.moves.push((mv, amount));
        let pushed = mend.is_some();
        self.mends.extend(mend);
        if self.go(g.play(mv), k, left) {
            return true;
        }
        self.moves.pop();
        if pushed {
            self.mends.pop();
        }
        false
    }
}

/// The fewest corrections (at most `budget`) that make `line` legal from `start` and end
/// the game with `score` (`[south, north]`), tried in increasing number; `None` when the
/// budget or `node_limit` nodes per budget do not suffice. Returns the nodes searched.
pub fn mend(
    start: &Afrika,
    line: &[Ply],
    score: [u32; 2],
    budget: usize,
    node_limit: u64,
) -> (Option<Mended>, u64) {
    let mut nodes = 0;
    for left in 0..=budget {
        let mut s = Search {
            line,
            score,
            failed: HashSet::new(),
            moves: Vec::new(),
            mends: Vec::new(),
            nodes: 0,
            limit: node_limit,
        };
        let ok = s.go(*start, 0, left);
        nodes += s.nodes;
        if ok {
            return (
                Some(Mended {
                    moves: s.moves,
                    mends: s.mends,
                }),
                nodes,
            );
        }
    }
    (None, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reconstruct::forward::{Problem, legal_prefix};
    use crate::reconstruct::tests::published_line;

    #[test]
    fn mends_the_stored_problem_1_candidate_with_its_three_corrections() {
        // The backward method's candidate 1 (issue 4): entries 10 and 12 in the wrong
        // case, entry 14 the wrong letter.
        let line = published_line("problem-1-solution.txt");
        let p = Problem::new(std::slice::from_ref(&line)).unwrap();
        let start = p.totals.position(
            &[1, 0, 0, 3, 0, 2, 2, 0, 0, 4, 4, 0, 1, 0, 0, 5],
            Row::South,
        );
        assert_eq!(legal_prefix(&start, &p.lines[0]), 9);
        let (m, _) = mend(&start, &p.lines[0], line.score, 3, 1_000_000);
        let m = m.expect("three corrections suffice");
        let entries: Vec<usize> = m.mends.iter().map(|c| c.entry).collect();
        assert_eq!(entries.len(), 3, "{:?}", m.mends);
        assert!(
            entries.contains(&10) && entries.contains(&12),
            "{:?}",
            m.mends
        );
        assert!(crate::reconstruct::replay(&start, &m.moves).is_ok());
    }
}
