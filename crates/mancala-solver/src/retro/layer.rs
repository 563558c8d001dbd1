//! Solving one class of positions exactly, given the values of every position its moves
//! can leave it for.
//!
//! Within a class no stones are captured, so play can go round in cycles; every endless
//! line has one value D (the repetition value; relative to what is banked it is the same
//! for the whole class). Two value iterations over the class, with moves only (no
//! un-moves, so every game gets this for free):
//! - L, the least fixed point: endless play counts as the worst result for the first
//!   player; L(p) >= t iff the first player can force a result >= t in finitely many
//!   moves;
//! - G, the greatest fixed point: endless play counts as the best; G(p) >= t iff the
//!   second player cannot force a result < t.
//!
//! The first player reaches at least t exactly when (t <= D and G >= t) or (t > D and
//! L >= t), so the value is V = max(L, min(G, D)). Values are kept from the first player's
//! point of view during the iteration and returned for the player to move, relative to
//! [`mancala_core::Game::banked`].

use std::sync::atomic::{AtomicBool, AtomicI16, AtomicU64, Ordering};

use mancala_core::Moves;
use mancala_core::index::Indexed;
use rayon::prelude::*;

/// Below and above every value.
const NEG: i16 = i16::MIN / 2;
const POS: i16 = i16::MAX / 2;

/// Figures of one class solve.
#[derive(Clone, Debug, Default)]
pub struct LayerStats {
    pub positions: u64,
    /// Full passes over the class until L and G stopped changing.
    pub sweeps: u32,
    /// Positions evaluated (over all sweeps).
    pub evaluations: u64,
    pub seconds: f64,
}

/// Values of every position of `class` for its player to move, relative to its banked
/// margin. `outside(g)` must give the exact value (for `g`'s player to move, banked part
/// included) of any position a move leads to outside the class. `tick` is called with the
/// sweep number and positions evaluated so far (for progress displays).
pub fn solve_class<G: Indexed>(
    class: G::Class,
    outside: &(dyn Fn(&G) -> i32 + Sync),
    tick: &(dyn Fn(u32, u64) + Sync),
) -> (Vec<i8>, LayerStats) {
    let t0 = std::time::Instant::now();
    let n = G::class_size(&class) as usize;
    let lower: Vec<AtomicI16> = (0..n).map(|_| AtomicI16::new(NEG)).collect();
    let upper: Vec<AtomicI16> = (0..n).map(|_| AtomicI16::new(POS)).collect();
    let evaluations = AtomicU64::new(0);
    // Terminal positions are known at once.
    (0..n).into_par_iter().for_each(|i| {
        let g = G::from_index(&class, i as u64);
        if g.is_terminal() {
            let v = (g.to_move().sign() * g.terminal_value()) as i16;
            lower[i].store(v, Ordering::Relaxed);
            upper[i].store(v, Ordering::Relaxed);
        }
    });
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let changed = AtomicBool::new(false);
        (0..n)
            .into_par_iter()
            .with_min_len(4096)
            .for_each_init(Moves::new, |moves, i| {
                let (l0, u0) = (
                    lower[i].load(Ordering::Relaxed),
                    upper[i].load(Ordering::Relaxed),
                );
                if l0 == u0 {
                    return;
                }
                let g = G::from_index(&class, i as u64);
                g.legal_moves(moves);
                let first = g.to_move().sign() > 0;
                let (mut l, mut u) = if first { (NEG, NEG) } else { (POS, POS) };
                for &m in moves.iter() {
                    let c = g.play(m);
                    let (cl, cu) = if c.class() == Some(class) {
                        let j = c.index() as usize;
                        (
                            lower[j].load(Ordering::Relaxed),
                            upper[j].load(Ordering::Relaxed),
                        )
                    } else {
                        let v = (c.to_move().sign() * outside(&c)) as i16;
                        (v, v)
                    };
                    if first {
                        l = l.max(cl);
                        u = u.max(cu);
                    } else {
                        l = l.min(cl);
                        u = u.min(cu);
                    }
                }
                // Both iterations are monotone: L only rises, G only falls.
                let (l, u) = (l.max(l0), u.min(u0));
                if (l, u) != (l0, u0) {
                    lower[i].store(l, Ordering::Relaxed);
                    upper[i].store(u, Ordering::Relaxed);
                    changed.store(true, Ordering::Relaxed);
                }
                evaluations.fetch_add(1, Ordering::Relaxed);
            });
        tick(sweeps, evaluations.load(Ordering::Relaxed));
        if !changed.load(Ordering::Relaxed) {
            break;
        }
    }
    let values: Vec<i8> = (0..n)
        .into_par_iter()
        .map(|i| {
            let g = G::from_index(&class, i as u64);
            let sign = g.to_move().sign() as i16;
            let d = sign * g.repetition_value() as i16;
            let l = lower[i].load(Ordering::Relaxed);
            let u = upper[i].load(Ordering::Relaxed);
            let v = l.max(u.min(d));
            let rel = sign as i32 * v as i32 - g.banked();
            i8::try_from(rel).expect("class values fit in a byte")
        })
        .collect();
    let stats = LayerStats {
        positions: n as u64,
        sweeps,
        evaluations: evaluations.load(Ordering::Relaxed),
        seconds: t0.elapsed().as_secs_f64(),
    };
    (values, stats)
}
