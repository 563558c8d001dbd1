//! `mancala prove`: the win, draw or loss of a position by proof-number search, each
//! answer backed by a certificate that is checked apart from the search; in a game that
//! counts a margin, whether a player wins (or reaches --at-least) and so bounds on the
//! margin.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use mancala_core::{Player, with_game_type};
use mancala_solver::proof::{
    CheckError, CheckInputs, Checked, DisproofCheck, Goal, Limits, Outcome, Proof, ProofCheck,
    ProofCheckpointError, ProofSearch, ProofTable, Repair, Report, Shared, Standing, Step,
    StretchedCheck, Verdict, load_proof, run_threads, save_proof, standings,
};
use mancala_solver::retro::Oracle;
use mancala_solver::{SEARCH_STACK, on_search_stack};
use serde::Serialize;

use crate::cmd::checkpointing::{Earlier, Interrupted, check_writable};
use crate::cmd::solve::{describe, fmt_points, print_switched_off, signed, switched_off};
use crate::cmd::solve_bound::value_grid;
use crate::dispatch::{CliGame, DbArgs};
use crate::interrupt;
use crate::position::{RecordArgs, RuleOptions, Source, build_line, classify};

/// Prove who wins a position by proof-number search (df-pn).
///
/// Two questions are asked, "does the player to move win?" and, unless that is proven,
/// "does his opponent?". In a game that counts a margin where no position repeats
/// (Kalah, Progressive) the answers bound the value (a win is a value above 0; neither wins: exactly 0),
/// and --at-least asks for a margin instead: each answer is then a null-window test of
/// the value, as `solve --at-least` gives by alpha-beta. Each answer comes with a certificate that is checked by playing
/// out every position it needs: a winning strategy for a "yes", and for a "no" a set of
/// positions the other player can keep the game in without losing (endless play is a
/// draw). Both "no" gives a draw. Where positions repeat, this proves draws that
/// `solve` cannot. POSITION is as for `solve`. With --db, the positions an endgame
/// database holds are leaves with its exact values, in the search and in the checks.
///
/// Exit status: 0 when every question was answered (or stopped by --max-nodes), 1 when a
/// certificate check failed, 2 on bad input.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("one_question").args(["only", "at_least"]).multiple(true))]
pub struct ProveArgs {
    /// The position: a file, an inline position line, or a named start (andada:9).
    position: String,
    /// Table size in MB for each question (8 bytes a position; default as for `solve`:
    /// a sixteenth of the available memory, 64 to 1024), rounded down to a power of two
    /// (each answer reports the size used). A resumed search keeps its checkpoint's
    /// table size, or with --tt-mb moves its entries into a table of that size (all of
    /// them into one up to 16 times larger; the least valuable give way in a smaller one).
    #[arg(long, value_parser = crate::args::tt_mb)]
    tt_mb: Option<usize>,
    /// Stop each question after this many nodes; an unanswered question is reported open.
    #[arg(long, value_parser = crate::args::nodes)]
    max_nodes: Option<u64>,
    /// Nodes at most for each search the certificate check runs to fill a gap (an entry
    /// the table lost).
    #[arg(long, default_value_t = 1_000_000, value_parser = crate::args::nodes)]
    repair_nodes: u64,
    /// Table size in MB for those searches: a table of the check's own, which they write
    /// while reading the search's table, so that no repair replaces an entry the rest of
    /// the check needs (default: an eighth of the search's table, and at least 64 bytes
    /// for each --repair-nodes, 64 MB for the default; made when a check starts).
    #[arg(long, value_parser = crate::args::tt_mb)]
    repair_mb: Option<usize>,
    /// Check a "no" in parts: the certificate's positions fewer than PLIES plies below
    /// the position first, then, one at a time, the set of each of its positions at that
    /// ply, each let go when it holds. The memory is then the largest part's instead of
    /// the whole certificate's (about 30 bytes a position), and positions that several
    /// parts reach are checked in each, so the check takes longer. A resumed check keeps
    /// the parts it was started with. The check of a "yes" keeps no such set and is not
    /// split
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=1000))]
    check_split: Option<u32>,
    /// Threads that build the parts of --check-split at once, each with a repairs' table
    /// of its own of the size of --repair-mb (the first thread's is the one saved)
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        requires = "check_split",
        value_parser = clap::value_parser!(u16).range(1..=256)
    )]
    check_threads: u16,
    /// Save the search's table to FILE every --checkpoint-minutes, at the end of the
    /// search and on Ctrl-C or SIGTERM (exit status 130), which also stop a certificate
    /// check; the same command run again resumes from it (after an answer, with the
    /// check). The certificate check saves itself to FILE.check at the same times and
    /// resumes from there (the file is removed when the check ends). One question at a
    /// time: needs --only or --at-least.
    #[arg(long, value_name = "FILE", requires = "one_question")]
    checkpoint: Option<std::path::PathBuf>,
    /// Minutes between checkpoints.
    #[arg(long, default_value_t = 30.0, value_parser = crate::args::minutes, requires = "checkpoint")]
    checkpoint_minutes: f64,
    /// Replace a --checkpoint FILE that cannot be resumed (another question's, damaged, or
    /// a table that --tt-mb asks to grow more than 16-fold): start over (its work is lost).
    #[arg(long, requires = "checkpoint")]
    force: bool,
    /// Search threads over the one table, 1 to 1024. With more than one, each runs the
    /// search from the root and steers away from the others' paths; the answers and
    /// their checks are the same, the node count differs from run to run (default 1,
    /// whose counts are the same every time).
    #[arg(long, short = 't', value_parser = crate::args::threads, default_value_t = 1)]
    threads: usize,
    /// Switch a technique off to measure it: mobility (new positions' proof and disproof
    /// numbers start from their number of moves; off: from 1 and 1), margin (in Kalah and
    /// Progressive the side behind on the captured margin starts with larger numbers),
    /// prefetch (every child's table bucket is asked for before the first lookup; off:
    /// the same nodes, more time).
    #[arg(long = "without", value_name = "TECHNIQUE", value_enum)]
    without: Vec<Technique>,
    /// Also the value of every legal move (both questions for each position after it);
    /// win/draw/loss games only.
    #[arg(long, conflicts_with_all = ["only", "at_least"])]
    moves: bool,
    /// Ask only whether this player wins (default: both questions, which give the value).
    #[arg(long, value_enum)]
    only: Option<Side>,
    /// In a game that counts a margin: ask whether the player of --only (default: the
    /// player to move) ends with at least POINTS (his view), instead of
    /// whether he wins. "Yes" proves the value is at least POINTS, "no" that it is below.
    #[arg(long, value_name = "POINTS", allow_hyphen_values = true, value_parser = crate::args::points)]
    at_least: Option<f64>,
    #[command(flatten)]
    record_args: RecordArgs,
    #[command(flatten)]
    db: DbArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Print a progress line every few seconds even when stderr is not a terminal: nodes,
    /// the root's numbers, and each first move as the table holds it (yes, no, its proof
    /// and disproof numbers while open, or ? when the table has nothing on it).
    #[arg(long)]
    progress: bool,
}

