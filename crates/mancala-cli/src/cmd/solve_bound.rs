//! `solve --at-least POINTS`: whether a position's value reaches POINTS, decided by one
//! null-window test instead of the exact value. "Does the player to move win?" is
//! `--at-least 0.5` (values may be half points); two tests, at v and just above v, check
//! an exact value v independently of the search that found it.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Result, bail};
use mancala_core::Game;
use serde::Serialize;

use crate::cmd::checkpointing::{Earlier, conclude};
use crate::cmd::solve::{Run, print_switched_off, showing_progress, signed};
use crate::dispatch::CliGame;

#[derive(Serialize)]
struct Output {
    game: String,
    position: String,
    to_move: String,
    /// The question: is the value at least this many points?
    at_least: f64,
    /// The answer, proven.
    holds: bool,
    /// The bound the test proved: the value is at least this when `holds`, at most this
    /// otherwise.
    bound: f64,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    threads: usize,
    tt_mb: usize,
    databases: Vec<String>,
    /// The techniques switched off (--without).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    without: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resumed: Option<Earlier>,
}

/// "Is the value at least `points`?", with the search value `beta` that asks it.
#[derive(Copy, Clone, Debug)]
pub struct Question {
    points: f64,
    beta: i32,
}

/// The values `root` can end with, ascending: the grid `value_range().1 - k *
/// value_step()` inside its value range ([`Game::value_step`]).
pub fn value_grid<G: Game>(root: &G) -> impl DoubleEndedIterator<Item = i32> {
    let (lower, upper) = root.value_range();
    let step = root.value_step();
    let n = (upper - lower).max(0) / step;
    (0..=n).map(move |k| upper - (n - k) * step)
}

impl Question {
    /// The question of `points` for `root`: `beta` is the smallest value this position can
    /// end with that is worth `points` or more. A question every value answers the same
    /// way (all of them reach `points`, or none) is refused: no search decides it.
    pub fn of<G: Game>(root: &G, points: f64) -> Result<Self> {
        let least = value_grid(root).next().unwrap_or(root.value_range().0);
        let Some(beta) = value_grid(root).find(|&v| root.points(v) >= points) else {
            bail!(
                "--at-least {}: no value of this position reaches it (the most it can end with is {})",
                signed(points),
                signed(root.points(root.value_range().1))
            );
        };
        if beta == least {
            bail!(
                "--at-least {}: every value of this position reaches it (the least it can end with is {})",
                signed(points),
                signed(root.points(beta))
            );
        }
        Ok(Question { points, beta })
    }
}

/// Runs the test of `root`'s value that `question` asks and prints its answer.
pub fn decide<G: CliGame>(
    run: &Run<'_, G>,
    (root, before): (&G, &[G]),
    Question { points, beta }: Question,
    json: bool,
    databases: Vec<String>,
    without: Vec<String>,
) -> Result<ExitCode> {
    let solver = run.solver;
    let t0 = Instant::now();
    let n0 = solver.progress.nodes.load(Ordering::Relaxed);
    let first = format!("test value >= {}", signed(points));
    let bound = showing_progress(solver, root, run.progress, run.checkpoint, &first, || {
        solver.decide_after(root, before, beta, run.oracle)
    });
    let bound = conclude(run.checkpoint, solver, bound)?;
    let nodes = solver.progress.nodes.load(Ordering::Relaxed) - n0;
    let seconds = t0.elapsed().as_secs_f64();
    let out = Output {
        game: G::NAME.to_string(),
        position: root.to_text(),
        to_move: G::seat_names()[root.to_move().index()].to_string(),
        at_least: points,
        holds: bound >= beta,
        bound: root.points(bound),
        nodes,
        seconds,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        threads: solver.config.threads,
        tt_mb: solver.config.tt_mb,
        databases,
        without,
        resumed: run.checkpoint.and_then(|c| c.earlier),
    };
    if json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_human(&out, root);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_human<G: CliGame>(o: &Output, root: &G) {
    out!("{}", root.layout().to_text());
    let (answer, side) = if o.holds {
        ("yes", "at least")
    } else {
        ("no", "at most")
    };
    outln!(
        "value >= {}? {answer}: the value is {side} {}, for {} to move",
        signed(o.at_least),
        signed(o.bound),
        o.to_move
    );
    outln!(
        "nodes {} in {:.3} s ({:.2} M nodes/s), threads {}, table {} MB",
        o.nodes,
        o.seconds,
        o.nodes_per_second / 1e6,
        o.threads,
        o.tt_mb
    );
    print_switched_off(&o.without);
    if let Some(e) = o.resumed {
        outln!("{}", e.summary(o.nodes));
    }
}
