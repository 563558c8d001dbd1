//! `mancala retro`: retrograde analysis: endgame databases and exact tables of whole
//! classes of positions.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use mancala_core::afrika::Afrika;
use mancala_core::afrika::index::StonesOnBoard;
use mancala_core::index::Indexed;
use mancala_core::kauri::Kauri;
use mancala_core::kauri::index::TieBreakPhase;
use mancala_solver::retro::db::BuildObserver;
use mancala_solver::retro::{Database, LayerStats};
use serde::Serialize;

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
    classes: Vec<ClassReport>,
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
            eprintln!("{name}: copied from {from}");
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
                Some(s) => eprintln!(
                    "{name}: {} positions, {} sweeps, {:.2} s ({:.2} M positions/s)",
                    s.positions,
                    s.sweeps,
                    s.seconds,
                    s.positions as f64 / s.seconds.max(1e-9) / 1e6
                ),
                None => eprintln!("{name}: loaded from the interrupted build"),
            }
        }
        self.classes.lock().unwrap().push(r);
    }
}

/// The classes of an Afrika 2 x m database up to `k` stones.
pub fn afrika_classes(m: u8, k: u8) -> Vec<StonesOnBoard> {
    use mancala_core::index::Indexed;
    Afrika::classes_up_to(&StonesOnBoard { m, stones: k })
}

pub const KAURI_TIEBREAK: [TieBreakPhase; 1] = [TieBreakPhase { cowries: 12 }];

/// Options a target does not use are errors, not silently ignored.
fn check_options(a: &RetroArgs, game: &str) -> Result<()> {
    if a.db_dir.is_some() && game != "kalah" {
        bail!("--db-dir: only Kalah databases live in the database directory; give --out");
    }
    match (game, a.rules.as_deref()) {
        ("afrika", Some(r)) if r != "standard" => {
            bail!("--rules {r}: Afrika databases hold the standard rules only")
        }
        ("kauri", Some(r)) if r != "tiebreak" => {
            bail!("--rules {r}: the Kauri database is the tiebreak cowries-only phase")
        }
        _ => {}
    }
    if game == "kauri" && a.max_stones.is_some() {
        bail!("--max-stones: the Kauri database has one fixed class (12 cowries)");
    }
    Ok(())
}

pub fn run(a: RetroArgs) -> Result<ExitCode> {
    let (game, spec) = a.target.split_once(':').unwrap_or((&a.target, ""));
    check_options(&a, game)?;
    match game {
        "afrika" => {
            let m: u8 = if spec.is_empty() {
                8
            } else {
                spec.parse().map_err(|_| {
                    anyhow::anyhow!("afrika:{spec}: expected the holes per row, e.g. afrika:8")
                })?
            };
            if !(1..=12).contains(&m) {
                bail!("afrika:{m}: rows hold 1 to 12 holes");
            }
            let k = a.max_stones.unwrap_or(10);
            let scope = format!("2x{m}, up to {k} stones on the board");
            let out = a
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("afrika-2x{m}-{k}.db",)));
            build::<Afrika>(
                &a,
                &out,
                "afrika",
                variant_of("afrika"),
                &scope,
                &afrika_classes(m, k),
            )
        }
        "kauri" => {
            let out = a
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from("kauri-tiebreak.db"));
            build::<Kauri>(
                &a,
                &out,
                "kauri",
                variant_of("kauri"),
                "tiebreak cowries-only phase",
                &KAURI_TIEBREAK,
            )
        }
        "andada" => {
            let n: u8 = spec.parse().map_err(|_| {
                anyhow::anyhow!("andada:{spec}: expected the holes per row, e.g. andada:3")
            })?;
            if !mancala_core::andada::Andada::valid_row(n as usize) {
                bail!("andada:{n}: Andada rows hold a multiple of 3 holes, from 3 to 24");
            }
            let rules = match &a.rules {
                Some(r) => mancala_core::andada::Rules::parse_variant(r)
                    .map_err(|e| anyhow::anyhow!("{e}"))?,
                None => Default::default(),
            };
            andada(&a, n, rules)
        }
        "kalah" => kalah(&a, spec),
        _ => bail!(
            "unknown retro target \"{}\" (afrika:M, kauri, andada:N or kalah:M)",
            a.target
        ),
    }
}

