//! Every example command of README.md, run: the quick start's `cargo run` lines, the
//! `$ mancala ...` blocks (their output compared with what the program prints), and the
//! commands quoted in the text. Syntax summaries with placeholders (`mancala solve
//! POSITION`) are skipped; commands that take minutes or build databases (listed in
//! `HEAVY`) only have their arguments checked (`MANCALA_CHECK_ARGS`: parsed and
//! validated, not run), unless `MANCALA_README_ALL=1` runs them too.

use std::io::Write;
use std::process::{Command, Stdio};

/// README commands too long for the default suite, run only with MANCALA_README_ALL=1.
const HEAVY: &[&str] = &[
    "retro afrika:8 --max-stones 10",
    "retro afrika:8 --max-stones 16",
    "retro afrika:8 --max-stones 18",
    "retro andada:3",
    "retro andada:6 --max-stones 19 --out andada-6.db",
    // Writes its database where it runs; prove_cli.rs builds and reads a smaller one.
    "retro andada:6 --max-stones 12",
    "prove andada:6 --db andada-6-16.db --moves --tt-mb 1024",
    // 78.7 M nodes: minutes in the test build.
    "prove andada:6 --tt-mb 6144 --progress --json",
    // Give-away Afrika on the real board: 2.28 G nodes, 15 minutes in a release build.
    "prove afrika:8x8 --rules giveaway --only mover --tt-mb 4096",
    "retro kalah:6 --max-seeds 20",
    "retro kauri",
    "solve kalah:6x4",
    "solve kalah:6x5 --value-only -t 2 --tt-mb 4096",
    // The tie-break solves build the 2,704,156-position cowrie-phase table first: 20-25 s
    // in the test build. Their values are pinned by the solver's published_values.rs.
    "solve positions/kauri/move-35.txt --rules tiebreak",
    "solve positions/kauri/move-35.txt -t 1 --tt-mb 64 --rules tiebreak",
    "solve andada:6 --db andada-6.db",
    "table afrika --holes 1-5 --stones 1-4 --seconds 30",
    // The whole rows file: about a minute; its quick rows run in table_rows_cli.rs.
    "table --rows positions/solutions.txt -t 1 --tt-mb 256",
    // Writes its checkpoint file where it runs; checkpoint_cli.rs runs one.
    "solve kalah:5x4 -t 1 --tt-mb 64 --checkpoint kalah-5x4.ckpt",
    "table kalah --holes 1-6 --stones 1-4",
    "table progressive --holes 3-11 --stones 1-3 --seconds 30",
];

/// One example: the arguments after `mancala`, what goes to standard input, and the
/// output the README shows (empty: none shown).
struct Example {
    args: String,
    stdin: Option<String>,
    shown: Vec<String>,
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap()
}

/// A placeholder word of a syntax summary: FILE, POSITION, GAME, N, A-B, "...", or an
/// optional part in brackets (`[--db FILE]`).
fn is_placeholder(word: &str) -> bool {
    word.contains("...")
        || word.starts_with('[')
        || word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '-' || c == '.')
            && word.chars().any(|c| c.is_ascii_uppercase())
            && !word.starts_with("--")
}

fn examples(text: &str) -> (Vec<Example>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut in_block = false;
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            let code = line.split("  #").next().unwrap_or(line).trim();
            if let Some(rest) = code.strip_prefix("$ mancala ") {
                let mut shown = Vec::new();
                while i < lines.len() && !lines[i].starts_with("```") && !lines[i].is_empty() {
                    shown.push(lines[i].to_string());
                    i += 1;
                }
                out.push(Example {
                    args: rest.to_string(),
                    stdin: None,
                    shown,
                });
            } else if let Some((_, rest)) = code.split_once("cargo run --release -- ") {
                let stdin = code
                    .strip_prefix("echo \"")
                    .and_then(|s| s.split_once('"'))
                    .map(|(s, _)| format!("{s}\n"));
                out.push(Example {
                    args: rest.to_string(),
                    stdin,
                    shown: Vec::new(),
                });
            } else if code.starts_with("cargo ") {
                skipped += 1; // `cargo test`: this suite itself.
            }
            continue;
        }
        // A code span may wrap onto the next line (Markdown reads the line break as a
        // space), so the spans are read from the whole paragraph.
        let mut paragraph = line.to_string();
        while i < lines.len() && !lines[i].trim().is_empty() && !lines[i].starts_with("```") {
            paragraph.push(' ');
            paragraph.push_str(lines[i]);
            i += 1;
        }
        skipped += inline_commands(&paragraph, &mut out);
    }
    (out, skipped)
}