/// A technique of the search that `--without` switches off.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Technique {
    /// New positions' numbers from their number of moves.
    Mobility,
    /// New positions' numbers weighted against the side behind on the captured margin.
    Margin,
    /// Every child's table bucket and database entry asked for before the first lookup
    /// (a hint to the processor: the same nodes and answers, in more time).
    Prefetch,
}

/// Whose win a question asks about.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Side {
    /// The player to move.
    Mover,
    /// His opponent.
    Opponent,
}

#[derive(Serialize)]
struct Answer {
    question: String,
    /// "yes", "no" or "open" (stopped by --max-nodes).
    answer: &'static str,
    /// "checked", the check's failure, or "none" for an open question.
    certificate: String,
    /// Positions the checked certificate holds (checked in parts: counted once in each
    /// part that reached them).
    certificate_positions: usize,
    /// The most of them the check held in memory at once (below
    /// `certificate_positions` only when --check-split built the set in parts).
    certificate_held: usize,
    /// The parts --check-split cut the set into (0: checked whole).
    certificate_parts: usize,
    /// For a checked "yes" with the attacker to move at the root: the move his strategy
    /// plays there, a winning move.
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_move: Option<String>,
    /// Searches the check ran where the table had lost an entry it needed, and their nodes.
    repairs: u64,
    repair_nodes: u64,
    /// How often the check went back on a move or escape the table had suggested (the
    /// position below turned out not won, or not safe) and tried another.
    certificate_retries: u64,
    /// The size in MB of the repairs' table (--repair-mb rounded down to a power of two);
    /// `null` when no check ran.
    repair_table_mb: Option<usize>,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    max_depth: usize,
    /// Disproofs that rested on a repetition above their position, so were not stored
    /// in the table and had to be found again where needed (this run's, not a
    /// checkpoint's earlier runs').
    path_disproofs: u64,
    /// The root's proof and disproof numbers at the end.
    proof_number: u32,
    disproof_number: u32,
    /// The table's size in MB: --tt-mb rounded down to a power of two, or the
    /// checkpoint's when --tt-mb is not given.
    table_mb: usize,
    /// With --checkpoint: what the earlier runs did (nodes and seconds above are this
    /// run's).
    #[serde(skip_serializing_if = "Option::is_none")]
    resumed: Option<Earlier>,
    /// For an open answer: each first move as the search left it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    first_moves: Vec<FirstMove>,
}

/// One first move as the table holds it ([`Standing`]): in the progress lines, and in the
/// JSON of an answer left open.
#[derive(Serialize)]
struct FirstMove {
    #[serde(rename = "move")]
    mv: String,
    /// "yes" (the goal is reached after it), "no", "open", or "unseen" (not in the table:
    /// not searched yet, or its entry replaced), with the numbers of an open one.
    #[serde(flatten)]
    standing: StandingOut,
}

/// [`Standing`] as the JSON names it.
#[derive(Serialize, Clone, Copy)]
#[serde(tag = "standing", rename_all = "lowercase")]
enum StandingOut {
    Yes,
    No,
    Open {
        proof_number: u32,
        disproof_number: u32,
    },
    Unseen,
}

impl From<Standing> for StandingOut {
    fn from(s: Standing) -> Self {
        match s {
            Standing::Reached => StandingOut::Yes,
            Standing::Missed => StandingOut::No,
            Standing::Open { pn, dn } => StandingOut::Open {
                proof_number: pn,
                disproof_number: dn,
            },
            Standing::Unseen => StandingOut::Unseen,
        }
    }
}

impl FirstMove {
    /// Every first move of `root` as `table` holds it.
    fn all<G: CliGame>(
        table: &ProofTable,
        root: &G,
        goal: Goal,
        oracle: Option<&dyn Oracle<G>>,
    ) -> Vec<FirstMove> {
        standings(table, root, goal, oracle)
            .into_iter()
            .map(|(m, s)| FirstMove {
                mv: root.format_move(m),
                standing: s.into(),
            })
            .collect()
    }

