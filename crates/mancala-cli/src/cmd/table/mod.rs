//! `mancala table`: exact values of standard start positions over a range of board sizes,
//! in the style of the published Kalah tables.

use mancala_core::with_game_type;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use mancala_core::Player;
use mancala_solver::{Config, Solver};
use serde::Serialize;

use crate::dispatch::CliGame;
use crate::position::{RuleArgs, RuleOptions, build, classify};

mod check;
mod rows;

/// Solve the standard start of a game for every board size in a range: the first
/// player's exact value (win, draw or loss and by how much), with nodes and time.
///
/// GAME is afrika, kalah, andada or progressive. Sizes are holes per row (--holes, e.g.
/// 1-6; for progressive the row length) and stones per hole (--stones, e.g. 1-4; not for
/// andada, which always has 2). A range walks the sizes the game has within it (andada:
/// multiples of 3 from 3; progressive: odd lengths from 3 to 17), and names the sizes it
/// leaves out; a range with none is an error. A cell that takes longer than --seconds is
/// left open.
///
/// With --rows FILE, solves instead every row of a rows file (positions with their
/// documented values; `positions/solutions.txt` holds the small rows of
/// docs/solutions.md) and says whether each agrees with its documented value.
///
/// Exit status: 0 when every cell was set up (solved or left open), 1 when some cells
/// could not be set up (reported as "n/a"), 2 when none could. With --rows: 0 when every
/// row agrees, 1 when some differ or are open, 2 when the file cannot be read.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The game: afrika, kalah, andada or progressive.
    #[arg(required_unless_present = "rows")]
    game: Option<String>,
    /// Holes per row: a number or a range such as 1-6.
    #[arg(long, required_unless_present = "rows")]
    holes: Option<String>,
    /// A rows file: one position a line with its documented value (`ID POSITION
    /// value:V [rules:NAME] [komi:K] [ply:N] [moves:M=V,...]`; see
    /// positions/solutions.txt). Every row is solved and compared.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "holes", "stones", "rules", "komi"])]
    rows: Option<std::path::PathBuf>,
    /// With --rows: only these rows (ids separated by commas; `12` also takes `12.3x4`).
    #[arg(long, requires = "rows", value_delimiter = ',')]
    only: Vec<String>,
    /// Stones per hole: a number or a range such as 1-4 (default: 2; not for andada).
    #[arg(long)]
    stones: Option<String>,
    #[command(flatten)]
    rule_args: RuleArgs,
    /// Time budget per cell in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = crate::args::seconds)]
    seconds: f64,
    /// Search threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_parser = crate::args::threads, default_value_t = crate::cmd::solve::default_threads())]
    threads: usize,
    /// Transposition table size in MB (default: a sixteenth of the free memory, a power
    /// of two from 64 MB to 1 GB; a size beyond the free memory is refused).
    #[arg(long, default_value_t = mancala_solver::tt::default_mb(), value_parser = crate::args::tt_mb)]
    tt_mb: usize,
    /// The database directory: Kalah cells use the databases there that fit them
    /// (default: $MANCALA_DB_DIR, else the platform data directory).
    #[arg(long, value_name = "DIR")]
    db_dir: Option<std::path::PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Cell {
    holes: u32,
    stones: u32,
    /// The first player's value at the start (None: not solved within the budget).
    value: Option<f64>,
    result: String,
    nodes: u64,
    seconds: f64,
    /// Whether the cell's position could not be set up ("n/a").
    #[serde(skip)]
    failed: bool,
}

/// A number or a range "a-b" of board sizes, 1 to 255.
fn range(s: &str, what: &str) -> Result<Vec<u32>> {
    let bad =
        || anyhow::anyhow!("--{what} {s}: expected a number or a range such as 1-6, from 1 to 255");
    let number = |t: &str| -> Result<u32> {
        t.trim()
            .parse()
            .ok()
            .filter(|n| (1..=255).contains(n))
            .ok_or_else(bad)
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(s)?, number(s)?),
    };
    if a > b {
        bail!("--{what} {s}: the range is empty (write the smaller size first)");
    }
    Ok((a..=b).collect())
}

