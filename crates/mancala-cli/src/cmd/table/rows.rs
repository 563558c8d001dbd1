//! The rows file of `mancala table --rows`: positions with the values documented for
//! them (`positions/solutions.txt` holds the small rows of `docs/solutions.md`), so that
//! one command solves them all again and says whether each agrees.
//!
//! One row a line: `ID POSITION FIELD:VALUE ...`. POSITION is a named start
//! (`afrika:8x1`) or a file, relative to the rows file's folder. Fields: `value:V`
//! (required: the documented value for the side to move, as `mancala solve` prints it),
//! `rules:NAME`, `komi:K`, `ply:N`, `moves:M=V,M=V,...` (the documented value of every
//! legal move). `#` starts a comment line. Every error names the file, line and column.

use std::path::Path;

use thiserror::Error;

/// A documented row: where its position comes from and what the documents say.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Where the row is written (for messages).
    pub place: Place,
    pub id: String,
    /// A named start or a file path (made relative to the current folder).
    pub position: String,
    pub rules: Option<String>,
    pub komi: Option<String>,
    pub ply: Option<usize>,
    /// The documented value for the side to move.
    pub value: f64,
    /// The documented value of every legal move, as the game writes the move.
    pub moves: Vec<DocumentedMove>,
}

/// A move and its documented value, with its place (the move is read once the game is
/// known).
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentedMove {
    pub place: Place,
    pub text: String,
    pub value: f64,
}

/// File, line and column of a word of the rows file.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:line {}, column {}",
            self.file, self.line, self.column
        )
    }
}

/// A rows file that cannot be read, at its place.
#[derive(Debug, Error, PartialEq)]
#[error("{place}: {what}")]
pub struct RowError {
    pub place: Place,
    pub what: String,
}

/// Reads every row of `text` (the contents of `file`).
pub fn read(file: &str, text: &str) -> Result<Vec<Row>, RowError> {
    let folder = Path::new(file).parent().unwrap_or(Path::new(""));
    let mut rows: Vec<Row> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let words = words(line);
        let Some(&(first_col, first)) = words.first() else {
            continue;
        };
        if first.starts_with('#') {
            continue;
        }
        let at = |column: usize| Place {
            file: file.to_string(),
            line: i + 1,
            column,
        };
        let row = read_row(&words, folder, &at)?;
        if let Some(old) = rows.iter().find(|r| r.id == row.id) {
            return Err(RowError {
                place: at(first_col),
                what: format!(
                    "row \"{}\" again (first at line {})",
                    row.id, old.place.line
                ),
            });
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(RowError {
            place: Place {
                file: file.to_string(),
                line: 1,
                column: 1,
            },
            what: "no rows (expected lines `ID POSITION value:V ...`)".into(),
        });
    }
    Ok(rows)
}