/// The `mancala ...` code spans of one paragraph, added to `out`; returns how many were
/// syntax summaries (skipped).
fn inline_commands(paragraph: &str, out: &mut Vec<Example>) -> usize {
    let mut skipped = 0;
    for span in paragraph.split('`').skip(1).step_by(2) {
        let span = span.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(rest) = span.strip_prefix("mancala ") {
            // A command's name alone names the command; placeholders make a summary.
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.len() < 2 || words.iter().any(|w| is_placeholder(w)) || rest.starts_with("--")
            {
                skipped += 1;
            } else {
                out.push(Example {
                    args: rest.to_string(),
                    stdin: None,
                    shown: Vec::new(),
                });
            }
        }
    }
    skipped
}

/// Whether `actual` shows the lines the README shows, in order: every line as printed,
/// except the statistics line after "nodes N" (times vary) and "..." (lines left out).
fn shows(actual: &str, shown: &[String]) -> Result<(), String> {
    if shown.is_empty() {
        return Ok(());
    }
    let actual: Vec<&str> = actual.lines().collect();
    let abridged = shown.iter().any(|l| l == "...");
    let mut at = 0;
    for want in shown.iter().filter(|l| *l != "...") {
        let same = |got: &str| {
            if want.starts_with("nodes ") {
                got.split_whitespace()
                    .take(2)
                    .eq(want.split_whitespace().take(2))
            } else {
                got == want
            }
        };
        match actual[at.min(actual.len())..].iter().position(|g| same(g)) {
            Some(k) if abridged || k == 0 => at += k + 1,
            _ => {
                return Err(format!(
                    "the README shows \"{want}\"; the program printed:\n{}",
                    actual.join("\n")
                ));
            }
        }
    }
    if !abridged && at != actual.len() {
        return Err(format!(
            "the program printed more than the README shows:\n{}",
            actual[at..].join("\n")
        ));
    }
    Ok(())
}

/// A command quoted in the text and wrapped onto the next line is read whole: stop 38's
/// README ran `mancala retro andada:6` (a 19-seed build, half an hour in the test build)
/// and `mancala prove andada:6 --db`, both cut at the line break.
#[test]
fn a_code_span_wrapped_onto_the_next_line_is_read_whole() {
    let text = "with the classes (`mancala retro andada:6\n  --max-stones 12`, 5 s) and\n`mancala show kalah:6x4`.\n\n`mancala solve\nkalah:4x3` or `mancala solve kalah:4x3\n[--db x.db]`\n";
    let (found, skipped) = examples(text);
    let args: Vec<&str> = found.iter().map(|e| e.args.as_str()).collect();
    assert_eq!(
        args,
        [
            "retro andada:6 --max-stones 12",
            "show kalah:6x4",
            "solve kalah:4x3"
        ]
    );
    assert_eq!(skipped, 1, "the bracketed option makes a syntax summary");
}

