//! `mancala solve`: the exact value of a position, of every move, and a principal
//! variation.

use mancala_core::with_game_type;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use mancala_core::{Game, Player};

use mancala_solver::{Config, Progress, PvEnd, Solver, Techniques};
use serde::Serialize;

use crate::cmd::checkpointing::{CheckpointArgs, Checkpointing, Earlier, conclude};
use crate::cmd::solve_bound::Question;
use crate::dispatch::CliGame;
use crate::position::{RecordArgs, RuleOptions, Source, build_line, classify};

/// Solve a position exactly: its value, the value of every legal move, and a principal
/// variation in the game's notation.
///
/// POSITION is a file from positions/ (a position line, or a record whose moves are played
/// first; see --ply), an inline position line, or a named start: afrika:8x8, afrika:4x3
/// (holes per row x stones), kalah:6x4, andada:6, progressive:11, kauri.
///
/// Values are from the point of view of the player to move: for score games the final
/// margin (his final total minus the opponent's, with what both captured already and the
/// komi); for Andada and Give-away Afrika 1 / 0 / -1 for win / draw / loss; Kauri under
/// the old tie-breaker counts a tie-break win as +0.5.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The position: a file, an inline position line, or a named start.
    position: String,
    /// Search threads (Lazy SMP over one shared table), 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_parser = crate::args::threads, default_value_t = default_threads())]
    threads: usize,
    /// Transposition table size in MB (default: a sixteenth of the free memory, a power
    /// of two from 64 MB to 1 GB; a size beyond the free memory is refused).
    #[arg(long, default_value_t = mancala_solver::tt::default_mb(), value_parser = crate::args::tt_mb)]
    tt_mb: usize,
    #[command(flatten)]
    record_args: RecordArgs,
    /// Only the value and the principal variation, not the value of every move.
    #[arg(long)]
    value_only: bool,
    /// Switch off a search technique to measure it (repeatable): tt, bounds, ordering,
    /// killers, history, gain, guess, etc, late-peek (with a table of 1 GB or more the
    /// children's table entries are read only after the first child; off: always first),
    /// deepening, memo. docs/solver.md measures each.
    #[arg(long = "without", value_name = "TECHNIQUE",
          value_parser = clap::builder::PossibleValuesParser::new(Techniques::NAMES))]
    without: Vec<String>,
    /// Enhanced transposition cut-offs (peeking at the children's table entries) only
    /// down to this many plies from the root (default: at every node; 0 = off).
    #[arg(long, value_parser = crate::args::depth)]
    etc: Option<u32>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Longest principal variation to print, in plies (default 400; not with --value-only
    /// or --at-least, which print none).
    #[arg(long, value_parser = crate::args::count, conflicts_with_all = ["value_only", "at_least"])]
    pv_limit: Option<usize>,
    #[command(flatten)]
    db: crate::dispatch::DbArgs,
    /// Print a progress line every few seconds even when stderr is not a terminal.
    #[arg(long)]
    progress: bool,
    #[command(flatten)]
    checkpoint: CheckpointArgs,
    /// Only decide whether the value is at least POINTS, by one null-window test (far
    /// cheaper than the exact value): --at-least 0.5 asks whether the player to move wins
    /// (values may be half points: komi, Kauri's tie-break), --at-least 0 whether he at
    /// least draws. Prints the bound the test proved.
    #[arg(long, value_name = "POINTS", allow_hyphen_values = true, value_parser = crate::args::points,
          conflicts_with = "value_only")]
    at_least: Option<f64>,
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    value: f64,
}

#[derive(Serialize)]
struct Output {
    game: String,
    position: String,
    to_move: String,
    value: f64,
    result: String,
    moves: Vec<MoveValue>,
    pv: Vec<String>,
    pv_end: String,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    threads: usize,
    tt_mb: usize,
    tt_hits: u64,
    tt_permille: u32,
    max_depth: u64,
    /// Database files used as an exact oracle.
    databases: Vec<String>,
    db_probes: u64,
    db_hits: u64,
    /// The techniques switched off (--without), so that a measurement says what it
    /// measured.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    without: Vec<String>,
    /// With --checkpoint: what the earlier runs of this solve did (nodes and seconds
    /// above are this run's); left out without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    resumed: Option<Earlier>,
}