/// The words of a line with their columns (1-based, in characters).
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (byte, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((col + 1, byte)),
            (true, Some((sc, sb))) => {
                out.push((sc, &line[sb..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((sc, sb)) = start {
        out.push((sc, &line[sb..]));
    }
    out
}

fn read_row(
    words: &[(usize, &str)],
    folder: &Path,
    at: &dyn Fn(usize) -> Place,
) -> Result<Row, RowError> {
    let bad = |column: usize, what: String| RowError {
        place: at(column),
        what,
    };
    let (id_col, id) = words[0];
    if !id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c))
    {
        return Err(bad(
            id_col,
            format!("row id \"{id}\": letters, digits, '.', '-' and '_' only"),
        ));
    }
    let Some(&(_, position)) = words.get(1) else {
        return Err(bad(
            id_col + id.chars().count(),
            "expected a position after the row id".into(),
        ));
    };
    let in_folder = folder.join(position);
    let position = if in_folder.is_file() {
        in_folder.display().to_string()
    } else {
        position.to_string()
    };
    let mut row = Row {
        place: at(id_col),
        id: id.to_string(),
        position,
        rules: None,
        komi: None,
        ply: None,
        value: f64::NAN,
        moves: Vec::new(),
    };
    let mut seen: Vec<&str> = Vec::new();
    for &(col, word) in &words[2..] {
        let Some((name, value)) = word.split_once(':') else {
            return Err(bad(
                col,
                format!("\"{word}\": expected FIELD:VALUE (value, rules, komi, ply, moves)"),
            ));
        };
        if seen.contains(&name) {
            return Err(bad(col, format!("field \"{name}\" given twice")));
        }
        seen.push(name);
        let value_col = col + name.chars().count() + 1;
        match name {
            "value" => row.value = points(value).map_err(|w| bad(value_col, w))?,
            "rules" => row.rules = Some(value.to_string()),
            "komi" => row.komi = Some(crate::args::komi(value).map_err(|w| bad(value_col, w))?),
            "ply" => row.ply = Some(crate::args::ply(value).map_err(|w| bad(value_col, w))?),
            "moves" => row.moves = moves(value, value_col, at)?,
            _ => {
                return Err(bad(
                    col,
                    format!("unknown field \"{name}\" (known: value, rules, komi, ply, moves)"),
                ));
            }
        }
    }
    if row.value.is_nan() {
        return Err(bad(
            id_col,
            format!("row \"{id}\" has no value:V (the documented value)"),
        ));
    }
    Ok(row)
}

/// A value in points: a whole or half number such as `-2`, `+4` or `0.5`.
fn points(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim_start_matches('+')
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| format!("\"{s}\": expected a value such as -2, +4 or 0.5"))?;
    if (v * 2.0).fract() != 0.0 || v.abs() > 1000.0 {
        return Err(format!(
            "\"{s}\": expected a whole or half number of points"
        ));
    }
    Ok(v)
}

/// `M=V,M=V,...` starting at column `col`.
fn moves(
    s: &str,
    col: usize,
    at: &dyn Fn(usize) -> Place,
) -> Result<Vec<DocumentedMove>, RowError> {
    let mut out: Vec<DocumentedMove> = Vec::new();
    let mut column = col;
    for part in s.split(',') {
        let place = at(column);
        let Some((text, value)) = part.split_once('=') else {
            return Err(RowError {
                place,
                what: format!("\"{part}\": expected MOVE=VALUE, such as a=0 or f=-2"),
            });
        };
        let value = points(value).map_err(|what| RowError {
            place: at(column + text.chars().count() + 1),
            what,
        })?;
        if out.iter().any(|m| m.text == text) {
            return Err(RowError {
                place,
                what: format!("move \"{text}\" listed twice"),
            });
        }
        out.push(DocumentedMove {
            place,
            text: text.to_string(),
            value,
        });
        column += part.chars().count() + 1;
    }
    Ok(out)
}

/// Whether `id` is chosen by `only` (row ids; `12` also chooses `12.1x3`).
pub fn chosen(id: &str, only: &[String]) -> bool {
    only.is_empty()
        || only.iter().any(|o| {
            id == o
                || id
                    .strip_prefix(o.as_str())
                    .is_some_and(|r| r.starts_with('.'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_with_every_field_is_read() {
        let text =
            "# comment\n\n 5  afrika:8x3  rules:giveaway komi:2.5 value:-1 moves:a=0,xb=-0.5\n";
        let rows = read("dir/rows.txt", text).unwrap();
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!((r.id.as_str(), r.position.as_str()), ("5", "afrika:8x3"));
        assert_eq!(r.rules.as_deref(), Some("giveaway"));
        assert_eq!(r.komi.as_deref(), Some("2.5"));
        assert_eq!(r.value, -1.0);
        assert_eq!(r.place.line, 3);
        assert_eq!(r.place.column, 2);
        let m: Vec<_> = r
            .moves
            .iter()
            .map(|m| (m.text.as_str(), m.value, m.place.column))
            .collect();
        assert_eq!(m, vec![("a", 0.0, 56), ("xb", -0.5, 60)]);
    }

    #[test]
    fn every_malformed_row_is_an_error_at_its_place() {
        let cases = [
            ("1 kalah:4x3", 1, "no value"),
            ("1 kalah:4x3 value:x", 19, "expected a value"),
            ("1 kalah:4x3 value:0.25", 19, "half number"),
            ("1 kalah:4x3 value:2 value:2", 21, "twice"),
            ("1 kalah:4x3 value:2 depth:3", 21, "unknown field"),
            ("1 kalah:4x3 value:2 oops", 21, "FIELD:VALUE"),
            ("1 kalah:4x3 value:2 moves:a=1,b", 31, "MOVE=VALUE"),
            ("1 kalah:4x3 value:2 moves:a=1,b=q", 33, "expected a value"),
            ("1 kalah:4x3 value:2 moves:a=1,a=2", 31, "twice"),
            ("1 kalah:4x3 value:2 komi:2.25", 26, "half points"),
            ("1 kalah:4x3 value:2 ply:-1", 25, ""),
            ("r/1 kalah:4x3 value:2", 1, "row id"),
            ("1", 2, "expected a position"),
            (
                "1 kalah:4x3 value:2\n1 kalah:4x3 value:2",
                1,
                "again (first at line 1)",
            ),
            ("# only a comment", 1, "no rows"),
        ];
        for (text, column, what) in cases {
            let e = read("rows.txt", text).unwrap_err();
            assert_eq!(e.place.column, column, "{text}: {e}");
            assert!(e.to_string().contains(what), "{text}: {e}");
            assert!(e.to_string().starts_with("rows.txt:line "), "{text}: {e}");
        }
    }

    #[test]
    fn only_chooses_rows_and_their_cells() {
        let only = vec!["12".to_string(), "3".to_string()];
        assert!(chosen("12", &only) && chosen("12.4x3", &only) && chosen("3", &only));
        assert!(!chosen("120", &only) && !chosen("13.3", &only) && !chosen("31", &only));
        assert!(chosen("anything", &[]));
    }
}
