//! Reading files and standard input, with errors that name the file and the place.

use std::io::Read;

use anyhow::{Context, Result, bail};

/// The largest input file read: records and positions are small, and a bound keeps a
/// wrong file (a database, an image) from being read whole into memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The contents of `path`, or of standard input for "-", as UTF-8 text.
pub fn read_text(path: &str) -> Result<String> {
    let name = display_name(path);
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    read.with_context(|| format!("{name}: cannot read the file"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{name}: larger than {} MB: not a record or position file",
            MAX_INPUT_BYTES >> 20
        );
    }
    // A byte-order mark (editors on Windows write one) is no part of the text.
    let bytes = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        anyhow::anyhow!(
            "{name}:line {line}, column {column}: not UTF-8 text (a byte that is no character)"
        )
    })
}

/// How a file is named in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}
