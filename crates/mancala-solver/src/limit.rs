//! A time limit for searches: a watcher thread that raises the solver's stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::Solver;

/// Runs `work` while a watcher stops `solver` once `budget` has passed (no limit when
/// `None`). The watcher ends with `work`; when the system refuses the watcher's thread,
/// nothing runs and the error says so.
pub fn with_time_limit<T>(
    solver: &Solver,
    budget: Option<Duration>,
    work: impl FnOnce() -> T,
) -> std::io::Result<T> {
    let Some(budget) = budget else {
        return Ok(work());
    };
    let t0 = Instant::now();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        std::thread::Builder::new().spawn_scoped(s, || {
            while !done.load(Ordering::Relaxed) {
                if t0.elapsed() >= budget {
                    solver.progress.stop.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })?;
        let out = work();
        done.store(true, Ordering::Relaxed);
        Ok(out)
    })
}
