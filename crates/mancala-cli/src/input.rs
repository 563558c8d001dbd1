//! Reading files and standard input, with errors that name the file.

use std::io::Read;

use anyhow::{Context, Result};

/// The contents of `path`, or of standard input for "-".
pub fn read_text(path: &str) -> Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("{path}: cannot read the file"))
    }
}

/// How a file is named in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}
