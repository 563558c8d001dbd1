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
    let base = common::temp_dir("db-use");
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
}

/// A database up to more seeds copies the classes of the largest smaller one beside it,
/// and the file is byte for byte the one a build from nothing writes.
#[test]
fn retro_extends_a_smaller_database() {
    let base = common::temp_dir("db-extend");
    let (grown, fresh) = (base.join("grown"), base.join("fresh"));
    let build = |dir: &std::path::Path, seeds: &str| {
        let o = mancala(&[
            "retro",
            "kalah:4",
            "--max-seeds",
            seeds,
            "--db-dir",
            dir.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(!build(&grown, "8").contains("copied from"));
    let log = build(&grown, "11");
    for seeds in 2..=8 {
        let line = format!("kalah 2x4 empty-capture, {seeds} seeds in play: copied from");
        assert!(log.contains(&line), "{line} missing in:\n{log}");
    }
    assert!(log.contains("11 seeds in play: 31096 positions"), "{log}");
    build(&fresh, "11");
    let file = "kalah-2x4-empty-capture-11.db";
    let (a, b) = (
        std::fs::read(grown.join(file)).unwrap(),
        std::fs::read(fresh.join(file)).unwrap(),
    );
    assert!(a == b, "the extended database differs from a fresh build");
}

/// `stats` gives the data directory's database to the `perfect` player and says so; a
/// database option where no player reads one is an error (it was silently ignored).
#[test]
fn stats_gives_the_perfect_player_the_database() {
    let dir = common::temp_dir("db-stats");
    let d = dir.to_str().unwrap();
    let built = mancala(&["retro", "kalah:4", "--max-seeds", "8", "--db-dir", d]);
    assert!(built.status.success());
    let stats = |first: &str| {
        mancala(&[
            "stats",
            "kalah:4x2",
            "--first",
            first,
            "--games",
            "20",
            "--json",
            "--db-dir",
            d,
        ])
    };
    let o = stats("perfect:0");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["databases"].as_array().unwrap().len(), 1);
    let o = stats("ab:2");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only a perfect player reads databases"));
}
