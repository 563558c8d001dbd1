//! The parts of a split set ([`super::safe_set::Split`]) built on several threads at
//! once: each thread holds the top's members and one part at a time in a set of its own,
//! repairs gaps into a table of its own ([`super::CheckInputs::helpers`]) and reads the
//! search's table and the database with the others. The parts are independent (each
//! one's obligations are met in the top and its own set), so their order does not
//! matter; it is not the same from one run to the next, and with it the repairs' tables
//! and the escapes they suggest, so two runs may count differently, never check
//! differently.
//!
//! A thread takes the next part (at least one) until none is left, the pause has passed, a failure was
//! found or the stop flag was raised; a part cut short by the stop goes back to wait.
//! Between two such rounds no part is half built, so the check is saved as a check on
//! one thread is (the helpers' tables are not saved: a resumed check starts them empty).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mancala_core::Game;

use super::safe_set::{Built, DisproofCheck, Member, Members, Split};
use super::{CheckError, CheckInputs, Checked, Gap, Repair, Step, StretchedCheck};
use crate::proof::Goal;
use crate::proof::table::ProofTable;
use crate::retro::Oracle;

/// What a thread has done so far, read by the thread that reports.
#[derive(Default)]
struct Progress {
    /// Positions of its parts, those whole and the one being built.
    positions: AtomicUsize,
    /// The most it held at once, the top's members included.
    held: AtomicUsize,
    repairs: AtomicU64,
    repair_nodes: AtomicU64,
}

/// What a thread ends with: the positions of the parts it built whole, the most it held,
/// its repairs and their nodes, and whether the stop flag ended it.
struct Round {
    positions: usize,
    held: usize,
    repairs: u64,
    repair_nodes: u64,
    stopped: bool,
}

/// How often the reporting thread looks at the others.
const REPORT_EVERY: Duration = Duration::from_millis(200);

