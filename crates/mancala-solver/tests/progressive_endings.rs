//! The two endings of Progressive Mancala name the same winner whenever the stones in
//! all are odd (every published board and every `progressive:NxK` with N x K odd):
//! checked by plain minimax on random small positions and by the solver on whole small
//! boards. This is what lets an all-ending solve, or its proof, answer the majority
//! game's "who wins?" (see [`mancala_core::progressive::Ending`]).

mod common;

use common::{Wants, small_progressive, solver, walk};
use mancala_core::game::SplitMix;
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, PositionText};
use mancala_solver::minimax::minimax;
use mancala_solver::on_search_stack;

/// The value of `g` for its player to move under `ending`, by minimax within `limit` nodes.
fn value_under(g: &Progressive, ending: Ending, limit: u64) -> Option<i32> {
    minimax(&g.with_ending(ending), limit)
}

#[test]
fn the_endings_agree_on_the_winner_of_random_positions() {
    let mut rng = SplitMix(0xE2D);
    let (mut compared, mut tried, mut signs) = (0, 0, [0usize; 2]);
    while compared < 200 {
        tried += 1;
        assert!(tried < 20_000, "too few small positions with an odd total");
        let g = small_progressive(&mut rng, Ending::Majority);
        if g.total().is_multiple_of(2) || g.is_terminal() {
            continue;
        }
        let Some(majority) = value_under(&g, Ending::Majority, 10_000) else {
            continue;
        };
        let Some(all) = value_under(&g, Ending::All, 10_000) else {
            continue;
        };
        assert_ne!(majority, 0, "no draw with an odd total: {}", g.to_text());
        assert_eq!(
            majority.signum(),
            all.signum(),
            "majority {majority}, all {all}: {}",
            g.to_text()
        );
        signs[(majority > 0) as usize] += 1;
        compared += 1;
    }
    // Both winners occur, so the agreement is not that of two constant answers.
    assert!(signs[0] > 10 && signs[1] > 10, "signs {signs:?}");
}

#[test]
fn the_endings_agree_on_the_winner_of_whole_small_boards() {
    on_search_stack(|| {
        let mut rng = SplitMix(0x1709);
        for (n, k) in [(5, 3), (7, 1), (7, 3), (9, 1)] {
            for plies in [0, 3, 6] {
                let g = walk(Progressive::start(n, k, Ending::Majority), &mut rng, plies);
                if g.is_terminal() {
                    continue;
                }
                let value = |ending| {
                    solver(1, 16, Wants::ValueOnly)
                        .solve(&g.with_ending(ending))
                        .expect("unlimited search")
                        .value
                };
                let (majority, all) = (value(Ending::Majority), value(Ending::All));
                assert_ne!(majority, 0, "1x{n}x{k}: {}", g.to_text());
                assert_eq!(
                    majority.signum(),
                    all.signum(),
                    "1x{n}x{k}, majority {majority}, all {all}: {}",
                    g.to_text()
                );
            }
        }
    });
}
