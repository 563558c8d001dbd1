//! `mancala retro`: retrograde analysis: endgame databases and exact tables of whole
//! classes of positions.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use mancala_core::afrika::Afrika;
use mancala_core::andada::{Andada, Rules as AndadaRules};
use mancala_core::index::Indexed;
use mancala_core::index::catalog::Catalogued;
use mancala_core::kauri::{Kauri, Rules as KauriRules};
use mancala_core::registry::{self, GameInfo, GameKind, Sizes};
use mancala_solver::retro::db::BuildObserver;
use mancala_solver::retro::{Database, LayerStats};
use serde::Serialize;

use super::cluster::{ClusterArgs, Plan};

/// Build a retrograde database: every position of whole classes solved exactly, saved to
/// a file with a header and checksums, resumable after an interruption.
///
/// TARGET is `afrika:M` (the 2 x M Afrika endgame database of all positions with up to
/// --max-stones stones on the board), `kauri` (the cowries-only phase of the old
/// tie-breaker rules, all 2,704,156 positions) or `andada:N` (the strong solution of
/// Andada on 2 x N: every position of the regular phase, then the value of every opening
/// and pie decision), or `kalah:M` (the Kalah 2 x M endgame database of all positions
/// with up to --max-seeds seeds in play, written to the database directory, where
/// `mancala solve` finds it; the classes of the largest smaller Kalah database of the same
/// board beside it are copied, not solved again). `mancala solve --db FILE` uses a file as
/// an exact oracle.
///
/// --workers, --processes, --process, --hostfile or --port build on the distributed engine
/// (timely-dataflow; each process holds only its share of the database; the file, written
/// by process 0, is byte-identical to the single-machine build), every
/// process started with the same command but its own --process, e.g. two processes on one
/// machine (one shell line): `mancala retro afrika:8 --max-stones 10 --processes 2
/// --process 1 & mancala retro afrika:8 --max-stones 10 --processes 2 --process 0`.
/// docs/scale.md has more. A cluster build solves every class (Kalah copies none from a smaller database) and
/// resumes from the classes every process finished.
#[derive(Args, Debug)]
pub struct RetroArgs {
    /// What to build: afrika:M, kauri, andada:N or kalah:M.
    target: String,
    /// The largest number of stones (seeds) on the board, 0 to 255: Afrika (default 10);
    /// Kalah (seeds in play, default 16); Andada (default: all, the strong solution; fewer
    /// builds a partial database of the endgame classes, for `mancala solve --db`); not
    /// for kauri (one class, all 12 cowries).
    #[arg(long, visible_alias = "max-seeds")]
    max_stones: Option<u8>,
    /// Rule variant: andada (clockwise, endless-draw), kalah (standard-capture), kauri
    /// (tiebreak, the only one); Afrika databases hold the standard rules only.
    #[arg(long)]
    rules: Option<String>,
    /// Output file (an existing one only with --force). Default: afrika-2xM-K.db,
    /// kauri-tiebreak.db or, with --max-stones, andada-2xN-K.db in the current directory;
    /// Kalah: its file in the database directory; the full Andada solution is printed and
    /// written only to a file given here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Kalah: the database directory to write to (default: $MANCALA_DB_DIR, else the
    /// platform data directory).
    #[arg(long, conflicts_with = "out")]
    db_dir: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cluster: ClusterArgs,
}

#[derive(Serialize, Clone)]
pub struct ClassReport {
    pub class: String,
    pub positions: u64,
    /// None when loaded from an earlier, interrupted build or copied from a smaller
    /// database.
    pub sweeps: Option<u32>,
    pub seconds: Option<f64>,
    pub positions_per_second: Option<f64>,
}

#[derive(Serialize)]
struct Report {
    file: String,
    game: String,
    scope: String,
    positions: u64,
    bytes: u64,
    seconds: f64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    cluster: Option<ClusterFigures>,
    classes: Vec<ClassReport>,
}

/// What one process of a cluster build reports.
#[derive(Serialize)]
struct ClusterFigures {
    processes: usize,
    process: usize,
    workers: usize,
    /// Classes taken from the interrupted build every process had finished.
    resumed_classes: usize,
    /// Positions solved now (not resumed).
    solved_positions: u64,
    /// Positions of the database this process holds (its share of every class), and the
    /// most bounds it held at once (its share of the largest class solved now).
    held_positions: u64,
    held_bounds: u64,
    /// Requests for children's entries this process sent the others, its replies to
    /// theirs, bytes of values it sent process 0 for the file, and all its bytes as
    /// records.
    requests_sent: u64,
    replies_sent: u64,
    file_bytes_sent: u64,
    bytes_sent: u64,
}

