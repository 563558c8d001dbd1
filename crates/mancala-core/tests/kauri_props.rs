//! Properties of Kauri over random playouts from the start and from random positions,
//! under both rule sets, and bad input that must give errors, never panics.

use std::collections::HashMap;

use mancala_core::game::{SplitMix, random_line};
use mancala_core::kauri::rules::{HOLES, TOTAL_SEEDS};
use mancala_core::kauri::{Kauri, KauriMove, Rules};
use mancala_core::twin::{Twin, twin_mismatch};
use mancala_core::{Game, Moves, Notation, Player, PositionText};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Playouts stop here: cowries can circulate for ever (and do in the tie-break phase).
const MAX_PLIES: usize = 400;

mod common;

fn config(cases: u32) -> Config {
    common::config(cases, 0x6A0E)
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules::Current), Just(Rules::TieBreak)]
}

/// A random position of the standard material: 60 seeds (some captured) and 12 cowries
/// spread over the board, with a player to move who can move.
fn position() -> impl Strategy<Value = Kauri> {
    (
        proptest::collection::vec(0usize..HOLES + 2, TOTAL_SEEDS as usize),
        proptest::collection::vec(0usize..HOLES, 12),
        any::<bool>(),
        rules(),
    )
        .prop_map(|(seed_at, cowrie_at, south, rules)| {
            // Seeds at HOLES and HOLES + 1 are in the stores.
            let mut seeds = [0u8; HOLES];
            let mut stores = [0u8; 2];
            for s in seed_at {
                match s.checked_sub(HOLES) {
                    None => seeds[s] += 1,
                    Some(p) => stores[p] += 1,
                }
            }
            let mut cowries = [0u8; HOLES];
            for c in cowrie_at {
                cowries[c] += 1;
            }
            let mut p = if south { Player::Second } else { Player::First };
            let has = |p: Player| Kauri::holes_of(p).any(|h| cowries[h] > 0);
            if !has(p) {
                p = p.opponent();
            }
            Kauri::from_parts(seeds, cowries, stores, p, rules).unwrap()
        })
}

/// Every state of a random playout from `g`, the start included.
fn playout(g: Kauri, seed: u64) -> Vec<Kauri> {
    random_line(g, &mut SplitMix(seed), MAX_PLIES)
}

