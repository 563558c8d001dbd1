//! `mancala stats` end to end: the JSON fields, the same output for the same seed on 1
//! and 2 threads, and exit code 2 on bad input.

use std::process::Command;

fn stats(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("stats")
        .args(args)
        .output()
        .expect("run mancala")
}

fn json(threads: &str) -> serde_json::Value {
    let out = stats(&[
        "kalah:4x3",
        "--games",
        "200",
        "--first",
        "greedy",
        "--second",
        "ab:2",
        "--seed",
        "9",
        "--json",
        "-t",
        threads,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_object_mut().unwrap().remove("seconds");
    v
}

#[test]
fn json_is_complete_and_reproducible() {
    let a = json("1");
    for key in [
        "games",
        "first_wins",
        "draws",
        "second_wins",
        "mean_margin",
        "plies",
        "mean_branching",
        "tree_complexity_log10",
    ] {
        assert!(a.get(key).is_some(), "missing {key}");
    }
    assert_eq!(a["games"], 200);
    let total = a["first_wins"].as_u64().unwrap()
        + a["draws"].as_u64().unwrap()
        + a["second_wins"].as_u64().unwrap()
        + a["capped"].as_u64().unwrap();
    assert_eq!(total, 200);
    assert!(a["plies"]["min"].as_u64() <= a["plies"]["max"].as_u64());
    assert_eq!(a, json("2"));
}

#[test]
fn bad_names_exit_2() {
    for args in [
        &["nosuch", "--games", "2"][..],
        &["kauri", "--first", "foo"][..],
        &["kauri", "--second", "ab:0"][..],
        &["kauri", "--games", "0"][..],
    ] {
        let out = stats(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error"),
            "{args:?}"
        );
    }
}
