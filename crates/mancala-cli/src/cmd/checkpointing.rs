//! `solve --checkpoint FILE`: a long solve saves what it has proven and its table to FILE
//! every few minutes, when it ends and when it is interrupted (Ctrl-C or SIGTERM, see
//! [`crate::interrupt`]); run again with the same FILE, it resumes there.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use mancala_solver::Solver;
use mancala_solver::checkpoint::{self, CheckpointError};
use serde::Serialize;

use crate::interrupt;

/// The checkpoint options of `solve`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CheckpointArgs {
    /// Save the solve's progress (proven values, the bounds and null-window test of each
    /// value under way, and the transposition table, about the table's size) to FILE every --checkpoint-minutes, at the end, and on Ctrl-C or
    /// SIGTERM (which then stop the solve, exit status 130; a second one ends it at once);
    /// if FILE holds a checkpoint of the same solve, resume from it. A FILE of another
    /// solve is refused unless --force.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Minutes between checkpoints.
    #[arg(long, default_value_t = 10.0, requires = "checkpoint",
          value_parser = crate::args::minutes)]
    pub checkpoint_minutes: f64,
    /// Replace a --checkpoint FILE that belongs to another solve (or is damaged).
    #[arg(long, requires = "checkpoint")]
    pub force: bool,
}

/// What the runs before this one did, as the checkpoint says.
#[derive(Serialize, Clone, Copy, Debug, Default)]
pub struct Earlier {
    pub nodes: u64,
    pub seconds: f64,
}

impl Earlier {
    /// What a progress line adds for a resumed run, `nodes` being this run's so far: the
    /// nodes of every run of the checkpoint, which a search resumed many times would
    /// otherwise leave the user to add up.
    pub fn in_all(earlier: Option<Earlier>, nodes: u64) -> String {
        earlier.map_or(String::new(), |e| {
            format!("; {:.2} G in all runs", (e.nodes + nodes) as f64 / 1e9)
        })
    }

    /// The line a resumed run prints after its result, `nodes` being this run's.
    pub fn summary(&self, nodes: u64) -> String {
        format!(
            "resumed from a checkpoint: the earlier runs searched {} nodes in {:.3} s ({} nodes in all)",
            self.nodes,
            self.seconds,
            self.nodes + nodes
        )
    }
}

/// A solve's checkpoint file.
pub struct Checkpointing {
    path: PathBuf,
    label: String,
    every: Duration,
    pub earlier: Option<Earlier>,
    started: Instant,
}

impl Checkpointing {
    /// Opens `args.checkpoint` for the solve named `label`: resumes `solver` from it when
    /// it holds this solve. `points` shows a root value as the checkpoint keeps it
    /// (relative to the root's banked margin) in the root's points. `None` without
    /// --checkpoint.
    pub fn open(
        args: &CheckpointArgs,
        solver: &Solver,
        label: String,
        points: &dyn Fn(i32) -> String,
    ) -> Result<Option<Self>> {
        let Some(path) = args.checkpoint.clone() else {
            return Ok(None);
        };
        // Before the (possibly long) load, so that a signal during it is not a kill.
        interrupt::catch();
        let mut earlier = None;
        if path.exists() {
            match checkpoint::load(solver, &path, &label) {
                Ok(saved) => {
                    let known = saved.proven.moves.iter().filter(|m| m.is_some()).count();
                    let under_way = saved.proven.move_brackets.iter().flatten().count();
                    let root_value = match (saved.proven.value, saved.proven.value_bracket) {
                        (Some(_), _) => "proven".to_string(),
                        (None, None) => "not yet proven".to_string(),
                        (None, Some(b)) => format!(
                            "not yet proven (in [{}, {}], the test of >= {} under way)",
                            points(b.lower),
                            points(b.upper),
                            points(b.beta)
                        ),
                    };
                    let moves_under_way = match under_way {
                        0 => String::new(),
                        k => format!(" ({k} more under way)"),
                    };
                    errln!(
                        "resuming from {}: root value {root_value}, {known} of {} move values proven{moves_under_way}; earlier runs {} nodes, {:.1} s",
                        path.display(),
                        saved.proven.moves.len(),
                        saved.nodes,
                        saved.seconds
                    );
                    earlier = Some(Earlier {
                        nodes: saved.nodes,
                        seconds: saved.seconds,
                    });
                }
                Err(e @ CheckpointError::Io { .. }) => return Err(e.into()),
                Err(e) if !args.force => {
                    bail!("{e} (--force replaces it)")
                }
                Err(e) => errln!("{e}: replaced (--force)"),
            }
        }
        check_writable(&path)?;
        errln!(
            "checkpoint: saving {} every {} min, at the end, and on Ctrl-C",
            path.display(),
            args.checkpoint_minutes
        );
        Ok(Some(Checkpointing {
            path,
            label,
            every: Duration::from_secs_f64(args.checkpoint_minutes * 60.0),
            earlier,
            started: Instant::now(),
        }))
    }

