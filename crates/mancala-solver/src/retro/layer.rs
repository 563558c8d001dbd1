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
//!
//! A class whose moves form no cycle ([`Indexed::class_acyclic`], e.g. Kalah, where a
//! move that keeps every seed in play only sows forward in the mover's row) needs no
//! fixed point: [`Method::SinglePass`] evaluates every position once, its children first
//! (a depth-first walk over the class with the values as its memo), where the sweeps
//! need as many passes as the longest line of play inside the class. Both methods read
//! indices relative to the side to move ([`Indexed::mirrored`]); the sweeps only for
//! acyclic classes, where the two fixed points coincide.

use std::sync::atomic::{AtomicBool, AtomicI16, AtomicU64, Ordering};

use arrayvec::ArrayVec;
use mancala_core::Moves;
use mancala_core::game::MAX_MOVES;
use mancala_core::index::Indexed;
use rayon::prelude::*;

/// Below and above every value.
pub(super) const NEG: i16 = i16::MIN / 2;
pub(super) const POS: i16 = i16::MAX / 2;

/// How a class is solved.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// [`Method::SinglePass`] where the class is acyclic, sweeps otherwise.
    #[default]
    Auto,
    /// Value iteration to the two fixed points, whatever the class.
    Sweeps,
    /// One depth-first pass, children first; only for acyclic classes (others fall back to
    /// sweeps).
    SinglePass,
}

/// Figures of one class solve.
#[derive(Clone, Debug, Default)]
pub struct LayerStats {
    pub positions: u64,
    /// Full passes over the class until L and G stopped changing (1 for a single pass).
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
    solve_class_with(class, Method::Auto, outside, tick)
}

/// [`solve_class`] by a chosen method (to measure one against the other).
pub fn solve_class_with<G: Indexed>(
    class: G::Class,
    method: Method,
    outside: &(dyn Fn(&G) -> i32 + Sync),
    tick: &(dyn Fn(u32, u64) + Sync),
) -> (Vec<i8>, LayerStats) {
    let t0 = std::time::Instant::now();
    let evaluations = AtomicU64::new(0);
    let (values, sweeps) = if method != Method::Sweeps && G::class_acyclic(&class) {
        (single_pass(class, outside, &evaluations, tick), 1)
    } else {
        sweeps(class, outside, &evaluations, tick)
    };
    let stats = LayerStats {
        positions: values.len() as u64,
        sweeps,
        evaluations: evaluations.into_inner(),
        seconds: t0.elapsed().as_secs_f64(),
    };
    (values, stats)
}

/// One counter per position of `class`, each starting at `v`.
fn counters<G: Indexed>(class: &G::Class, v: i16) -> Vec<AtomicI16> {
    (0..G::class_size(class))
        .map(|_| AtomicI16::new(v))
        .collect()
}