pub fn run(a: SolveArgs) -> Result<ExitCode> {
    let src = classify(&a.position)?;
    let opts = a.record_args.options();
    with_game_type!(src.game().kind, G => solve::<G>(&src, &opts, &a))
}

fn techniques(a: &SolveArgs) -> Result<Techniques> {
    let mut t = Techniques::default();
    for w in &a.without {
        if !t.switch_off(w) {
            bail!(
                "--without {w}: unknown technique ({})",
                Techniques::NAMES.join(", ")
            );
        }
    }
    if let Some(plies) = a.etc {
        if a.without.iter().any(|w| w == "etc") {
            bail!(
                "--etc {plies}: enhanced transposition cut-offs are switched off (--without etc)"
            );
        }
        t.etc_plies = plies;
    }
    Ok(t)
}

fn solve<G: CliGame>(src: &Source, opts: &RuleOptions, a: &SolveArgs) -> Result<ExitCode> {
    // The positions a record played before the root: values may depend on them.
    let (root, before): (G, _) = build_line(src, opts)?;
    if a.threads == 0 {
        bail!("--threads must be at least 1");
    }
    // Refused before any table, database or checkpoint is loaded.
    let question = a.at_least.map(|p| Question::of(&root, p)).transpose()?;
    let config = Config {
        threads: a.threads,
        tt_mb: a.tt_mb,
        techniques: techniques(a)?,
        all_moves: !a.value_only,
        max_pv: a.pv_limit.unwrap_or(400),
    };
    let (oracle, databases) = a.db.oracle_announced(&root, a.progress)?;
    let solver = Solver::try_new(config)?;
    let ck = Checkpointing::open(
        &a.checkpoint,
        &solver,
        checkpoint_label(&root, &before),
        &saved_points(&root),
    )?;
    if ck.as_ref().is_some_and(|c| c.earlier.is_some()) {
        report_proven(&solver, &root);
    }
    let line = (&root, before.as_slice());
    if let Some(question) = question {
        let run = Run {
            solver: &solver,
            oracle: oracle.as_deref(),
            checkpoint: ck.as_ref(),
            progress: a.progress,
        };
        let without = switched_off(&a.without);
        return crate::cmd::solve_bound::decide(&run, line, question, a.json, databases, without);
    }
    let sol = showing_progress(
        &solver,
        &root,
        a.progress,
        ck.as_ref(),
        "root value",
        || solver.solve_after(&root, &before, oracle.as_deref()),
    );
    let sol = conclude(ck.as_ref(), &solver, sol)?;
    let seat = |p: Player| G::seat_names()[p.index()];
    let me = root.to_move();
    let points = |v: i32| root.points(v);
    let value = points(sol.value);
    let result = describe(
        value,
        seat(me),
        seat(me.opponent()),
        root.is_terminal(),
        root.win_loss(),
    );
    let mut pv = Vec::new();
    let mut g = root;
    for &m in &sol.pv {
        pv.push(g.format_move(m));
        g = g.play(m);
    }
    let out = Output {
        game: G::NAME.to_string(),
        position: root.to_text(),
        to_move: seat(me).to_string(),
        value,
        result,
        moves: sol
            .moves
            .iter()
            .map(|&(m, v)| MoveValue {
                mv: root.format_move(m),
                value: points(v),
            })
            .collect(),
        pv,
        pv_end: match sol.pv_end {
            PvEnd::GameOver => "game over",
            PvEnd::Repetition => "repetition",
            PvEnd::Limit => "length limit",
        }
        .to_string(),
        nodes: sol.nodes,
        seconds: sol.seconds,
        nodes_per_second: sol.nodes as f64 / sol.seconds.max(1e-9),
        threads: a.threads,
        tt_mb: sol.tt_bytes / (1024 * 1024),
        tt_hits: sol.tt_hits,
        tt_permille: sol.tt_permille,
        max_depth: sol.max_depth,
        databases,
        without: switched_off(&a.without),
        db_probes: sol.oracle_probes,
        db_hits: sol.oracle_hits,
        resumed: ck.and_then(|c| c.earlier),
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_human(&out, &root);
    }
    Ok(ExitCode::SUCCESS)
}

