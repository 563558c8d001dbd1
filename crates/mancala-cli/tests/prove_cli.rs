//! `mancala prove`: the value by proof-number search agrees with `solve` on the small
//! win/draw/loss positions of both games (a loss, a draw, every move), its margin
//! questions bound `solve`'s values of Kalah and Progressive, its certificates are
//! checked, and games or rules it cannot answer are refused.

mod common;

use common::mancala;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let o = mancala(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
    serde_json::from_slice(&o.stdout).unwrap()
}

/// `prove --moves` and `solve` give the same value and move values for `position`.
fn agrees_with_solve(position: &[&str]) {
    let mut p = vec!["prove", "--moves", "--json", "--tt-mb", "64"];
    p.extend(position);
    let proved = json(&p);
    let mut s = vec!["solve", "--json", "-t", "1", "--tt-mb", "64"];
    s.extend(position);
    let solved = json(&s);
    assert_eq!(proved["value"], solved["value"], "{position:?}");
    let values = |v: &Value, key: &str| -> Vec<(String, f64)> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["value"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        values(&proved, "moves"),
        values(&solved, "moves"),
        "{position:?}"
    );
    for q in proved["questions"].as_array().unwrap() {
        assert_eq!(q["certificate"], "checked", "{position:?}: {q}");
        assert!(q["certificate_positions"].as_u64().unwrap() > 0);
        // A search's own table suggests nothing the check has to go back on here.
        assert_eq!(q["certificate_retries"].as_u64(), Some(0), "{q}");
    }
}

#[test]
fn andada_2x3_is_lost_by_the_opener_move_by_move() {
    agrees_with_solve(&["andada:3"]);
}

#[test]
fn giveaway_afrika_2x8x2_is_a_draw_move_by_move() {
    agrees_with_solve(&["afrika:8x2", "--rules", "giveaway"]);
}

#[test]
fn one_question_and_a_node_limit() {
    let out = json(&[
        "prove", "andada:3", "--only", "opponent", "--json", "--tt-mb", "16",
    ]);
    assert_eq!(out["value"], -1.0);
    assert_eq!(out["questions"].as_array().unwrap().len(), 1);
    assert_eq!(out["questions"][0]["question"], "does North win?");
    // "Does South win?" alone cannot give the value: it is a "no", and a loss and a draw
    // both say no.
    let out = json(&[
        "prove", "andada:3", "--only", "mover", "--json", "--tt-mb", "16",
    ]);
    assert_eq!(out["value"], Value::Null);
    assert_eq!(out["questions"][0]["answer"], "no");
    let out = json(&[
        "prove",
        "afrika:8x3",
        "--rules",
        "giveaway",
        "--max-nodes",
        "1000",
        "--json",
        "--tt-mb",
        "16",
    ]);
    assert_eq!(out["value"], Value::Null);
    assert_eq!(out["questions"][0]["answer"], "open");
    assert_eq!(out["questions"][0]["nodes"], 1000);
    // An open answer says where each first move stands; an answered one does not.
    let first: Vec<(String, String)> = out["questions"][0]["first_moves"]
        .as_array()
        .expect("an open answer lists its first moves")
        .iter()
        .map(|f| {
            let standing = f["standing"].as_str().unwrap().to_string();
            let numbered = f["proof_number"].is_u64() && f["disproof_number"].is_u64();
            assert_eq!(numbered, standing == "open", "{f}");
            (f["move"].as_str().unwrap().to_string(), standing)
        })
        .collect();
    let names: Vec<&str> = first.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "f", "g", "h"]);
    assert!(first.iter().any(|(_, s)| s == "open"), "{first:?}");
    let out = json(&[
        "prove",
        "kalah:4x3",
        "--at-least",
        "10",
        "--json",
        "--tt-mb",
        "16",
    ]);
    assert_eq!(out["questions"][0]["answer"], "no");
    assert_eq!(out["questions"][0]["first_moves"], Value::Null);
}

