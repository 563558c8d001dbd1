//! The strong solution of Andada on 2 x 3 (`mancala retro andada:3`): the retrograde
//! table agrees with the alpha-beta solver and with plain minimax, and the opening
//! results it gives are pinned.

use mancala_core::andada::index::SeedsOnBoard;
use mancala_core::andada::{Andada, AndadaMove, Rules};
use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves};
use mancala_solver::minimax::minimax;
use mancala_solver::retro::Database;
use mancala_solver::retro::db::Quiet;
use mancala_solver::{Config, Solver};

mod common;
use common::{Wants, solver};

fn table(rules: Rules) -> Database<Andada> {
    let classes: Vec<SeedsOnBoard> = (0..=12)
        .map(|seeds| SeedsOnBoard { n: 3, seeds, rules })
        .collect();
    let mut db = Database::<Andada>::empty("andada", &rules.variant_name());
    db.solve(&classes, &Quiet);
    db
}

#[test]
fn the_table_equals_search_on_positions_of_random_games() {
    for rules in [
        Rules::default(),
        Rules::parse_variant("endless-draw").unwrap(),
    ] {
        let db = table(rules);
        let solver = solver(1, 8, Wants::ValueOnly);
        let mut rng = SplitMix(7);
        let mut ms = Moves::new();
        let mut checked = 0;
        let mut by_minimax = 0;
        for _ in 0..40 {
            let mut g = Andada::start(3, rules);
            loop {
                if let Some(v) = db.value(&g) {
                    let s = solver.solve(&g).unwrap();
                    assert_eq!(v, s.value, "{g:?}");
                    if let Some(m) = minimax(&g, 20_000) {
                        assert_eq!(v, m, "{g:?}");
                        by_minimax += 1;
                    }
                    checked += 1;
                }
                g.legal_moves(&mut ms);
                if ms.is_empty() {
                    break;
                }
                g = g.play(ms[rng.below(ms.len())]);
            }
        }
        assert!(checked > 200 && by_minimax > 100, "{checked} {by_minimax}");
    }
}

#[test]
fn on_2x3_the_opener_loses_whatever_he_opens() {
    let db = table(Rules::default());
    let start = Andada::start(3, Rules::default());
    let mut ms = Moves::new();
    start.legal_moves(&mut ms);
    assert_eq!(ms.len(), 3);
    for &m in &ms {
        let pie = start.play(m);
        // The board after the opening is half-turn symmetric (the seed's argument).
        let h = pie.holes();
        assert_eq!(h[..3], h[3..]);
        // The second player decides; his best choice wins.
        let best = [AndadaMove::Play, AndadaMove::Pass]
            .iter()
            .map(|&d| {
                let c = pie.play(d);
                let v = db.value(&c).unwrap();
                if c.to_move() == pie.to_move() { v } else { -v }
            })
            .max()
            .unwrap();
        assert_eq!(best, 1, "the second player wins after {m:?}");
    }
    // The solver agrees from the very start.
    let s = Solver::new(Config::default()).solve(&start).unwrap();
    assert_eq!(s.value, -1);
}