    /// "A no", "B 241664/35190" (proof/disproof numbers), "C ?" (unseen), joined.
    fn line(moves: &[FirstMove]) -> String {
        let one = |f: &FirstMove| {
            let what = match f.standing {
                StandingOut::Yes => "yes".to_string(),
                StandingOut::No => "no".to_string(),
                StandingOut::Open {
                    proof_number,
                    disproof_number,
                } => format!("{proof_number}/{disproof_number}"),
                StandingOut::Unseen => "?".to_string(),
            };
            format!("{} {what}", f.mv)
        };
        moves.iter().map(one).collect::<Vec<_>>().join(", ")
    }
}

#[derive(Serialize)]
struct Output {
    game: String,
    position: String,
    to_move: String,
    /// The value for the player to move (in a win/draw/loss game +1, 0 or -1); `null`
    /// when the answers do not decide it.
    value: Option<f64>,
    /// What the answers prove of the value, in points for the player to move (a
    /// margin game's win bounds its value on one side).
    at_least: f64,
    at_most: f64,
    result: String,
    questions: Vec<Answer>,
    /// The database files whose values the answers rest on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    databases: Vec<String>,
    /// With --moves: each legal move's value for the player to move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    moves: Vec<MoveValue>,
    /// The table size in MB: the largest any question used (a resumed question keeps its
    /// checkpoint's unless --tt-mb asks for another), or --tt-mb when none was asked.
    tt_mb: usize,
    /// Search threads (--threads).
    threads: usize,
    /// The search's techniques switched off (--without), so that a measurement says
    /// what it measured.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    without: Vec<Technique>,
}

#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    /// +1, 0 or -1 for the player to move at the root; `null` when not decided.
    value: Option<f64>,
    nodes: u64,
}

impl Answer {
    /// An answer whose certificate did not hold.
    fn failed(&self) -> bool {
        self.answer != "open" && self.certificate != "checked"
    }
}

/// The goal of "does `attacker` end with points that `reach` accepts?" in `root`'s
/// values: for the player to move the least value that does, for his opponent the
/// greatest value of the mover's that does (his own goal is its negation). `None` when no
/// value of the position reaches it.
fn goal_for<G: CliGame>(root: &G, attacker: Player, reach: impl Fn(f64) -> bool) -> Option<Goal> {
    let mut grid = value_grid(root);
    let at_least = if attacker == root.to_move() {
        grid.find(|&v| reach(root.points(v)))?
    } else {
        -grid.rev().find(|&v| reach(-root.points(v)))?
    };
    Some(Goal { attacker, at_least })
}

/// What the answers proved of `root`'s value, in points for its player to move.
#[derive(Copy, Clone, Debug)]
struct Bounds {
    at_least: f64,
    at_most: f64,
}

impl Bounds {
    fn of<G: CliGame>(root: &G) -> Self {
        // The grid ends at the top of the range and starts at or just above its bottom.
        let (lower, upper) = root.value_range();
        Bounds {
            at_least: root.points(value_grid(root).next().unwrap_or(lower)),
            at_most: root.points(upper),
        }
    }

    /// Narrowed by the answer `yes` to `goal`.
    fn narrow<G: CliGame>(&mut self, root: &G, goal: Goal, yes: bool) {
        let step = root.value_step();
        let mover = goal.attacker == root.to_move();
        // The mover's values are at least `goal.at_least` (his goal) or at most
        // `-goal.at_least` (his opponent's), or on the other side when the answer is no.
        match (mover, yes) {
            (true, true) => self.at_least = self.at_least.max(root.points(goal.at_least)),
            (true, false) => self.at_most = self.at_most.min(root.points(goal.at_least - step)),
            (false, true) => self.at_most = self.at_most.min(root.points(-goal.at_least)),
            (false, false) => self.at_least = self.at_least.max(root.points(-goal.at_least + step)),
        }
    }

    fn exact(&self) -> Option<f64> {
        (self.at_least == self.at_most).then_some(self.at_least + 0.0)
    }
}

/// The questions of `asked` about `g` in turn (stopping at a proven one), each "does p
/// end with at least `points`?" (with `None`: "does p win?"), and what their answers
/// prove of `g`'s value.
fn value_of<G: CliGame>(
    g: &G,
    asked: &[Player],
    points: Option<f64>,
    a: &ProveArgs,
    oracle: Option<&dyn Oracle<G>>,
) -> Result<(Bounds, Vec<Answer>)> {
    let mut questions = Vec::new();
    let mut bounds = Bounds::of(g);
    for &attacker in asked {
        let name = G::seat_names()[attacker.index()];
        let (question, goal) = match points {
            None => (
                format!("does {name} win?"),
                goal_for(g, attacker, |p| p > 0.0),
            ),
            Some(p) => (
                format!("does {name} end with at least {}?", signed(p)),
                goal_for(g, attacker, |q| q >= p),
            ),
        };
        let Some(goal) = goal else {
            if points.is_some() {
                bail!("--at-least: {question} No value of this position reaches it");
            }
            // He cannot win: the value range already says so, and there is nothing to ask.
            continue;
        };
        let answer = ask(g, goal, &question, a, oracle)?;
        let proven = answer.certificate == "checked" && answer.answer == "yes";
        if answer.certificate == "checked" {
            bounds.narrow(g, goal, proven);
        }
        questions.push(answer);
        if proven {
            break;
        }
    }
    Ok((bounds, questions))
}

