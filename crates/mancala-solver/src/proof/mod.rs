//! Proof-number search, one question at a time: "does the attacker win?" in the games
//! whose values are win, draw or loss ([`Game::win_loss`]), or "does he end with at
//! least t?" in a game that counts a margin ([`Goal`]), answered with a certificate that
//! is checked apart from the search that found it.
//!
//! - [`table`]: proof and disproof numbers by position;
//! - [`dfpn`]: depth-first proof-number search (Nagai 2002) with the 1 + epsilon trick
//!   (Pawlewicz and Lew 2007);
//! - [`checkpoint`]: the table saved to a file and read back, to resume a long search;
//! - [`standing`]: what the table holds on each first move, for a long search's progress;
//! - [`certificate`]: the checks of a proof (a finite winning strategy) and of a
//!   disproof (a set of positions the defender can keep the game in forever).
//!
//! Why a second search beside alpha-beta: a win/loss question has no margin to narrow, and
//! proof numbers send the search to where the proof is cheapest instead of into the
//! first move's whole subtree. Why certificates: where positions repeat, a repetition
//! is a draw, which is no win for the attacker, and that verdict depends on the path the
//! search came by. Stored in the table and reused from another path it may be wrong (the
//! graph-history interaction; Kishimoto and Müller 2004), so such disproofs are not
//! stored. Errors of this kind only ever count against the attacker, so a proof is
//! sound; a disproof is accepted only when the certificate check finds a closed set of
//! positions in which the attacker never wins.
//!
//! [`Game::win_loss`]: mancala_core::Game::win_loss

pub mod certificate;
pub mod checkpoint;
pub mod dfpn;
pub mod parallel;
pub mod standing;
pub mod table;

pub use certificate::{
    CheckError, CheckInputs, Checked, DisproofCheck, DisproofState, Gap, Proof, ProofCheck,
    ProofState, Repair, SavedCheck, Step, StretchedCheck, check_disproof, check_proof,
    load_disproof_check, load_proof_check,
};
pub use checkpoint::{ProofCheckpointError, SavedProof, load_proof, save_proof};
pub use dfpn::{Limits, Outcome, ProofSearch, Report, Verdict};
pub use parallel::{Shared, run_threads};
pub use standing::{Standing, standings};
pub use table::{ProofTable, SavedEntries, TableTooBig};

use mancala_core::{Game, Player};

use crate::retro::Oracle;

/// Proof and disproof numbers at or above this are infinite: proven or disproven.
pub const INFINITE: u32 = 1 << 30;

/// The question a proof search answers: does `attacker` end the game with a value of at
/// least `at_least` (search units, his view)? In a win/draw/loss game "does he win?" is
/// `at_least` 1; in a game that counts a margin it is "does he win by at least that
/// much?", a null-window question whose answers bound the margin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub attacker: Player,
    pub at_least: i32,
}

impl Goal {
    /// "Does `attacker` win?": a value above 0.
    pub fn win(attacker: Player) -> Self {
        Goal {
            attacker,
            at_least: 1,
        }
    }

    /// Whether `value`, for the player `mover` to move, reaches the goal.
    #[inline]
    pub fn reached_by(&self, mover: Player, value: i32) -> bool {
        self.attackers(mover, value) >= self.at_least
    }

    /// `value`, for the player `mover` to move, as the attacker sees it.
    #[inline]
    pub fn attackers(&self, mover: Player, value: i32) -> i32 {
        if mover == self.attacker {
            value
        } else {
            -value
        }
    }
}

impl From<Player> for Goal {
    fn from(attacker: Player) -> Self {
        Goal::win(attacker)
    }
}