    /// Saves the solver's state now.
    pub fn save(&self, solver: &Solver) -> Result<()> {
        let e = self.earlier.unwrap_or_default();
        let nodes = e.nodes + solver.progress.nodes.load(Ordering::Relaxed);
        let seconds = e.seconds + self.started.elapsed().as_secs_f64();
        checkpoint::save(solver, &self.path, &self.label, nodes, seconds)?;
        Ok(())
    }

    /// Saves every `self.every` until `done`; a failed save is reported and retried at
    /// the next interval (the search goes on). A signal stops the search (the solve then
    /// saves once more, see [`conclude`]).
    pub fn save_periodically(&self, solver: &Solver, done: &AtomicBool) {
        let mut last = Instant::now();
        let mut told = false;
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            if interrupt::requested() && !told {
                errln!(
                    "\ninterrupted: stopping the search and saving {} (a second Ctrl-C ends at once, keeping the last checkpoint)",
                    self.path.display()
                );
                solver.progress.stop.store(true, Ordering::Relaxed);
                told = true;
            }
            if last.elapsed() >= self.every {
                if let Err(e) = self.save(solver) {
                    errln!("warning: checkpoint not saved: {e:#}");
                }
                last = Instant::now();
            }
        }
    }
}

/// A solve stopped by a signal, after its checkpoint was saved.
#[derive(Debug, thiserror::Error)]
#[error(
    "interrupted: the progress so far is saved in {}; the same command resumes from it",
    path.display()
)]
pub struct Interrupted {
    pub path: PathBuf,
}

/// The end of a solve's search (`found` is `None` when it was stopped): the final save,
/// then the search's result, or why there is none ([`Interrupted`] after a signal).
pub fn conclude<T>(
    checkpoint: Option<&Checkpointing>,
    solver: &Solver,
    found: Option<T>,
) -> Result<T> {
    if let Some(ck) = checkpoint
        && let Err(e) = ck.save(solver)
    {
        // A result needs no resuming: it is given, with a word about the checkpoint. A
        // stopped search fails, since its work since the last checkpoint would be lost.
        if found.is_none() {
            return Err(e);
        }
        errln!("warning: the final checkpoint was not saved: {e:#}");
    }
    match (found, checkpoint) {
        (Some(t), _) => Ok(t),
        (None, Some(ck)) if interrupt::requested() => Err(Interrupted {
            path: ck.path.clone(),
        }
        .into()),
        (None, _) => bail!("the search was stopped"),
    }
}

/// Refuses a checkpoint path whose folder does not exist, before hours of search.
pub fn check_writable(path: &Path) -> Result<()> {
    // A checkpoint already there is resumed (or refused before this): only its kind is
    // checked here.
    crate::files::may_write(path, true).map_err(|e| anyhow::anyhow!("--checkpoint {e}"))?;
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(f) = folder
        && !f.is_dir()
    {
        bail!("--checkpoint {}: no folder {}", path.display(), f.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_runs_progress_counts_every_run() {
        let earlier = Earlier {
            nodes: 53_328_633_856,
            seconds: 26_502.1,
        };
        assert_eq!(
            Earlier::in_all(Some(earlier), 1_098_100_000),
            "; 54.43 G in all runs"
        );
        assert_eq!(Earlier::in_all(None, 1_098_100_000), "");
    }
}
