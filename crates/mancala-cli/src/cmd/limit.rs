//! A time limit for searches (`mancala_solver::limit`), with the CLI's error type.

use std::time::Duration;

use mancala_solver::Solver;

/// [`mancala_solver::limit::with_time_limit`], its error worded for the user.
pub fn with_time_limit<T>(
    solver: &Solver,
    budget: Option<Duration>,
    work: impl FnOnce() -> T,
) -> anyhow::Result<T> {
    mancala_solver::limit::with_time_limit(solver, budget, work)
        .map_err(|e| anyhow::anyhow!("cannot start the time-limit thread: {e}"))
}
