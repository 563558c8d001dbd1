//! Proof-number search with a margin goal ("does the attacker end with at least t?")
//! against plain minimax, on random small positions of the games that count a margin:
//! Kalah (both captures) and Progressive (both endings), where no position repeats (the
//! games `mancala prove` takes with a margin). For a position of minimax value v, the
//! mover's goal v must be proven and v + step disproven, and the opponent's goals -v and
//! -v + step likewise, each with its certificate checked, with the margin initialisation
//! of new positions' numbers and without it.

mod common;

use common::{small_kalah, small_progressive};
use mancala_core::game::SplitMix;
use mancala_core::kalah::Capture;
use mancala_core::progressive::Ending;
use mancala_core::{Game, Player};
use mancala_solver::minimax::minimax;
use mancala_solver::on_search_stack;
use mancala_solver::proof::{
    Goal, Limits, ProofSearch, ProofTable, Repair, Verdict, check_disproof, check_proof,
};

/// Searches of at most 100,000 nodes in a table of their own (1 MB).
fn repair(table: &mut ProofTable) -> Option<Repair<'_>> {
    Some(Repair {
        nodes: 100_000,
        table,
    })
}

/// How one goal came out: proven or disproven with the certificate checked, or neither.
#[derive(Debug, PartialEq)]
enum Answer {
    Yes,
    No,
    Unchecked,
}

/// `margin`: with the margin initialisation (the default) or without it.
fn answer<G: Game>(g: &G, goal: Goal, margin: bool) -> Answer {
    let table = ProofTable::with_mb(1);
    let mut search = ProofSearch::new(&table, goal, Limits::default());
    if !margin {
        search = search.without_margin();
    }
    let out = search.run(g);
    let mut side = ProofTable::with_mb(1);
    match out.verdict {
        Verdict::Proven
            if check_proof(g, goal, &table, None, repair(&mut side), &mut |_| {}, None).is_ok() =>
        {
            Answer::Yes
        }
        Verdict::Disproven
            if check_disproof(g, goal, &table, None, repair(&mut side), &mut |_| {}, None)
                .is_ok() =>
        {
            Answer::No
        }
        _ => Answer::Unchecked,
    }
}

/// The four goals around `truth` (the mover's value): (goal, whether minimax reaches it).
fn goals<G: Game>(g: &G, truth: i32) -> [(Goal, bool); 4] {
    let (me, step) = (g.to_move(), g.value_step());
    let goal = |attacker: Player, at_least| Goal { attacker, at_least };
    [
        (goal(me, truth), true),
        (goal(me, truth + step), false),
        (goal(me.opponent(), -truth), true),
        (goal(me.opponent(), -truth + step), false),
    ]
}

/// Checks `want` positions drawn by `draw` that minimax solves within `limit` nodes:
/// every goal decided, as minimax says, with its certificate checked.
fn check<G: Game>(name: &str, want: usize, limit: u64, mut draw: impl FnMut(&mut SplitMix) -> G) {
    let mut rng = SplitMix(0x6A1 ^ name.len() as u64);
    let (mut checked, mut tried, mut signs) = (0, 0, [0; 3]);
    while checked < want {
        tried += 1;
        assert!(tried < 50 * want + 1000, "{name}: too few small positions");
        let g = draw(&mut rng);
        assert!(!g.can_repeat(), "{name}: positions may repeat");
        if g.is_terminal() {
            continue;
        }
        let Some(truth) = minimax(&g, limit) else {
            continue;
        };
        let questions = goals(&g, truth).into_iter();
        for ((goal, reached), margin) in questions.flat_map(|q| [(q, true), (q, false)]) {
            let got = answer(&g, goal, margin);
            let what = format!("{name}: {g:?}, minimax {truth}, {goal:?}, margin {margin}");
            match got {
                Answer::Yes => assert!(reached, "{what}: proven, minimax says no"),
                Answer::No => assert!(!reached, "{what}: disproven, minimax says yes"),
                Answer::Unchecked => panic!("{what}: not decided"),
            }
        }
        signs[(truth.signum() + 1) as usize] += 1;
        checked += 1;
    }
    // Both signs of the value, so that both players' goals are proven somewhere.
    assert!(
        signs[0] > 0 && signs[2] > 0,
        "{name}: values <0, 0, >0: {signs:?}"
    );
}

#[test]
fn kalah_both_captures() {
    on_search_stack(|| {
        for capture in [Capture::Empty, Capture::Standard] {
            let rules = mancala_core::kalah::Rules { capture };
            check(&format!("kalah {capture:?}"), 150, 20_000, |rng| {
                small_kalah(rng, rules)
            });
        }
    });
}

#[test]
fn progressive_both_endings() {
    on_search_stack(|| {
        for ending in [Ending::Majority, Ending::All] {
            check(&format!("progressive {ending:?}"), 150, 20_000, |rng| {
                small_progressive(rng, ending)
            });
        }
    });
}