fn check_states(states: &[Kauri]) -> Result<(), TestCaseError> {
    let mut moves = Moves::new();
    let mut keys: HashMap<u64, Kauri> = HashMap::new();
    for (ply, g) in states.iter().enumerate() {
        let t = g.to_text();
        // Conservation: 60 seeds on the board and in the stores, 12 cowries.
        prop_assert_eq!(g.total(), TOTAL_SEEDS, "ply {}: {}", ply, t);
        prop_assert_eq!(g.total_cowries(), 12, "ply {}: {}", ply, t);
        prop_assert_eq!(g.material(), g.on_board());
        // No legal move exactly when the game is over; while seeds remain the player to
        // move has a cowrie (passes are implicit).
        g.legal_moves(&mut moves);
        prop_assert_eq!(moves.is_empty(), g.is_terminal(), "ply {}: {}", ply, t);
        if g.on_board() > 0 {
            prop_assert!(g.has_cowrie(g.to_move()), "ply {}: {}", ply, t);
            prop_assert!(!g.is_terminal());
        }
        // The final value lies within banked +- swing.
        prop_assert!(g.swing() >= 0);
        if g.is_terminal() {
            let v = g.terminal_value();
            prop_assert!((v - g.banked()).abs() <= g.swing(), "{}", t);
            prop_assert_eq!(g.on_board(), 0);
        }
        prop_assert_eq!(g.repetition_value(), g.banked());
        // Text round trip; equal states have equal keys.
        let back = Kauri::from_text(&t);
        prop_assert_eq!(back.as_ref(), Ok(g), "ply {}: {}", ply, t);
        prop_assert_eq!(back.unwrap().key(), g.key());
        // The key shares one table entry between the position and its twin (the seats
        // exchanged, the other player to move): sound only if their moves and outcomes
        // correspond.
        prop_assert_eq!(twin_mismatch(g), None);
        // Distinct states that the key must tell apart get distinct keys: only the
        // same position or its twin (up to the stores under the current rules) share one.
        if let Some(other) = keys.insert(g.key(), *g) {
            let diff = |k: &Kauri| k.stores()[0] as i32 - k.stores()[1] as i32;
            let alike = |a: &Kauri, b: &Kauri| {
                a.seeds() == b.seeds()
                    && a.cowries() == b.cowries()
                    && a.to_move() == b.to_move()
                    && a.rules() == b.rules()
                    && (a.rules() == Rules::Current || diff(a) == diff(b))
            };
            prop_assert!(
                alike(&other, g) || alike(&other.twin(), g),
                "key collision: {} and {}",
                other.to_text(),
                t
            );
        }
        for &m in &moves {
            // Notation round trips, letters and digits.
            let name = g.format_move(m);
            prop_assert_eq!(g.parse_move(&name), Ok(m));
            let digit = (m.0 as usize % 6 + 1).to_string();
            prop_assert_eq!(g.parse_move(&digit), Ok(m));
            prop_assert_eq!(g.why_illegal(m), None);
            // Determinism.
            let (a, b) = (g.play(m), g.play(m));
            prop_assert_eq!(a, b);
            prop_assert_eq!(a.key(), b.key());
            // Seeds on the board never increase; the stores never shrink.
            prop_assert!(a.material() <= g.material());
            for p in Player::BOTH {
                prop_assert!(a.captured(p) >= g.captured(p));
            }
            // The hint is the move's net capture.
            let me = g.to_move();
            let net = (a.captured(me) as i32 - g.captured(me) as i32)
                - (a.captured(me.opponent()) as i32 - g.captured(me.opponent()) as i32);
            prop_assert_eq!(g.move_order_hint(m), net);
            prop_assert!(g.move_slot(m) < HOLES);
            // The same player moves again only when the opponent must pass.
            if a.to_move() == me && !a.is_terminal() {
                prop_assert!(!a.has_cowrie(me.opponent()));
                prop_assert!(a.on_board() > 0);
            }
        }
        // Holes without a cowrie, or of the other row, are refused with a reason.
        for h in 0..HOLES {
            let mv = KauriMove(h as u8);
            if !moves.contains(&mv) {
                prop_assert!(g.why_illegal(mv).is_some());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn playouts_from_the_start_keep_every_invariant(r in rules(), seed in any::<u64>()) {
        check_states(&playout(Kauri::start(r), seed))?;
    }

    #[test]
    fn playouts_from_random_positions_keep_every_invariant(g in position(), seed in any::<u64>()) {
        check_states(&playout(g, seed))?;
    }

    #[test]
    fn bad_text_and_moves_are_errors_not_panics(
        g in position(),
        text in "\\PC{0,3}",
        line in "kauri [a-z:+,0-9 -]{0,60}",
    ) {
        if let Ok(m) = g.parse_move(&text) {
            // Only a letter of the mover's row, or a digit 1-6.
            let t = text.trim();
            prop_assert!(t == g.format_move(m) || ("1"..="6").contains(&t));
        }
        let _ = Kauri::from_text(&text);
        let _ = Kauri::from_text(&line);
        prop_assert!(g.why_illegal(KauriMove(HOLES as u8)).is_some());
        prop_assert!(g.why_illegal(KauriMove(255)).is_some());
    }
}

#[test]
fn random_games_under_the_current_rules_mostly_end() {
    let mut ended = 0;
    for seed in 0..300 {
        let states = playout(Kauri::start(Rules::Current), seed);
        let last = states.last().unwrap();
        if last.is_terminal() {
            ended += 1;
            assert_eq!(last.on_board(), 0);
        }
    }
    assert!(ended > 200, "{ended} of 300");
}

#[test]
fn bad_positions_and_moves_are_clear_errors() {
    let g = Kauri::start(Rules::Current);
    // Moves from a hole without a cowrie: legal notation, refused by the rules.
    let s = Kauri::from_text(
        "kauri south:5+0,0+1,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 to-move:south",
    )
    .unwrap();
    let mv = s.parse_move("A").unwrap();
    let why = s.why_illegal(mv).unwrap();
    assert!(why.contains("hole A holds no cowrie"), "{why}");
    let mv = s.parse_move("3").unwrap();
    assert!(
        s.why_illegal(mv)
            .unwrap()
            .contains("hole C holds no cowrie")
    );
    common::assert_move_errors(
        &g,
        &[
            ("z", "unknown hole \"z\""),
            ("E", "North to move plays from its own row"),
            ("9", "hole number 9"),
            ("xa", "not a Kauri move"),
            ("", "not a Kauri move"),
        ],
    );
    common::assert_text_errors::<Kauri>(&[
        ("", "empty kauri position"),
        ("afrika south:1", "must start with \"kauri\""),
        ("kauri south:5+1", "\"south\" has 1 holes, not 6"),
        ("kauri south:5,5,5,5,5,5", "entry 1 is \"5\""),
    ]);
    // After the game, every move is refused.
    let over = Kauri::from_text(
        "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:31 north-store:29 to-move:south",
    )
    .unwrap();
    assert!(over.why_illegal(KauriMove(0)).unwrap().contains("over"));
}
