//! Golden files: the output of every command on every file in `positions/` (and on the
//! named starts), captured before the architecture change so that the change can be shown
//! to keep behaviour. Figures that vary from run to run or with the search's internals
//! (node counts, times, rates, table use, principal variations) are left out; values,
//! moves, boards and verify reports are compared exactly.
//!
//! `GOLDEN_UPDATE=1 cargo test -p mancala-cli --test golden` rewrites the files.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How a case's output is compared.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Text, with run-dependent figures removed.
    Text,
    /// JSON, with run-dependent keys removed.
    Json,
    /// Text on stdout only: stderr holds progress lines with times.
    StdoutOnly,
}

struct Case {
    name: String,
    args: Vec<String>,
    kind: Kind,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every record and position file (in the game folders of `positions/`; the rows file
/// of `table --rows` beside them is no record), sorted, as paths relative to the
/// workspace root.
fn position_files() -> Vec<String> {
    let mut files = Vec::new();
    for game in std::fs::read_dir(root().join("positions")).unwrap() {
        let game = game.unwrap().path();
        if !game.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&game).unwrap() {
            let file = file.unwrap().path();
            let rel = file.strip_prefix(root()).unwrap();
            files.push(rel.to_string_lossy().into_owned());
        }
    }
    files.sort();
    files
}

/// Files whose exact solve (and analysis) takes well under a second in the test profile.
const FAST_SOLVE: &[&str] = &[
    "afrika/game-1",
    "afrika/game-2",
    "afrika/problem-1-solution-corrected",
    "afrika/problem-1-solution",
    "afrika/problem-1-wrong",
    "afrika/problem-1",
    "afrika/problem-2-solution",
    "kauri/game-4",
    "kauri/move-35-draw-line",
    "kauri/move-35",
    "progressive/game-2",
];
const FAST_ANALYSE: &[&str] = &[
    "afrika/problem-1-solution-corrected",
    "afrika/problem-1-solution",
    "afrika/problem-1",
    "kauri/move-35-draw-line",
    "kauri/move-35",
];

fn case(name: &str, args: &[&str], kind: Kind) -> Case {
    Case {
        name: name.to_string(),
        args: args.iter().map(|s| s.to_string()).collect(),
        kind,
    }
}

fn file_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for file in position_files() {
        let stem = file
            .trim_start_matches("positions/")
            .trim_end_matches(".txt")
            .to_string();
        let tag = stem.replace('/', "_");
        let f = file.as_str();
        cases.push(case(&format!("show_{tag}"), &["show", f], Kind::Text));
        cases.push(case(&format!("play_{tag}"), &["play", f], Kind::Text));
        cases.push(case(&format!("verify_{tag}"), &["verify", f], Kind::Text));
        let json = ["verify", "--json", f];
        cases.push(case(&format!("verify-json_{tag}"), &json, Kind::Json));
        if FAST_SOLVE.contains(&stem.as_str()) {
            let solve = ["solve", "-t", "1", "--tt-mb", "16", f];
            cases.push(case(&format!("solve_{tag}"), &solve, Kind::Text));
            let json = ["solve", "-t", "1", "--tt-mb", "16", "--json", f];
            cases.push(case(&format!("solve-json_{tag}"), &json, Kind::Json));
        }
        if FAST_ANALYSE.contains(&stem.as_str()) {
            let analyse = ["analyse", "-t", "1", "--tt-mb", "16", f];
            cases.push(case(&format!("analyse_{tag}"), &analyse, Kind::Text));
        }
    }
    cases
}

