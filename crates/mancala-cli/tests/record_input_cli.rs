//! A typo in a record is an error at its place, never a record silently cut short; verify
//! reports every problem with its line and column and checks every file it is given.

use std::path::{Path, PathBuf};
mod common;

use common::mancala;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of the published record `record` (under positions/) with `from` replaced by
/// `to` once.
fn published_with(dir: &Path, record: &str, name: &str, from: &str, to: &str) -> PathBuf {
    let original = common::published(record);
    assert!(original.contains(from), "{from}");
    common::write_file(dir, name, original.replacen(from, to, 1))
}

/// A copy of `positions/afrika/game-1.txt` with `from` replaced by `to` once.
fn game_1_with(dir: &Path, name: &str, from: &str, to: &str) -> PathBuf {
    published_with(dir, "afrika/game-1.txt", name, from, to)
}

/// `verify FILE` cannot check the file (exit status 2) and says `expect` on stderr.
fn verify_refuses(path: &Path, expect: &str) {
    let out = mancala(&["verify", path.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(expect), "{stderr}");
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
    // With --json, one object per file, the unreadable one included.
    let files = [typo.to_str().unwrap(), missing.to_str().unwrap()];
    let json = mancala(&[&["verify", "--json"][..], &files].concat());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v.as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v[1]["file"], files[1], "{v}");
    assert!(
        v[1]["error"]
            .as_str()
            .unwrap()
            .contains("cannot read the file"),
        "{v}"
    );
    assert_eq!(json.status.code(), Some(2));
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
}

#[test]
fn a_record_that_goes_on_after_the_end_says_so() {
    let dir = common::temp_dir("record-input-after-end");
    let path = game_1_with(&dir, "long.txt", "- Gering wins", "34. e - Gering wins");
    let out = mancala(&["show", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("ply 67: e: the game is already over"), "{err}");
}

/// A legal but wrong move whose consequences no correction can mend: verify says that it
/// stopped there and that the rest of the record and its result statement were not
/// checked (it used to judge the result against the position before the stop, with no
/// word of the plies left out), and analyse refuses the record, naming the ply.
#[test]
fn a_record_verify_cannot_follow_says_what_it_left_unchecked() {
    let dir = common::temp_dir("record-input-stop");
    let path = game_1_with(&dir, "stop.txt", "12. b C", "12. b D");
    let file = path.to_str().unwrap();
    let out = mancala(&["verify", file]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "ply 26 (move 13): recorded \"xf (+16)\"; rules give: xf is not legal here (legal: xe); \
             correction: none found; the replay stops here: plies 27-66 and the result \
             statement are not checked"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("after ply 25 (the replay stopped at ply 26)"),
        "{stdout}"
    );
    assert!(!stdout.contains("does not follow"), "{stdout}");
    let out = mancala(&["verify", "--json", file]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stopped_at"], 26, "{v}");
    assert_eq!(v["plies"], 66, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 25, "{v}");
    let out = mancala(&["verify", "--strict", file]);
    assert_eq!(out.status.code(), Some(1));
    let out = mancala(&["analyse", file, "--tt-mb", "16"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot be replayed past ply 26 (recorded \"xf (+16)\""),
        "{stderr}"
    );
    // The published record replays to its end: no stop.
    let out = mancala(&["verify", "--json", "../../positions/afrika/game-1.txt"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("stopped_at").is_none(), "{v}");
}

/// Nothing to check is not "consistent" (a [Start] position with no moves is still checked
/// as a position), and a move number out of step is a typo at its place (both used to pass
/// `verify --strict` with exit status 0).
#[test]
fn an_empty_record_and_a_wrong_move_number_are_reported() {
    let dir = common::temp_dir("record-input-empty");
    let empty = common::write_file(&dir, "empty.txt", "[Game \"kauri\"]\n\n");
    for args in [
        vec!["verify", "--strict", empty.to_str().unwrap()],
        vec!["verify", "--game", "afrika", "--strict", "/dev/null"],
    ] {
        let out = mancala(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("no moves, no result statement and no [Start] position"),
            "{stderr}"
        );
    }
    let path = game_1_with(&dir, "number.txt", " 12. ", " 21. ");
    let out = mancala(&["verify", "--strict", path.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("recorded \"21.\"; rules give: unreadable: expected the move number 12."),
        "{stdout}"
    );
}

/// A misspelt tag or one the game has no use for is refused at its line: it used to be
/// ignored, leaving the default rules in force ([Rulez "tiebreak"] was checked under the
/// current rules and reported 32 moves after the end of the game).
#[test]
fn a_misspelt_or_foreign_tag_is_refused() {
    let dir = common::temp_dir("record-input-tags");
    let rulez = published_with(
        &dir,
        "kauri/tiebreak-continuation.txt",
        "rulez.txt",
        "[Rules \"tiebreak\"]",
        "[Rulez \"tiebreak\"]",
    );
    verify_refuses(
        &rulez,
        "rulez.txt:line 17: unknown tag \"Rulez\" (known: Game, Start, Rules",
    );
    let board = published_with(
        &dir,
        "kauri/game-2.txt",
        "board.txt",
        "[Game \"kauri\"]",
        "[Game \"kauri\"]\n[Board \"2x5\"]",
    );
    verify_refuses(&board, "[Board \"2x5\"]: Kauri has one board");
}

/// show, play and solve replay the moves as written; a capture amount the rules do not
/// give used to pass them in silence (only verify checked it): they now warn, naming the
/// place and pointing to verify.
#[test]
fn replaying_a_record_with_a_wrong_amount_warns() {
    let dir = common::temp_dir("record-input-amount");
    let path = game_1_with(&dir, "amount.txt", "(+13) F", "(+5) F");
    let file = path.to_str().unwrap();
    for args in [
        vec!["play", file],
        vec!["show", file, "--ply", "9"],
        vec!["solve", file, "--ply", "64", "--tt-mb", "16", "-t", "1"],
    ] {
        let out = mancala(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains(
                "2 issue(s) in the record, the first at line 13, column 39: \
                             recorded \"xA (+5)\", the rules give xA (+13)"
            ),
            "{args:?}: {stderr}"
        );
    }
}

/// Old Mac line endings (a lone CR) are line ends, as LF and CRLF are: such a file used to
/// read as one line ("no [Game] tag").
#[test]
fn a_record_with_cr_line_endings_reads_as_with_lf() {
    let dir = common::temp_dir("record-input-cr");
    let lf = common::published("kauri/game-2.txt");
    let cr = common::write_file(&dir, "cr.txt", lf.replace('\n', "\r"));
    let out = mancala(&["verify", cr.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.contains("kauri record, 33 plies: consistent"),
        "{stdout}"
    );
}
