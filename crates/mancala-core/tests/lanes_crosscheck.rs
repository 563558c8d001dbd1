//! The word-wise boards ([`mancala_core::lanes`]) against the scalar reference, move by
//! move: on random positions of Kalah and Afrika (2 x 1..8 holes, up to 255 counters,
//! every rule option) and on the random playouts from them, the legal moves, the move
//! drawn at random, the end of the game and the position after every move must be the
//! same.
//!
//! 300 cases per game by default (about 36,000 positions and 156,000 moves); millions
//! with `MANCALA_CROSSCHECK_CASES=30000 cargo test -p mancala-core --test lanes_crosscheck`
//! (3.6 M positions and 15.6 M moves in both games, 13 s of CPU).

use mancala_core::afrika::{Afrika, AfrikaMove, Ending, Repetition, Rules as AfrikaRules};
use mancala_core::game::{SplitMix, pick_from_list};
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::{Game, Moves, Player, PositionText};
use proptest::prelude::*;

mod common;

/// Cases per game: `MANCALA_CROSSCHECK_CASES` or 300.
fn cases() -> u32 {
    std::env::var("MANCALA_CROSSCHECK_CASES").map_or(300, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("MANCALA_CROSSCHECK_CASES={v} is not a number"))
    })
}

/// Counters for 2 x m holes and two stores, at most 255 in all: half of the time a
/// start (k counters in every hole, long games), else sizes drawn up to 255 and scaled
/// down when their sum is too large, so both empty holes and holes that go round the
/// board several times occur.
fn board() -> impl Strategy<Value = (Vec<u8>, [u8; 2])> {
    let start = (1usize..=8, 1usize..=16)
        .prop_map(|(m, k)| (vec![k.min(255 / (2 * m)) as u8; 2 * m], [0, 0]));
    prop_oneof![start, scaled()]
}

fn scaled() -> impl Strategy<Value = (Vec<u8>, [u8; 2])> {
    (1usize..=8).prop_flat_map(|m| {
        (prop::collection::vec(0u32..=255, 2 * m + 2), 1u32..=255).prop_map(|(mut v, total)| {
            let sum: u32 = v.iter().sum::<u32>().max(1);
            for x in &mut v {
                *x = *x * total / sum;
            }
            let stores = [v[v.len() - 2] as u8, v[v.len() - 1] as u8];
            let holes = v[..v.len() - 2].iter().map(|&x| x as u8).collect();
            (holes, stores)
        })
    })
}

fn player(first: bool) -> Player {
    if first { Player::First } else { Player::Second }
}

/// Plays up to 300 random plies from `g`; at each position the legal moves, and the
/// position after every one of them (`also` adds moves to check beyond the legal ones),
/// must agree between the game and its scalar reference.
fn walk<G: Game + PositionText>(
    mut g: G,
    seed: u64,
    reference: impl Fn(&G, &mut Moves<G::Move>),
    play_reference: impl Fn(&G, G::Move) -> G,
    also: impl Fn(&G, &mut Moves<G::Move>),
) -> Result<(), TestCaseError> {
    let mut rng = SplitMix(seed);
    let (mut moves, mut want, mut extra) = (Moves::new(), Moves::new(), Moves::new());
    for _ in 0..300 {
        let text = g.to_text();
        g.legal_moves(&mut moves);
        reference(&g, &mut want);
        prop_assert_eq!(&moves, &want, "legal moves in {}", text);
        prop_assert_eq!(g.is_terminal(), moves.is_empty(), "{}", text);
        // The move drawn from the bit mask is the one drawn from the reference list, and
        // the generator moved on alike.
        let draw = rng.next_u64();
        let (mut a, mut b) = (SplitMix(draw), SplitMix(draw));
        let picked = g.random_move(&mut a, &mut extra);
        let listed = pick_from_list(&g, &mut extra, &reference, |n| b.below(n));
        prop_assert_eq!(picked, listed, "random move in {}", text);
        prop_assert_eq!(a.0, b.0, "draws in {}", text);
        also(&g, &mut extra);
        for &mv in moves.iter().chain(&extra) {
            prop_assert_eq!(g.play(mv), play_reference(&g, mv), "{:?} in {}", mv, text);
        }
        if moves.is_empty() {
            break;
        }
        g = g.play(moves[rng.below(moves.len())]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(cases(), 18))]

    #[test]
    fn kalah_lanes_agree_with_the_scalar_sowing(
        (holes, stores) in board(),
        first in any::<bool>(),
        standard in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let capture = if standard { Capture::Standard } else { Capture::Empty };
        let g = Kalah::from_parts(&holes, stores, player(first), KalahRules { capture }).unwrap();
        walk(g, seed, Kalah::legal_moves_scalar, Kalah::play_scalar, |_, m| m.clear())?;
    }

    #[test]
    fn afrika_lanes_agree_with_the_scalar_sowing(
        (holes, stores) in board(),
        first in any::<bool>(),
        ending in 0u8..3,
        seed in any::<u64>(),
    ) {
        let rules = AfrikaRules {
            ending: [Ending::Empty, Ending::Majority, Ending::GiveAway][ending as usize],
            repetition: Repetition::Shared,
            komi_half: 0,
        };
        let g = Afrika::from_parts(&holes, stores, player(first), rules).unwrap();
        // Where a capture is compulsory no sowing is legal: every non-empty hole of the
        // mover is sown too, so the sowing is checked in those positions as well.
        let sowings = |g: &Afrika, m: &mut Moves<AfrikaMove>| {
            m.clear();
            let n = g.holes().len() / 2;
            let own = if g.to_move() == Player::First { n } else { 0 };
            for h in own..own + n {
                if g.holes()[h] > 0 && !g.is_terminal() {
                    m.push(AfrikaMove::Sow(h as u8));
                }
            }
        };
        walk(g, seed, Afrika::legal_moves_scalar, Afrika::play_scalar, sowings)?;
    }
}
