//! The rounds of one class at one worker: a pass over the worker's range, the bounds that
//! moved sent to the other processes, a count of changes to every worker, a timely epoch
//! as the barrier; and the one-epoch agreement on a number.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicI16, Ordering};

use mancala_core::Moves;
use mancala_core::index::Indexed;
use serde::{Deserialize, Serialize};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use super::super::db::Database;
use super::super::layer::bounds_from_children;

/// One timely record: a bound update for the replica of the worker `to`'s process, or a
/// worker's count of changed bounds in a round (also used to agree on a number).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
enum Msg {
    Bounds {
        to: u32,
        index: u64,
        lower: i16,
        upper: i16,
    },
    Count {
        to: u32,
        round: u64,
        n: u64,
    },
}

impl Msg {
    fn to(&self) -> u64 {
        match *self {
            Msg::Bounds { to, .. } | Msg::Count { to, .. } => to as u64,
        }
    }
}

/// Where a worker feeds its records in.
type Updates = InputHandle<u64, CapacityContainerBuilder<Vec<Msg>>>;

/// Bytes of one [`Msg::Bounds`] record in timely's bincode encoding: the variant (4), `to`
/// (4), `index` (8) and the two bounds (2 + 2).
pub(super) const BOUNDS_BYTES: u64 = 20;

/// The lower and upper bounds of every position of the class being solved.
pub(super) struct Bounds {
    pub lower: Vec<AtomicI16>,
    pub upper: Vec<AtomicI16>,
}

impl Bounds {
    /// An update from another process, merged monotonically.
    fn merge(&self, i: u64, l: i16, u: i16) {
        self.lower[i as usize].fetch_max(l, Ordering::Relaxed);
        self.upper[i as usize].fetch_min(u, Ordering::Relaxed);
    }
}

/// The contiguous range of `0..n` that part `k` of `parts` owns.
pub(super) fn share(n: usize, k: usize, parts: usize) -> Range<usize> {
    n * k / parts..n * (k + 1) / parts
}

/// Every worker's `mine` in, the smallest out (at every worker): a cluster-wide barrier.
pub(super) fn agree(worker: &mut Worker, mine: u64) -> u64 {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut input = Updates::new();
    let probe = ProbeHandle::new();
    let s = Rc::clone(&seen);
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .exchange(Msg::to)
            .inspect(move |m: &Msg| {
                if let Msg::Count { n, .. } = *m {
                    s.borrow_mut().push(n);
                }
            })
            .probe_with(&probe);
    });
    for to in 0..worker.peers() as u32 {
        input.send(Msg::Count {
            to,
            round: 0,
            n: mine,
        });
    }
    input.advance_to(1);
    while probe.less_than(input.time()) {
        worker.step();
    }
    seen.borrow().iter().copied().min().unwrap_or(mine)
}

/// The fixed-point rounds of one class at one worker.
pub(super) struct Iteration<'a, G: Indexed> {
    pub worker: &'a mut Worker,
    pub class: G::Class,
    pub bounds: &'a Arc<Bounds>,
    pub db: &'a Database<G>,
    pub processes: usize,
    pub threads: usize,
    pub process: usize,
    /// Updates sent to other processes.
    pub updates: u64,
}

/// Positions evaluated between two steps of the worker (which drain incoming updates).
const STEP_EVERY: usize = 1 << 14;

impl<G: Indexed> Iteration<'_, G> {
    /// Rounds until none changes a bound; the rounds and evaluations made.
    pub fn run(&mut self) -> (u32, u64) {
        let counts = Rc::new(RefCell::new(HashMap::<u64, u64>::new()));
        let mut input = Updates::new();
        let probe = ProbeHandle::new();
        let (b, c) = (Arc::clone(self.bounds), Rc::clone(&counts));
        self.worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .exchange(Msg::to)
                .inspect(move |m: &Msg| match *m {
                    Msg::Bounds {
                        index,
                        lower,
                        upper,
                        ..
                    } => b.merge(index, lower, upper),
                    Msg::Count { round, n, .. } => *c.borrow_mut().entry(round).or_default() += n,
                })
                .probe_with(&probe);
        });
        let n = self.bounds.lower.len();
        let own = share(n, self.worker.index(), self.worker.peers());
        let mut moves = Moves::new();
        let (mut round, mut evaluations) = (0u64, 0u64);
        loop {
            let (changed, evaluated) = self.pass(own.clone(), &mut input, &mut moves);
            evaluations += evaluated;
            for to in 0..self.worker.peers() as u32 {
                input.send(Msg::Count {
                    to,
                    round,
                    n: changed,
                });
            }
            round += 1;
            input.advance_to(round);
            while probe.less_than(input.time()) {
                self.worker.step();
            }
            if counts.borrow_mut().remove(&(round - 1)).unwrap_or(0) == 0 {
                return (round as u32, evaluations);
            }
        }
    }

    /// One pass over the worker's range: (bounds changed, positions evaluated).
    fn pass(
        &mut self,
        own: Range<usize>,
        input: &mut Updates,
        moves: &mut Moves<G::Move>,
    ) -> (u64, u64) {
        let (lower, upper) = (&self.bounds.lower, &self.bounds.upper);
        let outside = |g: &G| -> i32 {
            if g.is_terminal() {
                return g.terminal_value();
            }
            self.db.value(g).unwrap_or_else(|| {
                panic!(
                    "{}: a move leaves the class for one not solved yet: {g:?}",
                    G::class_name(&self.class)
                )
            })
        };
        let (mut changed, mut evaluated) = (0u64, 0u64);
        for (step, i) in own.enumerate() {
            if step % STEP_EVERY == STEP_EVERY - 1 {
                self.worker.step();
            }
            let (l0, u0) = (
                lower[i].load(Ordering::Relaxed),
                upper[i].load(Ordering::Relaxed),
            );
            if l0 == u0 {
                continue;
            }
            evaluated += 1;
            let g = G::from_index(&self.class, i as u64);
            let (l, u) = if g.is_terminal() {
                let v = (g.to_move().sign() * g.terminal_value()) as i16;
                (v, v)
            } else {
                bounds_from_children(&g, self.class, (lower, upper), &outside, moves)
            };
            let (l, u) = (l.max(l0), u.min(u0));
            if (l, u) == (l0, u0) {
                continue;
            }
            lower[i].store(l, Ordering::Relaxed);
            upper[i].store(u, Ordering::Relaxed);
            changed += 1;
            for p in (0..self.processes).filter(|&p| p != self.process) {
                let to = (p * self.threads + i % self.threads) as u32;
                input.send(Msg::Bounds {
                    to,
                    index: i as u64,
                    lower: l,
                    upper: u,
                });
                self.updates += 1;
            }
        }
        (changed, evaluated)
    }
}