/// What a solve runs with, besides its position.
pub struct Run<'a, G: Game> {
    pub solver: &'a Solver,
    pub oracle: Option<&'a dyn mancala_solver::retro::Oracle<G>>,
    pub checkpoint: Option<&'a Checkpointing>,
    /// A progress line even when stderr is not a terminal.
    pub progress: bool,
}

/// `work` (a search by `solver` of `root`), with a progress line on stderr while it runs
/// (`first` names its first phase) and, with a checkpoint, periodic saves.
pub fn showing_progress<G: Game, R: Send>(
    solver: &Solver,
    root: &G,
    progress: bool,
    checkpoint: Option<&Checkpointing>,
    first: &str,
    work: impl FnOnce() -> R + Send,
) -> R {
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        // Without a thread for it (the system refused one) there is no progress line.
        let watcher = std::thread::Builder::new()
            .spawn_scoped(s, || {
                let earlier = checkpoint.and_then(|c| c.earlier);
                progress_display(solver, root, &done, progress, first, earlier)
            })
            .ok();
        // Without a thread for it, only the final checkpoint is saved.
        let saver = checkpoint.and_then(|c| {
            std::thread::Builder::new()
                .spawn_scoped(s, || c.save_periodically(solver, &done))
                .ok()
        });
        let r = work();
        done.store(true, Ordering::Relaxed);
        for t in [watcher, saver].into_iter().flatten() {
            let _ = t.join();
        }
        r
    })
}

/// Names a solve in its checkpoint: the position (its text names the game and the rules)
/// and, where values depend on history, the positions before it.
fn checkpoint_label<G: CliGame>(root: &G, before: &[G]) -> String {
    let mut moves = mancala_core::Moves::new();
    root.legal_moves(&mut moves);
    let history = if root.history_dependent() {
        before
    } else {
        &[]
    };
    let fingerprint = mancala_solver::root_fingerprint(root, history, moves.len());
    format!("{} [{fingerprint:016x}]", root.to_text())
}

/// "South wins by 2", "draw", ... for a value seen by `me`.
pub fn describe(v: f64, me: &str, them: &str, over: bool, win_loss: bool) -> String {
    let verb = if over { "won" } else { "wins" };
    if win_loss {
        return match v {
            v if v > 0.0 => format!("{me} {verb}"),
            v if v < 0.0 => format!("{them} {verb}"),
            _ => "draw".into(),
        };
    }
    if v > 0.0 {
        format!("{me} {verb} by {}", fmt_points(v))
    } else if v < 0.0 {
        format!("{them} {verb} by {}", fmt_points(-v))
    } else {
        "draw".to_string()
    }
}

/// What a resumed checkpoint had proven, on stderr: a long solve stopped before its end
/// still tells its user the root value and the move values it finished.
/// A root value as a checkpoint keeps it (relative to the root's banked margin), in the
/// root's points.
fn saved_points<G: CliGame>(root: &G) -> impl Fn(i32) -> String + '_ {
    |v| signed(root.points(v + root.banked()))
}

fn report_proven<G: CliGame>(solver: &Solver, root: &G) {
    let proven = solver.proven();
    let show = saved_points(root);
    let mut moves = mancala_core::Moves::new();
    root.legal_moves(&mut moves);
    let mut parts = Vec::new();
    if let Some(v) = proven.value {
        parts.push(format!("value {}", show(v)));
    }
    for (&m, v) in moves.iter().zip(&proven.moves) {
        if let Some(v) = v {
            parts.push(format!("{} {}", root.format_move(m), show(*v)));
        }
    }
    if !parts.is_empty() {
        let side = G::seat_names()[root.to_move().index()];
        errln!("proven before, for {side} to move: {}", parts.join(", "));
    }
}

