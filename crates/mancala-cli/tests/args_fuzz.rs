//! Mutation fuzzing of the command line: valid invocations of every command with one
//! argument replaced, inserted, deleted or duplicated (odd numbers, huge values, NaN,
//! empty strings, other options). The property: the program ends by itself with exit
//! status 0, 1 or 2, never a panic or a signal.
//!
//! The default run tries 60 invocations (a few seconds); more with
//! `MANCALA_FUZZ_CASES=5000 cargo test --release -p mancala-cli --test args_fuzz -- --nocapture`.
//! An invocation that is still running after 10 s (a mutation may ask for a big solve)
//! is stopped and counted, not failed.

use std::process::{Command, Stdio};

use mancala_core::game::SplitMix;
use std::time::{Duration, Instant};

const VALUES: &[&str] = &[
    "",
    "-",
    "--",
    "0",
    "-1",
    "1",
    "2.5",
    "-1.5",
    "NaN",
    "inf",
    "1e309",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "kalah:3x2",
    "kalah:0x0",
    "kalah:13x1",
    "afrika:3x2",
    "andada:5",
    "progressive:4",
    "kauri",
    "nogame:1",
    "--json",
    "--help",
    "--komi",
    "--rules",
    "standard-capture",
    "giveaway",
    "--threads",
    "--tt-mb",
    "--seconds",
    "--games",
    "--ply",
    "--db",
    "/nonexistent/file",
    "é",
    "1-1000",
    "3-1",
];

fn positions(file: &str) -> String {
    format!("{}/../../positions/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// Valid, quick invocations of every command.
fn bases() -> Vec<Vec<String>> {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["solve", "kalah:3x2", "-t", "1", "--tt-mb", "64"]),
        v(&["show", "afrika:3x2", "--komi", "2.5"]),
        v(&["play", &positions("afrika/game-1.txt"), "--ply", "5"]),
        v(&["verify", &positions("kauri/game-1.txt"), "--json"]),
        v(&[
            "table",
            "kalah",
            "--holes",
            "1-2",
            "--stones",
            "1-2",
            "-t",
            "1",
            "--tt-mb",
            "64",
            "--seconds",
            "2",
        ]),
        v(&[
            "stats",
            "kalah:3x2",
            "--games",
            "20",
            "--seed",
            "3",
            "-t",
            "1",
        ]),
        v(&[
            "analyse",
            &positions("kauri/move-35.txt"),
            "-t",
            "1",
            "--tt-mb",
            "64",
        ]),
        v(&[
            "reconstruct",
            &positions("afrika/problem-1-solution.txt"),
            "--no-solve",
            "--max-corrections",
            "0",
        ]),
        v(&["retro", "andada:3", "--out", "fuzz.db", "--force"]),
    ]
}

fn mutate(base: &[String], rng: &mut SplitMix) -> Vec<String> {
    let mut args = base.to_vec();
    let value = VALUES[rng.below(VALUES.len())].to_string();
    // The command name is mutated too, but rarely.
    let i = if rng.below(10) == 0 {
        0
    } else {
        1 + rng.below(args.len() - 1)
    };
    match rng.below(4) {
        0 => args[i] = value,
        1 => args.insert(i, value),
        2 => drop(args.remove(i)),
        _ => {
            let a = args[i].clone();
            args.insert(i, a);
        }
    }
    args
}

#[test]
fn mutated_command_lines_end_cleanly() {
    let cases: u64 = std::env::var("MANCALA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("MANCALA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let mut rng = SplitMix(seed);
    // Where the commands write (removed when `dir` is dropped, pass or fail).
    let dir = tempfile::Builder::new()
        .prefix("mancala-args-fuzz-")
        .tempdir()
        .unwrap();
    let bases = bases();
    let (mut stopped, mut failures) = (0, Vec::new());
    for _ in 0..cases {
        let base = &bases[rng.below(bases.len())];
        let args = mutate(base, &mut rng);
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .current_dir(dir.path())
            .env("MANCALA_DB_DIR", dir.path())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if t0.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let Some(status) = status else {
            stopped += 1;
            continue;
        };
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        let clean = matches!(status.code(), Some(0..=2)) && !err.contains("panicked");
        if !clean {
            failures.push(format!("{args:?}: {status:?}\n{err}"));
        }
    }
    eprintln!(
        "argument fuzz: {cases} command lines; {} ended badly, {stopped} stopped after 10 s",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
