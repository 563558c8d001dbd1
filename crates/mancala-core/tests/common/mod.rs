//! Helpers shared by the integration tests of mancala-core: positions and moves read by
//! their names, error messages checked case by case, the published records of
//! `positions/` read, replayed and verified.
//!
//! Each test file is its own crate and uses a part of these only.
#![allow(dead_code)]

use std::fmt::Debug;

use mancala_core::afrika::Afrika;
use mancala_core::andada::Andada;
use mancala_core::diagram::{Diagram, DrawnRow, Layout};
use mancala_core::kalah::Kalah;
use mancala_core::kauri::Kauri;
use mancala_core::progressive::Progressive;
use mancala_core::record::{RecordFile, RecordGame, Report, parse_file, start_position, verify};
use mancala_core::{Moves, Notation, PositionText};
use proptest::prop_assert_eq;
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseError};

/// A game whose positions say why a move is illegal (each game has its own inherent
/// `why_illegal`; this trait lets the helpers below call it for any of them).
pub trait Explained: Notation + PositionText {
    fn why_illegal(&self, mv: Self::Move) -> Option<String>;
}

macro_rules! explained {
    ($($game:ty),*) => {$(
        impl Explained for $game {
            fn why_illegal(&self, mv: Self::Move) -> Option<String> {
                <$game>::why_illegal(self, mv)
            }
        }
    )*};
}

explained!(Afrika, Andada, Kalah, Kauri, Progressive);