/// Progress per class on stderr (a bar on a terminal, lines otherwise) and the per-class
/// figures for the report.
pub struct Observer {
    bar: Mutex<Option<indicatif::ProgressBar>>,
    pub classes: Mutex<Vec<ClassReport>>,
    quiet: bool,
    /// The smaller database file a build copies classes from.
    extends: Option<String>,
}

impl Observer {
    pub fn new(quiet: bool) -> Self {
        Observer {
            bar: Mutex::new(None),
            classes: Mutex::new(Vec::new()),
            quiet,
            extends: None,
        }
    }
}

impl BuildObserver for Observer {
    fn start(&self, k: usize, of: usize, name: &str, positions: u64) {
        if self.quiet || !std::io::stderr().is_terminal() {
            return;
        }
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").unwrap(),
        );
        b.set_message(format!(
            "class {}/{of}: {name} ({positions} positions)",
            k + 1
        ));
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        *self.bar.lock().unwrap() = Some(b);
    }

    fn sweep(&self, sweep: u32, evaluations: u64) {
        if let Some(b) = self.bar.lock().unwrap().as_ref() {
            let msg = b.message();
            let base = msg.split(" | ").next().unwrap_or("").to_string();
            b.set_message(format!("{base} | sweep {sweep}, {evaluations} evaluations"));
        }
    }

    fn reused(&self, _k: usize, name: &str, positions: u64) {
        if !self.quiet {
            let from = self.extends.as_deref().unwrap_or("a smaller database");
            errln!("{name}: copied from {from}");
        }
        self.classes.lock().unwrap().push(ClassReport {
            class: name.to_string(),
            positions,
            sweeps: None,
            seconds: None,
            positions_per_second: None,
        });
    }

    fn done(&self, _k: usize, name: &str, stats: Option<&LayerStats>) {
        if let Some(b) = self.bar.lock().unwrap().take() {
            b.finish_and_clear();
        }
        let r = ClassReport {
            class: name.to_string(),
            positions: stats.map(|s| s.positions).unwrap_or(0),
            sweeps: stats.map(|s| s.sweeps),
            seconds: stats.map(|s| s.seconds),
            positions_per_second: stats.map(|s| s.positions as f64 / s.seconds.max(1e-9)),
        };
        if !self.quiet {
            match stats {
                Some(s) => errln!(
                    "{name}: {} positions, {} sweeps, {:.2} s ({:.2} M positions/s)",
                    s.positions,
                    s.sweeps,
                    s.seconds,
                    s.positions as f64 / s.seconds.max(1e-9) / 1e6
                ),
                None => errln!("{name}: loaded from the interrupted build"),
            }
        }
        self.classes.lock().unwrap().push(r);
    }
}

/// Options a target does not use are errors, not silently ignored.
fn check_options(a: &RetroArgs, game: &GameInfo) -> Result<()> {
    if a.db_dir.is_some() && game.kind != GameKind::Kalah {
        bail!("--db-dir: only Kalah databases live in the database directory; give --out");
    }
    match (game.kind, a.rules.as_deref()) {
        (GameKind::Afrika, Some(r)) if r != "standard" => {
            bail!("--rules {r}: Afrika databases hold the standard rules only")
        }
        (GameKind::Kauri, Some(r)) if r != "tiebreak" => {
            bail!("--rules {r}: the Kauri database is the tiebreak cowries-only phase")
        }
        _ => {}
    }
    if game.kind == GameKind::Kauri && a.max_stones.is_some() {
        bail!("--max-stones: the Kauri database has one fixed class (12 cowries)");
    }
    Ok(())
}

/// The targets `retro` builds, for its error message: every game with an index.
fn targets() -> String {
    let names: Vec<String> = registry::GAMES
        .iter()
        .filter(|g| g.has_index)
        .map(|g| match g.sizes {
            Sizes::Fixed => g.name.to_string(),
            _ => format!("{}:N", g.name),
        })
        .collect();
    names.join(", ")
}

