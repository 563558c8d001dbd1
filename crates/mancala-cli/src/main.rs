//! `mancala`: solve, verify, show and measure mancala games.

#[macro_use]
mod out;

mod args;
mod cmd;
mod dispatch;
mod files;
mod input;
mod interrupt;
mod position;

use cmd::{analyse, play, prove, reconstruct, retro, show, solve, stats, table, verify};

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Game-tree search engine and solver for mancala games (Afrika, Kauri, Progressive
/// Mancala, Andada and Kalah): solve positions, prove wins and draws, verify and analyse published records,
/// build retrograde databases, measure games by self-play.
///
/// Exit status: 0 on success, 1 when a command's check failed (`verify --strict`, some
/// cells of `table`), 2 on bad input or an error, 130 when a solve with --checkpoint was
/// interrupted (Ctrl-C or SIGTERM) and saved its checkpoint.
#[derive(Parser, Debug)]
#[command(name = "mancala", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Solve(solve::SolveArgs),
    Prove(prove::ProveArgs),
    Show(show::ShowArgs),
    Play(play::PlayArgs),
    Retro(retro::RetroArgs),
    Table(table::TableArgs),
    Verify(verify::VerifyArgs),
    Analyse(analyse::AnalyseArgs),
    Stats(stats::StatsArgs),
    Reconstruct(reconstruct::ReconstructArgs),
}

/// Writing to a closed pipe (`mancala stats ... | head`) ends the program quietly, as Unix
/// tools do, instead of a panic in `println!`: Rust ignores SIGPIPE by default, so the
/// default action is restored before anything is printed.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Starts rayon's global pool of worker threads when `needed`. Started lazily at its
/// first use inside a library, a thread the system refuses is a panic ("The global thread
/// pool has not been initialized"); started here it is an error naming the cause.
fn start_worker_pool(needed: bool) -> anyhow::Result<()> {
    if !needed {
        return Ok(());
    }
    rayon::ThreadPoolBuilder::new().build_global().map_err(|e| {
        let asked = std::env::var("RAYON_NUM_THREADS")
            .map(|n| format!(" (RAYON_NUM_THREADS={n})"))
            .unwrap_or_default();
        anyhow::anyhow!("cannot start the worker threads{asked}: {e}")
    })
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    // The README's test checks the arguments of its long-running examples (database
    // builds, hour-long solves) without running them.
    if std::env::var_os("MANCALA_CHECK_ARGS").is_some() {
        return ExitCode::SUCCESS;
    }
    // Commands whose libraries use rayon's global pool (table allocation, retrograde
    // builds) start it here, where a refusal is an error; `stats` builds its own pool.
    let uses_pool = matches!(
        cli.command,
        Command::Solve(_)
            | Command::Retro(_)
            | Command::Table(_)
            | Command::Analyse(_)
            | Command::Reconstruct(_)
    );
    let r = start_worker_pool(uses_pool).and_then(|()| match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Prove(a) => prove::run(a),
        Command::Show(a) => show::show(a),
        Command::Play(a) => play::play(a),
        Command::Retro(a) => retro::run(a),
        Command::Table(a) => table::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Reconstruct(a) => reconstruct::run(a),
    });
    out::flush();
    match r {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {}", chain_text(&e));
            if e.is::<cmd::checkpointing::Interrupted>() {
                ExitCode::from(interrupt::EXIT_STATUS)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// An error and its causes, "a: b: c", each cause once: the library errors that name a
/// file already end their message with their cause (`{path}: {source}`), which anyhow's
/// `{:#}` would print a second time.
fn chain_text(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.ends_with(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::chain_text;
    use anyhow::Context;

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        #[derive(Debug, thiserror::Error)]
        #[error("ck.partial: {source}")]
        struct Save {
            source: std::io::Error,
        }
        let io = || std::io::Error::other("disk full");
        let e = anyhow::Error::new(Save { source: io() });
        assert_eq!(chain_text(&e), "ck.partial: disk full");
        let e = Err::<(), _>(io()).context("saving").unwrap_err();
        assert_eq!(chain_text(&e), "saving: disk full");
    }
}
