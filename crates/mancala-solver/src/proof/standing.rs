//! Where a search stands on each first move, read from its table: which moves are
//! already proven or refuted and the numbers of the open ones. The root's own numbers
//! say little in a search of billions of nodes (a sum, or the least of its children's,
//! set only when the search comes back to the root); the first moves' entries say which
//! moves are done and how much is left on the others, so a long run's progress can be
//! judged while it runs and from its checkpoint.

use mancala_core::Game;

use super::{Goal, ProofTable, known_verdict, proof_key};
use crate::retro::Oracle;

/// What the table holds on the position after one first move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The goal is reached after this move (proven).
    Reached,
    /// The goal is missed after this move (disproven).
    Missed,
    /// Open, with the proof and disproof numbers the search last stored (a child the
    /// search is below holds its numbers from before it went down).
    Open { pn: u32, dn: u32 },
    /// Not in the table: not searched yet, its entry replaced, or a refutation resting on
    /// a repetition of the root (such refutations hold on their path only and are not
    /// stored).
    Unseen,
}

/// Each of `root`'s first moves, in [`Game::for_each_child`] order, with what `table`
/// holds on the position it leads to for `goal`; a finished game or a position `oracle`
/// knows counts as settled, as in the search. A few lookups: cheap enough for every
/// progress report.
pub fn standings<G: Game>(
    table: &ProofTable,
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
) -> Vec<(G::Move, Standing)> {
    let mut out = Vec::new();
    root.for_each_child(|m, c| {
        let standing = match known_verdict(&c, goal, oracle) {
            Some(true) => Standing::Reached,
            Some(false) => Standing::Missed,
            None => match table.get(proof_key(&c)) {
                Some((0, _)) => Standing::Reached,
                Some((_, 0)) => Standing::Missed,
                Some((pn, dn)) => Standing::Open { pn, dn },
                None => Standing::Unseen,
            },
        };
        out.push((m, standing));
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::{Limits, ProofSearch, Verdict};
    use mancala_core::Player;
    use mancala_core::kalah::Kalah;

    /// Before a search every first move is unseen; after a "no" every one is missed (the
    /// defender has an answer to each, and Kalah positions never repeat, so every
    /// refutation is stored); after a "yes" the winning move is reached; a search stopped
    /// early leaves open moves with the numbers the search stored.
    #[test]
    fn the_first_moves_stand_as_the_search_left_them() {
        let g = Kalah::start(4, 3, Default::default());
        let goal = |at_least| Goal {
            attacker: Player::First,
            at_least,
        };
        let table = ProofTable::with_mb(16);
        let before = standings(&table, &g, goal(10), None);
        assert_eq!(before.len(), 4);
        assert!(before.iter().all(|(_, s)| *s == Standing::Unseen));

        let out = ProofSearch::new(&table, goal(10), Limits::default()).run(&g);
        assert_eq!(out.verdict, Verdict::Disproven, "Kalah(4,3) is worth +8");
        let after = standings(&table, &g, goal(10), None);
        assert!(
            after.iter().all(|(_, s)| *s == Standing::Missed),
            "{after:?}"
        );

        let table = ProofTable::with_mb(16);
        let out = ProofSearch::new(&table, goal(8), Limits::default()).run(&g);
        assert_eq!(out.verdict, Verdict::Proven);
        let after = standings(&table, &g, goal(8), None);
        assert!(
            after.iter().any(|(_, s)| *s == Standing::Reached),
            "{after:?}"
        );

        let table = ProofTable::with_mb(16);
        let limits = Limits {
            nodes: Some(200),
            ..Limits::default()
        };
        let out = ProofSearch::new(&table, goal(8), limits).run(&g);
        assert_eq!(out.verdict, Verdict::Open);
        let early = standings(&table, &g, goal(8), None);
        assert!(
            early
                .iter()
                .any(|(_, s)| matches!(s, Standing::Open { pn, dn } if *pn > 0 && *dn > 0)),
            "{early:?}"
        );
        assert!(!early.iter().any(|(_, s)| *s == Standing::Reached));
    }
}
