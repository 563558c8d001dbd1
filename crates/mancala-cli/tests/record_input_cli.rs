//! A typo in a record is an error at its place, never a record silently cut short; verify
//! reports every problem with its line and column and checks every file it is given.

use std::path::{Path, PathBuf};
mod common;

use common::mancala;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of `positions/afrika/game-1.txt` with `from` replaced by `to` once.
fn game_1_with(dir: &Path, name: &str, from: &str, to: &str) -> PathBuf {
    let original = common::published("afrika/game-1.txt");
    assert!(original.contains(from), "{from}");
    common::write_file(dir, name, original.replacen(from, to, 1))
}

#[test]
fn a_typo_stops_show_at_its_place() {
    let dir = common::temp_dir("record-input-show");
    // A move number without its dot, a doubled letter, a stray character, and a result
    // statement with a typo: each used to end the record there with exit 0.
    for (from, to, expect) in [
        (
            " 12. ",
            " 12 ",
            "(a move number is written with a dot: \"12.\")",
        ),
        (" 12. ", " 12. hh ", "\"hh\""),
        (" 12. ", " 12.: ", "\":\""),
        (
            "Gering wins by",
            "Gering winz by",
            "a result statement in a form the sources use",
        ),
    ] {
        let path = game_1_with(&dir, "typo.txt", from, to);
        let out = mancala(&["show", path.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {err}");
        assert!(err.contains("typo.txt:line 13, column "), "{to}: {err}");
        assert!(err.contains(expect), "{to}: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn verify_reports_every_problem_with_its_place_and_every_file() {
    let dir = common::temp_dir("record-input-verify");
    let typo = game_1_with(&dir, "typo.txt", "Gering wins by", "Gering winz by");
    let missing = dir.join("missing.txt");
    let out = mancala(&[
        "verify",
        typo.to_str().unwrap(),
        missing.to_str().unwrap(),
        "positions/afrika/game-2.txt",
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    // The known error of the published record and the damaged statement, each placed.
    assert!(
        stdout.contains("line 13, column 123, ply 20 (move 10)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("recorded \"- Gering winz by 2 1/2 points.\""),
        "{stdout}"
    );
    // The missing file is reported, and the file after it is still checked.
    assert!(
        stderr.contains("missing.txt: cannot read the file"),
        "{stderr}"
    );
    assert!(
        stdout.contains("positions/afrika/game-2.txt: afrika record"),
        "{stdout}"
    );
    assert!(
        stderr.contains("1 of 3 file(s) could not be checked"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(2));
    let json = mancala(&["verify", "--json", typo.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let issue = &v["issues"][1];
    assert_eq!(issue["line"], 13);
    assert!(issue["column"].as_u64().unwrap() > 400, "{issue}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn andada_records_hold_the_pie_decision() {
    let dir = common::temp_dir("record-input-andada");
    let path = common::write_file(
        &dir,
        "pie.txt",
        "[Game \"andada\"]\n[Board \"2x6\"]\n1. A pass\n",
    );
    let out = mancala(&["show", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("phase:play"),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_record_that_goes_on_after_the_end_says_so() {
    let dir = common::temp_dir("record-input-after-end");
    let path = game_1_with(&dir, "long.txt", "- Gering wins", "34. e - Gering wins");
    let out = mancala(&["show", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("ply 67: e: the game is already over"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