pub fn run(a: ProveArgs) -> Result<ExitCode> {
    let src = classify(&a.position)?;
    let opts = a.record_args.options();
    with_game_type!(src.game().kind, G => prove::<G>(&src, &opts, &a))
}

fn prove<G: CliGame>(src: &Source, opts: &RuleOptions, a: &ProveArgs) -> Result<ExitCode> {
    let (root, _before): (G, Vec<G>) = build_line(src, opts)?;
    if root.win_loss() && a.at_least.is_some() {
        bail!(
            "{}: --at-least asks for a margin, and these rules only say win, draw or loss (use --only to ask who wins)",
            G::NAME
        );
    }
    if root.win_loss() && a.without.contains(&Technique::Margin) {
        bail!(
            "{}: --without margin: these rules count no captured margin (it applies to Kalah and Progressive)",
            G::NAME
        );
    }
    if !root.win_loss() && a.moves {
        bail!(
            "{}: --moves gives win/draw/loss values, and these rules count a margin (use `mancala solve` for move values)",
            G::NAME
        );
    }
    if !root.win_loss() && root.can_repeat() {
        bail!(
            "{}: prove takes a game that counts a margin only where no position repeats (Kalah, Progressive); here a repetition scores the margin so far, which the search does not follow (use `mancala solve`)",
            G::NAME
        );
    }
    if root.history_dependent() {
        bail!(
            "{}: under these rules a repetition's result depends on the moves before it, which proof-number search does not follow (use `mancala solve`)",
            G::NAME
        );
    }
    let (oracle, databases) = a.db.oracle_announced(&root, a.progress)?;
    let oracle = oracle.as_deref();
    let seat = |p: Player| G::seat_names()[p.index()];
    let me = root.to_move();
    let asked: Vec<Player> = match (a.only, a.at_least) {
        (Some(Side::Mover), _) | (None, Some(_)) => vec![me],
        (Some(Side::Opponent), _) => vec![me.opponent()],
        (None, None) => vec![me, me.opponent()],
    };
    let (bounds, questions) = value_of(&root, &asked, a.at_least, a, oracle)?;
    let value = bounds.exact();
    let mut failed = questions.iter().any(Answer::failed);
    let mut moves = Vec::new();
    if a.moves {
        let mut legal = mancala_core::Moves::new();
        root.legal_moves(&mut legal);
        for &m in &legal {
            let child = root.play(m);
            let both = [child.to_move(), child.to_move().opponent()];
            let (b, questions) = value_of(&child, &both, None, a, oracle)?;
            failed |= questions.iter().any(Answer::failed);
            let flip = if child.to_move() == me { 1.0 } else { -1.0 };
            moves.push(MoveValue {
                mv: root.format_move(m),
                // + 0.0: a draw shows as 0, not -0.
                value: b.exact().map(|v| flip * v + 0.0),
                nodes: questions.iter().map(|q| q.nodes).sum(),
            });
        }
    }
    let (me_name, them) = (seat(me), seat(me.opponent()));
    let result = match value {
        Some(v) => describe(v, me_name, them, root.is_terminal(), root.win_loss()),
        None => partly(bounds, me_name, them),
    };
    let tt_mb = questions
        .iter()
        .map(|q| q.table_mb)
        .max()
        .unwrap_or_else(|| a.tt_mb());
    let out = Output {
        game: G::NAME.to_string(),
        position: root.to_text(),
        to_move: seat(me).to_string(),
        value,
        at_least: bounds.at_least,
        at_most: bounds.at_most,
        result,
        questions,
        databases,
        moves,
        tt_mb,
        threads: a.threads,
        without: switched_off(&a.without),
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_human(&out);
    }
    if failed {
        errln!(
            "mancala: a certificate did not hold, so its answer is left out of the result. \
             Where the search ran many more nodes than the table holds, the table may have lost \
             entries the check needs: a larger --tt-mb (now {} MB), --repair-nodes (now {}) or \
             --repair-mb lets the check search them again.",
            tt_mb,
            a.repair_nodes
        );
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// How old a progress report's root numbers are, when the search has been below the root
/// for a while (see [`Report`]): " (set N M nodes ago)", or nothing.
fn numbers_age(r: Report) -> String {
    let ago = r.nodes - r.updated_at;
    if ago < 1 << 22 {
        String::new()
    } else {
        format!(" (set {:.1} M nodes ago)", ago as f64 / 1e6)
    }
}

/// A question's table: new, or read from its checkpoint file, with the effort of the
/// runs before.
fn open_table(label: &str, a: &ProveArgs) -> Result<(ProofTable, Option<Earlier>)> {
    if let Some(path) = a.checkpoint.as_deref() {
        if path.exists()
            && let Some((table, earlier)) = resume(path, label, a)?
        {
            return Ok((table, Some(earlier)));
        }
        check_writable(path)?;
    }
    fresh_table(a)
}

/// The table and effort saved at `path` for the question `label`; `None` when --force
/// replaces a checkpoint that cannot be resumed (another question's, damaged, or asked to
/// grow more than 16-fold), which is refused without it. A --tt-mb of
/// another size than the saved table's moves the saved entries into a table of that size
/// (all of them into a larger one), so a long search can be given more memory between
/// two runs.
fn resume(path: &Path, label: &str, a: &ProveArgs) -> Result<Option<(ProofTable, Earlier)>> {
    let Some(saved) = unless_forced(load_proof(path, label, a.tt_mb), a.force)? else {
        return Ok(None);
    };
    let (kept, now) = (saved.saved_bytes >> 20, saved.table.bytes() >> 20);
    let moved = match (kept == now, saved.wide) {
        (true, false) => String::new(),
        (true, true) => format!(
            " of an earlier build's 16-byte entries, moved into 8-byte ones, {} dropped",
            saved.dropped
        ),
        (false, wide) => format!(
            "{}, moved into a table of {now} MB, {} entries dropped",
            if wide { " of 16-byte entries" } else { "" },
            saved.dropped
        ),
    };
    let demoted = match saved.demoted {
        0 => String::new(),
        n => format!(", {n} settled entries of one node read as leaves"),
    };
    let borrowed = match saved.borrowed {
        0 => String::new(),
        n => format!(
            ", its index taking {n} of the 36 checked bits of a key (grown from a smaller table)"
        ),
    };
    errln!(
        "resuming from {}: earlier runs {} nodes, {:.1} s ({kept} MB table{moved}{demoted}{borrowed})",
        path.display(),
        saved.nodes,
        saved.seconds,
    );
    let earlier = Earlier {
        nodes: saved.nodes,
        seconds: saved.seconds,
    };
    Ok(Some((saved.table, earlier)))
}

/// A saved file as read: what it holds, or `None` when `force` replaces a file that
/// cannot be resumed (another question's, damaged, ...), which is refused without it; a
/// failure to read it at all is an error either way.
fn unless_forced<T>(read: Result<T, ProofCheckpointError>, force: bool) -> Result<Option<T>> {
    match read {
        Ok(saved) => Ok(Some(saved)),
        Err(e @ ProofCheckpointError::Io { .. }) => Err(e.into()),
        Err(e) if force => {
            errln!("{e}: replaced (--force)");
            Ok(None)
        }
        Err(e) => bail!("{e} (--force replaces it)"),
    }
}

/// The repairs' table when --repair-mb is not given: an eighth of the search's, and room
/// for each repair several times over. Measured on `prove kalah:6x4 --at-least 12
/// --tt-mb 128`, the whole run: 16 MB, 56,795 repairs, 25.6 s; 32 MB, 20,735 repairs,
/// 18.8 s; 64 MB, 14,456 repairs, 18.5 s (before the repairs' table preferred its newest
/// entries, 16 MB had not ended after 3 minutes and 32 MB took 51,160 repairs).
fn default_repair_mb(table_mb: usize, repair_nodes: u64) -> usize {
    let room = repair_nodes
        .saturating_mul(64)
        .div_ceil(1 << 20)
        .checked_next_power_of_two()
        .and_then(|mb| usize::try_from(mb).ok())
        .unwrap_or(usize::MAX);
    (table_mb / 8).max(room)
}

/// An empty table of --tt-mb.
fn fresh_table(a: &ProveArgs) -> Result<(ProofTable, Option<Earlier>)> {
    Ok((ProofTable::try_with_mb(a.tt_mb())?, None))
}

impl ProveArgs {
    /// --tt-mb, or the default size.
    fn tt_mb(&self) -> usize {
        self.tt_mb.unwrap_or_else(mancala_solver::tt::default_mb)
    }

    /// Whether the run writes progress lines: asked for, or stderr is a terminal.
    fn shows_progress(&self) -> bool {
        crate::dispatch::shows_progress(self.progress)
    }
}

/// Asks "does `attacker` win?" and checks the answer's certificate. With --checkpoint the
/// search runs in stretches of --checkpoint-minutes, saving its table after each and on a
/// signal.
fn ask<G: CliGame>(
    root: &G,
    goal: Goal,
    question: &str,
    a: &ProveArgs,
    oracle: Option<&dyn Oracle<G>>,
) -> Result<Answer> {
    let label = format!("{} [{}]", root.to_text(), question);
    // Caught before the checkpoint is read, so that a signal after "resuming from ..."
    // stops the run (the search, or the check of an answer the checkpoint holds) instead
    // of killing it.
    if let Some(path) = &a.checkpoint {
        interrupt::catch();
        errln!(
            "checkpoint: saving {} every {} min, at the end of the search, and on Ctrl-C",
            path.display(),
            a.checkpoint_minutes
        );
    }
    let (table, earlier) = open_table(&label, a)?;
    let mut root_moves = mancala_core::Moves::new();
    root.for_each_child(|m, _| root_moves.push(m));
    // The first move the search is below, for the progress line.
    let under = |r: &Report| {
        let m = r.below.and_then(|i| root_moves.get(i).copied());
        m.map_or(String::new(), |m| {
            format!(", below {}", root.format_move(m))
        })
    };
    let table_mb = table.bytes() >> 20;
    let show = a.shows_progress();
    let stretch = Limits {
        nodes: a.max_nodes,
        seconds: a.checkpoint.as_ref().map(|_| a.checkpoint_minutes * 60.0),
        stop: Some(interrupt::flag()),
    };
    let start = Instant::now();
    let (out, check, saved) = on_search_stack(|| {
        let mut last = 0.0;
        // Nodes of the stretches before the one running.
        let total = std::cell::Cell::new(0u64);
        let mut report = |r: Report| {
            let t = start.elapsed().as_secs_f64();
            if show && t - last >= 5.0 {
                last = t;
                let nodes = total.get() + r.nodes;
                let (pn, dn) = (r.pn, r.dn);
                errln!(
                    "[{t:.0} s] {question} nodes {:.1} M ({:.2} M/s{}), root proof number {pn}, disproof number {dn}{}{}; first moves: {}",
                    nodes as f64 / 1e6,
                    nodes as f64 / 1e6 / t,
                    Earlier::in_all(earlier, nodes),
                    numbers_age(r),
                    under(&r),
                    FirstMove::line(&FirstMove::all(&table, root, goal, oracle))
                );
            }
        };
        let mut saved = Ok(());
        let mut path_disproofs = 0;
        let out = loop {
            let mut limits = stretch;
            limits.nodes = stretch.nodes.map(|n| n.saturating_sub(total.get()).max(1));
            let search = |limits| {
                let mut search = ProofSearch::new(&table, goal, limits).with_oracle(oracle);
                for technique in &a.without {
                    search = match technique {
                        Technique::Mobility => search.without_mobility(),
                        Technique::Margin => search.without_margin(),
                        Technique::Prefetch => search.without_prefetch(),
                    };
                }
                search
            };
            let o = if a.threads == 1 {
                search(limits).with_progress(&mut report).run(root)
            } else {
                let shared = Shared::default();
                // --max-nodes shared out: thread i its part, the first `rem` one more (at
                // least one node each).
                let part = |i: usize| Limits {
                    nodes: limits.nodes.map(|n| {
                        let t = a.threads as u64;
                        (n / t + u64::from((i as u64) < n % t)).max(1)
                    }),
                    ..limits
                };
                run_threads(
                    a.threads,
                    SEARCH_STACK,
                    || {
                        search(part(0))
                            .with_shared(&shared)
                            .with_progress(&mut report)
                            .run(root)
                    },
                    |i| search(part(i)).with_shared(&shared).run(root),
                )
            };
            total.set(total.get() + o.nodes);
            path_disproofs += o.path_disproofs;
            let seconds = start.elapsed().as_secs_f64();
            let out = Outcome {
                nodes: total.get(),
                seconds,
                path_disproofs,
                ..o
            };
            let spent = stretch.nodes.is_some_and(|n| total.get() >= n);
            let more = a.checkpoint.is_some() && !spent && !interrupt::requested();
            let goes_on = o.verdict == Verdict::Open && more;
            if let Some(path) = a.checkpoint.as_deref() {
                let (n, t) = earlier.map_or((0, 0.0), |e| (e.nodes, e.seconds));
                saved = save_proof(&table, path, &label, n + total.get(), t + seconds);
                if let (Err(e), true) = (&saved, goes_on) {
                    // A full disk may have room by the next stretch; the last whole
                    // checkpoint is still on disk (the write is atomic).
                    errln!(
                        "warning: checkpoint not saved: {e}; the search goes on and saves again in {} min",
                        a.checkpoint_minutes
                    );
                }
            }
            if !goes_on {
                break out;
            }
        };
        let repair_mb = a
            .repair_mb
            .unwrap_or_else(|| default_repair_mb(table_mb, a.repair_nodes));
        // The check of a big certificate takes minutes: it reports like the search.
        let mut checking = |c: &Checked| {
            let t = start.elapsed().as_secs_f64();
            if show && t - last >= 5.0 {
                last = t;
                errln!(
                    "[{t:.0} s] {question} checking the certificate: {} positions{}, {} repairs ({:.1} M nodes)",
                    c.positions,
                    in_parts(c),
                    c.repairs,
                    c.repair_nodes as f64 / 1e6
                );
            }
        };
        let checks = Checks {
            table: &table,
            goal,
            oracle,
            a,
            repair_mb,
            saving: a.checkpoint.as_deref().map(|path| SavedCheckFile {
                path: check_file(path),
                label: &label,
                minutes: a.checkpoint_minutes,
            }),
        };
        if a.check_split.is_some() && out.verdict == Verdict::Proven {
            errln!(
                "note: --check-split splits the check of a \"no\"; this \"yes\" is checked whole (its check keeps no set), on one thread"
            );
        }
        let check = match out.verdict {
            Verdict::Open => Ok((None, None)),
            Verdict::Proven => checks
                .open::<ProofCheck<G>>(root)
                .and_then(|(mut repair_table, state)| {
                    let none = &mut [];
                    checks.check::<ProofCheck<G>>(
                        root,
                        &mut repair_table,
                        none,
                        state,
                        &mut checking,
                    )
                })
                .map(|(found, mb)| (Some(found), Some(mb))),
            Verdict::Disproven => checks
                .open::<DisproofCheck<G>>(root)
                .and_then(|(mut repair_table, state)| {
                    let mut helpers = checks.helper_tables(repair_table.as_ref())?;
                    checks.check::<DisproofCheck<G>>(
                        root,
                        &mut repair_table,
                        &mut helpers,
                        state,
                        &mut checking,
                    )
                })
                .map(|(found, mb)| {
                    let found = found.map(|checked| Proof {
                        checked,
                        first_move: None,
                    });
                    (Some(found), Some(mb))
                }),
        };
        (out, check, saved)
    });
    // A check stopped by a signal gives no answer, so its search must be resumable.
    let check_stopped = matches!(check, Ok((Some(Err(CheckError::Stopped)), _)));
    match saved {
        // An answer needs no resuming: it is given, with a word about the checkpoint.
        Err(e) if out.verdict != Verdict::Open && !check_stopped => {
            errln!("warning: the final checkpoint was not saved: {e}")
        }
        // An open question stopped: the work since the last checkpoint would be lost.
        saved => saved?,
    }
    let (check, repair_table_mb) = check?;
    if (out.verdict == Verdict::Open || check_stopped)
        && interrupt::requested()
        && let Some(path) = &a.checkpoint
    {
        return Err(Interrupted { path: path.clone() }.into());
    }
    let (
        certificate,
        Proof {
            checked,
            first_move,
        },
    ) = match check {
        Some(Ok(p)) => ("checked".to_string(), p),
        Some(Err(gap)) => (format!("failed: {gap}"), Proof::default()),
        None => ("none".to_string(), Proof::default()),
    };
    Ok(Answer {
        question: question.to_string(),
        answer: match out.verdict {
            Verdict::Proven => "yes",
            Verdict::Disproven => "no",
            Verdict::Open => "open",
        },
        certificate,
        certificate_positions: checked.positions,
        certificate_held: checked.held,
        certificate_parts: checked.parts,
        winning_move: first_move.map(|m| root.format_move(m)),
        repairs: checked.repairs,
        repair_nodes: checked.repair_nodes,
        certificate_retries: checked.retries,
        repair_table_mb,
        nodes: out.nodes,
        seconds: out.seconds,
        nodes_per_second: out.nodes as f64 / out.seconds.max(1e-9),
        max_depth: out.max_depth,
        path_disproofs: out.path_disproofs,
        proof_number: out.pn,
        disproof_number: out.dn,
        table_mb,
        resumed: earlier,
        first_moves: match out.verdict {
            Verdict::Open => FirstMove::all(&table, root, goal, oracle),
            _ => Vec::new(),
        },
    })
}

/// Where a check in parts (--check-split) is, for its progress lines: the part being
/// built and the most positions held at once; nothing for a check of the whole.
fn in_parts(c: &Checked) -> String {
    match c.parts {
        0 => String::new(),
        n => format!(
            " (part {} of {n}, at most {} held)",
            (c.parts_done + 1).min(n),
            c.held
        ),
    }
}

/// What a failed allocation of the repairs' table is told as.
const REPAIR_TABLE: &str = "the certificate check's table for repairs (--repair-mb)";

/// Where a disproof check is saved: `path`, for the question `label`, every `minutes`.
struct SavedCheckFile<'l> {
    path: PathBuf,
    label: &'l str,
    minutes: f64,
}

/// The file a "no" answer's certificate check is saved to, beside the search's
/// checkpoint `path`.
fn check_file(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".check");
    PathBuf::from(name)
}

