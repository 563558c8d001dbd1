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
