//! `solve --checkpoint`: a solve killed after a checkpoint resumes from it and gives the
//! same values; a checkpoint of another solve is kept unless --force; a save that fails
//! (of `solve` or `prove`) loses no answer.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{mancala, temp_dir};

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Points as the CLI shows them: "+2", "0", "-1.5".
fn signed(v: f64) -> String {
    if v > 0.0 {
        format!("+{v}")
    } else {
        format!("{v}")
    }
}

#[test]
fn a_killed_solve_resumes_from_its_checkpoint_with_the_same_values() {
    let dir = temp_dir("ckpt-kill");
    let ck = dir.join("kalah-5x4.ckpt");
    let ck_arg = ck.to_str().unwrap();
    let args = ["solve", "kalah:5x4", "-t", "1", "--tt-mb", "64", "--json"];
    let fresh = json(&mancala(&args));
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .args(["--checkpoint", ck_arg, "--checkpoint-minutes", "0.005"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !ck.exists() && t0.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(ck.exists(), "no checkpoint written");
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the solve ended before it could be killed");
    let out = mancala(&[&args[..], &["--checkpoint", ck_arg]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(stderr.contains("resuming from"), "{stderr}");
    let resumed = json(&out);
    for field in ["value", "moves"] {
        assert_eq!(resumed[field], fresh[field], "{field}");
    }
    assert!(
        resumed["resumed"]["nodes"].as_u64().unwrap() > 0,
        "{resumed}"
    );
}

#[test]
fn a_checkpoint_of_another_solve_is_kept_unless_forced() {
    let dir = temp_dir("ckpt-other");
    let ck = dir.join("c.ckpt");
    let ck_arg = ck.to_str().unwrap();
    let solve = |pos: &str, extra: &[&str]| {
        mancala(
            &[
                &[
                    "solve",
                    pos,
                    "-t",
                    "1",
                    "--tt-mb",
                    "16",
                    "--checkpoint",
                    ck_arg,
                ],
                extra,
            ]
            .concat(),
        )
    };
    assert!(solve("kalah:3x3", &[]).status.success());
    let before = std::fs::read(&ck).unwrap();
    let out = solve("kalah:4x3", &[]);
    common::assert_refused(&out, &["a checkpoint of another solve", "--force"]);
    assert_eq!(
        std::fs::read(&ck).unwrap(),
        before,
        "the other solve's checkpoint is kept"
    );
    assert!(solve("kalah:4x3", &["--force"]).status.success());
    assert_ne!(std::fs::read(&ck).unwrap(), before);
    // A checkpoint cut short says so (it was "failed to fill whole buffer"), and is kept.
    let whole = std::fs::read(&ck).unwrap();
    std::fs::write(&ck, &whole[..whole.len() / 2]).unwrap();
    let out = solve("kalah:4x3", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the checkpoint is cut short") && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&ck).unwrap().len(), whole.len() / 2);
    let out = mancala(&[
        "solve",
        "kalah:3x3",
        "--checkpoint",
        "/nonexistent/dir/c.ckpt",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no folder"));
}

#[test]
fn a_resumed_solve_reports_what_its_checkpoint_had_proven() {
    let dir = temp_dir("ckpt-proven");
    let ck = dir.join("kalah-3x3.ckpt");
    let args = [
        "solve",
        "kalah:3x3",
        "-t",
        "1",
        "--tt-mb",
        "16",
        "--json",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    // The first run ends and saves everything it proved; the second starts from that.
    let fresh = json(&mancala(&args));
    let out = mancala(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let signed = |v: &serde_json::Value| signed(v.as_f64().unwrap());
    let mut expected = format!(
        "proven before, for South to move: value {}",
        signed(&fresh["value"])
    );
    for m in fresh["moves"].as_array().unwrap() {
        expected += &format!(", {} {}", m["move"].as_str().unwrap(), signed(&m["value"]));
    }
    assert!(
        stderr.contains(&expected),
        "expected {expected:?} in {stderr}"
    );
    assert_eq!(json(&out)["value"], fresh["value"]);
}

/// A test's table (`--at-least`) holds proven bounds of the same solve: an exact solve
/// resumed from its checkpoint gives the fresh values, and searches fewer nodes than the
/// fresh solve since the test's proof is in the table already.
#[test]
fn an_exact_solve_resumes_from_the_checkpoint_of_a_test() {
    let dir = temp_dir("ckpt-test");
    let ck = dir.join("kalah-4x4.ckpt");
    let solve = ["solve", "kalah:4x4", "-t", "1", "--tt-mb", "16", "--json"];
    let fresh = json(&mancala(&solve));
    let value = fresh["value"].as_f64().unwrap().to_string();
    let ck_args = ["--checkpoint", ck.to_str().unwrap()];
    let test = json(&mancala(
        &[&solve[..], &["--at-least", &value], &ck_args].concat(),
    ));
    assert_eq!(test["holds"], true, "{test}");
    let resumed = json(&mancala(&[&solve[..], &ck_args].concat()));
    assert_eq!(resumed["value"], fresh["value"]);
    assert_eq!(resumed["moves"], fresh["moves"]);
    assert!(
        resumed["resumed"]["nodes"].as_u64().unwrap() > 0,
        "{resumed}"
    );
    assert!(
        resumed["nodes"].as_u64() < fresh["nodes"].as_u64(),
        "resumed {} fresh {}",
        resumed["nodes"],
        fresh["nodes"]
    );
}

/// A test's answer is kept in its checkpoint: the next test resumes from the bound it
/// proved (and says so), the tests at and just above the value close the bracket, and
/// the same test asked once more is answered from the checkpoint without a search.
#[test]
fn a_test_keeps_its_answer_in_the_checkpoint() {
    let dir = temp_dir("ckpt-tests");
    let ck = dir.join("kalah-4x4.ckpt");
    let solve = ["solve", "kalah:4x4", "-t", "1", "--tt-mb", "16", "--json"];
    let v = json(&mancala(&solve))["value"].as_f64().unwrap();
    let ck_args = ["--checkpoint", ck.to_str().unwrap()];
    let test = |at: f64| {
        let question = format!("--at-least={at}");
        let out = mancala(&[&solve[..], &[question.as_str()], &ck_args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (json(&out), stderr)
    };
    let (at_value, _) = test(v);
    assert_eq!(at_value["holds"], true, "{at_value}");
    // A Kalah margin is even (the board holds an even number of seeds): v + 2 is next.
    let (above, stderr) = test(v + 2.0);
    // The lower bound is the first test's; the upper one is still the value range's.
    let (from, test_of) = (
        format!("root value not yet proven (in [{}, ", signed(v)),
        format!("], the test of >= {} under way)", signed(v + 2.0)),
    );
    assert!(
        stderr.contains(&from) && stderr.contains(&test_of),
        "expected {from:?}...{test_of:?} in {stderr}"
    );
    assert_eq!(above["holds"], false, "{above}");
    assert_eq!(above["bound"].as_f64(), Some(v), "{above}");
    let (again, stderr) = test(v);
    assert!(stderr.contains("root value proven"), "{stderr}");
    assert_eq!(again["holds"], true, "{again}");
    assert_eq!(again["bound"].as_f64(), Some(v), "{again}");
    assert_eq!(again["nodes"], 0, "{again}");
}

/// Starts `mancala ARGS` (with --checkpoint) and reads its stderr up to the line that
/// says signals are caught, so that a signal sent now asks it to stop instead of killing
/// it; returns the child and the rest of its stderr.
#[cfg(unix)]
fn caught(
    args: &[&str],
) -> (
    std::process::Child,
    std::io::BufReader<std::process::ChildStderr>,
) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 && !line.contains("checkpoint:") {}
    assert!(line.contains("on Ctrl-C"), "{line}");
    (child, stderr)
}

/// Reads the rest of a signalled run's stderr (after `seen`) and checks how it ended:
/// exit status 130, no result printed, and the message that names its checkpoint.
#[cfg(unix)]
fn ends_interrupted(
    child: std::process::Child,
    mut stderr: std::io::BufReader<std::process::ChildStderr>,
    mut seen: String,
    ck_arg: &str,
    tag: &str,
) {
    use std::io::Read;
    stderr.read_to_string(&mut seen).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{tag}: {seen}");
    assert!(out.stdout.is_empty(), "{tag}: no result is printed");
    assert!(
        seen.contains("interrupted: the progress so far is saved in") && seen.contains(ck_arg),
        "{tag}: {seen}"
    );
}

/// Ctrl-C (SIGINT) or SIGTERM stops a solve with --checkpoint: it saves, says where, and
/// exits with status 130; the same command then resumes and gives the fresh values. A
/// SIGTERM sent twice (GNU `timeout` signals the program and then its process group)
/// still saves: only a second Ctrl-C ends the program at once.
#[cfg(unix)]
#[test]
fn an_interrupted_solve_saves_its_checkpoint_and_resumes() {
    use std::io::BufRead;
    let cases = [
        (libc::SIGINT, 1, &["kalah:5x4", "--json"][..], "ckpt-sigint"),
        (
            libc::SIGTERM,
            1,
            &["kalah:6x3", "--json", "--at-least", "3"][..],
            "ckpt-sigterm",
        ),
        // A table large enough that the save is still under way at the second signal.
        (
            libc::SIGTERM,
            2,
            &["kalah:5x4", "--json", "--tt-mb", "512"][..],
            "ckpt-sigterm2",
        ),
    ];
    for (signal, times, position, tag) in cases {
        let dir = temp_dir(tag);
        let ck = dir.join("interrupted.ckpt");
        let ck_arg = ck.to_str().unwrap();
        let tt: &[&str] = if position.contains(&"--tt-mb") {
            &[]
        } else {
            &["--tt-mb", "16"]
        };
        let args = [&["solve", "-t", "1"], tt, position].concat();
        let fresh = json(&mancala(&args));
        // No periodic save within the test: the file can only come from the signal.
        let ck_args = ["--checkpoint", ck_arg, "--checkpoint-minutes", "60"];
        // The solve names its checkpoint once the signals are caught, just before the
        // search starts.
        let (child, mut stderr) = caught(&[&args[..], &ck_args].concat());
        assert!(!ck.exists(), "{tag}: saved before the signal");
        let mut rest = String::new();
        for k in 0..times {
            if k > 0 {
                // The second signal once the first is being acted on (signals sent
                // together arrive as one).
                while stderr.read_line(&mut rest).unwrap() > 0
                    && !rest.contains("stopping the search")
                {}
            }
            // SAFETY: kill(2) on our own child's pid.
            assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        }
        ends_interrupted(child, stderr, rest, ck_arg, tag);
        assert!(ck.exists(), "{tag}: no checkpoint saved on the signal");
        let out = mancala(&[&args[..], &ck_args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(stderr.contains("resuming from"), "{tag}: {stderr}");
        let resumed = json(&out);
        for field in ["value", "moves", "holds", "bound"] {
            assert_eq!(resumed[field], fresh[field], "{tag}: {field}");
        }
        assert!(resumed["resumed"]["nodes"].is_u64(), "{tag}: {resumed}");
    }
}

/// A signal during the certificate check of `prove --checkpoint` stops the check as it
/// stops the search: exit status 130 and the same message, no answer printed; the
/// checkpoint holds the search's answer, so the same command goes straight to the check
/// and gives the answer of the run that was not interrupted.
#[cfg(unix)]
#[test]
fn an_interrupted_certificate_check_resumes_with_the_check() {
    let dir = temp_dir("ckpt-check-sigterm");
    let ck = dir.join("prove.ckpt");
    let ck_arg = ck.to_str().unwrap();
    let args = [
        "prove",
        "kalah:6x3",
        "--at-least",
        "4",
        "--tt-mb",
        "64",
        "--json",
        "--checkpoint",
        ck_arg,
        "--checkpoint-minutes",
        "60",
    ];
    let first = json(&mancala(&args));
    let answered = &first["questions"][0];
    assert_eq!(answered["certificate"], "checked", "{first}");
    // The second run finds the answer in the checkpoint and only checks it. The signal
    // comes once the run catches signals, before it reads the checkpoint (64 MB), saves
    // it again and checks the answer's certificate (23,375 positions).
    let (child, stderr) = caught(&args);
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    ends_interrupted(child, stderr, String::new(), ck_arg, "prove");
    let again = json(&mancala(&args));
    let checked = &again["questions"][0];
    for field in [
        "answer",
        "certificate",
        "certificate_positions",
        "winning_move",
    ] {
        assert_eq!(checked[field], answered[field], "{field}: {again}");
    }
    assert_eq!(checked["resumed"]["nodes"], answered["nodes"], "{again}");
    assert_eq!(checked["nodes"], 0, "no search before the check: {again}");
}

/// The certificate check saves itself beside the checkpoint (FILE.check) every
/// --checkpoint-minutes and on a signal; the same command resumes the check from there
/// (not from its start) and gives the answer of the check that was not interrupted, with
/// the same certificate; the file is removed once the check ends. For a "no" (the value
/// of Kalah 6 x 3 is +2) and a "yes", each with a table small enough that the check
/// repairs (43,716 positions and 1,498 repairs; 13,319 and 303), saving after every
/// stretch of about 1,024 positions.
#[cfg(unix)]
#[test]
fn a_stopped_certificate_check_resumes_from_its_own_file() {
    for (at_least, answer) in [("4", "no"), ("2", "yes")] {
        stopped_check_resumes(at_least, answer, &[]);
    }
}

/// The same for a "no" checked in parts (--check-split): it resumes in its part.
#[cfg(unix)]
#[test]
fn a_stopped_check_in_parts_resumes_from_its_own_file() {
    stopped_check_resumes("4", "no", &["--check-split", "4"]);
}

#[cfg(unix)]
fn stopped_check_resumes(at_least: &str, answer: &str, split: &[&str]) {
    let dir = temp_dir(&format!("ckpt-check-file-{at_least}{}", split.len()));
    let ck = dir.join("prove.ckpt");
    let ck_arg = ck.to_str().unwrap();
    let check_file = dir.join("prove.ckpt.check");
    let question = [
        "prove",
        "kalah:6x3",
        "--at-least",
        at_least,
        "--tt-mb",
        "1",
        "--repair-mb",
        "1",
        "--repair-nodes",
        "20000",
        "--json",
    ];
    let question = [&question[..], split].concat();
    // The search and the check in one stretch each: the answer, the checkpoint kept.
    let ck_args = |minutes| ["--checkpoint", ck_arg, "--checkpoint-minutes", minutes];
    let whole = json(&mancala(&[&question[..], &ck_args("60")].concat()));
    assert!(!check_file.exists(), "the check's file outlived the check");
    // The same command goes straight to the check, now saved every 60 microseconds.
    let args = [&question[..], &ck_args("0.000001")].concat();
    let (child, stderr) = caught(&args);
    // SIGTERM once the check has saved itself.
    let started = std::time::Instant::now();
    while !check_file.exists() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the check never saved itself"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    ends_interrupted(child, stderr, String::new(), ck_arg, "prove");
    assert!(check_file.exists(), "the stopped check was not saved");
    let out = mancala(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        stderr.contains("resuming the certificate check from") && !stderr.contains(" 0 positions"),
        "{stderr}"
    );
    // A check in parts says which part it goes on with (its top, above 4 plies, is
    // fewer positions than the 1,024 a check adds before it first looks at the clock, so
    // its first save is in a part).
    assert_eq!(stderr.contains(" (part "), !split.is_empty(), "{stderr}");
    let again = json(&out);
    let fields = [
        "answer",
        "certificate",
        "certificate_positions",
        "winning_move",
    ];
    for field in fields {
        assert_eq!(
            again["questions"][0][field], whole["questions"][0][field],
            "{field}: {again}"
        );
    }
    assert_eq!(again["questions"][0]["answer"], answer);
    assert_eq!(again["questions"][0]["certificate"], "checked");
    assert!(!check_file.exists(), "the check's file outlived the check");
}

/// A FILE.check that is no saved check (here a line of text) is refused with a message
/// naming it, exit status 2, before any check runs; --force replaces it, and the check
/// runs from its start.
#[test]
fn a_damaged_check_file_is_refused_unless_forced() {
    let dir = temp_dir("ckpt-check-damaged");
    let ck = dir.join("prove.ckpt");
    let ck_arg = ck.to_str().unwrap();
    let check_file = dir.join("prove.ckpt.check");
    let args = [
        "prove",
        "kalah:6x3",
        "--at-least",
        "4",
        "--tt-mb",
        "1",
        "--json",
        "--checkpoint",
        ck_arg,
    ];
    let whole = json(&mancala(&args));
    std::fs::write(&check_file, "not a check\n").unwrap();
    let out = mancala(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("prove.ckpt.check: not a certificate check")
            && stderr.contains("--force replaces it"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no answer without its check");
    let forced = mancala(&[&args[..], &["--force"]].concat());
    let stderr = String::from_utf8_lossy(&forced.stderr).into_owned();
    assert!(stderr.contains("replaced (--force)"), "{stderr}");
    let again = json(&forced);
    for field in ["answer", "certificate", "certificate_positions"] {
        assert_eq!(
            again["questions"][0][field], whole["questions"][0][field],
            "{field}"
        );
    }
    assert!(!check_file.exists(), "the check's file outlived the check");
}

/// A checkpoint FILE whose own name fits the file system but whose `.partial` twin is
/// too long: every save fails (ENAMETOOLONG) on any machine, as a full disk would.
fn unsavable(dir: &std::path::Path) -> String {
    dir.join("c".repeat(250)).to_str().unwrap().to_string()
}

/// A save that fails does not cost the answer: a search that goes on warns and saves again
/// at the next interval, one that ends answered gives its answer with a warning, and only
/// a question stopped open fails (exit 2), since its work would be lost without a word.
#[test]
fn a_failed_save_loses_no_answer() {
    let dir = temp_dir("ckpt-unsavable");
    let ck = unsavable(&dir);
    let prove = |extra: &[&str]| {
        let args = [
            "prove",
            "kalah:6x3",
            "--only",
            "mover",
            "--tt-mb",
            "64",
            "--json",
            "--checkpoint",
            &ck,
            "--checkpoint-minutes",
            "0.0005",
        ];
        mancala(&[&args[..], extra].concat())
    };
    let out = prove(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("the final checkpoint was not saved"),
        "{stderr}"
    );
    let answer = &json(&out)["questions"][0];
    assert_eq!(answer["answer"], "yes", "{answer}");
    assert_eq!(answer["certificate"], "checked", "{answer}");

    let out = prove(&["--max-nodes", "1000"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("File name too long"), "{stderr}");
    // The cause is named once, not once by the error and again by its source.
    assert_eq!(stderr.matches("(os error").count(), 1, "{stderr}");

    let out = mancala(&[
        "solve",
        "kalah:4x3",
        "-t",
        "1",
        "--tt-mb",
        "16",
        "--json",
        "--checkpoint",
        &ck,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("the final checkpoint was not saved"),
        "{stderr}"
    );
    assert!(json(&out)["value"].is_number());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing left behind"
    );
}
