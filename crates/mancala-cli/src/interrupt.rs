//! Ctrl-C (SIGINT) and SIGTERM during a solve with `--checkpoint`: the first signal asks
//! the search to stop, so that the solve saves its checkpoint and ends (exit status 130);
//! a second Ctrl-C ends the program at once, keeping the checkpoint saved before. Without
//! this, an interrupted hour-long solve loses everything since its last periodic
//! checkpoint (`timeout` and schedulers stop a job with SIGTERM, a user with Ctrl-C).
//!
//! Only SIGINT ends it at once: a repeated SIGTERM waits for the save like the first.
//! GNU `timeout` sends its SIGTERM to the program and then to the program's process group,
//! which holds the program again, so one `timeout` delivers two; counting the second as
//! "end at once" lost the save (seen in 4 of 6 runs of `timeout 3 mancala solve ...
//! --checkpoint`). A process that must end at once is sent SIGKILL.
//!
//! The handler only stores to an atomic flag (async-signal-safe); the checkpoint's saver
//! thread reads the flag and raises the solver's own stop flag.

use std::sync::atomic::{AtomicBool, Ordering};

/// A stop was asked for by a signal.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit status of a solve stopped by a signal: 128 + SIGINT, as shells report it.
pub const EXIT_STATUS: u8 = 130;

/// Whether a signal has asked the solve to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The flag a signal raises, for searches that poll it themselves.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// From now on, SIGINT and SIGTERM ask the solve to stop instead of killing the program.
pub fn catch() {
    #[cfg(unix)]
    // SAFETY: `on_signal` is async-signal-safe (an atomic swap, and `_exit`).
    unsafe {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    if REQUESTED.swap(true, Ordering::Relaxed) && signal == libc::SIGINT {
        // The second signal: the user does not want to wait for the save. The previous
        // checkpoint stays whole (saves are written beside it and renamed over it).
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(EXIT_STATUS as libc::c_int) }
    }
}