impl<'a, 't, 'r, G: Game> DisproofCheck<'a, 't, 'r, G> {
    /// Builds the parts left, on this thread's repairs and each helper's at once, until
    /// none is left ([`Built`] `Ok(None)`), `pause` has passed (`Step::Paused`, the parts
    /// not begun waiting), the stop flag was raised or a part failed.
    pub(super) fn build_parts_together(&mut self, pause: Option<Instant>) -> Built {
        let top = self.close_top();
        self.release_part(top);
        let mut repairs: Vec<Option<Repair<'t>>> =
            std::iter::once(self.check.cx.tables.repair.take())
                .chain(self.helpers.drain(..).map(Some))
                .collect();
        let queue = Mutex::new(std::mem::take(&mut self.split.parts));
        let failure = Mutex::new(None);
        let progress: Vec<Progress> = repairs.iter().map(|_| Progress::default()).collect();
        let before = self.check.cx.tally.checked;
        let released = self.split.released;
        let found = self.split.found;
        let cx = &self.check.cx;
        let common = Common {
            root: self.root,
            goal: cx.goal,
            table: cx.tables.search,
            oracle: cx.oracle,
            stop: cx.stop,
            unsafe_: &self.check.unsafe_,
            top: &self.safe.list[..top],
            horizon: self.split.horizon,
            queue: &queue,
            failure: &failure,
            pause,
        };
        let tally = &mut self.check.cx.tally;
        let rounds: Vec<Round> = std::thread::scope(|s| {
            let common = &common;
            // Each thread says when it ends, so that this one waits no longer than that.
            let (ended, ends) = std::sync::mpsc::channel();
            let threads: Vec<_> = repairs
                .iter_mut()
                .zip(&progress)
                .map(|(repair, progress)| {
                    let ended = ended.clone();
                    s.spawn(move || {
                        let round = common.work(repair.as_mut(), progress);
                        let _ = ended.send(());
                        round
                    })
                })
                .collect();
            // Only the threads hold a sender now: should one end without saying so, the
            // channel tells when all have.
            drop(ended);
            let mut running = threads.len();
            while running > 0 {
                match ends.recv_timeout(REPORT_EVERY) {
                    Ok(()) => {
                        running -= 1;
                        continue;
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    // Every sender gone: every thread has ended.
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                }
                let waiting = queue.lock().map_or(0, |q| q.len());
                tally.checked = sum(before, released + top, &progress);
                tally.checked.parts = found;
                tally.checked.parts_done = found.saturating_sub(waiting + threads.len());
                (tally.report)(&tally.checked);
            }
            threads
                .into_iter()
                .map(|t| t.join().expect("a thread building parts does not panic"))
                .collect()
        });
        let mut repairs = repairs.into_iter();
        self.check.cx.tables.repair = repairs.next().flatten();
        self.helpers = repairs.flatten().collect();
        self.split.parts = queue.into_inner().unwrap_or_default();
        self.split.released += rounds.iter().map(|r| r.positions).sum::<usize>();
        let checked = &mut self.check.cx.tally.checked;
        *checked = before;
        checked.positions = self.split.released + top;
        checked.held = before.held.max(rounds.iter().map(|r| r.held).sum());
        checked.repairs += rounds.iter().map(|r| r.repairs).sum::<u64>();
        checked.repair_nodes += rounds.iter().map(|r| r.repair_nodes).sum::<u64>();
        checked.parts = found;
        checked.parts_done = found - self.split.parts.len();
        if let Some(fail) = failure.into_inner().ok().flatten() {
            return Err(fail);
        }
        if rounds.iter().any(|r| r.stopped) {
            return Ok(Some(Step::Done(Err(CheckError::Stopped))));
        }
        if self.split.parts.is_empty() {
            return Ok(None);
        }
        Ok(Some(Step::Paused))
    }
}

/// The tally of a round under way: `before` it, with the positions of the parts whole
/// before it and the top (`base`) and what each thread has done.
fn sum(before: Checked, base: usize, progress: &[Progress]) -> Checked {
    let load = |f: &dyn Fn(&Progress) -> u64| progress.iter().map(f).sum::<u64>();
    Checked {
        positions: base + load(&|p| p.positions.load(Ordering::Relaxed) as u64) as usize,
        held: before
            .held
            .max(load(&|p| p.held.load(Ordering::Relaxed) as u64) as usize),
        repairs: before.repairs + load(&|p| p.repairs.load(Ordering::Relaxed)),
        repair_nodes: before.repair_nodes + load(&|p| p.repair_nodes.load(Ordering::Relaxed)),
        ..before
    }
}

/// What the threads of a round share.
struct Common<'c, 'a, G: Game> {
    root: G,
    goal: Goal,
    table: &'a ProofTable,
    oracle: Option<&'a dyn Oracle<G>>,
    stop: Option<&'static AtomicBool>,
    unsafe_: &'c HashMap<u128, Gap>,
    top: &'c [Member],
    horizon: Option<u32>,
    queue: &'c Mutex<Vec<u32>>,
    failure: &'c Mutex<Option<(Gap, Vec<u128>)>>,
    pause: Option<Instant>,
}

impl<G: Game> Common<'_, '_, G> {
    /// One thread's round: takes parts and builds each in its own set on top of the top's
    /// members, with repairs into `repair`'s table.
    fn work(&self, repair: Option<&mut Repair<'_>>, progress: &Progress) -> Round {
        let mut report = |c: &Checked| {
            progress.positions.store(
                c.positions.saturating_sub(self.top.len()),
                Ordering::Relaxed,
            );
            progress.held.store(c.held, Ordering::Relaxed);
            progress.repairs.store(c.repairs, Ordering::Relaxed);
            progress
                .repair_nodes
                .store(c.repair_nodes, Ordering::Relaxed);
        };
        let inputs = CheckInputs {
            goal: self.goal,
            table: self.table,
            oracle: self.oracle,
            repair: repair.map(|r| Repair {
                nodes: r.nodes,
                table: &mut *r.table,
            }),
            report: &mut report,
            stop: self.stop,
            split: self.horizon,
            helpers: Vec::new(),
        };
        let mut check = <DisproofCheck<G> as StretchedCheck<G>>::new(&self.root, inputs);
        check.safe = Members::from_list(self.top.to_vec());
        check.todo.clear();
        check.check.unsafe_ = self.unsafe_.clone();
        check.split = Split {
            horizon: self.horizon,
            top: Some(self.top.len() as u32),
            ..Split::default()
        };
        let mut whole = 0;
        let mut stopped = false;
        for taken in 0.. {
            // Each thread builds at least one part before it pauses, so that every
            // round goes forward.
            let late = taken > 0 && self.pause.is_some_and(|p| Instant::now() >= p);
            let failed = self.failure.lock().map_or(true, |f| f.is_some());
            if late || failed {
                break;
            }
            let Some(at) = self.queue.lock().ok().and_then(|mut q| q.pop()) else {
                break;
            };
            check.split.parts.push(at);
            check.split.found += 1;
            match check.build(None) {
                Ok(None) => whole = check.positions() - self.top.len(),
                Ok(Some(Step::Done(Err(CheckError::Stopped)))) => {
                    // The part waits again, to be built from its start.
                    if let Ok(mut q) = self.queue.lock() {
                        q.push(at);
                    }
                    stopped = true;
                    break;
                }
                Ok(Some(_)) => unreachable!("a part built without a pause ends or stops"),
                Err(fail) => {
                    if let Ok(mut f) = self.failure.lock() {
                        f.get_or_insert(fail);
                    }
                    break;
                }
            }
        }
        let checked = check.checked();
        Round {
            positions: whole,
            held: checked.held,
            repairs: checked.repairs,
            repair_nodes: checked.repair_nodes,
            stopped,
        }
    }
}