pub fn fmt_points(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

pub fn signed(v: f64) -> String {
    if v > 0.0 {
        format!("+{}", fmt_points(v))
    } else {
        fmt_points(v)
    }
}

fn print_human<G: CliGame>(o: &Output, root: &G) {
    out!("{}", root.layout().to_text());
    outln!(
        "value: {} ({}), for {} to move",
        signed(o.value),
        o.result,
        o.to_move
    );
    if !o.moves.is_empty() {
        let best = o.moves.iter().map(|m| m.value).fold(f64::MIN, f64::max);
        let w = o.moves.iter().map(|m| m.mv.len()).max().unwrap_or(1);
        outln!("moves:");
        for m in &o.moves {
            let tag = if m.value == best { "  best" } else { "" };
            outln!("  {:w$}  {:>6}{tag}", m.mv, signed(m.value));
        }
    }
    outln!(
        "principal variation ({} plies, ends: {}):",
        o.pv.len(),
        o.pv_end
    );
    for chunk in o.pv.chunks(16) {
        outln!("  {}", chunk.join(" "));
    }
    outln!(
        "nodes {} in {:.3} s ({:.2} M nodes/s), threads {}, table {} MB ({} per mille used, {} hits), deepest path {}",
        o.nodes,
        o.seconds,
        o.nodes_per_second / 1e6,
        o.threads,
        o.tt_mb,
        o.tt_permille,
        o.tt_hits,
        o.max_depth
    );
    if !o.databases.is_empty() || o.db_probes > 0 {
        outln!(
            "databases: {}; {} probes, {} hits",
            if o.databases.is_empty() {
                "built for this solve".to_string()
            } else {
                o.databases.join(", ")
            },
            o.db_probes,
            o.db_hits
        );
    }
    print_switched_off(&o.without);
    if let Some(e) = o.resumed {
        outln!("{}", e.summary(o.nodes));
    }
}

/// `--without`'s techniques, each once, in a fixed order (the names were checked by
/// [`techniques`]).
pub fn switched_off<T: Ord + Clone>(without: &[T]) -> Vec<T> {
    let mut off = without.to_vec();
    off.sort();
    off.dedup();
    off
}

/// The line that says which techniques a run switched off, if any.
pub fn print_switched_off(names: &[impl AsRef<str>]) {
    if !names.is_empty() {
        let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
        outln!("switched off (--without): {}", names.join(", "));
    }
}

/// A progress line on stderr, only on a terminal and only once the search has run for a
/// second: current phase, bounds on the value, nodes, elapsed time.
fn progress_display<G: Game>(
    solver: &Solver,
    root: &G,
    done: &std::sync::atomic::AtomicBool,
    force: bool,
    first: &str,
    earlier: Option<Earlier>,
) {
    let terminal = std::io::stderr().is_terminal();
    if !terminal && !force {
        return;
    }
    let mut last_line = Instant::now();
    let t0 = Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    let mut n_moves = mancala_core::Moves::new();
    root.legal_moves(&mut n_moves);
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if t0.elapsed() < Duration::from_secs(1) {
            continue;
        }
        let p = &solver.progress;
        let phase = match p.phase.load(Ordering::Relaxed) {
            0 => first.to_string(),
            u64::MAX => "principal variation".to_string(),
            k => format!("move {k}/{}", n_moves.len()),
        };
        let nodes = p.nodes.load(Ordering::Relaxed);
        let secs = t0.elapsed().as_secs_f64();
        let depth = match p.depth.load(Ordering::Relaxed) {
            0 => "exact search".to_string(),
            d => format!("first guess, {d} plies deep"),
        };
        let testing = match p.testing.load(Ordering::Relaxed) {
            Progress::NO_TEST => String::new(),
            beta => format!(", testing >= {beta}"),
        };
        let msg = format!(
            "{phase}, {depth}: value in [{}, {}]{testing}  nodes {:.1} M ({:.2} M/s{})",
            p.lower.load(Ordering::Relaxed),
            p.upper.load(Ordering::Relaxed),
            nodes as f64 / 1e6,
            nodes as f64 / 1e6 / secs,
            Earlier::in_all(earlier, nodes)
        );
        if !terminal {
            if last_line.elapsed() >= Duration::from_secs(5) {
                errln!("[{secs:.0} s] {msg}");
                last_line = Instant::now();
            }
            continue;
        }
        let b = bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_style(
                indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap(),
            );
            b
        });
        b.set_message(msg);
        b.tick();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}