/// `--without` each technique: the same answer, checked. The numbers' initialisations
/// steer the search, so their nodes change; the prefetch is a hint to the processor, so
/// its nodes stay the same.
#[test]
fn a_technique_switched_off_gives_the_same_answer() {
    let run = |without: &[&str]| {
        let mut args = vec![
            "prove",
            "kalah:4x3",
            "--at-least",
            "8",
            "--json",
            "--tt-mb",
            "16",
        ];
        args.extend(without);
        json(&args)
    };
    let out = run(&[]);
    assert_eq!(out.get("without"), None, "{out}");
    let all = &out["questions"][0];
    assert_eq!(all["answer"], "yes", "{all}");
    for technique in ["mobility", "margin", "prefetch"] {
        let out = run(&["--without", technique, "--without", technique]);
        assert_eq!(out["without"], serde_json::json!([technique]), "{out}");
        let off = &out["questions"][0];
        assert_eq!(off["answer"], "yes", "{technique}: {off}");
        assert_eq!(off["certificate"], "checked", "{technique}: {off}");
        let same_nodes = off["nodes"] == all["nodes"];
        assert_eq!(
            same_nodes,
            technique == "prefetch",
            "{technique}: {off} {all}"
        );
    }
}

#[test]
fn repeating_margin_games_and_history_dependent_rules_are_refused() {
    for (args, says) in [
        (
            vec!["prove", "afrika:8x2"],
            "only where no position repeats",
        ),
        (
            vec!["prove", "kalah:4x3", "--moves"],
            "--moves gives win/draw/loss",
        ),
        (
            vec!["prove", "andada:3", "--at-least", "1"],
            "--at-least asks for a margin",
        ),
        (
            vec!["prove", "kalah:4x3", "--at-least", "30"],
            "No value of this position",
        ),
        (
            vec!["prove", "afrika:8x2", "--rules", "giveaway,own-side"],
            "depends on the moves before it",
        ),
    ] {
        let o = mancala(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// In a game that counts a margin, "does X win?" bounds `solve`'s value on the right
/// side (neither winning: exactly 0), and --at-least v holds where v + 1 does not, for
/// either player's question, every certificate checked.
#[test]
fn margin_questions_bound_the_value_solve_gives() {
    // Values +8, -2, 0, +2; +3, +5, -2 (solve, at the commit of this test).
    for position in [
        vec!["kalah:4x3"],
        vec!["kalah:2x3"],
        vec!["kalah:3x1"],
        vec!["kalah:3x3", "--rules", "standard"],
        vec!["progressive:5x2"],
        vec!["progressive:5x3", "--rules", "all"],
        vec!["progressive:7x2"],
    ] {
        let with = |extra: &[&str]| {
            let mut args = vec!["prove", "--json", "--tt-mb", "24"];
            args.extend(&position);
            args.extend(extra);
            let out = json(&args);
            for q in out["questions"].as_array().unwrap() {
                assert_eq!(q["certificate"], "checked", "{args:?}: {q}");
                // The size used, 24 MB rounded down to a power of two, is reported.
                assert_eq!(q["table_mb"], 16, "{args:?}: {q}");
            }
            out
        };
        let mut s = vec![
            "solve",
            "--json",
            "--value-only",
            "-t",
            "1",
            "--tt-mb",
            "16",
        ];
        s.extend(&position);
        let v = json(&s)["value"].as_f64().unwrap();
        let out = with(&[]);
        let (lo, hi) = (
            out["at_least"].as_f64().unwrap(),
            out["at_most"].as_f64().unwrap(),
        );
        assert!(lo <= v && v <= hi, "{position:?}: {v} outside [{lo}, {hi}]");
        match v {
            v if v > 0.0 => assert!(lo > 0.0, "{position:?}: {out}"),
            v if v < 0.0 => assert!(hi < 0.0, "{position:?}: {out}"),
            _ => assert_eq!(out["value"].as_f64(), Some(0.0), "{position:?}: {out}"),
        }
        let holds = |side: &str, points: f64| {
            let p = points.to_string();
            let out = with(&["--only", side, "--at-least", &p]);
            assert_eq!(out["questions"].as_array().unwrap().len(), 1);
            out["questions"][0]["answer"] == "yes"
        };
        assert!(holds("mover", v), "{position:?}: at least {v}");
        assert!(!holds("mover", v + 1.0), "{position:?}: at least {v} + 1");
        assert!(
            holds("opponent", -v),
            "{position:?}: opponent at least {}",
            -v
        );
        assert!(
            !holds("opponent", -v + 1.0),
            "{position:?}: opponent above {}",
            -v
        );
    }
}

#[test]
fn a_proven_goal_names_a_move_that_reaches_it() {
    // Kalah(4,3) is +8 for South (solve): "does South win?" and "at least +8?" are yes,
    // and the move each strategy starts with must have a value that reaches its goal.
    let solved = json(&["solve", "kalah:4x3", "--json", "-t", "1", "--tt-mb", "16"]);
    let value_of = |mv: &str| {
        solved["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == mv)
            .unwrap_or_else(|| panic!("{mv} not a move: {solved}"))["value"]
            .as_f64()
            .unwrap()
    };
    for (extra, goal) in [
        (vec!["--only", "mover"], 1.0),
        (vec!["--at-least", "8"], 8.0),
    ] {
        let mut args = vec!["prove", "kalah:4x3", "--json", "--tt-mb", "16"];
        args.extend(&extra);
        let q = &json(&args)["questions"][0];
        assert_eq!(q["answer"], "yes", "{args:?}: {q}");
        let mv = q["winning_move"].as_str().unwrap_or_else(|| panic!("{q}"));
        assert!(value_of(mv) >= goal, "{args:?}: {mv} is {}", value_of(mv));
    }
    // The opponent's question at the mover's turn has no move of his to name.
    let q = &json(&[
        "prove",
        "kalah:4x3",
        "--json",
        "--tt-mb",
        "16",
        "--only",
        "opponent",
        "--at-least",
        "-8",
    ])["questions"][0];
    assert_eq!(q["answer"], "yes", "{q}");
    assert!(q.get("winning_move").is_none(), "{q}");
}

/// A search stopped by --max-nodes saves its table, and the same question resumes from
/// it, keeping its table or moving it into one of another --tt-mb; another question
/// refuses the file unless --force, and a checkpoint needs --only.
#[test]
fn a_checkpoint_resumes_the_same_question_only() {
    let dir = common::temp_dir("prove-checkpoint");
    let ck = dir.join("g83.ckpt");
    let ck = ck.to_str().unwrap();
    let ask = |only: &str, more: &[&str]| {
        let mut args = vec![
            "prove",
            "afrika:8x3",
            "--rules",
            "giveaway",
            "--only",
            only,
            "--checkpoint",
            ck,
            "--json",
        ];
        args.extend(more);
        mancala(&args)
    };
    let first = ask("opponent", &["--tt-mb", "16", "--max-nodes", "5000"]);
    assert_eq!(first.status.code(), Some(0));
    let first: Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(first["questions"][0]["answer"], "open");
    assert!(std::path::Path::new(ck).exists());
    // Another --tt-mb moves the saved entries into a table of that size (on a copy, so
    // that the run below resumes the 16 MB table).
    let original = std::fs::read(ck).unwrap();
    for (mb, moved) in [
        (32, "moved into a table of 32 MB, 0 entries dropped"),
        (8, "moved into a table of 8 MB"),
    ] {
        let resized = ask("opponent", &["--tt-mb", &mb.to_string()]);
        let err = String::from_utf8_lossy(&resized.stderr);
        assert_eq!(resized.status.code(), Some(0), "{err}");
        assert!(err.contains(&format!("(16 MB table, {moved}")), "{err}");
        let resized: Value = serde_json::from_slice(&resized.stdout).unwrap();
        assert_eq!(resized["value"], -1.0);
        assert_eq!(resized["questions"][0]["resumed"]["nodes"], 5000);
        assert_eq!(resized["questions"][0]["table_mb"], mb);
        std::fs::write(ck, &original).unwrap();
    }
    let second = ask("opponent", &[]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{err}");
    assert!(err.contains("resuming from"), "{err}");
    let second: Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(second["value"], -1.0);
    assert_eq!(second["questions"][0]["resumed"]["nodes"], 5000);
    // Without --tt-mb the checkpoint's table is used, and reported.
    assert_eq!(second["tt_mb"], 16);
    assert_eq!(second["questions"][0]["table_mb"], 16);
    common::assert_refused(&ask("mover", &[]), &["another question", "--force"]);
    let replaced = ask("mover", &["--tt-mb", "16", "--force"]);
    let err = String::from_utf8_lossy(&replaced.stderr);
    assert_eq!(replaced.status.code(), Some(0), "{err}");
    assert!(
        err.contains("replaced (--force)") && !err.contains("resuming"),
        "{err}"
    );
    let replaced: Value = serde_json::from_slice(&replaced.stdout).unwrap();
    assert_eq!(replaced["questions"][0]["answer"], "no");
    let both = mancala(&["prove", "andada:3", "--checkpoint", ck]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("--only"));
}

/// With `--db`, an endgame database's positions are leaves: the value is the one found
/// without it, in far fewer nodes, every certificate is checked, and the output names the
/// database the answer rests on (and, with --progress, so does the start of stderr, in
/// `solve` too). A database of another game is refused.
#[test]
fn an_endgame_database_gives_the_same_value_in_fewer_nodes() {
    let dir = common::temp_dir("prove-db");
    let db = dir.join("andada-6-9.db");
    let db = db.to_str().unwrap();
    let built = mancala(&["retro", "andada:6", "--max-stones", "9", "--out", db]);
    assert_eq!(
        built.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let position = "andada south:2,1,0,3,0,2 north:0,2,1,1,2,0 to-move:north phase:play";
    let plain = json(&["prove", position, "--tt-mb", "16", "--json"]);
    let with_db = json(&["prove", position, "--tt-mb", "16", "--json", "--db", db]);
    assert_eq!(plain["value"], 1.0);
    assert_eq!(with_db["value"], plain["value"]);
    assert_eq!(with_db["databases"][0], db);
    let nodes = |v: &Value| v["questions"][0]["nodes"].as_u64().unwrap();
    assert!(nodes(&with_db) * 10 < nodes(&plain), "{with_db} {plain}");
    assert_eq!(with_db["questions"][0]["certificate"], "checked");
    // A run that shows its progress names the database at its start; a quiet one not.
    let stderr = |command: &str, progress: bool| {
        let mut args = vec![command, position, "--tt-mb", "16", "--db", db];
        if progress {
            args.push("--progress");
        }
        let o = mancala(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    for command in ["prove", "solve"] {
        let shown = stderr(command, true);
        assert!(shown.starts_with(&format!("databases: {db}\n")), "{shown}");
        assert!(!stderr(command, false).contains("databases"), "{command}");
    }
    let other = mancala(&["prove", "afrika:8x1", "--rules", "giveaway", "--db", db]);
    assert_eq!(other.status.code(), Some(2));
}

/// `prove kalah:6x3 --at-least 4 --tt-mb 1 --json` with `flags`: about 700,000 nodes of
/// search into a table of 131,072 entries, so that the check has gaps to fill. The exit
/// status, the JSON and stderr.
fn kalah_6x3_in_1_mb(flags: [&str; 2]) -> (Option<i32>, Value, String) {
    in_1_mb("kalah:6x3", "4", flags)
}

/// `prove POSITION --at-least AT_LEAST --tt-mb 1 --json` with `flags`.
fn in_1_mb(position: &str, at_least: &str, flags: [&str; 2]) -> (Option<i32>, Value, String) {
    let mut args = vec![
        "prove",
        position,
        "--at-least",
        at_least,
        "--tt-mb",
        "1",
        "--json",
    ];
    args.extend(flags);
    let o = mancala(&args);
    let out = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    (
        o.status.code(),
        out,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A search that ran far more nodes than its table holds still gets its certificate
/// checked: the check fills the gaps by repairs into a table of its own, so that no
/// repair replaces an entry the rest of the check needs (repairs into the search's
/// table made this check run for minutes; see `Repair`).
#[test]
fn a_table_too_small_for_the_search_is_repaired_in_a_table_of_its_own() {
    let (status, out, _) = kalah_6x3_in_1_mb(["--repair-mb", "1"]);
    assert_eq!(status, Some(0));
    let q = &out["questions"][0];
    assert_eq!(q["answer"], "no", "{q}");
    assert_eq!(q["certificate"], "checked", "{q}");
    assert!(q["repairs"].as_u64().unwrap() > 0, "{q}");
    assert_eq!(q["repair_table_mb"], 1, "{q}");
    assert_eq!(out["at_most"], 2.0, "{out}");
}

/// A certificate that does not hold (here: Kalah(5,4) "at least +14", its value +12, in a
/// 1 MB table that lost entries the check needs, and repairs of one node each) leaves its
/// answer out of the result, exits with status 1 and says on stderr what would let the
/// check fill the gaps. (Kalah(6,3) "+4", the tests above, holds so since the table's
/// entries are 8 bytes: its gaps are few enough for repairs of one node.)
#[test]
fn a_certificate_that_does_not_hold_is_not_an_answer() {
    let (status, out, err) = in_1_mb("kalah:5x4", "14", ["--repair-nodes", "1"]);
    assert_eq!(status, Some(1));
    let q = &out["questions"][0];
    assert_eq!(q["answer"], "no", "{q}");
    assert!(
        q["certificate"].as_str().unwrap().starts_with("failed: "),
        "{q}"
    );
    // "At most +12" would have come from the answer: the bounds stay the whole range.
    assert_eq!(out["at_most"], 40.0, "{out}");
    assert!(out["value"].is_null());
    assert!(err.contains("a certificate did not hold"), "{err}");
    assert!(
        err.contains("--tt-mb (now 1 MB)") && err.contains("--repair-nodes (now 1)"),
        "{err}"
    );
}

/// The start of Kalah 6 x 3 proved with a small table (its value is +2).
const KALAH_6X3: &[&str] = &["prove", "kalah:6x3", "--json", "--tt-mb", "16"];

/// The question `q` answered `answer`, its certificate checked.
fn answered(q: &Value, answer: &str) {
    assert_eq!(q["answer"], answer, "{q}");
    assert_eq!(q["certificate"], "checked", "{q}");
}

/// `--check-split`: the "no" to Kalah 6 x 3 "at least +4" checked in parts holds fewer
/// positions at once than it looks at, and says so; a "yes" is checked whole, with a
/// note that says so.
#[test]
fn a_no_checked_in_parts_holds_less_at_once() {
    let base = [KALAH_6X3, &["--check-split", "4"]].concat();
    let no = json(&[&base[..], &["--at-least", "4"]].concat());
    let q = &no["questions"][0];
    answered(q, "no");
    let (held, positions) = (
        q["certificate_held"].as_u64(),
        q["certificate_positions"].as_u64(),
    );
    assert!(held.unwrap() * 2 < positions.unwrap(), "{q}");
    assert!(q["certificate_parts"].as_u64().unwrap() > 1, "{q}");
    let o = mancala(&[&base[..], &["--at-least", "2"]].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("this \"yes\" is checked whole"), "{err}");
    let yes: Value = serde_json::from_slice(&o.stdout).unwrap();
    let q = &yes["questions"][0];
    answered(q, "yes");
    assert_eq!(q["certificate_held"], q["certificate_positions"], "{q}");
    assert_eq!(q["certificate_parts"], 0, "{q}");
}

/// `--check-threads 2`: the same "no" checked in parts on two threads holds; without
/// `--check-split` the option is refused (exit status 2).
#[test]
fn a_no_checked_in_parts_on_two_threads_holds() {
    let base = [KALAH_6X3, &["--at-least", "4"]].concat();
    let no = json(&[&base[..], &["--check-split", "4", "--check-threads", "2"]].concat());
    let q = &no["questions"][0];
    answered(q, "no");
    assert!(q["certificate_parts"].as_u64().unwrap() > 1, "{q}");
    let o = mancala(&[&base[..], &["--check-threads", "2"]].concat());
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
