//! The distributed engine (timely-dataflow) against the single-machine build: byte for byte
//! the same file for Afrika, Andada and Kalah, on several worker threads of one process.
//! Two processes over TCP, and a killed build resumed, are tested through the command in
//! crates/mancala-cli/tests/retro_cluster_cli.rs.
#![cfg(feature = "cluster")]

mod common;

use std::sync::Arc;

use mancala_core::afrika::Afrika;
use mancala_core::andada::Andada;
use mancala_core::index::catalog::Catalogued;
use mancala_core::kalah::Kalah;
use mancala_solver::retro::Database;
use mancala_solver::retro::cluster::{self, Cluster};
use mancala_solver::retro::db::{Quiet, partial_dir};

/// The file `name` in a temporary directory of its own, removed (with the build's
/// `.partial` directory beside the file) when the guard is dropped.
fn temp(name: &str) -> common::TempPath {
    common::temp_path(&format!("cluster-test-{name}"), name)
}

fn threads(n: usize) -> Cluster {
    Cluster {
        threads: n,
        process: 0,
        addresses: vec![],
    }
}

/// The file of `root`'s database up to `k` built by rayon and by the cluster engine on
/// three workers (an uneven split of every class) are the same bytes.
fn same_file<G: Catalogued + Send + Sync + 'static>(tag: &str, root: &G, k: u8) {
    let shelf = root.shelf().unwrap();
    let meta = (shelf.game, shelf.variant.as_str(), &*root.scope(k));
    let classes = root.classes(k);
    let (one, many) = (
        temp(&format!("{tag}-rayon")),
        temp(&format!("{tag}-timely")),
    );
    Database::<G>::build(&one, meta.0, meta.1, meta.2, &classes, &Quiet).unwrap();
    let r = cluster::build::<G>(&threads(3), &many, meta, &classes, Arc::new(Quiet)).unwrap();
    assert_eq!(r.stats.len(), classes.len());
    assert!(
        r.stats.iter().any(|s| s.sweeps > 2),
        "{tag}: no class iterated"
    );
    assert_eq!(
        (r.requests_sent, r.replies_sent, r.file_bytes_sent),
        (0, 0, 0),
        "one process sends nothing over the network"
    );
    // One process holds everything: its share is the whole.
    assert_eq!(r.held, r.positions, "{tag}");
    let largest = classes.iter().map(G::class_size).max().unwrap();
    assert_eq!(r.bounds_held, largest, "{tag}");
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&many).unwrap());
    assert!(
        !partial_dir(&many).exists(),
        "{tag}: the partial directory remains"
    );
}

#[test]
fn afrika_andada_and_kalah_files_equal_the_single_machine_build() {
    same_file("afrika", &Afrika::start(3, 0, Default::default()), 8);
    same_file("andada", &Andada::start(3, Default::default()), 7);
    same_file("kalah", &Kalah::start(3, 0, Default::default()), 9);
}
