//! What the command-line tests share.

use std::process::{Command, Output};

/// Runs the `mancala` binary with `args` from the workspace root (where `positions/`
/// is), with an empty data directory so that no installed database changes the output.
pub fn mancala(args: &[&str]) -> Output {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .current_dir(root)
        .env(
            "MANCALA_DB_DIR",
            format!("{root}/target/tests-no-databases"),
        )
        .args(args)
        .output()
        .unwrap()
}
