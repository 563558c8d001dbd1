//! Property tests of the Afrika rules over random playouts on several board sizes.

use mancala_core::afrika::{Afrika, Ending, Repetition, Rules};
use mancala_core::game::SplitMix;
use mancala_core::twin::{Twin, twin_mismatch};
use mancala_core::{Game, Moves, Notation, Player, PositionText};
use proptest::prelude::*;

mod common;

/// The ending `ending % 3` under the repetition rule `ending / 3 % 2`.
fn rules(ending: u8) -> Rules {
    Rules {
        ending: match ending % 3 {
            0 => Ending::Empty,
            1 => Ending::Majority,
            _ => Ending::GiveAway,
        },
        repetition: match ending / 3 % 2 {
            0 => Repetition::Shared,
            _ => Repetition::OwnSide,
        },
        ..Rules::default()
    }
}

fn check_playout(m: usize, k: u8, ending: u8, seed: u64) {
    let mut g = Afrika::start(m, k, rules(ending));
    let total = g.total();
    let mut rng = SplitMix(seed);
    let mut moves = Moves::new();
    for _ in 0..600 {
        // Conservation: board + captured = total.
        assert_eq!(
            g.on_board() + g.captured(Player::First) + g.captured(Player::Second),
            total
        );
        // Position text round-trips.
        let t = g.to_text();
        assert_eq!(Afrika::from_text(&t).unwrap(), g, "{t}");
        // The key shares one table entry between the position and its twin (the seats
        // exchanged, the other player to move): sound only if their moves and outcomes
        // correspond.
        assert_eq!(twin_mismatch(&g), None);
        let twin = g.twin();
        assert_eq!(
            twin.captured(Player::First),
            g.captured(Player::Second),
            "{t}"
        );
        g.legal_moves(&mut moves);
        // No legal move exactly at terminal positions.
        assert_eq!(moves.is_empty(), g.is_terminal(), "{t}");
        if moves.is_empty() {
            let v = g.terminal_value();
            assert!(v.abs() <= total as i32);
            assert!((g.banked() - v).abs() <= g.swing());
            return;
        }
        for &mv in &moves {
            // Notation round-trips and play is deterministic.
            let name = g.format_move(mv);
            assert_eq!(g.parse_move(&name).unwrap(), mv);
            assert_eq!(g.play(mv), g.play(mv));
            assert_eq!(g.play(mv).key(), g.play(mv).key());
            assert!(g.why_illegal(mv).is_none());
        }
        g = g.play(moves[rng.below(moves.len())]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn playouts_keep_the_invariants(m in 1usize..=12, k in 1u8..=8, ending in 0u8..6, seed in any::<u64>()) {
        prop_assume!(2 * m * k as usize <= 255);
        check_playout(m, k, ending, seed);
    }
}

#[test]
fn standard_board_playouts() {
    for seed in 0..200 {
        check_playout(8, 8, (seed % 6) as u8, seed);
    }
}

#[test]
fn bad_positions_and_moves_are_clear_errors() {
    let cases = [
        ("", "empty"),
        ("kauri south:1", "must start with \"afrika\""),
        (
            "afrika south:1,2 north:1 to-move:south",
            "south has 2 holes but north has 1",
        ),
        ("afrika south:1,x north:1,1 to-move:south", "entry 2"),
        ("afrika south:1,1 north:1,1", "missing field \"to-move:\""),
        (
            "afrika south:1,1 north:1,1 to-move:east",
            "must be south or north",
        ),
        (
            "afrika south:1,1 north:1,1 to-move:south colour:red",
            "unknown field \"colour:\"",
        ),
        (
            "afrika south:200,200 north:1,1 to-move:south",
            "at most 255",
        ),
        (
            "afrika south:1,1 north:1,1 to-move:south komi:0.3",
            "multiple of 0.5",
        ),
    ];
    common::assert_text_errors::<Afrika>(&cases);
    let g = Afrika::start(8, 8, Rules::default());
    common::assert_move_errors(
        &g,
        &[
            ("z", "unknown hole \"z\""),
            ("E", "sows from its own row"),
            ("xe", "captures from South's row"),
            ("ee", "not an Afrika move"),
            ("", "not an Afrika move"),
        ],
    );
}
