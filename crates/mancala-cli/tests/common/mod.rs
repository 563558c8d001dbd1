//! What the command-line tests share.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory of this test under the system's temporary directory, named
/// `mancala-{tag}-` and a random suffix (so that one left behind says which test made
/// it). It is removed with all in it when the guard returned is dropped: at the end of
/// the test, pass or fail. Keep the guard in a named binding until the test ends (`let
/// dir = temp_dir(..)`, not `let _ = ..`); it dereferences to the directory's path.
#[allow(dead_code)] // not every test file needs one
pub fn temp_dir(tag: &str) -> TestDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("mancala-{tag}-"))
        .tempdir()
        .unwrap();
    TestDir(dir)
}

/// A test's temporary directory (see [`temp_dir`]), removed when dropped.
#[allow(dead_code)] // not every test file needs one
pub struct TestDir(tempfile::TempDir);

impl Deref for TestDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// The text of the published file `positions/{file}`.
#[allow(dead_code)] // not every test file needs one
pub fn published(file: &str) -> String {
    let path = format!("{}/../../positions/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Writes `contents` to a file `name` in `dir`; returns its path.
#[allow(dead_code)] // not every test file needs one
pub fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

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

/// Asserts that `out` is a refusal of bad input (exit status 2) whose message says each
/// of `says`.
#[allow(dead_code)] // not every test file needs one
pub fn assert_refused(out: &Output, says: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for s in says {
        assert!(err.contains(s), "expected {s:?} in: {err}");
    }
}
