//! The user's stop request ends a solve promptly, even in the middle of one long
//! null-window search (the time budget of `mancala table` relies on it).

use std::sync::atomic::Ordering;
use std::time::Duration;

use mancala_core::kalah::{Kalah, Rules};

mod common;
use common::{Wants, solver};

#[test]
fn a_stop_request_interrupts_a_long_solve() {
    // Kalah(6,4) takes far longer than the test: only the stop can end it.
    let g = Kalah::start(6, 4, Rules::default());
    let solver = solver(2, 16, Wants::Pv);
    let sol = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            solver.progress.stop.store(true, Ordering::Relaxed);
        });
        solver.solve(&g)
    });
    assert!(sol.is_none(), "the solve was not stopped");
    assert!(solver.progress.nodes.load(Ordering::Relaxed) > 0);
}