fn build<G: Indexed>(
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
fn build_extending<G: Indexed>(
    a: &RetroArgs,
    out: &std::path::Path,
    (game, variant, scope): (&str, &str, &str),
    classes: &[G::Class],
    smaller: Option<(&Database<G>, &std::path::Path)>,
) -> Result<ExitCode> {
    if out.exists() && !a.force {
        bail!("{}: the file exists (--force replaces it)", out.display());
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
    let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    let report = Report {
        file: out.display().to_string(),
        game: game.into(),
        scope: scope.into(),
        positions: db.positions(),
        bytes,
        seconds: t0.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        classes: obs.classes.lock().unwrap().clone(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{}: {} positions in {} classes, {} bytes, {:.1} s on {} threads",
            report.file,
            report.positions,
            report.classes.len(),
            report.bytes,
            report.seconds,
            report.threads
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The Kalah 2 x m endgame database up to --max-seeds seeds in play (default 16).
fn kalah(a: &RetroArgs, spec: &str) -> Result<ExitCode> {
    use mancala_core::kalah::{Kalah, Rules};
    use mancala_solver::retro::store::{self, Catalogued};
    let m: usize = spec
        .parse()
        .map_err(|_| anyhow::anyhow!("kalah:{spec}: expected the holes per row, e.g. kalah:6"))?;
    if !(1..=mancala_core::kalah::rules::MAX_ROW).contains(&m) {
        bail!("kalah:{m}: rows hold 1 to 12 holes");
    }
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
    let smaller = store::files(dir.unwrap_or(std::path::Path::new(".")), &shelf)
        .unwrap_or_default()
        .into_iter()
        .filter(|&(j, _)| j < k)
        .find_map(|(j, path)| Some((store::load(&path, &root, &shelf, j).ok()?, path)));
    build_extending::<Kalah>(
        a,
        &out,
        (shelf.game, &shelf.variant, &shelf.scope(k)),
        &root.classes(k),
        smaller.as_ref().map(|(db, p)| (db, p.as_path())),
    )
}

/// Every regular position of Andada 2 x n: written to --out as a database file, else
/// solved in memory (refused beforehand when it cannot fit).
fn andada_solution(
    a: &RetroArgs,
    n: u8,
    rules: mancala_core::andada::Rules,
    classes: &[mancala_core::andada::index::SeedsOnBoard],
    obs: &Observer,
) -> Result<Database<mancala_core::andada::Andada>> {
    use mancala_core::andada::Andada;
    match &a.out {
        Some(out) if out.exists() && !a.force => {
            bail!("{}: the file exists (--force replaces it)", out.display())
        }
        Some(out) => Ok(Database::<Andada>::build(
            out,
            "andada",
            &rules.variant_name(),
            &format!("2x{n}, all regular positions"),
            classes,
            obs,
        )?
        .0),
        None => {
            let (positions, needed) = mancala_solver::retro::db::build_bytes::<Andada>(classes);
            if let Some(available) = mancala_solver::tt::available_memory()
                && needed > available
            {
                bail!(
                    "andada:{n}: the strong solution needs about {} MB of memory ({positions} \
                     positions), but {} MB are available",
                    needed >> 20,
                    available >> 20
                );
            }
            let mut db = Database::<Andada>::empty("andada", &rules.variant_name());
            db.solve(classes, obs);
            Ok(db)
        }
    }
}

/// The Andada solution as text: every opening, the pie decision, the game's value.
fn print_andada(r: &AndadaReport) {
    println!(
        "Andada {} ({}): {} regular positions solved in {:.1} s",
        r.board, r.rules, r.positions, r.seconds
    );
    println!("  opening  play  pass  second player  opener");
    let word = |v: i32| match v {
        1 => "wins",
        0 => "draws",
        _ => "loses",
    };
    for o in &r.openings {
        println!(
            "  {:<7}  {:>4}  {:>4}  {:<13}  {}",
            o.opening,
            o.play,
            o.pass,
            o.decision,
            word(o.value_for_opener)
        );
    }
    println!(
        "  the first player {} with best play; {} of {} openings leave a half-turn symmetric board",
        word(r.first_player_value),
        r.symmetric_openings,
        r.openings.len()
    );
}

/// The rule variant a database of `game` is built for.
pub fn variant_of(game: &str) -> &'static str {
    match game {
        "kauri" => "tiebreak",
        _ => "standard",
    }
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
fn andada(a: &RetroArgs, n: u8, rules: mancala_core::andada::Rules) -> Result<ExitCode> {
    use mancala_core::andada::Andada;
    use mancala_core::andada::index::SeedsOnBoard;
    let t0 = Instant::now();
    let total = 4 * n;
    if let Some(k) = a.max_stones
        && k < total
    {
        // The endgame classes only: no opening table, but an oracle for the search.
        let classes: Vec<SeedsOnBoard> = (0..=k)
            .map(|seeds| SeedsOnBoard { n, seeds, rules })
            .collect();
        let out = a
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("andada-2x{n}-{k}.db")));
        let scope = format!("2x{n}, regular positions with up to {k} seeds on the board");
        return build::<Andada>(a, &out, "andada", &rules.variant_name(), &scope, &classes);
    }
    let classes: Vec<SeedsOnBoard> = (0..=total)
        .map(|seeds| SeedsOnBoard { n, seeds, rules })
        .collect();
    let obs = Observer::new(a.json);
    let db = andada_solution(a, n, rules, &classes, &obs)?;
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
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_andada(&report);
    }
    Ok(ExitCode::SUCCESS)
}