/// The holes per row a target names (`afrika:8`), `default` when it names none, within
/// the sizes the game's rules accept.
fn holes(game: &GameInfo, spec: &str, default: Option<usize>) -> Result<usize> {
    let name = game.name;
    let n: usize = match (spec, default) {
        ("", Some(d)) => d,
        _ => spec
            .parse()
            .map_err(|_| anyhow!("{name}:{spec}: expected the holes per row, a number"))?,
    };
    let (lo, hi) = (game.holes.0 as usize, game.holes.1 as usize);
    let multiple = match game.sizes {
        Sizes::Holes { multiple } => multiple as usize,
        _ => 1,
    };
    if !(lo..=hi).contains(&n) || !n.is_multiple_of(multiple) {
        let of = if multiple > 1 {
            format!(" (a multiple of {multiple})")
        } else {
            String::new()
        };
        bail!("{name}:{n}: rows hold {lo} to {hi} holes{of}");
    }
    Ok(n)
}

pub fn run(a: RetroArgs) -> Result<ExitCode> {
    let (name, spec) = a.target.split_once(':').unwrap_or((&a.target, ""));
    let game = registry::find(name)
        .ok()
        .filter(|g| g.has_index)
        .ok_or_else(|| anyhow!("unknown retro target \"{}\" ({})", a.target, targets()))?;
    check_options(&a, game)?;
    match game.kind {
        GameKind::Afrika => {
            let m = holes(game, spec, Some(8))?;
            let k = a.max_stones.unwrap_or(10);
            let out = a.out.clone();
            let out = out.unwrap_or_else(|| PathBuf::from(format!("{name}-2x{m}-{k}.db")));
            build_shelf(&a, &out, &Afrika::start(m, 0, Default::default()), k)
        }
        GameKind::Kauri => {
            let out = a.out.clone();
            let out = out.unwrap_or_else(|| PathBuf::from(format!("{name}-tiebreak.db")));
            build_shelf(&a, &out, &Kauri::start(KauriRules::TieBreak), 0)
        }
        GameKind::Andada => {
            let n = holes(game, spec, None)?;
            let rules = match &a.rules {
                Some(r) => AndadaRules::parse_variant(r).map_err(|e| anyhow!("{e}"))?,
                None => Default::default(),
            };
            andada(&a, n as u8, rules)
        }
        GameKind::Kalah => kalah(&a, holes(game, spec, None)?),
        GameKind::Progressive => unreachable!("filtered: no index"),
    }
}

/// The database of `root`'s shelf up to `k`, built to `out`.
fn build_shelf<G: Catalogued + Send + Sync + 'static>(
    a: &RetroArgs,
    out: &Path,
    root: &G,
    k: u8,
) -> Result<ExitCode> {
    let shelf = root.shelf().expect("a retro target's start has a shelf");
    let scope = root.scope(k);
    build::<G>(a, out, shelf.game, &shelf.variant, &scope, &root.classes(k))
}

fn build<G: Indexed + Send + Sync + 'static>(
    a: &RetroArgs,
    out: &std::path::Path,
    game: &str,
    variant: &str,
    scope: &str,
    classes: &[G::Class],
) -> Result<ExitCode> {
    build_extending::<G>(a, out, (game, variant, scope), classes, None)
}

/// [`build`], copying the classes `smaller` holds instead of solving them again.
fn build_extending<G: Indexed + Send + Sync + 'static>(
    a: &RetroArgs,
    out: &std::path::Path,
    (game, variant, scope): (&str, &str, &str),
    classes: &[G::Class],
    smaller: Option<(&Database<G>, &std::path::Path)>,
) -> Result<ExitCode> {
    crate::files::may_write(out, a.force)?;
    if let Some(plan) = a.cluster.plan()? {
        return build_on_cluster::<G>(a, &plan, out, (game, variant, scope), classes);
    }
    let t0 = Instant::now();
    let mut obs = Observer::new(a.json);
    let (db, _) = match smaller {
        Some((small, path)) => {
            obs.extends = Some(path.display().to_string());
            Database::<G>::extend(out, small, scope, classes, &obs)?
        }
        None => Database::<G>::build(out, game, variant, scope, classes, &obs)?,
    };
    let report = Report {
        file: out.display().to_string(),
        game: game.into(),
        scope: scope.into(),
        positions: db.positions(),
        bytes: std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
        seconds: t0.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        cluster: None,
        classes: obs.classes.lock().unwrap().clone(),
    };
    print_report(a, &report)
}