#[test]
fn every_readme_example_runs_as_shown() {
    let text = readme();
    let (examples, skipped) = examples(&text);
    for h in HEAVY {
        assert!(
            examples.iter().any(|e| e.args == *h),
            "HEAVY lists \"{h}\", which the README no longer has"
        );
    }
    let all = std::env::var_os("MANCALA_README_ALL").is_some();
    let (mut ran, mut checked) = (0, 0);
    let mut failures = Vec::new();
    let mut slow = Vec::new();
    for e in &examples {
        let heavy = HEAVY.contains(&e.args.as_str()) && !all;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mancala"));
        // The examples show what the program prints without databases installed.
        cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .env(
                "MANCALA_DB_DIR",
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../target/readme-no-databases"
                ),
            )
            .args(e.args.split_whitespace())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if heavy {
            cmd.env("MANCALA_CHECK_ARGS", "1");
        }
        let started = std::time::Instant::now();
        let mut child = cmd.spawn().unwrap();
        if let Some(input) = &e.stdin {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
        }
        drop(child.stdin.take());
        let o = child.wait_with_output().unwrap();
        let took = started.elapsed().as_secs_f64();
        if took > 2.0 && !heavy {
            // Candidates for HEAVY: the default suite should take seconds.
            slow.push(format!("{:.1} s  mancala {}", took, e.args));
        }
        if !o.status.success() {
            failures.push(format!(
                "mancala {}: exit {:?}: {}",
                e.args,
                o.status.code(),
                String::from_utf8_lossy(&o.stderr)
            ));
            continue;
        }
        if heavy {
            checked += 1;
            continue;
        }
        ran += 1;
        if let Err(why) = shows(&String::from_utf8_lossy(&o.stdout), &e.shown) {
            failures.push(format!("mancala {}: {why}", e.args));
        }
    }
    eprintln!(
        "README examples: {ran} run, {checked} long ones with arguments checked only, \
         {skipped} syntax summaries or cargo lines skipped"
    );
    if !slow.is_empty() {
        eprintln!("README examples over 2 s:\n{}", slow.join("\n"));
    }
    assert!(ran >= 8, "only {ran} README examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The position lines of the README's "Position text" table, each with every optional
/// field of its row added in turn: `show` reads every one.
#[test]
fn every_readme_position_line_reads() {
    let text = readme();
    let mut shown = 0;
    for row in text.lines().filter(|l| l.starts_with("| ")) {
        let spans: Vec<&str> = row.split('`').skip(1).step_by(2).collect();
        let Some(base) = spans.first() else { continue };
        let game = base.split_whitespace().next().unwrap_or("");
        let is_line = ["afrika", "kauri", "progressive", "andada", "kalah"].contains(&game)
            && base.contains(" to-move:");
        if !is_line || base.contains("...") {
            continue;
        }
        let mut lines = vec![base.to_string()];
        lines.extend(spans[1..].iter().map(|field| format!("{base} {field}")));
        for line in lines {
            let o = Command::new(env!("CARGO_BIN_EXE_mancala"))
                .args(["show", &line])
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{line}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            shown += 1;
        }
    }
    assert!(shown >= 8, "only {shown} position lines found");
}

#[test]
fn the_output_comparison_can_fail() {
    let shown = vec!["value: 0 (draw)".to_string(), "nodes 10 in 1 s".to_string()];
    assert!(shows("value: 0 (draw)\nnodes 10 in 2 s", &shown).is_ok());
    assert!(shows("value: +1\nnodes 10 in 2 s", &shown).is_err());
    assert!(shows("value: 0 (draw)\nnodes 11 in 2 s", &shown).is_err());
    assert!(shows("value: 0 (draw)\nnodes 10 in 2 s\nmore", &shown).is_err());
    assert!(shows("anything", &[]).is_ok());
    assert!(is_placeholder("FILE...") && is_placeholder("A-B") && !is_placeholder("kalah:6x4"));
}

/// The toolchain the quick start asks for is the workspace's declared `rust-version` (the
/// README said 1.85 after the manifest had moved to 1.88 for let-chains).
#[test]
fn the_readme_asks_for_the_declared_rust_version() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("rust-version in the workspace manifest");
    let text = readme();
    let claims: Vec<&str> = text
        .match_indices(" or later")
        .filter_map(|(i, _)| text[..i].rsplit(['(', ' ']).next())
        .filter(|v| v.starts_with("1."))
        .collect();
    assert!(!claims.is_empty(), "the README names no Rust version");
    for claim in claims {
        assert_eq!(claim, version, "the README asks for Rust {claim}");
    }
}
