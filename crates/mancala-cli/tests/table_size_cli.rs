//! Table sizes a user can type: impossible ones are refused with a message and exit code
//! 2 before anything is allocated (`--tt-mb 18446744073709551615` once segfaulted on
//! unchecked size arithmetic), and the default follows the machine's free memory.

use std::process::Command;

fn mancala(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("run mancala");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn impossible_table_sizes_are_clean_errors() {
    for mb in ["18446744073709551615", "17592186044416", "4294967296"] {
        for cmd in [
            vec!["solve", "kalah:2x1", "--tt-mb", mb],
            vec![
                "table", "kalah", "--holes", "1", "--stones", "1", "--tt-mb", mb,
            ],
        ] {
            let (code, stdout, stderr) = mancala(&cmd);
            assert_eq!(code, 2, "{cmd:?}: {stdout}{stderr}");
            assert!(stderr.contains("transposition table"), "{cmd:?}: {stderr}");
        }
    }
}

#[test]
fn the_default_table_follows_free_memory_and_is_reported() {
    let (code, stdout, stderr) = mancala(&["solve", "kalah:2x1", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    // The figure may differ from one read of the free memory to the next (other tests
    // run beside this one), so check its rule rather than one value.
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let mb = v["tt_mb"].as_u64().expect("tt_mb");
    assert!((64..=1024).contains(&mb) && mb.is_power_of_two(), "{mb}");
    let avail = mancala_solver::tt::available_memory().map_or(u64::MAX, |b| b >> 20);
    assert!(mb <= avail.max(64), "{mb} MB of {avail} MB free");
}
