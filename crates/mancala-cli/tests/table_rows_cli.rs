//! `mancala table --rows`: the documented rows of docs/solutions.md solved again in one
//! command, a row that disagrees reported with exit 1, a bad rows file an error at its
//! line and column with exit 2.

mod common;

use common::{mancala, temp_dir, write_file};

fn text(out: &std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `mancala table --rows FILE` on one thread: exit code, stdout, stderr.
fn table_rows(file: &std::path::Path) -> (i32, String, String) {
    let file = file.to_str().unwrap();
    text(&mancala(&[
        "table", "--rows", file, "-t", "1", "--tt-mb", "64",
    ]))
}

/// The quick rows of the project's own rows file (the whole file: `mancala table --rows
/// positions/solutions.txt`, about a minute on one core).
#[test]
fn the_documented_small_rows_are_reproduced() {
    let only = "1,2,7,10,11,12.4x3,12.5x3,18,20.5x3,20.7x1";
    let out = mancala(&[
        "table",
        "--rows",
        "positions/solutions.txt",
        "--only",
        only,
        "-t",
        "2",
        "--tt-mb",
        "64",
        "--json",
    ]);
    let (code, stdout, stderr) = text(&out);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = rows.as_array().unwrap();
    // Rows 1, 1.komi, 2, 10, 11, 12.4x3, 12.5x3, 18, 20.5x3, 20.7x1 and row 7's 17 cells.
    assert_eq!(rows.len(), 27, "{stdout}");
    for r in rows {
        assert_eq!(r["status"], "agrees", "{r}");
        assert_eq!(r["value"], r["documented"], "{r}");
    }
    let kalah = rows.iter().find(|r| r["id"] == "12.4x3").unwrap();
    assert_eq!(kalah["value"], 8.0, "Kalah(4,3) is published as a win by 8");
    let afrika = rows.iter().find(|r| r["id"] == "1").unwrap();
    assert_eq!(afrika["moves_checked"], 8);
}

#[test]
fn a_row_that_disagrees_is_reported_and_fails() {
    let dir = temp_dir("rows-differ");
    let rows = "a kalah:4x3 value:8\nb kalah:4x3 value:6\nc afrika:8x1 value:0 moves:a=0,b=0,c=-2,d=-2,e=0,f=0,g=-2,h=2\n";
    let file = write_file(&dir, "rows.txt", rows);
    let (code, stdout, stderr) = table_rows(&file);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("DIFFERS: documented 6, found 8"),
        "{stdout}"
    );
    assert!(stdout.contains("move h documented 2, found 0"), "{stdout}");
    assert!(
        stdout.contains("3 rows: 1 as documented, 2 differ, 0 open"),
        "{stdout}"
    );
}

#[test]
fn bad_rows_files_are_errors_at_their_place() {
    let dir = temp_dir("rows-bad");
    let cases = [
        (
            "a kalah:4x3 value:8 depth:2\n",
            "line 1, column 21: unknown field",
        ),
        (
            "a kalah:4x3 value:8\nb kalah:4x3\n",
            "line 2, column 1: row \"b\" has no value",
        ),
        (
            "a afrika:8x1 value:0 moves:a=0,q=0\n",
            "rows.txt:line 1: row a: column 32: \"q\": unknown hole",
        ),
        (
            "a afrika:8x1 value:0 moves:a=0,b=0\n",
            "the legal moves c, d, e, f, g, h are not listed",
        ),
        ("a kalah:4x3 value:8 rules:sideways\n", "row a"),
        ("a nosuchgame:4 value:8\n", "row a"),
    ];
    for (rows, expected) in cases {
        let file = write_file(&dir, "rows.txt", rows);
        let (code, stdout, stderr) = table_rows(&file);
        assert_eq!(code, 2, "{rows}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{rows}: {stderr}");
        assert!(stderr.contains("rows.txt"), "{rows}: {stderr}");
    }
    let (code, _, stderr) = text(&mancala(&[
        "table",
        "--rows",
        "positions/solutions.txt",
        "--only",
        "99",
    ]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--only 99: positions/solutions.txt has no such row"),
        "{stderr}"
    );
    let (code, _, stderr) = text(&mancala(&[
        "table",
        "kalah",
        "--holes",
        "2",
        "--rows",
        "positions/solutions.txt",
    ]));
    assert_eq!(code, 2, "{stderr}");
}
