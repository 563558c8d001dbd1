//! Every option value is checked when the arguments are read, options a game does not
//! use are errors, and nothing crashes or prints a value it did not compute.

mod common;

use common::{mancala, write_file};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit 2 with `expect` in the error, and no panic.
fn refused(args: &[&str], expect: &str) {
    let o = mancala(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(e.contains(expect), "{args:?}: {e}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
}

/// Asserts that the command exited with `code` and printed `expect` on stdout.
fn assert_printed(o: &Output, code: i32, expect: &str) {
    assert_eq!(o.status.code(), Some(code), "{}", stderr(o));
    assert!(stdout(o).contains(expect), "{}", stdout(o));
}

/// A file `name` in `dir` that a command must not overwrite.
fn file_to_keep(dir: &Path, name: &str) -> PathBuf {
    write_file(dir, name, "keep me")
}

/// Asserts that nothing overwrote `file`.
fn assert_kept(file: &Path) {
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(text, "keep me", "{}", file.display());
}

/// `mancala reconstruct FILE --max-corrections 1 --no-solve`.
fn reconstruct_with_one_correction(file: &Path) -> Output {
    mancala(&[
        "reconstruct",
        file.to_str().unwrap(),
        "--max-corrections",
        "1",
        "--no-solve",
    ])
}

#[test]
fn out_of_range_values_are_refused_before_anything_runs() {
    refused(
        &["table", "kalah", "--holes", "2", "--seconds", "NaN"],
        "--seconds",
    );
    refused(
        &["table", "kalah", "--holes", "2", "--seconds=-1"],
        "--seconds",
    );
    refused(&["table", "kalah", "--holes", "2", "-t", "0"], "--threads");
    // Every command takes 1 to 1024 threads, one per core by default: stats no longer
    // reads 0 as "all cores" where the others refuse it.
    refused(&["solve", "kalah:2x1", "-t", "0"], "--threads");
    refused(&["stats", "kalah:4x2", "-t", "0"], "--threads");
    refused(&["stats", "kalah:4x2", "-t", "1025"], "expected 1 to 1024");
    // A table of 0 MB silently became 1 MB; --etc took any 32-bit number.
    refused(
        &["solve", "kalah:2x1", "--tt-mb", "0"],
        "transposition table size",
    );
    refused(
        &["table", "kalah", "--holes", "1", "--tt-mb", "0"],
        "transposition table size",
    );
    refused(&["solve", "kalah:2x1", "--etc", "4000000000"], "--etc");
    refused(
        &["analyse", "positions/afrika/problem-1.txt", "-t", "0"],
        "--threads",
    );
    refused(
        &["solve", "kalah:4x2", "--threads", "99999999999999999999"],
        "--threads",
    );
    refused(
        &["stats", "kalah:4x2", "--games", "18446744073709551615"],
        "--games",
    );
    refused(&["stats", "kalah:4x2", "--games", "0"], "--games");
    // Memory no longer grows with the games, but a run's time stays bounded.
    refused(
        &["stats", "kalah:4x2", "--games", "10000000000"],
        "expected 1 to 1000000000",
    );
    refused(&["stats", "kalah:4x2", "--max-plies", "0"], "--max-plies");
    refused(&["table", "kalah", "--holes", "1-99999999999"], "--holes");
    refused(&["table", "kalah", "--holes", "6-2"], "empty");
    // Andada always has 2 seeds per hole: --stones was silently ignored.
    refused(
        &["table", "andada", "--holes", "3", "--stones", "5"],
        "andada has a fixed number of stones per hole",
    );
    // Databases beyond the machine: refused before anything is allocated or written.
    let dir = common::temp_dir("huge");
    let out = dir.join("huge.db");
    let out = out.to_str().unwrap();
    refused(
        &["retro", "kalah:12", "--max-seeds", "255", "--out", out],
        "MB of memory",
    );
    refused(
        &["retro", "afrika:12", "--max-stones", "200", "--out", out],
        "MB of memory",
    );
    refused(&["retro", "andada:24"], "MB of memory");
    assert!(!std::path::Path::new(&format!("{out}.partial")).exists());
    refused(&["solve", "afrika:3x2", "--komi", "2.25"], "--komi");
    refused(&["solve", "afrika:3x2", "--komi", "500"], "out of range");
}

#[test]
fn a_negative_komi_needs_no_equals_sign() {
    let o = mancala(&["show", "afrika:3x2", "--komi", "-1.5"]);
    assert_printed(&o, 0, "komi -1.5 to South");
}

#[test]
fn options_a_game_does_not_use_are_errors() {
    refused(
        &["solve", "kalah:4x2", "--komi", "2.5"],
        "kalah has no komi",
    );
    refused(&["show", "andada:3", "--komi", "1"], "andada has no komi");
    // Give-away Afrika is won, drawn or lost: a komi was shown and had no effect.
    for args in [
        &[
            "solve",
            "afrika:3x1",
            "--rules",
            "giveaway",
            "--komi",
            "10.5",
        ][..],
        &["prove", "afrika:3x1", "--rules", "giveaway,komi=2.5"],
        &[
            "show",
            "afrika south:1,1,1 north:1,1,1 to-move:north ending:giveaway komi:2.5",
        ],
    ] {
        refused(args, "has no effect under the Give-away rules");
    }
    refused(
        &["show", "afrika:3x1", "--rules", "65,giveaway"],
        "\"65\" and \"giveaway\" contradict each other",
    );
    // Options with nothing to act on; a database no player reads, and a database folder
    // that is not there.
    let nothing_to_act_on: [(&[&str], &str); 7] = [
        (
            &[
                "table", "kalah", "--holes", "1", "--stones", "1", "--only", "12",
            ],
            "--only picks rows of a --rows file",
        ),
        (
            &["solve", "kalah:3x2", "--at-least", "1", "--pv-limit", "3"],
            "cannot be used with",
        ),
        (
            &["solve", "kalah:3x2", "--without", "etc", "--etc", "3"],
            "switched off (--without etc)",
        ),
        (
            &["prove", "andada:3", "--without", "margin"],
            "these rules count no captured margin",
        ),
        (
            &["verify", "--game", "progressive", "-", "-"],
            "it can be read once",
        ),
        (
            &[
                "stats",
                "kalah:2x2",
                "--games",
                "3",
                "--db",
                "/nonexistent.db",
            ],
            "only a perfect player reads databases",
        ),
        (
            &[
                "solve",
                "kalah:3x2",
                "--tt-mb",
                "4",
                "--db-dir",
                "/nonexistent-dir",
            ],
            "--db-dir /nonexistent-dir: no such folder",
        ),
    ];
    for (args, expect) in nothing_to_act_on {
        refused(args, expect);
    }
    refused(
        &["table", "kalah", "--holes", "2", "--komi", "1"],
        "no cell",
    );
    refused(
        &["retro", "afrika:2", "--rules", "giveaway"],
        "standard rules only",
    );
    refused(&["retro", "kauri", "--max-stones", "3"], "--max-stones");
    refused(&["retro", "afrika:2", "--db-dir", "/tmp"], "--db-dir");
}

/// Database options a command would not use: --db-dir beside --db (solve, analyse) or
/// --out (retro), and --db-dir for a game that keeps no databases there, were ignored.
#[test]
fn unused_database_options_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "afrika:2x1", "--db-dir", "/tmp"],
            "--db-dir /tmp: afrika keeps no databases in a data directory",
        ),
        (
            &["solve", "kalah:2x1", "--db", "x.db", "--db-dir", "/tmp"],
            "cannot be used with",
        ),
        (
            &[
                "analyse",
                "positions/afrika/problem-1.txt",
                "--db",
                "x.db",
                "--db-dir",
                "/tmp",
            ],
            "cannot be used with",
        ),
        (
            &["retro", "kalah:2", "--out", "x.db", "--db-dir", "/tmp"],
            "cannot be used with",
        ),
        (
            &[
                "table", "afrika", "--holes", "1", "--stones", "1", "--db-dir", "/tmp",
            ],
            "afrika keeps no databases",
        ),
    ];
    for (args, expect) in cases {
        refused(args, expect);
    }
}

