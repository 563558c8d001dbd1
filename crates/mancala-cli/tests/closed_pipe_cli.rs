//! A closed pipe on standard output (`mancala ... | head`) ends the program quietly, as
//! Unix tools do: no panic message, no exit code 101.

#![cfg(unix)]

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let cases: [&[&str]; 4] = [
        &["stats", "kalah:2x1", "--games", "2000"],
        &["verify", "../../positions/kauri/game-4.txt"],
        &["play", "../../positions/afrika/game-2.txt"],
        &[
            "table", "kalah", "--holes", "1-3", "--stones", "1-2", "--tt-mb", "64",
        ],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run mancala");
        // Close the reading end before the program writes (it has a start-up to do).
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        // Either the whole output fitted in the pipe before it closed (exit 0) or the
        // program ended by SIGPIPE.
        assert!(
            out.status.success() || out.status.signal() == Some(libc_sigpipe()),
            "{args:?}: {:?} {stderr}",
            out.status
        );
    }
}

/// SIGPIPE's number on every Unix this project builds on.
fn libc_sigpipe() -> i32 {
    13
}

/// Standard output that refuses every write (`/dev/full`: a full disk) is an error with
/// exit status 2, naming the cause; standard error that refuses them leaves the exit
/// status to tell. Neither is a panic (status 101).
#[test]
fn an_unwritable_output_is_an_error_not_a_panic() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    let open = || std::fs::OpenOptions::new().write(true).open(full).unwrap();
    let cases: [&[&str]; 4] = [
        &["show", "kalah:2x2"],
        &["verify", "../../positions/kauri/game-4.txt"],
        &["play", "../../positions/progressive/game-1.txt"],
        &["solve", "kalah:3x2", "--tt-mb", "8", "--json"],
    ];
    for args in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(args)
            .stdout(open())
            .stderr(Stdio::piped())
            .output()
            .expect("run mancala");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // An error that cannot be printed still ends with its status.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["show", "no-such-file.txt"])
        .stdout(Stdio::null())
        .stderr(open())
        .output()
        .expect("run mancala");
    assert_eq!(out.status.code(), Some(2));
}