/// What the certificate checks of one answer share: the search's table and question,
/// the options, the size of a fresh repairs' table, and where a check saves itself.
struct Checks<'a, 'l, G: CliGame> {
    table: &'a ProofTable,
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    a: &'a ProveArgs,
    repair_mb: usize,
    saving: Option<SavedCheckFile<'l>>,
}

impl<'a, G: CliGame> Checks<'a, '_, G> {
    /// The repairs' table and state of the check saved beside the checkpoint, or a fresh
    /// table of --repair-mb and no state. A saved file that cannot be resumed (another
    /// question's or kind's, another position's, or damaged) is refused unless --force
    /// replaces it.
    fn open<'t, 'r, C: StretchedCheck<'a, 't, 'r, G>>(
        &self,
        root: &G,
    ) -> Result<(Option<ProofTable>, Option<C::State>)> {
        if let Some(file) = self.saving.as_ref().filter(|f| f.path.exists())
            && let Some(saved) = unless_forced(C::load(&file.path, file.label, root), self.a.force)?
        {
            let c = saved.checked;
            let mb = saved.repair_table.as_ref().map_or(0, |t| t.bytes() >> 20);
            let kept = match self.a.repair_mb {
                Some(asked) if ProofTable::bytes_for_mb(asked) >> 20 != mb => {
                    format!("; --repair-mb {asked} applies to a fresh check only")
                }
                _ => String::new(),
            };
            let kept = match self.a.check_split {
                Some(_) => format!("{kept}; --check-split applies to a fresh check only"),
                None => kept,
            };
            errln!(
                "resuming the certificate check from {}: {} positions{}, {} repairs ({:.1} M nodes) so far ({mb} MB table for repairs{kept})",
                file.path.display(),
                c.positions,
                in_parts(&c),
                c.repairs,
                c.repair_nodes as f64 / 1e6
            );
            return Ok((saved.repair_table, Some(saved.state)));
        }
        let table = ProofTable::try_with_mb(self.repair_mb).context(REPAIR_TABLE)?;
        Ok((Some(table), None))
    }

    /// The repairs' tables of the other threads of --check-threads, each of the size of
    /// `first`, the first thread's (none without repairs).
    fn helper_tables(&self, first: Option<&ProofTable>) -> Result<Vec<ProofTable>> {
        let Some(first) = first else {
            return Ok(Vec::new());
        };
        let mb = first.bytes() >> 20;
        (1..self.a.check_threads)
            .map(|_| ProofTable::try_with_mb(mb).context(REPAIR_TABLE))
            .collect()
    }

    /// Runs the check of the search's answer, going on from `state` when there is one,
    /// with repairs into `repair_table`: at once, or with a file in stretches of
    /// --checkpoint-minutes, saved after each and on a signal (which stops it, as it
    /// stops the search); the file is removed once the check ends. Gives the check's
    /// result and the size of the repairs' table in MB.
    fn check<'t, 'r, C: StretchedCheck<'a, 't, 'r, G>>(
        &self,
        root: &G,
        repair_table: &'t mut Option<ProofTable>,
        helper_tables: &'t mut [ProofTable],
        state: Option<C::State>,
        report: &'r mut dyn FnMut(&Checked),
    ) -> Result<(Result<C::Found, CheckError>, usize)> {
        let mb = repair_table.as_ref().map_or(0, |t| t.bytes() >> 20);
        let nodes = self.a.repair_nodes;
        let repair = repair_table.as_mut().map(|table| Repair { nodes, table });
        let helpers = helper_tables
            .iter_mut()
            .map(|table| Repair { nodes, table })
            .collect();
        let stop = self.saving.as_ref().map(|_| interrupt::flag());
        let inputs = CheckInputs {
            goal: self.goal,
            table: self.table,
            oracle: self.oracle,
            repair,
            report,
            stop,
            split: self.a.check_split,
            helpers,
        };
        let check = C::new(root, inputs);
        let mut check = match state {
            Some(state) => check.resumed(state),
            None => check,
        };
        let Some(file) = &self.saving else {
            let Step::Done(found) = check.run(None) else {
                unreachable!("a check without a pause runs to its end")
            };
            return Ok((found, mb));
        };
        loop {
            let pause = Instant::now() + std::time::Duration::from_secs_f64(file.minutes * 60.0);
            match check.run(Some(pause)) {
                Step::Paused => {
                    if let Err(e) = check.save(&file.path, file.label) {
                        errln!(
                            "warning: the certificate check was not saved: {e}; it goes on and saves again in {} min",
                            file.minutes
                        );
                    }
                }
                Step::Done(Err(CheckError::Stopped)) => {
                    check.save(&file.path, file.label).context(
                        "the certificate check was stopped, and its work since the last save is lost",
                    )?;
                    return Ok((Err(CheckError::Stopped), mb));
                }
                Step::Done(found) => {
                    match std::fs::remove_file(&file.path) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => errln!(
                            "warning: the saved certificate check {} was not removed: {e}",
                            file.path.display()
                        ),
                        _ => {}
                    }
                    return Ok((found, mb));
                }
            }
        }
    }
}

