//! Retrograde analysis beyond one machine: the classes of a database solved by a cluster
//! of processes on timely-dataflow (TCP between processes, threads within one), memory
//! partitioned as well as work.
//!
//! Design. The engine of [`super::layer`] is forward value iteration: a position's bounds
//! are recomputed from its children's until nothing changes. This engine keeps exactly
//! that iteration, so it reaches the same two fixed points and writes the same bytes:
//! - every class, finished or being solved, is cut into contiguous index ranges, one per
//!   worker (`held.rs`); a process holds only its workers' ranges: its slice of every
//!   finished class (1 byte a position) and the bounds of its range of the class being
//!   solved (4 bytes a position), so its memory is 1/P of the single-machine build's;
//! - a worker evaluates only the positions it owns, in rounds (`rounds.rs`): it plays their
//!   moves, reads the children its process holds, asks the owners of the others for their
//!   current entry (a request and a reply a remote child, deduplicated per chunk), and
//!   evaluates with the functions of [`super::layer`]; rounds are timely epochs, and a
//!   round in which no worker changed anything is the fixed point. Both iterations are
//!   monotone, so when an answer was read changes the number of rounds, never the result;
//! - each worker settles its own range; its process keeps the slice and writes it to its
//!   directory; at the end process 0 writes the file from every process's slices, sent
//!   class by class (`assemble.rs`), through the single-machine build's header and
//!   checksums.
//!
//! Romein and Bal's Awari solver instead pushes each change to the owners of the
//! position's predecessors (un-moves). This project states each game's rules once, as
//! moves, so the children are fetched instead: the same partition of memory, a record per
//! remote child per round rather than per change. docs/scale.md measures what it costs.
//!
//! Faults: every process writes its slice of each finished class to its own directory
//! (`<file>.partial/process-<i>/`, checksummed as a single-machine build does); a restarted
//! cluster first agrees on the smallest number of classes every process has finished and
//! resumes there. Values are exact, so the file is byte-identical whatever was interrupted.

mod assemble;
mod connect;
mod held;
mod rounds;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier, Mutex};

use mancala_core::index::Indexed;
use timely::worker::Worker;

use super::db::{
    BuildObserver, ClassInfo, DbError, Header, fits_in_memory, io, partial_dir, read_class_file,
    write_class_file,
};
use super::layer::{LayerStats, settle_one};
use assemble::Writer;
use held::{Bounds, Held, Slice, share};
use rounds::{Classes, Iteration, REPLY_BYTES, REQUEST_BYTES, Traffic, agree};

/// Where this process stands in a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in every process.
    pub threads: usize,
    /// This process's number, `0..addresses.len()`.
    pub process: usize,
    /// `host:port` of every process, process 0 first (unused with one process).
    pub addresses: Vec<String>,
}

impl Cluster {
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }
}

/// What can go wrong with a cluster build.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("cluster: {0}")]
    Timely(String),
    #[error("cluster network: {0}")]
    Network(String),
    #[error(
        "cluster: a worker stopped ({0}): a process of the cluster ended or lost its \
         connection; start every process again with the same command, the build resumes \
         from the classes all of them finished"
    )]
    Stopped(String),
}

/// What one process of a cluster build did.
#[derive(Clone, Debug, Default)]
pub struct ClusterReport {
    /// The classes solved now (not resumed), as this process saw them.
    pub stats: Vec<LayerStats>,
    /// Classes taken from the interrupted build every process agreed on.
    pub resumed: usize,
    /// Positions in the database, and those solved now (not resumed).
    pub positions: u64,
    pub solved: u64,
    /// Positions of the database this process holds (its slices of every class): about
    /// `positions / processes`.
    pub held: u64,
    /// Bounds this process held at most (its range of the largest class solved now).
    pub bounds_held: u64,
    /// Requests for a child's entry this process sent to others, and its replies to
    /// theirs.
    pub requests_sent: u64,
    pub replies_sent: u64,
    /// Bytes of values sent to process 0 for the file.
    pub file_bytes_sent: u64,
    /// Everything this process sent others, as records (bincode, before timely's framing
    /// of each batch).
    pub bytes_sent: u64,
}

/// What the workers of one process share.
struct Shared {
    barrier: Barrier,
    /// This process's slices of the finished classes, in build order.
    finished: Mutex<Vec<Arc<Slice>>>,
    /// What this process holds while a class is solved.
    held: Mutex<Option<Arc<Held>>>,
    /// Settled parts of this process's slice of the class (start, values), one per local
    /// worker.
    parts: Mutex<Vec<(usize, Vec<i8>)>>,
    /// Slices of finished classes found on disk by this process.
    found: Mutex<Vec<Slice>>,
    stats: Mutex<ClusterReport>,
    error: Mutex<Option<DbError>>,
}

/// This process's directory of finished classes.
fn process_dir(path: &Path, process: usize) -> PathBuf {
    partial_dir(path).join(format!("process-{process}"))
}

