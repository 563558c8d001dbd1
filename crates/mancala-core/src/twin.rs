//! Twin positions. Where the rules treat both seats alike, a position and the one seen from
//! the other seat (the rows exchanged or the row mirrored, the stores exchanged, the other
//! player to move) have the same value for the player to move. A game then gives twins
//! one [`Game::key`], so that they share one table entry, and counts [`Game::move_slot`]s
//! from the mover's side, so that a table move fits both.
//!
//! Twins are different positions: play that goes from one to the other is no repetition.
//! A repetition check therefore compares [`mover_key`]s, which fold the player to move
//! back into the key.

use crate::game::{Game, Moves};
use crate::player::Player;

/// A game whose key and move slots are shared between twins.
pub trait Twin: Game {
    /// The position seen from the other seat, with the other player to move.
    fn twin(&self) -> Self;

    /// The move of [`Twin::twin`] that does what `mv` does here.
    fn twin_move(&self, mv: Self::Move) -> Self::Move;
}

/// The key of `key`'s position with its player to move folded in: what repetition checks
/// compare, since twins share one key. A bijection for each player, so positions with
/// distinct keys keep distinct mover keys.
#[inline(always)]
pub fn mover_key(key: u64, to_move: Player) -> u64 {
    match to_move {
        Player::First => key,
        Player::Second => key ^ 0xD6E8_FEB8_6659_FD93,
    }
}

/// What the search assumes of `g` and its twin, checked: the twin of the twin is `g`,
/// the keys are equal, the other player is to move, the value ranges and outcomes agree,
/// the legal moves correspond one to one, each with the same slot, and each leads to
/// the twin of the child. `None` when all hold, else what failed.
pub fn twin_mismatch<G: Twin>(g: &G) -> Option<String> {
    let t = g.twin();
    let fail = |what: &str| Some(format!("{what}: {g:?} and its twin {t:?}"));
    if t.twin() != *g {
        return fail("the twin's twin is another position");
    }
    if t.key() != g.key() {
        return fail("different keys");
    }
    if t.to_move() != g.to_move().opponent() {
        return fail("the same player to move");
    }
    if mover_key(t.key(), t.to_move()) == mover_key(g.key(), g.to_move())
        || t.recurrence_id() == g.recurrence_id()
    {
        return fail("a repetition check would take one for the other");
    }
    let outline = |p: &G| (p.is_terminal(), p.banked(), p.swing(), p.value_range());
    if outline(&t) != outline(g) || t.material() != g.material() {
        return fail("different value ranges");
    }
    if g.is_terminal() && t.terminal_value() != g.terminal_value() {
        return fail("different final values");
    }
    if g.can_repeat() && t.repetition_value() != g.repetition_value() {
        return fail("different repetition values");
    }
    let (mut moves, mut twin_moves) = (Moves::new(), Moves::new());
    g.legal_moves(&mut moves);
    t.legal_moves(&mut twin_moves);
    if moves.len() != twin_moves.len() {
        return fail("different numbers of legal moves");
    }
    for &mv in &moves {
        let tm = g.twin_move(mv);
        if !twin_moves.contains(&tm) {
            return fail(&format!("{mv:?} has no twin move ({tm:?} is not legal)"));
        }
        if t.move_slot(tm) != g.move_slot(mv) {
            return fail(&format!("{mv:?} and {tm:?} have different slots"));
        }
        if t.play(tm) != g.play(mv).twin() {
            return fail(&format!(
                "{mv:?} and {tm:?} lead to positions that are not twins"
            ));
        }
    }
    None
}