/// The key a position's proof and disproof numbers are stored and its repetitions
/// found under: [`Game::mover_key`], with what is banked folded in where it is not 0.
/// A key leaves captured totals out where the rules never look at them again (the
/// alpha-beta table adds them back to the values it stores); whether a margin reaches a
/// goal depends on them, so two positions that differ in them are different questions.
/// Win/draw/loss games bank nothing and keep their keys (and their checkpoints).
/// The fold is written out rather than `hash::mix64` of the banked margin because the
/// checkpoints of the margin runs (80c86b4 on) hold keys made this way.
#[inline]
pub fn proof_key<G: Game>(g: &G) -> u64 {
    match g.banked() {
        0 => g.mover_key(),
        b => {
            let k = g.mover_key() ^ (b as i64 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            k ^ (k >> 29).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        }
    }
}

/// How a position that ends the game counts for the goal: `Some(true)` reached,
/// `Some(false)` not (a loss or a draw for "does he win?"), `None` when play goes on.
pub fn final_verdict<G: Game>(g: &G, goal: Goal) -> Option<bool> {
    if !g.is_terminal() {
        return None;
    }
    Some(goal.reached_by(g.to_move(), g.terminal_value()))
}

/// How a position counts for the goal when [`Game::value_range`] already decides it: the
/// goal is reached if even the lowest final value reaches it, and missed if even the
/// highest does not. Alpha-beta prunes with the same range before it looks at its table;
/// here it makes a leaf of a position whose goal the seeds still in play can no longer
/// change (a margin goal of a Kalah or Progressive game late in play). A win/draw/loss
/// game's range is the whole of loss to win, so nothing is decided by it there.
#[inline]
pub fn bounded_verdict<G: Game>(g: &G, goal: Goal) -> Option<bool> {
    let (lo, hi) = g.value_range();
    let (a, b) = (
        goal.attackers(g.to_move(), lo),
        goal.attackers(g.to_move(), hi),
    );
    let (least, most) = (a.min(b), a.max(b));
    if least >= goal.at_least {
        Some(true)
    } else if most < goal.at_least {
        Some(false)
    } else {
        None
    }
}

/// How a position counts for the goal without searching it: [`bounded_verdict`] where the
/// seeds in play can no longer change it, [`final_verdict`] where the
/// game has ended, else by the exact value `oracle` (an endgame database) knows, if any.
/// A database value holds whatever the path to the position (the search refuses rules
/// where a repetition's result depends on it), so such a leaf is settled for the table as
/// well as for the certificate.
pub fn known_verdict<G: Game>(g: &G, goal: Goal, oracle: Option<&dyn Oracle<G>>) -> Option<bool> {
    if let Some(win) = bounded_verdict(g, goal) {
        return Some(win);
    }
    if let Some(win) = final_verdict(g, goal) {
        return Some(win);
    }
    let v = oracle?.probe(g)?;
    Some(goal.reached_by(g.to_move(), v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::Kalah;

    #[test]
    fn a_goal_reads_a_value_from_either_side() {
        let south = Goal {
            attacker: Player::First,
            at_least: 3,
        };
        assert!(south.reached_by(Player::First, 3));
        assert!(!south.reached_by(Player::First, 2));
        // The same margin seen by North: -3 for him is +3 for South.
        assert!(south.reached_by(Player::Second, -3));
        assert!(!south.reached_by(Player::Second, -2));
        assert_eq!(Goal::from(Player::Second), Goal::win(Player::Second));
        assert_eq!(Goal::win(Player::Second).at_least, 1);
    }

    /// South has banked 6 with 4 seeds in play (empty capture: he gains at least one), so
    /// his final margin lies in 4..=10: "at least 4" is certain, "at least 11" is out of
    /// reach, "at least 5" needs a search. North's goals are read from the other side.
    #[test]
    fn the_seeds_in_play_decide_a_margin_goal_they_cannot_change() {
        use mancala_core::PositionText;
        let g = Kalah::from_text(
            "kalah south:1,1,0,0 north:1,1,0,0 south-store:7 north-store:1 to-move:south",
        )
        .unwrap();
        assert_eq!(g.value_range(), (4, 10));
        let south = |at_least| Goal {
            attacker: Player::First,
            at_least,
        };
        let north = |at_least| Goal {
            attacker: Player::Second,
            at_least,
        };
        assert_eq!(bounded_verdict(&g, south(4)), Some(true));
        assert_eq!(bounded_verdict(&g, south(5)), None);
        assert_eq!(bounded_verdict(&g, south(10)), None);
        assert_eq!(bounded_verdict(&g, south(11)), Some(false));
        assert_eq!(bounded_verdict(&g, north(-10)), Some(true));
        assert_eq!(bounded_verdict(&g, north(-9)), None);
        assert_eq!(bounded_verdict(&g, north(-4)), None);
        assert_eq!(bounded_verdict(&g, north(-3)), Some(false));
        assert_eq!(bounded_verdict(&g, Goal::win(Player::Second)), Some(false));
        assert_eq!(known_verdict(&g, south(4), None), Some(true));
    }

    /// Positions that differ only in what was captured share a game key but not a proof
    /// key; with nothing banked the proof key is the game's (old checkpoints still load).
    #[test]
    fn the_banked_margin_is_part_of_the_proof_key() {
        let start = Kalah::start(4, 3, Default::default());
        assert_eq!(start.banked(), 0);
        assert_eq!(proof_key(&start), start.mover_key());
        let text = |s: u8, n: u8| {
            format!(
                "kalah south:3,3,3,3 north:3,3,3,3 south-store:{s} north-store:{n} to-move:south"
            )
        };
        use mancala_core::PositionText;
        let a = Kalah::from_text(&text(2, 0)).unwrap();
        let b = Kalah::from_text(&text(4, 0)).unwrap();
        let c = Kalah::from_text(&text(3, 1)).unwrap();
        assert_eq!(a.mover_key(), b.mover_key());
        assert_ne!(proof_key(&a), proof_key(&b));
        assert_eq!(proof_key(&a), proof_key(&c), "the same margin, +2");
    }

    /// The prefetch is a hint to the processor: without it the search visits the same
    /// nodes and ends with the same numbers (Kalah(4,3) is worth +8 to South), in a table
    /// small enough to replace entries.
    #[test]
    fn the_prefetch_changes_nothing_but_time() {
        let g = Kalah::start(4, 3, Default::default());
        for (at_least, verdict) in [(8, Verdict::Proven), (10, Verdict::Disproven)] {
            let goal = Goal {
                attacker: Player::First,
                at_least,
            };
            let run = |prefetch: bool| {
                let table = ProofTable::with_mb(1);
                let mut search = ProofSearch::new(&table, goal, Limits::default());
                if !prefetch {
                    search = search.without_prefetch();
                }
                let o = search.run(&g);
                (o.verdict, o.pn, o.dn, o.nodes, o.max_depth)
            };
            let with = run(true);
            assert_eq!(with.0, verdict, "at least {at_least}");
            assert_eq!(with, run(false), "at least {at_least}");
        }
    }

    /// A progress report names the root's child the search is below, by its place among
    /// the root's children, and never before the search has gone down.
    #[test]
    fn a_report_names_the_first_move_below_which_the_search_is() {
        let g = Kalah::start(6, 4, Default::default());
        let mut moves = 0;
        g.for_each_child(|_, _| moves += 1);
        let mut reports = Vec::new();
        let mut keep = |r: Report| reports.push(r);
        let table = ProofTable::with_mb(64);
        let goal = Goal {
            attacker: Player::First,
            at_least: 12,
        };
        let limits = Limits {
            nodes: Some(1 << 20),
            ..Limits::default()
        };
        let out = ProofSearch::new(&table, goal, limits)
            .with_progress(&mut keep)
            .run(&g);
        assert_eq!(out.verdict, Verdict::Open);
        assert_eq!(reports.len(), 1);
        assert!(
            reports.iter().all(|r| r.below.is_some_and(|i| i < moves)),
            "{moves}"
        );
    }
}