/// Builds `classes` into the file `path` (written by process 0) on the cluster `cluster`,
/// resuming an interrupted cluster build. Every process of the cluster calls this with the
/// same arguments but its own `cluster.process`; `obs` hears this process's progress.
pub fn build<G: Indexed + Send + Sync + 'static>(
    cluster: &Cluster,
    path: &Path,
    (game, variant, scope): (&str, &str, &str),
    classes: &[G::Class],
    obs: Arc<dyn BuildObserver + Send>,
) -> Result<ClusterReport, ClusterError> {
    fits_in_memory::<G>(path, classes, cluster.processes() as u64)?;
    let dir = process_dir(path, cluster.process);
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let shared = Arc::new(Shared {
        barrier: Barrier::new(cluster.threads),
        finished: Mutex::new(Vec::new()),
        held: Mutex::new(None),
        parts: Mutex::new(Vec::new()),
        found: Mutex::new(Vec::new()),
        stats: Mutex::new(ClusterReport::default()),
        error: Mutex::new(None),
    });
    let mut offset = 0;
    let header = Header {
        format: 1,
        game: game.into(),
        variant: variant.into(),
        scope: scope.into(),
        classes: classes
            .iter()
            .map(|c| {
                let info = ClassInfo::new(G::class_name(c), G::class_size(c), offset, 0);
                offset += info.positions;
                info
            })
            .collect(),
    };
    let job = Job {
        shared: Arc::clone(&shared),
        classes: Classes::<G>::new(classes),
        header,
        path: path.to_path_buf(),
        dir,
        process: cluster.process,
        processes: cluster.processes(),
        threads: cluster.threads,
        obs,
    };
    let (allocators, guard) = if cluster.processes() > 1 {
        connect::quiet_network_panics();
        connect::allocators(cluster)?
    } else {
        timely::CommunicationConfig::Process(cluster.threads)
            .try_build()
            .map_err(ClusterError::Timely)?
    };
    let config = timely::WorkerConfig::default();
    let guard = Box::new(connect::Network(Some(guard)));
    let guards =
        timely::execute::execute_from(allocators, guard, config, move |worker| job.run(worker))
            .map_err(ClusterError::Timely)?;
    for r in guards.join() {
        r.map_err(|_| {
            ClusterError::Stopped(
                connect::network_failure().unwrap_or_else(|| "a worker thread panicked".into()),
            )
        })?;
    }
    if let Some(e) = shared.error.lock().unwrap().take() {
        return Err(e.into());
    }
    let mut report = shared.stats.lock().unwrap().clone();
    report.positions = classes.iter().map(G::class_size).sum();
    report.solved = report.stats.iter().map(|s| s.positions).sum();
    report.bytes_sent = report.requests_sent * REQUEST_BYTES
        + report.replies_sent * REPLY_BYTES
        + report.file_bytes_sent;
    Ok(report)
}

/// What every worker of a process runs.
struct Job<G: Indexed> {
    shared: Arc<Shared>,
    classes: Classes<G>,
    /// The file's header, checksums to come.
    header: Header,
    path: PathBuf,
    dir: PathBuf,
    process: usize,
    processes: usize,
    threads: usize,
    obs: Arc<dyn BuildObserver + Send>,
}

