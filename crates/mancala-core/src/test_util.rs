//! What the rules' unit tests of every game share: moves by their names, the position
//! after a move, the end of a game.

use crate::game::{Game, Moves, Notation};

/// The legal moves of `g` by their names, in the game's order.
pub(crate) fn legal<G: Notation>(g: &G) -> Vec<String> {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    moves.iter().map(|&m| g.format_move(m)).collect()
}

/// The position after the move named `m` in `g`, legal or not: some tests sow from a
/// position where the move is not a legal choice.
pub(crate) fn play<G: Notation>(g: &G, m: &str) -> G {
    g.play(g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}")))
}

/// Asserts that the move from `before` to `after` ended the game: the game was on before
/// it, and after it the game is over and no move is left.
pub(crate) fn assert_ends<G: Notation>(before: &G, after: &G) {
    assert!(!before.is_terminal(), "{before:?} is already over");
    assert!(after.is_terminal(), "{after:?} is not over");
    assert!(legal(after).is_empty(), "{after:?}");
}

/// Asserts that the game is over in `g` with the final value `value` (for the player to
/// move).
pub(crate) fn assert_over<G: Game>(g: &G, value: i32) {
    assert!(g.is_terminal(), "{g:?} is not over");
    assert_eq!(g.terminal_value(), value, "{g:?}");
}
