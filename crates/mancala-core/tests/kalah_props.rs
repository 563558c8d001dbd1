//! Property tests over random Kalah playouts.

use mancala_core::game::{Game, Moves, Notation, PositionText, SplitMix};
use mancala_core::kalah::{Capture, Kalah, KalahMove, Rules};
use mancala_core::player::Player;
use mancala_core::rows::Row;
use mancala_core::rows::Seated;
use mancala_core::twin::{Twin, twin_mismatch};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    any::<bool>().prop_map(|s| Rules {
        capture: if s { Capture::Standard } else { Capture::Empty },
    })
}

/// The quantity that proves `can_repeat() == false`: seeds in the stores, then the sum of
/// (seeds x position in the owner's row) over both rows. Every move raises it.
fn potential(g: &Kalah) -> (u32, u32) {
    let m = g.holes_per_row();
    let h = g.holes();
    let stores = g.stores()[0] as u32 + g.stores()[1] as u32;
    let pos: u32 = (0..2 * m).map(|i| h[i] as u32 * (i % m) as u32).sum();
    (stores, pos)
}

/// Checks every property at one position; returns the legal moves.
fn check(g: &Kalah, total: u32) -> Moves<KalahMove> {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.is_empty(), g.is_terminal(), "{}", g.to_text());
    // Conservation: board + stores = all seeds.
    assert_eq!(g.total(), total, "{}", g.to_text());
    assert_eq!(
        g.on_board() + g.captured(Player::First) + g.captured(Player::Second),
        total
    );
    if g.is_terminal() {
        let v = g.terminal_value();
        assert!((g.banked() - g.swing()..=g.banked() + g.swing()).contains(&v));
    }
    // Position text round trip with equal keys.
    let text = g.to_text();
    let back = Kalah::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(&back, g, "{text}");
    assert_eq!(back.key(), g.key());
    assert_eq!(back.to_text(), text);
    // Only the mover's non-empty holes, each named and read back.
    let own = Kalah::row(g.to_move());
    for (i, &mv) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(&mv));
        let h = mv.0 as usize;
        assert!(
            h >= own.start(g.holes_per_row())
                && h < own.start(g.holes_per_row()) + g.holes_per_row()
        );
        assert!(g.holes()[h] > 0);
        let name = g.format_move(mv);
        assert_eq!(g.parse_move(&name), Ok(mv), "{name} in {text}");
        assert_eq!(g.why_illegal(mv), None);
    }
    for h in 0..2 * g.holes_per_row() as u8 + 2 {
        if !moves.contains(&KalahMove(h)) {
            assert!(g.why_illegal(KalahMove(h)).is_some());
        }
    }
    check_seats_swapped(g);
    moves
}

/// The key shares one table entry between a position and the one with the seats
/// exchanged: sound only if every move of one is a move of the other, with the same
/// outcome for the player to move.
fn check_seats_swapped(g: &Kalah) {
    assert_eq!(twin_mismatch(g), None);
    let s = g.twin();
    assert_eq!(
        s.stores(),
        [g.stores()[1], g.stores()[0]],
        "{}",
        g.to_text()
    );
}

fn playout(mut g: Kalah, seed: u64) -> Result<(), TestCaseError> {
    let total = g.total();
    let mut rng = SplitMix(seed);
    let mut seen = std::collections::HashSet::new();
    loop {
        // No position recurs (can_repeat() is false).
        prop_assert!(seen.insert(g), "{} recurred", g.to_text());
        let moves = check(&g, total);
        if moves.is_empty() {
            // The board is swept at the end of the game (unless the start was over).
            prop_assert!(g.on_board() == 0 || seen.len() == 1);
            prop_assert_eq!(
                g.terminal_value() * g.to_move().sign(),
                g.captured(Player::First) as i32 - g.captured(Player::Second) as i32
                    + g.row_sum(Row::South) as i32
                    - g.row_sum(Row::North) as i32
            );
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let next = g.play(mv);
        prop_assert_eq!(next, g.play(mv));
        prop_assert_eq!(next.key(), g.play(mv).key());
        // Stores never give seeds back, and the potential rises with every move.
        for p in Player::BOTH {
            prop_assert!(next.captured(p) >= g.captured(p));
        }
        prop_assert!(potential(&next) > potential(&g), "{} {:?}", g.to_text(), mv);
        g = next;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_playouts(seed in any::<u64>(), m in 1usize..=12, n in 1u8..=6, rules in rules_strategy()) {
        let n = n.min((255 / (2 * m)) as u8);
        playout(Kalah::start(m, n, rules), seed)?;
    }

    /// Positions with random contents, stores and mover (not only reachable ones).
    #[test]
    fn random_positions(
        cells in proptest::collection::vec(0u8..8, 2..=12),
        stores in (0u8..20, 0u8..20),
        north in any::<bool>(),
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut cells = cells;
        if cells.len() % 2 == 1 {
            cells.pop();
        }
        let to_move = if north { Player::Second } else { Player::First };
        let g = Kalah::from_parts(&cells, [stores.0, stores.1], to_move, rules).unwrap();
        playout(g, seed)?;
    }
}