impl<G: Indexed + Send + Sync + 'static> Job<G> {
    fn run(&self, worker: &mut Worker) {
        let local = worker.index() % self.threads;
        let resume = self.agree_on_resume(worker, local);
        for k in resume..self.classes.list.len() {
            self.solve(worker, local, k);
        }
        self.write_file(worker, local);
        // Nobody removes its finished classes before the file is written, nor at all if
        // any process failed (a rerun resumes from them).
        self.shared.barrier.wait();
        let ok = self.shared.error.lock().unwrap().is_none();
        if agree(worker, ok as u64) == 1 && local == 0 {
            self.keep(std::fs::remove_dir_all(&self.dir).map_err(io(&self.dir)));
            // The last process out removes the shared parent (an error: others remain).
            let _ = std::fs::remove_dir(partial_dir(&self.path));
        }
    }

    /// Records the first error of this process (the cluster runs on to a clean end).
    fn keep(&self, r: Result<(), DbError>) {
        if let Err(e) = r {
            self.shared.error.lock().unwrap().get_or_insert(e);
        }
    }

    /// This process's slice of class number `k`: its range and the name its file carries
    /// (a slice of another cut of the class is not taken for it).
    fn slice_of(&self, k: usize) -> (std::ops::Range<usize>, String) {
        let c = &self.classes.list[k];
        let range = share(G::class_size(c) as usize, self.process, self.processes);
        let name = format!(
            "{}, positions {}..{}",
            G::class_name(c),
            range.start,
            range.end
        );
        (range, name)
    }

    fn class_file(&self, k: usize) -> PathBuf {
        self.dir.join(format!("class-{k:03}.bin"))
    }

    /// Reads this process's finished slices and agrees with the cluster on how many
    /// classes every process has; those are taken, the rest solved again.
    fn agree_on_resume(&self, worker: &mut Worker, local: usize) -> usize {
        if local == 0 {
            let mut found = Vec::new();
            for k in 0..self.classes.list.len() {
                let (range, name) = self.slice_of(k);
                match read_class_file(&self.class_file(k), &name, range.len() as u64) {
                    Ok(Some(values)) => found.push(Slice {
                        start: range.start,
                        values,
                    }),
                    Ok(None) => break,
                    Err(e) => {
                        self.keep(Err(e));
                        break;
                    }
                }
            }
            *self.shared.found.lock().unwrap() = found;
        }
        self.shared.barrier.wait();
        let mine = self.shared.found.lock().unwrap().len() as u64;
        let resume = agree(worker, mine) as usize;
        if local == 0 {
            let found = std::mem::take(&mut *self.shared.found.lock().unwrap());
            let mut finished = self.shared.finished.lock().unwrap();
            for (k, slice) in found.into_iter().take(resume).enumerate() {
                finished.push(Arc::new(slice));
                self.obs
                    .done(k, &G::class_name(&self.classes.list[k]), None);
            }
            self.shared.stats.lock().unwrap().resumed = resume;
        }
        self.shared.barrier.wait();
        resume
    }

    /// Solves class `k` with the cluster; every process ends holding its slice of it.
    fn solve(&self, worker: &mut Worker, local: usize, k: usize) {
        let c = self.classes.list[k];
        let n = G::class_size(&c);
        let name = G::class_name(&c);
        let t0 = std::time::Instant::now();
        let (range, slice_name) = self.slice_of(k);
        if local == 0 {
            self.obs.start(k, self.classes.list.len(), &name, n);
            *self.shared.held.lock().unwrap() = Some(Arc::new(Held {
                finished: self.shared.finished.lock().unwrap().clone(),
                current: k as u32,
                bounds: Bounds::new(range.clone()),
            }));
        }
        self.shared.barrier.wait();
        let held = Arc::clone(self.shared.held.lock().unwrap().as_ref().unwrap());
        let mut iteration = Iteration {
            worker,
            classes: &self.classes,
            held: Arc::clone(&held),
            traffic: Traffic::default(),
        };
        let (sweeps, evaluations) = iteration.run();
        let traffic = iteration.traffic;
        // Each worker settles its own range.
        let own = share(n as usize, worker.index(), worker.peers());
        let part = own
            .clone()
            .map(|i| settle_one::<G>(c, i as u64, held.bounds.get(i as u64)))
            .collect();
        drop(held);
        self.shared.parts.lock().unwrap().push((own.start, part));
        {
            let mut stats = self.shared.stats.lock().unwrap();
            stats.requests_sent += traffic.requests;
            stats.replies_sent += traffic.replies;
        }
        self.shared.barrier.wait();
        if local == 0 {
            *self.shared.held.lock().unwrap() = None;
            let mut parts = std::mem::take(&mut *self.shared.parts.lock().unwrap());
            parts.sort_by_key(|p| p.0);
            let values = join(parts, range.len());
            self.keep(write_class_file(&self.class_file(k), &slice_name, &values));
            let stats = LayerStats {
                positions: n,
                sweeps,
                evaluations,
                seconds: t0.elapsed().as_secs_f64(),
            };
            self.obs.done(k, &name, Some(&stats));
            let mut report = self.shared.stats.lock().unwrap();
            report.stats.push(stats);
            report.bounds_held = report.bounds_held.max(range.len() as u64);
            self.shared.finished.lock().unwrap().push(Arc::new(Slice {
                start: range.start,
                values,
            }));
        }
        self.shared.barrier.wait();
    }

    /// Process 0 writes the file from every process's slices.
    fn write_file(&self, worker: &mut Worker, local: usize) {
        let finished = self.shared.finished.lock().unwrap().clone();
        let mut writer = None;
        if worker.index() == 0 {
            match Writer::create(&self.path, self.header.clone()) {
                Ok(w) => writer = Some(w),
                Err(e) => self.keep(Err(e)),
            }
        }
        let slices = (local == 0).then_some(&finished[..]);
        let (sent, writer, error) =
            assemble::gather(worker, self.classes.list.len(), slices, writer);
        if let Some(e) = error {
            self.keep(Err(e));
        }
        let ok = self.shared.error.lock().unwrap().is_none();
        if let Some(w) = writer
            && ok
        {
            self.keep(w.finish(&self.path));
        }
        if local == 0 {
            let mut report = self.shared.stats.lock().unwrap();
            report.file_bytes_sent += sent;
            report.held = finished.iter().map(|s| s.values.len() as u64).sum();
        }
    }
}

/// The parts of a slice, in order, as one: the only part itself, or the parts copied one
/// by one, each freed once copied (the memory of the slice and of one part more, not of
/// two slices).
fn join(mut parts: Vec<(usize, Vec<i8>)>, len: usize) -> Vec<i8> {
    if parts.len() == 1 {
        return parts.pop().expect("one part").1;
    }
    let mut values = Vec::with_capacity(len);
    for (_, part) in parts {
        values.extend_from_slice(&part);
    }
    values
}