/// [`build`] on the distributed engine: this process's part of the cluster `plan`.
#[cfg(feature = "cluster")]
fn build_on_cluster<G: Indexed + Send + Sync + 'static>(
    a: &RetroArgs,
    plan: &Plan,
    out: &Path,
    meta: (&str, &str, &str),
    classes: &[G::Class],
) -> Result<ExitCode> {
    use mancala_solver::retro::cluster::{self, Cluster};
    let t0 = Instant::now();
    let obs = std::sync::Arc::new(Observer::new(a.json));
    let c = Cluster {
        threads: plan.threads,
        process: plan.process,
        addresses: plan.addresses.clone(),
    };
    let r = cluster::build::<G>(&c, out, meta, classes, obs.clone())?;
    let report = Report {
        file: out.display().to_string(),
        game: meta.0.into(),
        scope: meta.2.into(),
        positions: r.positions,
        bytes: match plan.process {
            0 => std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
            _ => 0,
        },
        seconds: t0.elapsed().as_secs_f64(),
        threads: plan.threads,
        cluster: Some(ClusterFigures {
            processes: c.processes(),
            process: plan.process,
            workers: plan.threads,
            resumed_classes: r.resumed,
            solved_positions: r.solved,
            held_positions: r.held,
            held_bounds: r.bounds_held,
            requests_sent: r.requests_sent,
            replies_sent: r.replies_sent,
            file_bytes_sent: r.file_bytes_sent,
            bytes_sent: r.bytes_sent,
        }),
        classes: obs.classes.lock().unwrap().clone(),
    };
    print_report(a, &report)
}

#[cfg(not(feature = "cluster"))]
fn build_on_cluster<G: Indexed>(
    _: &RetroArgs,
    _: &Plan,
    _: &Path,
    _: (&str, &str, &str),
    _: &[G::Class],
) -> Result<ExitCode> {
    bail!("--workers/--processes: this mancala was built without the cluster feature")
}

fn print_report(a: &RetroArgs, report: &Report) -> Result<ExitCode> {
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        outln!(
            "{}: {} positions in {} classes, {} bytes, {:.1} s on {} threads",
            report.file,
            report.positions,
            report.classes.len(),
            report.bytes,
            report.seconds,
            report.threads
        );
        if let Some(c) = &report.cluster {
            let who = match c.process {
                0 => "wrote the file",
                _ => "sent its share to process 0",
            };
            outln!(
                "process {} of {} ({} workers each) {who}; {} classes resumed; held {} \
                 positions and at most {} bounds; sent {} requests and {} replies to other \
                 processes, {} bytes in all ({:.2} bytes a position solved)",
                c.process,
                c.processes,
                c.workers,
                c.resumed_classes,
                c.held_positions,
                c.held_bounds,
                c.requests_sent,
                c.replies_sent,
                c.bytes_sent,
                c.bytes_sent as f64 / c.solved_positions.max(1) as f64
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The Kalah 2 x m endgame database up to --max-seeds seeds in play (default 16).
fn kalah(a: &RetroArgs, m: usize) -> Result<ExitCode> {
    use mancala_core::kalah::{Kalah, Rules};
    use mancala_solver::retro::store;
    let rules = match &a.rules {
        Some(r) => Rules::parse_variant(r).map_err(|e| anyhow::anyhow!("{e}"))?,
        None => Rules::default(),
    };
    let k = a.max_stones.unwrap_or(16);
    let shelf = Kalah::start(m, 0, rules)
        .shelf()
        .expect("every Kalah board has databases");
    let out = match &a.out {
        Some(out) => out.clone(),
        None => {
            let dir = a
                .db_dir
                .clone()
                .or_else(store::default_dir)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "no data directory known: set {} or give --out",
                        store::ENV_VAR
                    )
                })?;
            std::fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
            dir.join(shelf.file_name(k))
        }
    };
    let root = Kalah::start(m, 0, rules);
    // The largest smaller database beside the output file: its classes are copied.
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty());
    let cluster = a.cluster.plan()?.is_some();
    let smaller = store::files(dir.unwrap_or(std::path::Path::new(".")), &shelf)
        .unwrap_or_default()
        .into_iter()
        .filter(|&(j, _)| j < k && !cluster)
        .find_map(|(j, path)| Some((store::load(&path, &root, &shelf, j).ok()?, path)));
    build_extending::<Kalah>(
        a,
        &out,
        (shelf.game, &shelf.variant, &root.scope(k)),
        &root.classes(k),
        smaller.as_ref().map(|(db, p)| (db, p.as_path())),
    )
}