/// The result when the answers bound the value without fixing it.
fn partly(b: Bounds, me: &str, them: &str) -> String {
    if b.at_least > 0.0 {
        format!("{me} wins by at least {}", fmt_points(b.at_least))
    } else if b.at_most < 0.0 {
        format!("{them} wins by at least {}", fmt_points(-b.at_most))
    } else {
        format!(
            "not decided: the value for {me} is from {} to {}",
            signed(b.at_least),
            signed(b.at_most)
        )
    }
}

fn print_human(out: &Output) {
    // The position line names its game.
    outln!("{}", out.position);
    outln!("{} to move", out.to_move);
    for q in &out.questions {
        outln!(
            "{:<22} {:<4} certificate {} ({} positions, {} repairs); {} nodes, {:.2} s, depth {}",
            q.question,
            q.answer,
            q.certificate,
            q.certificate_positions,
            q.repairs,
            q.nodes,
            q.seconds,
            q.max_depth
        );
        if q.certificate_parts > 0 {
            outln!(
                "  checked in {} parts: at most {} positions held at once",
                q.certificate_parts,
                q.certificate_held
            );
        }
        if q.certificate_retries > 0 {
            outln!(
                "  the check went back on {} of the table's suggestions and tried others",
                q.certificate_retries
            );
        }
        if let Some(m) = &q.winning_move {
            outln!("  winning move (the checked strategy's first): {m}");
        }
        if !q.first_moves.is_empty() {
            outln!(
                "  first moves (proof/disproof numbers where open): {}",
                FirstMove::line(&q.first_moves)
            );
        }
    }
    if !out.moves.is_empty() {
        let show = |v: Option<f64>| v.map_or("?".to_string(), crate::cmd::solve::signed);
        let parts: Vec<String> = out
            .moves
            .iter()
            .map(|m| format!("{} {}", m.mv, show(m.value)))
            .collect();
        outln!("moves: {}", parts.join(", "));
    }
    if !out.databases.is_empty() {
        outln!("databases: {}", out.databases.join(", "));
    }
    let name = |t: &Technique| t.to_possible_value().map(|v| v.get_name().to_owned());
    print_switched_off(&out.without.iter().filter_map(name).collect::<Vec<_>>());
    match out.value {
        Some(v) => outln!("value: {} ({})", crate::cmd::solve::signed(v), out.result),
        None => outln!("value: {}", out.result),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repairs' table holds each repair several times over, rounded up (32 MB, what
    /// 61 MB rounds down to, took 20,735 repairs on `kalah:6x4 --at-least 12 --tt-mb 128`
    /// where 64 MB took 14,456), and grows with the search's table.
    #[test]
    fn the_repair_table_has_room_for_several_repairs() {
        assert_eq!(default_repair_mb(128, 1_000_000), 64);
        assert_eq!(default_repair_mb(1, 1_000_000), 64);
        assert_eq!(default_repair_mb(8192, 1_000_000), 1024);
        assert_eq!(default_repair_mb(16, 1), 2);
        assert_eq!(default_repair_mb(1, 1), 1);
        assert_eq!(default_repair_mb(64, u64::MAX), 1 << 44);
    }

    /// Root numbers set long ago say so; fresh ones print as they are.
    #[test]
    fn stale_root_numbers_are_marked() {
        let at = |nodes, updated_at| Report {
            nodes,
            pn: 3,
            dn: 2,
            updated_at,
            below: None,
        };
        assert_eq!(
            numbers_age(at(10_000_000, 1_000_000)),
            " (set 9.0 M nodes ago)"
        );
        assert_eq!(numbers_age(at(5_000_000, 4_000_000)), "");
    }
}
