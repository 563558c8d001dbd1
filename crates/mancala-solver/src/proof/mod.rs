//! Proof-number search for games whose values are win, draw or loss ([`Game::win_loss`]):
//! one question at a time, "does the attacker win?", answered with a certificate that is
//! checked apart from the search that found it.
//!
//! - [`table`]: proof and disproof numbers by position;
//! - [`dfpn`]: depth-first proof-number search (Nagai 2002) with the 1 + epsilon trick
//!   (Pawlewicz and Lew 2007);
//! - [`checkpoint`]: the table saved to a file and read back, to resume a long search;
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
pub mod table;

pub use certificate::{Checked, Gap, Repair, check_disproof, check_proof};
pub use checkpoint::{ProofCheckpointError, SavedProof, load_proof, save_proof};
pub use dfpn::{Limits, Outcome, ProofSearch, Verdict};
pub use table::{ProofTable, TableTooBig};

use mancala_core::{Game, Player};

use crate::retro::Oracle;

/// Proof and disproof numbers at or above this are infinite: proven or disproven.
pub const INFINITE: u32 = 1 << 30;

/// How a position that ends the game counts for `attacker`: `Some(true)` a win,
/// `Some(false)` no win (a loss or a draw), `None` when play goes on.
pub fn final_verdict<G: Game>(g: &G, attacker: Player) -> Option<bool> {
    if !g.is_terminal() {
        return None;
    }
    let v = g.terminal_value();
    Some(if g.to_move() == attacker {
        v > 0
    } else {
        v < 0
    })
}

/// How a position counts for `attacker` without searching it: [`final_verdict`] where the
/// game has ended, else the exact value `oracle` (an endgame database) knows, if any.
/// A database value holds whatever the path to the position (the search refuses rules
/// where a repetition's result depends on it), so such a leaf is settled for the table as
/// well as for the certificate.
pub fn known_verdict<G: Game>(
    g: &G,
    attacker: Player,
    oracle: Option<&dyn Oracle<G>>,
) -> Option<bool> {
    if let Some(win) = final_verdict(g, attacker) {
        return Some(win);
    }
    let v = oracle?.probe(g)?;
    Some(if g.to_move() == attacker {
        v > 0
    } else {
        v < 0
    })
}