/// Every regular position of Andada from `root`'s board and rules: written to --out as
/// a database file, else solved in memory (refused beforehand when it cannot fit).
fn andada_solution(a: &RetroArgs, root: &Andada, obs: &Observer) -> Result<Database<Andada>> {
    let shelf = root.shelf().expect("every Andada board has databases");
    let all = 4 * root.holes_per_row() as u8;
    let classes = root.classes(all);
    match &a.out {
        Some(out) => {
            crate::files::may_write(out, a.force)?;
            let scope = root.scope(all);
            let variant = &shelf.variant;
            Ok(Database::build(out, shelf.game, variant, &scope, &classes, obs)?.0)
        }
        None => {
            let (positions, needed) = mancala_solver::retro::db::build_bytes::<Andada>(&classes);
            if let Some(available) = mancala_solver::tt::available_memory()
                && needed > available
            {
                bail!(
                    "{}:{}: the strong solution needs about {} MB of memory ({positions} \
                     positions), but {} MB are available",
                    shelf.game,
                    root.holes_per_row(),
                    needed >> 20,
                    available >> 20
                );
            }
            let mut db = Database::<Andada>::empty(shelf.game, &shelf.variant);
            db.solve(&classes, obs);
            Ok(db)
        }
    }
}

/// The Andada solution as text: every opening, the pie decision, the game's value.
fn print_andada(r: &AndadaReport) {
    outln!(
        "Andada {} ({}): {} regular positions solved in {:.1} s",
        r.board,
        r.rules,
        r.positions,
        r.seconds
    );
    outln!("  opening  play  pass  second player  opener");
    let word = |v: i32| match v {
        1 => "wins",
        0 => "draws",
        _ => "loses",
    };
    for o in &r.openings {
        outln!(
            "  {:<7}  {:>4}  {:>4}  {:<13}  {}",
            o.opening,
            o.play,
            o.pass,
            o.decision,
            word(o.value_for_opener)
        );
    }
    outln!(
        "  the first player {} with best play; {} of {} openings leave a half-turn symmetric board",
        word(r.first_player_value),
        r.symmetric_openings,
        r.openings.len()
    );
}

#[derive(Serialize)]
struct AndadaOpening {
    opening: String,
    /// Value of the pie decision "play" (the deciding second player moves first), for him.
    play: i32,
    /// Value of "pass" (the opener moves first), for the second player.
    pass: i32,
    /// The second player's best decision ("play", "pass" or "either").
    decision: String,
    /// The opener's value of this opening: 1 win, 0 draw, -1 loss.
    value_for_opener: i32,
}

#[derive(Serialize)]
struct AndadaReport {
    board: String,
    rules: String,
    positions: u64,
    seconds: f64,
    openings: Vec<AndadaOpening>,
    /// The game's value for the first player (who opens): the best opening.
    first_player_value: i32,
    /// Positions after the opening that are symmetric under the half turn (seed: "the board
    /// position after the first move is always symmetrical").
    symmetric_openings: usize,
    classes: Vec<ClassReport>,
}

/// The strong solution of Andada on 2 x n: every regular position by retrograde analysis,
/// then the openings and the pie decision read from the table.
fn andada(a: &RetroArgs, n: u8, rules: AndadaRules) -> Result<ExitCode> {
    let t0 = Instant::now();
    let root = Andada::start(n as usize, rules);
    if let Some(k) = a.max_stones
        && k < 4 * n
    {
        // The endgame classes only: no opening table, but an oracle for the search.
        let shelf = root.shelf().expect("every Andada board has databases");
        let out = a.out.clone();
        let out = out.unwrap_or_else(|| PathBuf::from(format!("{}-2x{n}-{k}.db", shelf.game)));
        return build_shelf(a, &out, &root, k);
    }
    if a.cluster.plan()?.is_some() {
        bail!(
            "--workers/--processes: the strong solution of Andada is built on one machine; \
             give --max-stones for a database on the cluster"
        );
    }
    let obs = Observer::new(a.json);
    let db = andada_solution(a, &root, &obs)?;
    let pie = mancala_analysis::andada_pie::analyse(&db, n as usize, rules);
    let openings = pie
        .openings
        .iter()
        .map(|o| AndadaOpening {
            opening: o.opening.clone(),
            play: o.play,
            pass: o.pass,
            decision: o.decision.into(),
            value_for_opener: o.value_for_opener,
        })
        .collect();
    let report = AndadaReport {
        board: format!("2x{n}"),
        rules: rules.variant_name(),
        positions: db.positions(),
        seconds: t0.elapsed().as_secs_f64(),
        first_player_value: pie.first_player_value(),
        symmetric_openings: pie.symmetric_openings,
        openings,
        classes: obs.classes.lock().unwrap().clone(),
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_andada(&report);
    }
    Ok(ExitCode::SUCCESS)
}
