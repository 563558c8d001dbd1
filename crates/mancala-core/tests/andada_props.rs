//! Property tests over random Andada playouts.

use mancala_core::andada::{Andada, AndadaMove, Direction, Endless, Phase, Rules};
use mancala_core::game::{Game, Moves, Notation, PositionText, SplitMix};
use mancala_core::twin::twin_mismatch;
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>()).prop_map(|(cw, draw)| Rules {
        direction: if cw {
            Direction::Clockwise
        } else {
            Direction::Counterclockwise
        },
        endless: if draw {
            Endless::Draw
        } else {
            Endless::Illegal
        },
    })
}

/// Checks every property at one position; returns the legal moves.
fn check(g: &Andada, initial: u32) -> Moves<AndadaMove> {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    // Legal moves are empty exactly when the game is over.
    assert_eq!(moves.is_empty(), g.is_terminal(), "{}", g.to_text());
    if g.is_terminal() {
        let v = g.terminal_value();
        assert!((g.banked() - g.swing()..=g.banked() + g.swing()).contains(&v));
        // A draw only after an endless sowing under endless-draw.
        assert_eq!(v == 0, g.phase() == Phase::Drawn, "{}", g.to_text());
    }
    // Conservation: seeds are only ever removed, so removed = initial - board >= 0.
    let board = g.on_board();
    assert!(board <= initial, "{} > {initial}", board);
    assert_eq!(
        g.captured(g.to_move()) + g.captured(g.to_move().opponent()),
        0
    );
    // Position text round trip, with equal keys.
    let text = g.to_text();
    let back = Andada::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(&back, g, "{text}");
    assert_eq!(back.key(), g.key());
    assert_eq!(back.to_text(), text);
    // Each child is visited once, in the order of the legal moves, and is the position
    // the move leads to (Andada keeps the board of the sowing that tested the move).
    let mut children = Vec::new();
    g.for_each_child(|mv, c| children.push((mv, c)));
    let played: Vec<_> = moves.iter().map(|&mv| (mv, g.play(mv))).collect();
    assert_eq!(children, played, "{}", g.to_text());
    // Moves are distinct and their names read back.
    for (i, &mv) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(&mv));
        let name = g.format_move(mv);
        assert_eq!(g.parse_move(&name), Ok(mv), "{name} in {text}");
        assert_eq!(g.why_illegal(mv), None);
    }
    // The key shares one table entry between the position and its twin (the rows
    // exchanged, the other player to move): sound only if their moves and outcomes
    // correspond.
    assert_eq!(twin_mismatch(g), None);
    // Every other hole of the board is refused with a reason, never a panic.
    for h in 0..2 * g.holes_per_row() as u8 {
        for mv in [AndadaMove::Sow(h), AndadaMove::Open(h)] {
            if !moves.contains(&mv) {
                assert!(g.why_illegal(mv).is_some());
            }
        }
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_playouts(seed in any::<u64>(), size in 0usize..5, rules in rules_strategy()) {
        let n = [3, 6, 9, 12, 24][size];
        let mut rng = SplitMix(seed);
        let mut g = Andada::start(n, rules);
        let initial = g.on_board();
        prop_assert_eq!(initial as usize, 4 * n);
        for _ in 0..400 {
            let moves = check(&g, initial);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let next = g.play(mv);
            // Deterministic, and equal states have equal keys.
            prop_assert_eq!(next, g.play(mv));
            prop_assert_eq!(next.key(), g.play(mv).key());
            // The board never gains seeds; the opening and the pie move none.
            prop_assert!(next.on_board() <= g.on_board());
            if g.phase() != Phase::Play {
                prop_assert_eq!(next.on_board(), g.on_board());
            }
            // The phases run opening -> pie -> play (-> drawn).
            prop_assert!(next.phase() >= g.phase());
            g = next;
        }
    }

    /// Positions in the play phase with random contents (not only reachable ones).
    #[test]
    fn random_positions(
        cells in proptest::collection::vec(0u8..6, 6..=6),
        north in any::<bool>(),
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let to_move = if north { mancala_core::Player::Second } else { mancala_core::Player::First };
        let mut g = Andada::from_parts(&cells, to_move, Phase::Play, rules).unwrap();
        let initial = g.on_board();
        let mut rng = SplitMix(seed);
        for _ in 0..100 {
            let moves = check(&g, initial);
            if moves.is_empty() {
                break;
            }
            g = g.play(moves[rng.below(moves.len())]);
        }
    }
}