/// The position a text describes; panics naming the text when it is refused.
pub fn pos<G: PositionText>(text: &str) -> G {
    G::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of `g` by their names, in the game's order.
pub fn legal<G: Notation>(g: &G) -> Vec<String> {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    moves.iter().map(|&m| g.format_move(m)).collect()
}

/// Plays the move named `mv`, which must be legal in `g`.
pub fn play<G: Explained>(g: &G, mv: &str) -> G {
    let m = g.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    assert_eq!(g.why_illegal(m), None, "{mv} in {}", g.to_text());
    g.play(m)
}

/// Plays the move named `mv` in `g` and checks the position after it; returns that position.
pub fn assert_play<G: Explained>(g: &G, mv: &str, after: &str) -> G {
    let a = play(g, mv);
    assert_eq!(a.to_text(), after, "{mv} in {}", g.to_text());
    a
}

/// Plays each case's move in its position and checks the position after it, as
/// `(before, move, after)`; returns each case's positions before and after, for the checks
/// that follow.
pub fn assert_plays<G: Explained>(cases: &[(&str, &str, &str)]) -> Vec<(G, G)> {
    cases
        .iter()
        .map(|&(before, mv, after)| {
            let g: G = pos(before);
            let a = assert_play(&g, mv, after);
            (g, a)
        })
        .collect()
}

/// The (label, count) of each cell of a diagram row, in the row's order.
pub fn cells(row: &DrawnRow) -> Vec<(&str, u32)> {
    row.cells
        .iter()
        .map(|c| (c.label.as_str(), c.count))
        .collect()
}

/// The diagram of `g`, once its title, the (label, count) cells of its top row and its
/// status line are asserted.
pub fn assert_diagram<G: Diagram>(
    g: &G,
    title: &str,
    top_row: &[(&str, u32)],
    status: &str,
) -> Layout {
    let l = g.layout();
    assert_eq!(l.title, title);
    assert_eq!(cells(&l.rows[0]), top_row, "{title}");
    assert_eq!(l.status, status, "{title}");
    l
}

/// Asserts that the game is over in `g`: no move is left, and its final value (for the
/// player to move) is `value`.
pub fn assert_game_over<G: Notation>(g: &G, value: i32) {
    assert!(g.is_terminal(), "{g:?} is not over");
    assert!(legal(g).is_empty(), "{g:?}");
    assert_eq!(g.terminal_value(), value, "{g:?}");
}

/// Why `mv` is illegal in `g`; panics when it is legal.
pub fn why<G: Explained>(g: &G, mv: G::Move) -> String {
    g.why_illegal(mv).unwrap_or_else(|| panic!("{mv:?} legal"))
}

/// The error a position text gives; panics when the text is accepted.
pub fn text_error<G: PositionText>(text: &str) -> String {
    match G::from_text(text) {
        Ok(g) => panic!("{text} was accepted as {g:?}"),
        Err(e) => e.0,
    }
}

/// Every `(text, want)`: the position text is refused with an error containing `want`.
pub fn assert_text_errors<G: PositionText>(cases: &[(&str, &str)]) {
    for &(text, want) in cases {
        let e = text_error::<G>(text);
        assert!(e.contains(want), "{text:?}: \"{e}\" lacks \"{want}\"");
    }
}

/// Every `(name, want)`: the move name is refused in `g` with an error containing `want`.
pub fn assert_move_errors<G: Notation>(g: &G, cases: &[(&str, &str)]) {
    for &(name, want) in cases {
        let e = g.parse_move(name).unwrap_err().0;
        assert!(e.contains(want), "{name:?}: \"{e}\" lacks \"{want}\"");
    }
}

/// Numbers as a position text writes a row: `1,2,3`.
pub fn join(v: &[u16]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Any text, read as a position (alone and after the game's name `game`) or as a move in
/// `g`, gives a result, never a panic.
pub fn read_arbitrary_text<G: Notation + PositionText>(game: &str, g: &G, s: &str) {
    let _ = G::from_text(s);
    let _ = G::from_text(&format!("{game} {s}"));
    let _ = g.parse_move(s);
}

/// Two rows of a position text, `1,2,3`, of up to `max_len - 1` numbers each, some too
/// large for a hole.
pub fn rows(max_len: usize) -> impl Strategy<Value = (String, String)> {
    let row = || proptest::collection::vec(0u16..300, 0..max_len).prop_map(|v| join(&v));
    (row(), row())
}

/// When `text` is a position, it reads back from its own text and every legal move plays.
pub fn check_text_round_trip<G: PositionText>(text: &str) -> Result<(), TestCaseError> {
    if let Ok(g) = G::from_text(text) {
        prop_assert_eq!(G::from_text(&g.to_text()).unwrap(), g);
        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        for &mv in moves.iter() {
            let _ = g.play(mv);
        }
    }
    Ok(())
}

/// A proptest configuration of `cases` cases from a fixed seed, with no failure files.
pub fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

/// A file of `positions/<game>/`; panics naming the path when it cannot be read.
pub fn read_positions(game: &str, file: &str) -> String {
    let path = format!(
        "{}/../../positions/{game}/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A record (strictly read) and the start position its tags describe.
pub fn record_start<G: RecordGame>(name: &str, text: &str) -> (RecordFile, G) {
    let rec = parse_file(name, text).unwrap();
    let start: G = start_position(&rec.tags).unwrap();
    (rec, start)
}

/// The report of `verify` on a record text, from the start its tags describe.
pub fn verify_text<G: RecordGame>(name: &str, text: &str) -> Report<G::Move> {
    let (rec, start) = record_start::<G>(name, text);
    verify(&rec, start)
}

/// `record(statement)` with each of `statements` appended: the game is over, and the
/// statement is its record's one issue. Returns the issues' texts.
pub fn result_issues<G: RecordGame>(
    record: impl Fn(&str) -> String,
    statements: &[&str],
) -> Vec<String> {
    statements
        .iter()
        .map(|st| {
            let r = verify_text::<G>("result.txt", &record(st));
            assert!(r.game_over && !r.consistent, "{st}: {:#?}", r.issues);
            assert_eq!(r.issues.len(), 1, "{st}: {:#?}", r.issues);
            assert_eq!(r.issues[0].ply, 0, "{st}: not the result statement");
            r.issues[0].actual.clone()
        })
        .collect()
}

/// The move names of a record, in order.
pub fn record_moves(rec: &RecordFile) -> Vec<String> {
    rec.body
        .groups
        .iter()
        .flat_map(|g| g.moves.iter().map(|m| m.name.clone()))
        .collect()
}

/// How a verified record ends.
pub struct End<'a> {
    pub plies: usize,
    /// First player first.
    pub score: [u32; 2],
    pub game_over: bool,
    pub decided: bool,
    pub position: &'a str,
}

/// The record `label` is consistent and ends as `end` says.
pub fn assert_consistent_end<M: Debug>(label: &str, r: &Report<M>, end: End) {
    assert!(r.consistent, "{label}: {:#?}", r.issues);
    assert_eq!(r.plies, end.plies, "{label}: plies");
    assert_eq!(r.final_score, end.score, "{label}: final score");
    assert_eq!(r.game_over, end.game_over, "{label}: game over");
    assert_eq!(r.decided, end.decided, "{label}: decided");
    assert_eq!(r.final_position, end.position, "{label}");
}
