//! Alpha-beta (serial with and without the table, with deepening on and off, with each
//! technique of [`Techniques::NAMES`] switched off in turn, and the parallel solver with every root move) against plain minimax, on random small positions
//! of every game and every rule variant. Positions come from random playouts, so they are
//! reachable; those too big for minimax are skipped.

mod common;

use common::{serial, small_kalah, small_progressive, walk};
use mancala_core::andada::{Andada, Direction, Endless};
use mancala_core::game::SplitMix;
use mancala_core::kalah::Capture;
use mancala_core::kauri::Kauri;
use mancala_core::progressive::Ending;
use mancala_core::{Game, Moves};
use mancala_solver::minimax::minimax;
use mancala_solver::search::{Deepening, Techniques};
use mancala_solver::tt::Table;
use mancala_solver::{Config, Solver, on_search_stack};

/// Checks `want` positions drawn by `draw`, returning how many were checked.
fn check<G: Game>(name: &str, want: usize, limit: u64, mut draw: impl FnMut(&mut SplitMix) -> G) {
    let mut rng = SplitMix(0x5EED ^ name.len() as u64);
    let tt = Table::new(8);
    let solver = Solver::new(Config {
        threads: 2,
        tt_mb: 8,
        ..Config::default()
    });
    let plain = Techniques {
        tt: false,
        deepening: Deepening::Never,
        ..Techniques::default()
    };
    let deep = Techniques {
        deepening: Deepening::Always,
        ..Techniques::default()
    };
    let flat = Techniques {
        deepening: Deepening::Never,
        etc_plies: 4,
        ..Techniques::default()
    };
    // The test tables are small: force the late peek on.
    let late = Techniques {
        late_peek_min_mb: 0,
        ..Techniques::default()
    };
    let (mut checked, mut tried) = (0, 0);
    while checked < want {
        tried += 1;
        assert!(tried < 50 * want + 1000, "{name}: too few small positions");
        let g = draw(&mut rng);
        let Some(truth) = minimax(&g, limit) else {
            continue;
        };
        // The game's value range and grid hold the true value.
        let (lo, hi) = g.value_range();
        assert!(lo <= truth && truth <= hi, "{name} range {lo}..{hi}: {g:?}");
        assert_eq!((hi - truth) % g.value_step(), 0, "{name} grid: {g:?}");
        assert_eq!(serial(&g, plain, &tt), truth, "{name} plain: {g:?}");
        assert_eq!(serial(&g, deep, &tt), truth, "{name} deepening: {g:?}");
        assert_eq!(
            serial(&g, flat, &tt),
            truth,
            "{name} no deepening, etc: {g:?}"
        );
        assert_eq!(serial(&g, late, &tt), truth, "{name} late peek: {g:?}");
        // Every technique switched off in turn gives the same value.
        for &off in Techniques::NAMES {
            // The late peek on (the test tables are small), unless it is the one off.
            let mut t = late;
            assert!(t.switch_off(off));
            tt.clear();
            assert_eq!(serial(&g, t, &tt), truth, "{name} without {off}: {g:?}");
        }
        if checked % 4 == 0 {
            let s = solver.solve(&g).unwrap();
            assert_eq!(s.value, truth, "{name} parallel: {g:?}");
            for &(m, v) in &s.moves {
                let c = g.play(m);
                let Some(cv) = minimax(&c, limit * 20) else {
                    continue;
                };
                assert_eq!(
                    v,
                    if c.to_move() == g.to_move() { cv } else { -cv },
                    "{name} move {m:?} of {g:?}"
                );
            }
            let mut p = g;
            let mut ms = Moves::new();
            for &m in &s.pv {
                p.legal_moves(&mut ms);
                assert!(ms.contains(&m), "{name}: PV move {m:?} illegal");
                p = p.play(m);
            }
        }
        checked += 1;
    }
}

#[test]
fn kauri_both_rule_sets() {
    on_search_stack(kauri);
}

fn kauri() {
    for rules in ["current", "tiebreak"] {
        let r = mancala_core::kauri::Rules::parse(rules).unwrap();
        check(&format!("kauri {rules}"), 500, 20_000, |rng| {
            // Play on until few seeds are left, then a few more random plies.
            let mut g = Kauri::start(r);
            let mut ms = Moves::new();
            while g.material() > 1 + rng.below(2) as u32 {
                g.legal_moves(&mut ms);
                if ms.is_empty() {
                    break;
                }
                g = g.play(ms[rng.below(ms.len())]);
            }
            {
                let k = rng.below(6);
                walk(g, rng, k)
            }
        });
    }
}

#[test]
fn progressive_small_rows() {
    on_search_stack(progressive);
}

fn progressive() {
    for ending in [Ending::Majority, Ending::All] {
        check(&format!("progressive {ending:?}"), 500, 20_000, |rng| {
            small_progressive(rng, ending)
        });
    }
}

#[test]
fn andada_small_boards_all_variants() {
    on_search_stack(andada);
}

fn andada() {
    for direction in [Direction::Counterclockwise, Direction::Clockwise] {
        for endless in [Endless::Illegal, Endless::Draw] {
            let rules = mancala_core::andada::Rules { direction, endless };
            check(
                &format!("andada {direction:?} {endless:?}"),
                250,
                20_000,
                |rng| {
                    let plies = 2 + rng.below(12);
                    walk(Andada::start(3, rules), rng, plies)
                },
            );
        }
    }
}

#[test]
fn kalah_small_boards_both_captures() {
    on_search_stack(kalah);
}

fn kalah() {
    for capture in [Capture::Empty, Capture::Standard] {
        let rules = mancala_core::kalah::Rules { capture };
        check(&format!("kalah {capture:?}"), 500, 20_000, |rng| {
            small_kalah(rng, rules)
        });
    }
}
