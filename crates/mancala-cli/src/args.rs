//! Value parsers for the command line's numbers: every count, size, duration and thread
//! number is checked against its range when the arguments are read, so that a value
//! such as `--seconds NaN` or `--threads 0` is a clear error and never reaches the code.

use std::ops::RangeInclusive;

/// The most worker threads a command starts.
pub const MAX_THREADS: usize = 1024;

fn in_range<T>(s: &str, range: RangeInclusive<T>, what: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let v: T = s
        .trim()
        .parse()
        .map_err(|_| format!("\"{s}\" is not {what}"))?;
    if !range.contains(&v) {
        return Err(format!(
            "{v} is out of range: expected {} to {}",
            range.start(),
            range.end()
        ));
    }
    Ok(v)
}

/// Search threads: 1 to [`MAX_THREADS`].
pub fn threads(s: &str) -> Result<usize, String> {
    in_range(s, 1..=MAX_THREADS, "a number of threads")
}

/// The largest transposition table asked for, in MB (1 TB; sizes beyond the free memory
/// are refused later, when the table is made).
pub const MAX_TT_MB: usize = 1 << 20;

/// A transposition table size in MB: 1 to [`MAX_TT_MB`].
pub fn tt_mb(s: &str) -> Result<usize, String> {
    let v: Option<usize> = s.trim().parse().ok();
    match v {
        Some(mb) if (1..=MAX_TT_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "{s}: expected a transposition table size in MB from 1 to {MAX_TT_MB}"
        )),
    }
}

/// A depth in plies from the root: 0 to 10^6.
pub fn depth(s: &str) -> Result<u32, String> {
    in_range(s, 0..=1_000_000, "a number of plies")
}

/// A finite number, or an error saying the text is not `what`.
fn finite(s: &str, what: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("\"{s}\" is not {what}"))
}

/// A time limit in seconds: finite, above 0, at most a year.
pub fn seconds(s: &str) -> Result<f64, String> {
    duration(s, "seconds", 365.0 * 86_400.0)
}

/// A time in minutes: finite, above 0, at most a year.
pub fn minutes(s: &str) -> Result<f64, String> {
    duration(s, "minutes", 365.0 * 1440.0)
}

/// A number of `unit`s above 0 and at most `year` (a year in that unit).
fn duration(s: &str, unit: &str, year: f64) -> Result<f64, String> {
    let what = format!("a number of {unit} above 0 and at most a year");
    let v = finite(s, &what)?;
    if v <= 0.0 || v > year {
        return Err(format!("{s}: expected {what}"));
    }
    Ok(v)
}

/// The most self-play games of one run. Games are tallied as they are played, so memory
/// does not grow with the count; the bound only keeps a run's time finite (10^9 random
/// Kalah games take hours on one core).
pub const MAX_GAMES: usize = 1_000_000_000;

/// Self-play games: 1 to [`MAX_GAMES`].
pub fn games(s: &str) -> Result<usize, String> {
    in_range(s, 1..=MAX_GAMES, "a number of games")
}

/// A ply count limit: 1 to 10^6.
pub fn plies(s: &str) -> Result<usize, String> {
    in_range(s, 1..=1_000_000, "a number of plies")
}

/// A ply of a record to stop at: 0 (the start) to 10^7.
pub fn ply(s: &str) -> Result<usize, String> {
    in_range(s, 0..=10_000_000, "a ply number")
}

/// A small count (candidates shown, corrections tried): 0 to 10^6.
pub fn count(s: &str) -> Result<usize, String> {
    in_range(s, 0..=1_000_000, "a count")
}

/// A node budget: 1 to 10^15.
pub fn nodes(s: &str) -> Result<u64, String> {
    in_range(s, 1..=1_000_000_000_000_000, "a number of nodes")
}

/// A value in points to test a position against (`solve --at-least`): a finite number,
/// -1000 to 1000, negative allowed.
pub fn points(s: &str) -> Result<f64, String> {
    let what = "a number of points from -1000 to 1000, such as 1, 0.5 or -3";
    let v = finite(s, what)?;
    if v.abs() > 1000.0 {
        return Err(format!("{s}: expected {what}"));
    }
    Ok(v)
}

/// Komi in points: a finite number of half points, -1000 to 1000, negative allowed
/// (`--komi -1.5`).
pub fn komi(s: &str) -> Result<String, String> {
    let v = finite(s, "a number of points such as 2.5 or -1.5")?;
    if v.abs() > 1000.0 || (v * 2.0).fract() != 0.0 {
        return Err(format!(
            "{s}: expected a number of points in half points, such as 2.5 or -1.5"
        ));
    }
    Ok(s.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Debug;

    /// Asserts that the parser `parse` (named `name`) refuses every one of `inputs`.
    fn refuses<T: Debug>(name: &str, parse: fn(&str) -> Result<T, String>, inputs: &[&str]) {
        for s in inputs {
            let got = parse(s);
            assert!(got.is_err(), "{name}({s:?}) should be refused: {got:?}");
        }
    }

    #[test]
    fn ranges_and_non_numbers_are_refused() {
        refuses("threads", threads, &["0", "99999999999999999999"]);
        refuses("seconds", seconds, &["NaN", "inf", "-1", "0"]);
        refuses("games", games, &["18446744073709551615", "0", "1000000001"]);
        refuses("komi", komi, &["2.25", "NaN"]);
        refuses("plies", plies, &["0"]);
        refuses("tt_mb", tt_mb, &["0", "18446744073709551615"]);
        refuses("depth", depth, &["4000000000"]);
        assert_eq!(threads("4"), Ok(4));
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert_eq!(games("1000000000"), Ok(1_000_000_000));
        assert_eq!(komi("-1.5"), Ok("-1.5".into()));
        assert_eq!(tt_mb("64"), Ok(64));
        assert_eq!(depth("0"), Ok(0));
    }
}
