//! Printing that cannot panic. `println!` panics when standard output cannot be written
//! (`mancala show kalah:6 >/dev/full`: exit status 101, a panic message), `eprintln!` when
//! standard error cannot. Here a failed write to standard output ends the program with an
//! error and exit status 2, as any other error; a failed write to standard error has
//! nowhere to be reported and is dropped (the exit status still tells). A closed pipe
//! still ends the program quietly (SIGPIPE, see `main`).

use std::io::Write;

/// Writes to standard output, or ends the program (status 2) when it cannot.
pub fn stdout(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        fail(&e)
    }
}

/// Writes to standard error; a failure is dropped (there is nowhere left to report it).
pub fn stderr(args: std::fmt::Arguments) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Flushes standard output (what `print!` left without a newline), or ends the program.
pub fn flush() {
    if let Err(e) = std::io::stdout().flush() {
        fail(&e)
    }
}

fn fail(e: &std::io::Error) -> ! {
    stderr(format_args!(
        "error: cannot write to standard output: {e}\n"
    ));
    std::process::exit(2)
}

/// `println!` that ends the program with an error instead of panicking.
macro_rules! outln {
    () => {
        $crate::out::stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that ends the program with an error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!($($arg)*))
    };
}

/// `eprintln!` that drops what standard error cannot take instead of panicking.
macro_rules! errln {
    () => {
        $crate::out::stderr(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}
