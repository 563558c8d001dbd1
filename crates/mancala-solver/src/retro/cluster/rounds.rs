//! The rounds of one class at one worker, and the one-epoch agreement on a number.
//!
//! A round walks the worker's unsettled positions in chunks of [`CHUNK`]; a chunk is one
//! timely epoch. The worker plays every move of the chunk's positions; a child held by
//! this process (its range of the class being solved, or of a finished class) is read
//! from memory, any other is asked of the worker that owns it, once a chunk (a
//! [`Msg::Request`]). The owner answers with what it holds now (a [`Msg::Reply`]: the
//! child's current bounds, or its final value); once the epoch is complete everywhere
//! (a probe) every answer is in, and the worker evaluates the chunk with
//! [`super::super::layer`]'s functions, exactly as a sweep of the single-machine engine
//! would. A round ends with an epoch in which every worker tells every worker how many
//! bounds it changed and how many of its positions remain unsettled: the next round has
//! as many chunks as the worker with most of them needs; a round that changed nothing
//! (or left nothing unsettled) is the fixed point, seen by every worker at once.
//!
//! Both iterations are monotone, so reading a bound before or after its owner moves it
//! in the same round changes how many rounds it takes, never the fixed point.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::rc::Rc;
use std::sync::{Arc, Weak};

use mancala_core::Moves;
use mancala_core::index::Indexed;
use serde::{Deserialize, Serialize};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::vec::Map;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use super::super::layer::{best_of, entry_bounds, exact_bounds, tighten};
use super::held::{Held, owner, share};

/// One timely record: a request for the entry of a position held by another process, its
/// answer, or a worker's figures at the end of a round (also used to agree on a number).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
enum Msg {
    Request {
        to: u32,
        from: u32,
        class: u32,
        index: u64,
    },
    Reply {
        to: u32,
        class: u32,
        index: u64,
        lower: i16,
        upper: i16,
    },
    Count {
        to: u32,
        round: u64,
        changed: u64,
        unsettled: u64,
    },
}

impl Msg {
    fn to(&self) -> u64 {
        match *self {
            Msg::Request { to, .. } | Msg::Reply { to, .. } | Msg::Count { to, .. } => to as u64,
        }
    }
}

/// Bytes of a [`Msg::Request`] and of a [`Msg::Reply`] in timely's bincode encoding: the
/// variant (4), then 4 + 4 + 4 + 8 (request) or 4 + 4 + 8 + 2 + 2 (reply).
pub(super) const REQUEST_BYTES: u64 = 24;
pub(super) const REPLY_BYTES: u64 = 24;

/// Positions a worker evaluates in one epoch: bounds the memory of a chunk (its children
/// and the answers, some 40 bytes a child) and the wait for answers (a round trip a chunk).
const CHUNK: usize = 1 << 15;

/// Where a worker feeds its records in.
type Records = InputHandle<u64, CapacityContainerBuilder<Vec<Msg>>>;

/// Every worker's `mine` in, the smallest out (at every worker): a cluster-wide barrier.
pub(super) fn agree(worker: &mut Worker, mine: u64) -> u64 {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut input = Records::new();
    let probe = ProbeHandle::new();
    let s = Rc::clone(&seen);
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .exchange(Msg::to)
            .inspect(move |m: &Msg| {
                if let Msg::Count { changed, .. } = *m {
                    s.borrow_mut().push(changed);
                }
            })
            .probe_with(&probe);
    });
    for to in 0..worker.peers() as u32 {
        input.send(Msg::Count {
            to,
            round: 0,
            changed: mine,
            unsettled: 0,
        });
    }
    input.advance_to(1);
    while probe.less_than(input.time()) {
        worker.step();
    }
    seen.borrow().iter().copied().min().unwrap_or(mine)
}

/// The classes of a build by number, for the requests that name them.
pub(super) struct Classes<G: Indexed> {
    pub list: Vec<G::Class>,
    pub number: HashMap<G::Class, u32>,
}

impl<G: Indexed> Classes<G> {
    pub fn new(list: &[G::Class]) -> Self {
        let number = list
            .iter()
            .enumerate()
            .map(|(k, &c)| (c, k as u32))
            .collect();
        Classes {
            list: list.to_vec(),
            number,
        }
    }
}

/// What a worker sent other processes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Traffic {
    pub requests: u64,
    pub replies: u64,
}

/// A child of a position of the chunk, as the evaluation will read it.
#[derive(Clone, Copy)]
enum Child {
    /// Known exactly now (a terminal position, or a finished class's value held here),
    /// first player's view.
    Known(i16),
    /// A position of the class being solved: its entry, held here or answered, read at
    /// the evaluation.
    Current { index: u64, mirrored: bool },
    /// A position of a finished class held by another process: the answer is its value
    /// relative to `banked` for the player to move, of sign `sign`.
    Finished {
        class: u32,
        index: u64,
        sign: i32,
        banked: i32,
    },
}