#[test]
fn retro_never_overwrites_without_force() {
    let dir = common::temp_dir("options");
    let out = file_to_keep(&dir, "andada.db");
    refused(
        &["retro", "andada:3", "--out", out.to_str().unwrap()],
        "--force",
    );
    assert_kept(&out);
}

/// --force replaces a file, never a link, a device or a folder in its place: saves are
/// renamed over their target, so `retro --out /dev/full --force` (as root) had replaced
/// the device with a regular file.
#[cfg(unix)]
#[test]
fn force_replaces_only_regular_files() {
    let dir = common::temp_dir("force-kind");
    let kept = file_to_keep(&dir, "kept.txt");
    let link = dir.join("link");
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    let link_path = link.to_str().unwrap();
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let expect = "not a regular file";
    refused(
        &[
            "retro",
            "afrika:2",
            "--max-stones",
            "1",
            "--out",
            link_path,
            "--force",
        ],
        expect,
    );
    refused(
        &["show", "kalah:2x1", "--svg", link_path, "--force"],
        expect,
    );
    let ck = ["solve", "kalah:2x1", "--tt-mb", "4", "--checkpoint"];
    refused(
        &[&ck[..], &[folder.to_str().unwrap(), "--force"]].concat(),
        expect,
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_kept(&kept);
    assert!(folder.is_dir());
}

/// `show --svg FILE` and `stats --plot DIR` used to replace existing files silently; now
/// only with --force (which is itself refused without the option it applies to).
#[test]
fn show_and_stats_never_overwrite_without_force() {
    let dir = common::temp_dir("force");
    let svg = file_to_keep(&dir, "board.svg");
    let svg_path = svg.to_str().unwrap();
    refused(
        &["show", "kalah:2x1", "--svg", svg_path],
        "the file exists (--force replaces it)",
    );
    assert_kept(&svg);
    let o = mancala(&["show", "kalah:2x1", "--svg", svg_path, "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    refused(&["show", "kalah:2x1", "--force"], "--svg");

    let plots = dir.join("plots");
    std::fs::create_dir_all(&plots).unwrap();
    let margin = file_to_keep(&plots, "margin.svg");
    let plot_dir = plots.to_str().unwrap();
    let stats = [
        "stats",
        "kalah:2x1",
        "--games",
        "5",
        "-t",
        "1",
        "--plot",
        plot_dir,
    ];
    refused(&stats, "margin.svg: the file exists (--force replaces it)");
    assert_kept(&margin);
    assert!(!plots.join("length.svg").exists(), "nothing written");
    let o = mancala(&[&stats[..], &["--force"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for chart in ["length.svg", "branching.svg", "margin.svg"] {
        let text = std::fs::read_to_string(plots.join(chart)).unwrap();
        assert!(text.starts_with("<svg"), "{chart}: {text}");
    }
    refused(&["stats", "kalah:2x1", "--games", "5", "--force"], "--plot");
}

#[test]
fn table_exit_status_says_whether_cells_could_be_set_up() {
    // Every cell impossible (more than 255 seeds): an error.
    refused(
        &["table", "kalah", "--holes", "1-2", "--stones", "200"],
        "no cell",
    );
    // Some impossible: the others are solved, exit 1.
    let table = [
        "table", "kalah", "--holes", "1", "--stones", "127-128", "-t", "1",
    ];
    let o = mancala(&table);
    assert_printed(&o, 1, " 1 x 127 first (South) wins");
    assert!(stderr(&o).contains("could not be set up"), "{}", stderr(&o));
}

#[test]
fn analyse_prints_no_value_it_did_not_compute() {
    let o = mancala(&[
        "analyse",
        "positions/kauri/move-35.txt",
        "-t",
        "1",
        "--tt-mb",
        "64",
    ]);
    assert_printed(&o, 0, "value at the start unknown");
    let o = mancala(&[
        "analyse",
        "positions/kauri/move-35.txt",
        "--json",
        "-t",
        "1",
        "--tt-mb",
        "64",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["start_value"].is_null(), "{v}");
}

#[test]
fn play_takes_every_position_form_solve_takes() {
    let dir = common::temp_dir("play");
    let line = "afrika south:1,0,0,3,0,2,2,0 north:0,4,4,0,1,0,0,5 south-store:54 \
                north-store:52 to-move:south";
    let file = write_file(&dir, "line.txt", format!("# a position line\n{line}\n"));
    let o = mancala(&["play", file.to_str().unwrap()]);
    assert_printed(&o, 0, "captured: North 52, South 54");
    // A bare move list with --game.
    let bare = write_file(&dir, "bare.txt", "1. a A 2. b\n");
    let o = mancala(&["play", bare.to_str().unwrap(), "--game", "afrika"]);
    assert_printed(&o, 0, "ply 3:");
    // --ply past the record's end is refused, as by show and solve (play used to play
    // the whole record and exit 0).
    let bare_path = bare.to_str().unwrap();
    refused(
        &["play", bare_path, "--game", "afrika", "--ply", "4"],
        "--ply 4, but the record has only 3 moves",
    );
    // A named start and an inline position line.
    for arg in ["kalah:4x2", line] {
        let o = mancala(&["play", arg]);
        assert!(o.status.success(), "{arg}: {}", stderr(&o));
    }
    // --game must agree with the game of any argument: it was ignored for a named start,
    // an inline position line and a position-line file.
    let file_arg = file.to_str().unwrap();
    for (arg, game) in [
        ("kalah:4x2", "kalah"),
        (line, "afrika"),
        (file_arg, "afrika"),
    ] {
        let o = mancala(&["play", arg, "--game", game]);
        assert!(o.status.success(), "{arg}: {}", stderr(&o));
        refused(
            &["play", arg, "--game", "kauri"],
            &format!("a {game} position, but --game kauri was given"),
        );
    }
}

#[test]
fn odd_bytes_in_a_file_are_errors_with_a_place() {
    let dir = common::temp_dir("bytes");
    let bom = write_file(&dir, "bom.txt", b"\xef\xbb\xbf[Game \"afrika\"]\n1. e G\n");
    let o = mancala(&["verify", bom.to_str().unwrap()]);
    assert!(stdout(&o).contains("2 plies: consistent"), "{}", stderr(&o));
    // A byte-order mark before a position line or a bare move list, on every reader.
    let line = "kalah south:1,1 north:1,1 south-store:0 north-store:0 to-move:south";
    let bom_line = write_file(&dir, "bom-line.txt", format!("\u{feff}{line}\n"));
    for cmd in ["show", "play"] {
        let o = mancala(&[cmd, bom_line.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        assert!(stdout(&o).contains("Kalah 2x2"), "{cmd}: {}", stdout(&o));
    }
    let bom_moves = write_file(&dir, "bom-moves.txt", "\u{feff}1. e G\n");
    let o = mancala(&["play", bom_moves.to_str().unwrap(), "--game", "afrika"]);
    assert_printed(&o, 0, "ply 2:");
    let bin = write_file(&dir, "bin.txt", b"[Game \"afrika\"]\n1. e \xff G\n");
    refused(
        &["show", bin.to_str().unwrap()],
        "line 2, column 6: not UTF-8",
    );
}

#[test]
fn a_huge_capture_amount_in_reconstruct_is_no_crash() {
    let dir = common::temp_dir("rec");
    let text = common::published("afrika/problem-1-solution.txt");
    for amount in ["250", "256", "99999999999"] {
        let text = text.replacen("xD (+3)", &format!("xA (+{amount})"), 1);
        let f = write_file(&dir, "r.txt", text);
        let o = mancala(&["reconstruct", f.to_str().unwrap(), "--no-solve"]);
        assert!(
            matches!(o.status.code(), Some(0 | 2)),
            "{amount}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{amount}: {}", stderr(&o));
    }
}

/// A capture amount beyond the stones in play is an error naming the file, line, ply and
/// amount; with a correction budget, amounts that only overflow the board once earlier
/// captures are undone no longer panic (`xe (+250)` at ply 4 of problem 2 with one
/// correction built a 295-stone board and hit an `expect`).
#[test]
fn every_capture_amount_beyond_the_stones_in_play_is_a_located_error() {
    let dir = common::temp_dir("amount");
    let text = common::published("afrika/problem-2-solution.txt");
    let (head, line) = text.rsplit_once("\nh!").unwrap();
    let line = format!("h!{line}");
    // Every capture of the line in turn, as published and with 250 stones.
    let captures: Vec<usize> = line.match_indices("(+").map(|(i, _)| i).collect();
    assert_eq!(captures.len(), 25, "the line has 25 captures");
    for (k, &at) in captures.iter().enumerate() {
        let close = at + line[at..].find(')').unwrap();
        let changed = format!("{head}\n{}(+250{}", &line[..at], &line[close..]);
        let o = reconstruct_with_one_correction(&write_file(&dir, "r.txt", changed));
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "capture {k}: {e}");
        assert!(!e.contains("panicked"), "capture {k}: {e}");
        assert!(e.contains(":line 11 (ply "), "capture {k}: {e}");
        assert!(
            e.contains("a capture of 250 stones, but the board holds 128 stones in all"),
            "capture {k}: {e}"
        );
    }
    // The amount that used to panic, named exactly.
    let f = write_file(&dir, "r.txt", text.replacen("xe (+1)", "xe (+250)", 1));
    refused(
        &["reconstruct", f.to_str().unwrap(), "--no-solve"],
        "line 11 (ply 4, \"xe\"): a capture of 250 stones",
    );
    // Amounts within the stones in play but too large for the line: no crash, no fit.
    let f = write_file(&dir, "r.txt", text.replacen("xe (+1)", "xe (+120)", 1));
    let o = reconstruct_with_one_correction(&f);
    assert_printed(&o, 0, "0 candidate(s) with at most 1 correction(s)");
}

/// Worker threads the system refuses (here: 4 GB stacks, through RUST_MIN_STACK, in a
/// 1.5 GB address space) are an error naming the cause, not a panic in rayon's lazily
/// started global pool (retro, solve, table, analyse and reconstruct panicked with "The
/// global thread pool has not been initialized"); stats printed the cause twice.
#[cfg(target_os = "linux")]
#[test]
fn a_refused_worker_pool_is_an_error() {
    let bin = env!("CARGO_BIN_EXE_mancala");
    let dir = common::temp_dir("pool");
    let db = dir.join("pool.db");
    for args in [
        format!("retro andada:3 --out {}", db.display()),
        "solve kalah:2x2 -t 1 --tt-mb 1 --value-only".to_string(),
        "table kalah --holes 1 --stones 1 -t 1 --tt-mb 1".to_string(),
        "analyse positions/afrika/problem-1.txt -t 1 --tt-mb 1".to_string(),
        "reconstruct positions/afrika/problem-2-solution.txt --max-corrections 0".to_string(),
        "stats kalah:2x2 --games 5 -t 2".to_string(),
    ] {
        let o = Command::new("sh")
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .arg("-c")
            .arg(format!(
                "ulimit -v 1500000 && RUST_MIN_STACK=4000000000 exec {bin} {args}"
            ))
            .output()
            .unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args}: {e}");
        assert!(!e.contains("panicked"), "{args}: {e}");
        assert!(e.contains("cannot start the worker threads"), "{args}: {e}");
        // The cause once, not twice.
        assert_eq!(e.matches("os error").count(), 1, "{args}: {e}");
        assert!(!db.exists(), "{args}: a database was written");
    }
}

/// With an address space too small for the search threads' stacks, the search runs on
/// fewer threads (or the calling one) instead of panicking.
#[cfg(target_os = "linux")]
#[test]
fn a_refused_thread_is_no_crash() {
    let bin = env!("CARGO_BIN_EXE_mancala");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1500000 && exec {bin} solve kalah:4x3 -t 4 --tt-mb 64 --value-only"
        ))
        .output()
        .unwrap();
    assert_printed(&o, 0, "value: +8");
}

#[test]
fn the_top_level_help_lists_every_command() {
    let o = mancala(&["--help"]);
    let help = stdout(&o);
    for cmd in [
        "solve",
        "show",
        "play",
        "retro",
        "table",
        "verify",
        "analyse",
        "stats",
        "reconstruct",
    ] {
        assert!(
            help.lines().any(|l| l.trim_start().starts_with(cmd)),
            "{cmd}: {help}"
        );
    }
    assert!(
        !help.contains("solve, verify, show, play, stats, retro"),
        "{help}"
    );
    let retro = stdout(&mancala(&["retro", "--help"]));
    for target in ["afrika:M", "kauri", "andada:N", "kalah:M"] {
        assert!(retro.contains(target), "{target}: {retro}");
    }
}

#[test]
fn forward_reconstruction_finds_problem_2s_frontier_and_refuses_mixed_options() {
    let o = mancala(&[
        "reconstruct",
        "--forward",
        "--no-solve",
        "--json",
        "positions/afrika/problem-2-solution.txt",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["on_board"], 48);
    assert_eq!(j["frontier"][0]["plies"], serde_json::json!([32, 0]));
    assert_eq!(j["frontier"][0]["positions"], 8);
    assert_eq!(j["frontier_positions"].as_array().unwrap().len(), 5);
    let f = "positions/afrika/problem-2-solution.txt";
    refused(&["reconstruct", f, "--at", "3,0"], "need --forward");
    refused(
        &["reconstruct", f, "--forward", "--max-corrections", "1"],
        "backward method",
    );
    refused(
        &["reconstruct", f, "--forward", "--at", "40,0"],
        "--at 40,0",
    );
}

/// A run with techniques switched off says which, each once, in its JSON and its text
/// (a measurement names what it measured); a run without `--without` says nothing.
#[test]
fn the_output_names_the_techniques_switched_off() {
    let twice = ["--without", "killers", "--without", "history"];
    let twice = [&twice[..], &["--without", "killers"]].concat();
    for question in [&[][..], &["--at-least", "2"][..]] {
        let args = [
            &["solve", "kalah:3x2", "-t", "1", "--tt-mb", "16"][..],
            question,
        ]
        .concat();
        let json = |extra: &[&str]| -> serde_json::Value {
            let o = mancala(&[&args[..], &["--json"], extra].concat());
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            serde_json::from_slice(&o.stdout).unwrap()
        };
        assert_eq!(json(&[]).get("without"), None, "{question:?}");
        let off = json(&twice);
        assert_eq!(
            off["without"],
            serde_json::json!(["history", "killers"]),
            "{question:?}"
        );
        let o = mancala(&[&args[..], &twice[..]].concat());
        assert_printed(&o, 0, "switched off (--without): history, killers");
    }
    let prove = [
        "prove",
        "kalah:3x2",
        "--tt-mb",
        "16",
        "--without",
        "prefetch",
    ];
    let o = mancala(&prove);
    assert_printed(&o, 0, "switched off (--without): prefetch");
}
