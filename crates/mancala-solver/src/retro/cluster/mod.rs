//! Retrograde analysis beyond one machine: the classes of a database solved by a cluster
//! of processes on timely-dataflow (TCP between processes, threads within one).
//!
//! Design. The engine of [`super::layer`] is forward value iteration: a position's bounds
//! are recomputed from its children's until nothing changes. This engine keeps exactly
//! that iteration, so it reaches the same two fixed points and writes the same bytes:
//! - every worker (thread of a process) owns a contiguous range of the class's index and
//!   is the only one to evaluate the positions in it;
//! - every process holds the finished classes (they are final, read by every move that
//!   leaves the class) and a replica of the class's bounds; a worker's evaluations write
//!   to its process's replica at once, and every bound that moved is sent, as a timely
//!   record routed to one worker of each other process, which merges it into its replica
//!   (a maximum for the lower bound, a minimum for the upper: both iterations are monotone,
//!   so the order in which updates arrive changes how many rounds it takes, never the fixed
//!   point);
//! - rounds are timely epochs: after its pass over its range a worker sends every worker
//!   the number of bounds it changed and waits until the epoch is complete everywhere (a
//!   probe); a round in which no worker changed anything is the fixed point, seen by every
//!   worker at the same round;
//! - each process then settles the whole class from its replica (the replicas are equal
//!   once every update is delivered) and keeps it; process 0 writes the file.
//!
//! Romein and Bal's Awari solver instead sends each change to the owners of the position's
//! predecessors (un-moves), so a process holds only its own range. That needs un-moves for
//! every game (this project has moves only: rules once, in one place) and partitions the
//! memory of the class being solved; here the class's bounds (4 bytes a position) and the
//! finished classes are replicated, and what is partitioned is the work. docs/scale.md
//! works out what that costs at scale.
//!
//! Faults: every process writes each finished class to its own directory
//! (`<file>.partial/process-<i>/`, checksummed as a single-machine build does); a restarted
//! cluster first agrees on the smallest number of classes every process has finished and
//! resumes there. Values are exact, so the file is byte-identical whatever was interrupted.

mod connect;
mod rounds;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex, RwLock};

use mancala_core::index::Indexed;
use timely::worker::Worker;

use super::db::{
    BuildObserver, Database, DbError, fits_in_memory, io, partial_dir, read_class_file,
    write_class_file,
};
use super::layer::{LayerStats, NEG, POS, counters, settle_one};
use rounds::{BOUNDS_BYTES, Bounds, Iteration, agree, share};

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
    /// Updates this process sent to other processes, and their bytes as records (bincode,
    /// before timely's framing of each batch).
    pub updates_sent: u64,
    pub bytes_sent: u64,
}

