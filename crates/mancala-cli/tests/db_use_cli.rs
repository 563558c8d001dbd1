//! `table` and `analyse` use the databases of the data directory as `solve` does: the
//! same values, fewer nodes.

mod common;

use common::mancala;
use std::process::Output;

/// (result, nodes) of the one cell of a `table --json` run.
fn cell(o: &Output) -> (String, u64) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &v[0];
    (
        c["result"].as_str().unwrap().to_string(),
        c["nodes"].as_u64().unwrap(),
    )
}

#[test]
fn table_uses_the_data_directory() {
    let base = std::env::temp_dir().join(format!("mancala-db-use-{}", std::process::id()));
    let (with, without) = (base.join("with"), base.join("without"));
    std::fs::create_dir_all(&without).unwrap();
    let dir = with.to_str().unwrap();
    let built = mancala(&["retro", "kalah:4", "--max-seeds", "8", "--db-dir", dir]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let table = |d: &str| {
        mancala(&[
            "table", "kalah", "--holes", "4", "--stones", "3", "-t", "1", "--tt-mb", "64",
            "--json", "--db-dir", d,
        ])
    };
    let (r_db, n_db) = cell(&table(dir));
    let (r, n) = cell(&table(without.to_str().unwrap()));
    assert_eq!(r_db, r);
    assert!(r.contains("wins by 8"), "{r}");
    assert!(n_db < n, "{n_db} nodes with the database, {n} without");
    let _ = std::fs::remove_dir_all(base);
}