/// The positions of one chunk, their children, and what was asked for them.
#[derive(Default)]
struct Chunk {
    /// Index, whether the first player moves, where its children end in `children`.
    positions: Vec<(u64, bool, usize)>,
    children: Vec<Child>,
    asked: HashSet<(u32, u64)>,
}

impl Chunk {
    fn clear(&mut self) {
        self.positions.clear();
        self.children.clear();
        self.asked.clear();
    }
}

/// The fixed-point rounds of one class at one worker.
pub(super) struct Iteration<'a, G: Indexed> {
    pub worker: &'a mut Worker,
    pub classes: &'a Classes<G>,
    pub held: Arc<Held>,
    pub traffic: Traffic,
}

impl<G: Indexed> Iteration<'_, G> {
    /// Rounds until none changes a bound; the rounds and evaluations made.
    pub fn run(&mut self) -> (u32, u64) {
        let k = self.held.current;
        let class = self.classes.list[k as usize];
        let n = G::class_size(&class) as usize;
        let peers = self.worker.peers();
        let counts = Rc::new(RefCell::new(HashMap::<u64, (u64, u64)>::new()));
        let replies = Rc::new(RefCell::new(HashMap::<(u32, u64), (i16, i16)>::new()));
        let answered = Rc::new(Cell::new(0u64));
        let mut input = Records::new();
        let probe = ProbeHandle::new();
        {
            // Weak: timely drops a finished dataflow only when the worker next steps,
            // which must not keep this class's bounds alive beside the next class's.
            let (held, answered) = (Arc::downgrade(&self.held), Rc::clone(&answered));
            let (counts, replies) = (Rc::clone(&counts), Rc::clone(&replies));
            self.worker.dataflow::<u64, _, _>(|scope| {
                scope
                    .input_from(&mut input)
                    .exchange(Msg::to)
                    .map(move |m| answer(&held, &answered, m))
                    .exchange(Msg::to)
                    .inspect(move |m: &Msg| match *m {
                        Msg::Reply {
                            class,
                            index,
                            lower,
                            upper,
                            ..
                        } => {
                            replies.borrow_mut().insert((class, index), (lower, upper));
                        }
                        Msg::Count {
                            round,
                            changed,
                            unsettled,
                            ..
                        } => {
                            let mut c = counts.borrow_mut();
                            let e = c.entry(round).or_default();
                            e.0 += changed;
                            e.1 = e.1.max(unsettled);
                        }
                        Msg::Request { .. } => {}
                    })
                    .probe_with(&probe);
            });
        }
        let own = share(n, self.worker.index(), peers);
        let mut chunks = n.div_ceil(peers).div_ceil(CHUNK).max(1);
        let (mut round, mut evaluations) = (0u64, 0u64);
        let mut chunk = Chunk::default();
        let mut moves = Moves::new();
        loop {
            let (mut cursor, mut changed, mut unsettled) = (own.start, 0u64, 0u64);
            for t in 0..chunks {
                // The last chunk takes whatever remains (never more than a chunk).
                let cap = if t + 1 == chunks { usize::MAX } else { CHUNK };
                chunk.clear();
                cursor = self.gather(
                    class,
                    cursor..own.end,
                    cap,
                    &mut chunk,
                    &mut input,
                    &mut moves,
                );
                self.complete_epoch(&mut input, &probe);
                let (c, u) = self.evaluate(&chunk, &replies.borrow());
                replies.borrow_mut().clear();
                evaluations += chunk.positions.len() as u64;
                changed += c;
                unsettled += u;
            }
            for to in 0..peers as u32 {
                input.send(Msg::Count {
                    to,
                    round,
                    changed,
                    unsettled,
                });
            }
            self.complete_epoch(&mut input, &probe);
            let (changed, unsettled) = counts.borrow_mut().remove(&round).unwrap_or((0, 0));
            round += 1;
            if changed == 0 || unsettled == 0 {
                self.traffic.replies += answered.get();
                return (round as u32, evaluations);
            }
            chunks = (unsettled as usize).div_ceil(CHUNK).max(1);
        }
    }

    /// Ends the current epoch and steps the worker until every worker's records of it,
    /// and the answers they caused, are delivered.
    fn complete_epoch(&mut self, input: &mut Records, probe: &ProbeHandle<u64>) {
        input.advance_to(*input.time() + 1);
        while probe.less_than(input.time()) {
            self.worker.step();
        }
    }

    /// Takes up to `cap` unsettled positions of `range` into `chunk`, with their children,
    /// asking other processes for the children they hold; returns where it stopped.
    fn gather(
        &mut self,
        class: G::Class,
        range: Range<usize>,
        cap: usize,
        chunk: &mut Chunk,
        input: &mut Records,
        moves: &mut Moves<G::Move>,
    ) -> usize {
        let mut cursor = range.start;
        while cursor < range.end && chunk.positions.len() < cap {
            let i = cursor as u64;
            cursor += 1;
            let (l, u) = self.held.bounds.get(i);
            if l == u {
                continue;
            }
            let g = G::from_index(&class, i);
            if g.is_terminal() {
                // Its value, as the one child whose bounds it takes.
                let (v, _) = exact_bounds(g.to_move().sign(), g.terminal_value());
                chunk.children.push(Child::Known(v));
                chunk.positions.push((i, true, chunk.children.len()));
                continue;
            }
            g.legal_moves(moves);
            for &m in moves.iter() {
                let child = self.child(class, &g.play(m), chunk, input);
                chunk.children.push(child);
            }
            let first = g.to_move().sign() > 0;
            chunk.positions.push((i, first, chunk.children.len()));
        }
        cursor
    }

    /// How the evaluation will read `c`, a child of a position of `class`; a request to
    /// its owner if another process holds it (once a chunk).
    fn child(&mut self, class: G::Class, c: &G, chunk: &mut Chunk, input: &mut Records) -> Child {
        let k = self.held.current;
        if c.class() == Some(class) {
            let index = c.index();
            if !self.held.bounds.holds(index) {
                self.ask(k, index, G::class_size(&class), chunk, input);
            }
            return Child::Current {
                index,
                mirrored: c.mirrored(),
            };
        }
        let sign = c.to_move().sign();
        if c.is_terminal() {
            return Child::Known(exact_bounds(sign, c.terminal_value()).0);
        }
        let finished = c
            .class()
            .and_then(|d| self.classes.number.get(&d).copied())
            .filter(|&d| d < k);
        let Some(d) = finished else {
            panic!(
                "{}: a move leaves the class for one not solved yet: {c:?}",
                G::class_name(&class)
            )
        };
        let (index, banked) = (c.index(), c.banked());
        match self.held.finished[d as usize].get(index) {
            Some(v) => Child::Known(exact_bounds(sign, banked + v as i32).0),
            None => {
                let n = G::class_size(&self.classes.list[d as usize]);
                self.ask(d, index, n, chunk, input);
                Child::Finished {
                    class: d,
                    index,
                    sign,
                    banked,
                }
            }
        }
    }

    /// Asks the owner of index `index` of class number `class` (of `n` positions) for its
    /// entry, unless this chunk already did.
    fn ask(&mut self, class: u32, index: u64, n: u64, chunk: &mut Chunk, input: &mut Records) {
        if chunk.asked.insert((class, index)) {
            input.send(Msg::Request {
                to: owner(index, n, self.worker.peers()),
                from: self.worker.index() as u32,
                class,
                index,
            });
            self.traffic.requests += 1;
        }
    }

    /// Evaluates the positions of `chunk` from their children (the answers in `replies`):
    /// (bounds changed, positions left unsettled).
    fn evaluate(&self, chunk: &Chunk, replies: &HashMap<(u32, u64), (i16, i16)>) -> (u64, u64) {
        let bounds = &self.held.bounds;
        let k = self.held.current;
        let entry = |class: u32, index: u64| -> (i16, i16) {
            match replies.get(&(class, index)) {
                Some(&e) => e,
                None => panic!("no answer for index {index} of class {class}"),
            }
        };
        let (mut changed, mut unsettled, mut from) = (0u64, 0u64, 0usize);
        for &(i, first, end) in &chunk.positions {
            let children = chunk.children[from..end].iter().map(|&c| match c {
                Child::Known(v) => (v, v),
                Child::Current { index, mirrored } if bounds.holds(index) => {
                    entry_bounds(mirrored, bounds.get(index))
                }
                Child::Current { index, mirrored } => entry_bounds(mirrored, entry(k, index)),
                Child::Finished {
                    class,
                    index,
                    sign,
                    banked,
                } => exact_bounds(sign, banked + entry(class, index).0 as i32),
            });
            from = end;
            let old = bounds.get(i);
            let new = tighten(old, best_of(first, children));
            if new != old {
                bounds.set(i, new);
                changed += 1;
            }
            unsettled += (new.0 != new.1) as u64;
        }
        (changed, unsettled)
    }
}

/// What the owner sends back for a record routed to it: the answer to a request (counted
/// in `answered`); any other record passes on.
fn answer(held: &Weak<Held>, answered: &Cell<u64>, m: Msg) -> Msg {
    let Msg::Request {
        from, class, index, ..
    } = m
    else {
        return m;
    };
    let held = held
        .upgrade()
        .expect("requests come only while their class is solved");
    let Some((lower, upper)) = held.entry(class, index) else {
        panic!("asked for index {index} of class {class}, not held here")
    };
    answered.set(answered.get() + 1);
    Msg::Reply {
        to: from,
        class,
        index,
        lower,
        upper,
    }
}