fn named_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let starts = [
        "afrika:8x8",
        "afrika:4x3",
        "kalah:6x4",
        "andada:6",
        "progressive:11",
        "progressive:17",
        "kauri",
    ];
    for start in starts {
        let tag = start.replace(':', "-");
        cases.push(case(&format!("show_{tag}"), &["show", start], Kind::Text));
    }
    for start in ["kalah:4x3", "andada:3", "afrika:3x2", "progressive:5x2"] {
        let tag = start.replace(':', "-");
        let solve = ["solve", "-t", "1", "--tt-mb", "16", start];
        cases.push(case(&format!("solve_{tag}"), &solve, Kind::Text));
    }
    let tables = [
        (
            "table_kalah",
            &["table", "kalah", "--holes", "1-3", "--stones", "1-2"][..],
        ),
        (
            "table_afrika",
            &["table", "afrika", "--holes", "1-3", "--stones", "1-2"],
        ),
        ("table_andada", &["table", "andada", "--holes", "3"]),
        (
            "table_progressive",
            &["table", "progressive", "--holes", "3-5", "--stones", "1"],
        ),
    ];
    for (name, args) in tables {
        cases.push(case(name, args, Kind::Text));
    }
    for game in ["afrika", "kauri", "progressive", "andada", "kalah"] {
        let args = [
            "stats", game, "--games", "10", "--seed", "1", "--first", "random",
        ];
        let mut args: Vec<&str> = args.to_vec();
        args.extend(["--second", "greedy", "-t", "1"]);
        cases.push(case(&format!("stats_{game}"), &args, Kind::Text));
    }
    cases.push(case(
        "reconstruct_problem-2",
        &[
            "reconstruct",
            "positions/afrika/problem-2-solution.txt",
            "--max-corrections",
            "0",
        ],
        Kind::Text,
    ));
    let retro = [
        "retro",
        "andada:3",
        "--out",
        "target/golden-andada-3.db",
        "--force",
    ];
    cases.push(case("retro_andada-3", &retro, Kind::StdoutOnly));
    cases.push(case("show_bad-name", &["show", "nogame:3"], Kind::Text));
    cases
}

/// Whether a token is a number (with an optional sign, decimal point or thousands commas).
fn is_number(token: &str) -> bool {
    let t = token.trim_start_matches(['(', '+', '-']);
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// Drops the run-dependent figures of a text line: a number followed by `nodes`, `s` or
/// `M` (rates), and everything from `nodes/s` on.
fn normalise_line(line: &str) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let units = ["nodes", "s", "s)", "s,", "M"];
    let mut kept = Vec::new();
    let mut changed = false;
    let mut i = 0;
    while i < tokens.len() {
        if i + 1 < tokens.len() && is_number(tokens[i]) && units.contains(&tokens[i + 1]) {
            i += 2;
            changed = true;
            continue;
        }
        kept.push(tokens[i]);
        i += 1;
    }
    if changed {
        kept.join(" ")
    } else {
        line.to_string()
    }
}

fn normalise_text(text: &str) -> String {
    let mut out = String::new();
    let mut in_pv = false;
    for line in text.lines() {
        if line.starts_with("principal variation") {
            in_pv = true;
            continue;
        }
        if in_pv && line.starts_with("  ") {
            continue;
        }
        in_pv = false;
        if line.starts_with("nodes ") {
            continue;
        }
        out.push_str(&normalise_line(line));
        out.push('\n');
    }
    out
}

const RUN_DEPENDENT_KEYS: &[&str] = &[
    "seconds",
    "nodes",
    "nodes_per_second",
    "tt_hits",
    "tt_permille",
    "max_depth",
    "pv",
    "pv_end",
];

fn strip_keys(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for key in RUN_DEPENDENT_KEYS {
                map.remove(*key);
            }
            map.values_mut().for_each(strip_keys);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_keys),
        _ => {}
    }
}

fn normalise_json(text: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(mut value) => {
            strip_keys(&mut value);
            serde_json::to_string_pretty(&value).unwrap() + "\n"
        }
        Err(_) => normalise_text(text),
    }
}

fn run(case: &Case) -> String {
    // No database of the user's data directory may change what is compared.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(&case.args)
        .env("MANCALA_DB_DIR", root().join("target/golden-no-databases"))
        .current_dir(root())
        .output()
        .expect("run mancala");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = match case.kind {
        Kind::Json => normalise_json(&stdout),
        _ => normalise_text(&stdout),
    };
    let stderr = match case.kind {
        Kind::StdoutOnly => String::new(),
        _ => normalise_text(&stderr),
    };
    format!(
        "$ mancala {}\n--- exit {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        case.args.join(" "),
        out.status.code().unwrap_or(-1)
    )
}

#[test]
fn every_command_matches_its_golden_file() {
    let dir = root().join("tests/golden");
    let update = std::env::var_os("GOLDEN_UPDATE").is_some();
    let mut cases = file_cases();
    cases.extend(named_cases());
    let mut failures = Vec::new();
    for case in &cases {
        let actual = run(case);
        let path = dir.join(format!("{}.txt", case.name));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n{}",
                path.display(),
                first_difference(&expected, &actual)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn first_difference(expected: &str, actual: &str) -> String {
    let mut e = expected.lines();
    let mut a = actual.lines();
    for n in 1.. {
        match (e.next(), a.next()) {
            (None, None) => break,
            (x, y) if x == y => continue,
            (x, y) => return format!("  line {n}: expected {x:?}\n  line {n}:   actual {y:?}"),
        }
    }
    String::new()
}