/// What the workers of one process share.
struct Shared<G: Indexed> {
    db: RwLock<Database<G>>,
    barrier: Barrier,
    bounds: Mutex<Option<Arc<Bounds>>>,
    /// Settled slices of the class (start, values), one per local worker.
    parts: Mutex<Vec<(usize, Vec<i8>)>>,
    /// Finished classes found on disk by this process.
    found: Mutex<Vec<Vec<i8>>>,
    stats: Mutex<ClusterReport>,
    error: Mutex<Option<DbError>>,
    updates: AtomicU64,
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
    fits_in_memory::<G>(path, classes)?;
    let dir = process_dir(path, cluster.process);
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let mut db = Database::<G>::empty(game, variant);
    db.header.scope = scope.into();
    let shared = Arc::new(Shared {
        db: RwLock::new(db),
        barrier: Barrier::new(cluster.threads),
        bounds: Mutex::new(None),
        parts: Mutex::new(Vec::new()),
        found: Mutex::new(Vec::new()),
        stats: Mutex::new(ClusterReport::default()),
        error: Mutex::new(None),
        updates: AtomicU64::new(0),
    });
    let job = Job {
        shared: Arc::clone(&shared),
        classes: classes.to_vec(),
        path: path.to_path_buf(),
        dir,
        process: cluster.process,
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
    report.positions = shared.db.read().unwrap().positions();
    report.solved = report.stats.iter().map(|s| s.positions).sum();
    report.updates_sent = shared.updates.load(Ordering::Relaxed);
    report.bytes_sent = report.updates_sent * BOUNDS_BYTES;
    Ok(report)
}

/// What every worker of a process runs.
struct Job<G: Indexed> {
    shared: Arc<Shared<G>>,
    classes: Vec<G::Class>,
    path: PathBuf,
    dir: PathBuf,
    process: usize,
    threads: usize,
    obs: Arc<dyn BuildObserver + Send>,
}

impl<G: Indexed + Send + Sync + 'static> Job<G> {
    fn run(&self, worker: &mut Worker) {
        let local = worker.index() % self.threads;
        let resume = self.agree_on_resume(worker, local);
        for k in resume..self.classes.len() {
            self.solve(worker, local, k);
        }
        if self.process == 0 && local == 0 {
            let db = self.shared.db.read().unwrap();
            self.keep(db.write(&self.path));
        }
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

    /// Reads this process's finished classes and agrees with the cluster on how many
    /// classes every process has; those are taken, the rest solved again.
    fn agree_on_resume(&self, worker: &mut Worker, local: usize) -> usize {
        if local == 0 {
            let mut found = Vec::new();
            for (k, c) in self.classes.iter().enumerate() {
                let file = self.dir.join(format!("class-{k:03}.bin"));
                match read_class_file(&file, &G::class_name(c), G::class_size(c)) {
                    Ok(Some(values)) => found.push(values),
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
            let mut db = self.shared.db.write().unwrap();
            for (k, values) in found.into_iter().take(resume).enumerate() {
                let c = self.classes[k];
                db.add_class(c, values);
                self.obs.done(k, &G::class_name(&c), None);
            }
            self.shared.stats.lock().unwrap().resumed = resume;
        }
        self.shared.barrier.wait();
        resume
    }

    /// Solves class `k` with the cluster; every process ends holding it.
    fn solve(&self, worker: &mut Worker, local: usize, k: usize) {
        let c = self.classes[k];
        let n = G::class_size(&c) as usize;
        let name = G::class_name(&c);
        let t0 = std::time::Instant::now();
        if local == 0 {
            self.obs.start(k, self.classes.len(), &name, n as u64);
            *self.shared.bounds.lock().unwrap() = Some(Arc::new(Bounds {
                lower: counters::<G>(&c, NEG),
                upper: counters::<G>(&c, POS),
            }));
        }
        self.shared.barrier.wait();
        let bounds = Arc::clone(self.shared.bounds.lock().unwrap().as_ref().unwrap());
        let (sweeps, evaluations) = {
            let db = self.shared.db.read().unwrap();
            let processes = worker.peers() / self.threads;
            let mut iteration = Iteration {
                worker,
                class: c,
                bounds: &bounds,
                db: &db,
                processes,
                threads: self.threads,
                process: self.process,
                updates: 0,
            };
            let r = iteration.run();
            self.shared
                .updates
                .fetch_add(iteration.updates, Ordering::Relaxed);
            r
        };
        // The replicas agree now: each local worker settles a slice of the whole class.
        let slice = share(n, local, self.threads);
        let part = slice
            .clone()
            .map(|i| settle_one::<G>(c, i, &bounds.lower, &bounds.upper))
            .collect();
        self.shared.parts.lock().unwrap().push((slice.start, part));
        self.shared.barrier.wait();
        if local == 0 {
            let mut parts = std::mem::take(&mut *self.shared.parts.lock().unwrap());
            parts.sort_by_key(|p| p.0);
            let values: Vec<i8> = parts.into_iter().flat_map(|p| p.1).collect();
            let file = self.dir.join(format!("class-{k:03}.bin"));
            self.keep(write_class_file(&file, &name, &values));
            let stats = LayerStats {
                positions: n as u64,
                sweeps,
                evaluations,
                seconds: t0.elapsed().as_secs_f64(),
            };
            self.obs.done(k, &name, Some(&stats));
            self.shared.stats.lock().unwrap().stats.push(stats);
            self.shared.db.write().unwrap().add_class(c, values);
            *self.shared.bounds.lock().unwrap() = None;
        }
        self.shared.barrier.wait();
    }
}