/// Bounds sweeps until nothing changes (any class); the values and the sweeps made.
fn sweeps<G: Indexed>(
    class: G::Class,
    outside: &(dyn Fn(&G) -> i32 + Sync),
    evaluations: &AtomicU64,
    tick: &(dyn Fn(u32, u64) + Sync),
) -> (Vec<i8>, u32) {
    let lower = counters::<G>(&class, NEG);
    let upper = counters::<G>(&class, POS);
    let n = lower.len();
    // Terminal positions are known at once.
    (0..n).into_par_iter().for_each(|i| {
        let g = G::from_index(&class, i as u64);
        if g.is_terminal() {
            let (l, u) = exact_bounds(g.to_move().sign(), g.terminal_value());
            lower[i].store(l, Ordering::Relaxed);
            upper[i].store(u, Ordering::Relaxed);
        }
    });
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let changed = AtomicBool::new(false);
        (0..n).into_par_iter().with_min_len(4096).for_each(|i| {
            let (l0, u0) = (
                lower[i].load(Ordering::Relaxed),
                upper[i].load(Ordering::Relaxed),
            );
            if l0 == u0 {
                return;
            }
            let g = G::from_index(&class, i as u64);
            let (l, u) = bounds_from_children(&g, class, (&lower, &upper), outside);
            let (l, u) = tighten((l0, u0), (l, u));
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
    (settle::<G>(class, &lower, &upper), sweeps)
}

/// The bounds (first player's view) that `g`'s children give it in the current sweep:
/// the best of the children's bounds for the player to move.
#[inline]
fn bounds_from_children<G: Indexed>(
    g: &G,
    class: G::Class,
    (lower, upper): (&[AtomicI16], &[AtomicI16]),
    outside: &(dyn Fn(&G) -> i32 + Sync),
) -> (i16, i16) {
    let mut children = ArrayVec::<(i16, i16), MAX_MOVES>::new();
    g.for_each_child(|_, c| {
        children.push(if c.class() == Some(class) {
            let j = c.index() as usize;
            let entry = (
                lower[j].load(Ordering::Relaxed),
                upper[j].load(Ordering::Relaxed),
            );
            entry_bounds(c.mirrored(), entry)
        } else {
            exact_bounds(c.to_move().sign(), outside(&c))
        });
    });
    best_of(g.to_move().sign() > 0, children)
}

/// The bounds a position gets from its children's (`children`, first player's view): the
/// best of them for the player to move (`first`: the first player moves).
#[inline]
pub(super) fn best_of(first: bool, children: impl IntoIterator<Item = (i16, i16)>) -> (i16, i16) {
    let (mut l, mut u) = if first { (NEG, NEG) } else { (POS, POS) };
    for (cl, cu) in children {
        if first {
            l = l.max(cl);
            u = u.max(cu);
        } else {
            l = l.min(cl);
            u = u.min(cu);
        }
    }
    (l, u)
}

/// The bounds (first player's view) of a position of the class being solved, from the
/// entry of its index: the entry is the twin's, with the other player to move, when the
/// position is indexed as its mirror (`mirrored`).
#[inline]
pub(super) fn entry_bounds(mirrored: bool, (l, u): (i16, i16)) -> (i16, i16) {
    if mirrored { (-u, -l) } else { (l, u) }
}

/// The bounds (first player's view) of a position of exact value `v` for its player to
/// move, whose sign is `sign` (a terminal position, or one of a finished class).
#[inline]
pub(super) fn exact_bounds(sign: i32, v: i32) -> (i16, i16) {
    let v = (sign * v) as i16;
    (v, v)
}

/// New bounds `(l, u)` of a position that had `(l0, u0)`: both iterations are monotone,
/// L only rises, G only falls.
#[inline]
pub(super) fn tighten((l0, u0): (i16, i16), (l, u): (i16, i16)) -> (i16, i16) {
    (l.max(l0), u.min(u0))
}

/// The values once the sweeps stop changing anything: a position whose bounds still
/// differ can be held forever by both players, so it gets the repetition value, clamped
/// into its bounds; stored for the player to move relative to the banked margin.
fn settle<G: Indexed>(class: G::Class, lower: &[AtomicI16], upper: &[AtomicI16]) -> Vec<i8> {
    (0..lower.len())
        .into_par_iter()
        .map(|i| {
            let bounds = (
                lower[i].load(Ordering::Relaxed),
                upper[i].load(Ordering::Relaxed),
            );
            settle_one::<G>(class, i as u64, bounds)
        })
        .collect()
}

/// [`settle`] for the position of index `i`, whose final bounds are `(l, u)`.
#[inline]
pub(super) fn settle_one<G: Indexed>(class: G::Class, i: u64, (l, u): (i16, i16)) -> i8 {
    let g = G::from_index(&class, i);
    let sign = g.to_move().sign() as i16;
    let d = sign * g.repetition_value() as i16;
    let v = l.max(u.min(d));
    let rel = sign as i32 * v as i32 - g.banked();
    i8::try_from(rel).expect("class values fit in a byte")
}

/// Not solved yet (below every value).
const UNKNOWN: i16 = i16::MIN;

/// A position of the depth-first walk whose moves are being looked at.
struct Frame<G: Indexed> {
    index: usize,
    g: G,
    moves: Moves<G::Move>,
    next: usize,
    best: i32,
}

impl<G: Indexed> Frame<G> {
    fn new(index: usize, g: G) -> Self {
        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        Frame {
            index,
            g,
            moves,
            next: 0,
            best: i32::MIN,
        }
    }
}

/// One pass over an acyclic class. Values are kept for the player to move relative to
/// the banked margin (what the table stores), so twins share them as they are. Threads
/// walk disjoint ranges of start positions; when two reach the same position both compute
/// the same exact value, so the race costs time, never correctness.
fn single_pass<G: Indexed>(
    class: G::Class,
    outside: &(dyn Fn(&G) -> i32 + Sync),
    evaluations: &AtomicU64,
    tick: &(dyn Fn(u32, u64) + Sync),
) -> Vec<i8> {
    let values = counters::<G>(&class, UNKNOWN);
    (0..values.len())
        .into_par_iter()
        .with_min_len(4096)
        .for_each_init(Vec::<Frame<G>>::new, |stack, i| {
            if values[i].load(Ordering::Relaxed) != UNKNOWN {
                return;
            }
            let done = walk_from(class, i, stack, &values, outside);
            evaluations.fetch_add(done, Ordering::Relaxed);
        });
    tick(1, evaluations.load(Ordering::Relaxed));
    values
        .into_par_iter()
        .map(|v| i8::try_from(v.into_inner()).expect("class values fit in a byte"))
        .collect()
}

/// Solves the position of index `start` and every unsolved one below it, depth first on
/// `stack` (empty on return); returns how many it solved.
#[inline]
fn walk_from<G: Indexed>(
    class: G::Class,
    start: usize,
    stack: &mut Vec<Frame<G>>,
    values: &[AtomicI16],
    outside: &(dyn Fn(&G) -> i32 + Sync),
) -> u64 {
    let n = values.len();
    let mut done = 0u64;
    stack.push(Frame::new(start, G::from_index(&class, start as u64)));
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            let f = stack.pop().expect("the stack is not empty");
            let rel = if f.moves.is_empty() {
                f.g.terminal_value() - f.g.banked()
            } else {
                f.best - f.g.banked()
            };
            values[f.index].store(rel as i16, Ordering::Relaxed);
            done += 1;
            // The parent was waiting for exactly this child: take its value now
            // rather than playing the move again.
            if let Some(parent) = stack.last_mut() {
                let v = f.g.banked() + rel;
                let v = if f.g.to_move() == parent.g.to_move() {
                    v
                } else {
                    -v
                };
                parent.best = parent.best.max(v);
                parent.next += 1;
            }
            continue;
        }
        let c = top.g.play(top.moves[top.next]);
        let v = if c.is_terminal() {
            c.terminal_value()
        } else if c.class() == Some(class) {
            let j = c.index() as usize;
            let v = values[j].load(Ordering::Relaxed);
            if v == UNKNOWN {
                // Solve the child first; its value comes back when it is popped.
                let child = Frame::new(j, c);
                assert!(
                    stack.len() <= n,
                    "{}: play cycles inside a class declared acyclic",
                    G::class_name(&class)
                );
                stack.push(child);
                continue;
            }
            c.banked() + v as i32
        } else {
            outside(&c)
        };
        let v = if c.to_move() == top.g.to_move() {
            v
        } else {
            -v
        };
        top.best = top.best.max(v);
        top.next += 1;
    }
    done
}
