//! Plain minimax without pruning or tables: the reference the fast search is checked
//! against on small positions. Repetitions are handled exactly like the search does (a
//! position recurring on the path ends the game with its repetition value).

use mancala_core::{Game, Moves};

/// The value of `g` for its player to move; `None` when more than `limit` nodes would be
/// needed.
pub fn minimax<G: Game>(g: &G, limit: u64) -> Option<i32> {
    minimax_after(g, &[], limit)
}

/// [`minimax`] of `g` reached after the positions `history` (oldest first).
pub fn minimax_after<G: Game>(g: &G, history: &[G], limit: u64) -> Option<i32> {
    let mut path = history.to_vec();
    let mut nodes = 0;
    rec(g, &mut path, &mut nodes, limit)
}

fn rec<G: Game>(g: &G, path: &mut Vec<G>, nodes: &mut u64, limit: u64) -> Option<i32> {
    *nodes += 1;
    if *nodes > limit {
        return None;
    }
    if g.is_terminal() {
        return Some(g.terminal_value());
    }
    if path.contains(g) {
        return Some(g.repetition_value());
    }
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    path.push(*g);
    let mut best = i32::MIN;
    for &m in &moves {
        let c = g.play(m);
        let v = rec(&c, path, nodes, limit)?;
        let v = if c.to_move() == g.to_move() { v } else { -v };
        best = best.max(v);
    }
    path.pop();
    Some(best)
}