pub fn run(a: TableArgs) -> Result<ExitCode> {
    if let Some(file) = &a.rows {
        return check::run(&a, file);
    }
    if !a.only.is_empty() {
        bail!("--only picks rows of a --rows file; this table has none");
    }
    let (Some(game), Some(holes)) = (&a.game, &a.holes) else {
        bail!("give GAME and --holes, or --rows FILE");
    };
    let game = mancala_core::registry::find(game)?;
    if game.sizes == mancala_core::registry::Sizes::Fixed {
        bail!(
            "{} has one board; use `mancala solve {}`",
            game.name,
            game.name
        );
    }
    let holes_arg = holes;
    let holes = range(holes_arg, "holes")?;
    let stones = match (&a.stones, game.stones_vary()) {
        (Some(s), true) => range(s, "stones")?,
        (None, _) => vec![2],
        (Some(s), false) => bail!(
            "--stones {s}: {} has a fixed number of stones per hole; leave --stones out",
            game.name
        ),
    };
    let mut cells = Vec::new();
    // Andada boards exist only for multiples of 3 ("any multiple of three"), Progressive
    // rows only with an odd number of holes (a central hole by the goal): a range such as
    // 3-12 walks only those.
    let (holes, left_out): (Vec<u32>, Vec<u32>) = holes
        .into_iter()
        .partition(|&h| game.table_start(h, 2).is_some());
    if holes.is_empty() {
        bail!("--holes {holes_arg}: no {} board in this range", game.name);
    }
    if !left_out.is_empty() {
        let sizes: Vec<String> = left_out.iter().map(u32::to_string).collect();
        errln!(
            "--holes {holes_arg}: {} has no board of {} holes; left out",
            game.name,
            sizes.join(", ")
        );
    }
    for &h in &holes {
        for &k in &stones {
            let spec = game.table_start(h, k).expect("a board of this size");
            let src = classify(&spec)?;
            let opts = a.rule_args.with_ply(None);
            let cell = with_game_type!(game.kind, G => cell::<G>(&src, &opts, &a, h, k))?;
            if !a.json {
                outln!(
                    "{:>2} x {:<2} {:<24} {:>14} nodes {:>9.2} s",
                    h,
                    k,
                    cell.result,
                    cell.nodes,
                    cell.seconds
                );
            }
            cells.push(cell);
        }
    }
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&cells)?);
    }
    let failed = cells.iter().filter(|c| c.failed).count();
    if failed == cells.len() {
        bail!("no cell of the table could be set up");
    }
    if failed > 0 {
        errln!("{failed} of {} cells could not be set up", cells.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn cell<G: CliGame>(
    src: &crate::position::Source,
    opts: &RuleOptions,
    a: &TableArgs,
    h: u32,
    k: u32,
) -> Result<Cell> {
    let root: G = match build(src, opts) {
        Ok(g) => g,
        Err(e) => {
            return Ok(Cell {
                holes: h,
                stones: k,
                value: None,
                result: format!("n/a: {e}"),
                nodes: 0,
                seconds: 0.0,
                failed: true,
            });
        }
    };
    let solver = Solver::try_new(Config {
        threads: a.threads,
        tt_mb: a.tt_mb,
        all_moves: false,
        max_pv: 0,
        ..Config::default()
    })?;
    let t0 = Instant::now();
    let budget = Duration::from_secs_f64(a.seconds);
    let (oracle, _) = crate::dispatch::oracle_for(&root, None, a.db_dir.as_deref())?;
    let sol = crate::cmd::limit::with_time_limit(&solver, Some(budget), || {
        solver.solve_with(&root, oracle.as_deref())
    })?;
    let seats = G::seat_names();
    let first = |v: i32| {
        if root.to_move() == Player::First {
            root.points(v)
        } else {
            -root.points(v)
        }
    };
    Ok(match sol {
        Some(s) => {
            let v = first(s.value);
            Cell {
                holes: h,
                stones: k,
                value: Some(v),
                result: crate::cmd::solve::describe(
                    v,
                    &format!("first ({})", seats[0]),
                    &format!("second ({})", seats[1]),
                    false,
                    root.win_loss(),
                ),
                nodes: s.nodes,
                seconds: s.seconds,
                failed: false,
            }
        }
        None => Cell {
            holes: h,
            stones: k,
            value: None,
            result: format!("open after {:.0} s", a.seconds),
            nodes: solver.progress.nodes.load(Ordering::Relaxed),
            seconds: t0.elapsed().as_secs_f64(),
            failed: false,
        },
    })
}
