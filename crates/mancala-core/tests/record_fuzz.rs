//! Mutation fuzzing of the record reader, seeded from the real records of `positions/`
//! and from generated Kalah and Andada records: characters inserted, deleted, replaced and
//! swapped, truncation, duplicated lines, huge numbers, odd code points.
//!
//! The properties, for every mutant:
//! - nothing panics (the lenient and the strict reader, `verify`, `replay`, the position
//!   and move parsers);
//! - every error names its place (a line, and a column for body text; a ply for moves);
//! - nothing is cut short silently: when the strict reader (what `show`, `play` and
//!   `solve` use) accepts the whole mutant, it has all the original's moves but at most
//!   the one the mutation destroyed, and its result statement if it had one; when
//!   `verify` reports nothing new from the mutated place on, the same holds for it.
//!
//! The default run tries a few thousand mutants (a few seconds). Millions:
//! `MANCALA_FUZZ_CASES=1000000 cargo test --release -p mancala-core --test record_fuzz -- --nocapture`
//! (`MANCALA_FUZZ_SEED` picks another sequence).

use std::panic::{AssertUnwindSafe, catch_unwind};

use mancala_core::game::{Moves, Notation, PositionText, SplitMix};
use mancala_core::record::{
    self, RecordGame, Tags, parse_file, parse_file_lenient, replay, start_position,
};
use mancala_core::registry;
use mancala_core::with_game_type;

fn env_number(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{key}={v} is not a number"))
        })
        .unwrap_or(default)
}

/// A record to mutate.
struct Seed {
    name: String,
    text: String,
}

fn real_records() -> Vec<Seed> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../positions");
    let mut out = Vec::new();
    // The game folders (the rows file of `table --rows` beside them is no record).
    let games = std::fs::read_dir(root).unwrap().map(|g| g.unwrap().path());
    for game in games.filter(|g| g.is_dir()) {
        for f in std::fs::read_dir(game).unwrap() {
            let path = f.unwrap().path();
            out.push(Seed {
                name: path.display().to_string(),
                text: std::fs::read_to_string(&path).unwrap(),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(out.len() >= 15, "the records of positions/ are missing");
    out
}

/// A record of random legal moves from the standard start of `name`, numbered.
fn generated<G: RecordGame>(name: &str, plies: usize, rng: &mut SplitMix) -> Seed {
    let tags = Tags::from_pairs(&[("Game", name)]);
    let mut g = G::standard_start(&tags).unwrap();
    let mut body = String::new();
    let mut moves = Moves::new();
    for ply in 1..=plies {
        if g.is_terminal() {
            break;
        }
        g.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        body += &format!("{ply}. {} ", g.format_move(mv));
        g = g.play(mv);
    }
    Seed {
        name: format!("generated-{name}"),
        text: format!("[Game \"{name}\"]\n{}\n", body.trim_end()),
    }
}

/// What reading a text gave.
#[derive(Debug, Default)]
struct Read {
    /// Moves `verify` saw, and its issues as (line, column, text).
    plies: usize,
    issues: Vec<(usize, usize, String)>,
    has_result: bool,
    /// Moves the strict reader read and replayed, when it accepted the whole record.
    strict: Option<usize>,
    /// An error that named no place, if any.
    unlocated: Option<String>,
    /// Whether the record was refused before its moves were read (a malformed tag, an
    /// unknown game, a start that cannot be set up): an error, so nothing is silent.
    refused: bool,
    /// Whether the start position could not be set up (only the reading is checked).
    start_unknown: bool,
}

fn read(name: &str, text: &str) -> Read {
    let mut out = Read::default();
    let rec = match parse_file_lenient(name, text) {
        Ok(rec) => rec,
        Err(e) => {
            if e.line.is_none() {
                out.unlocated = Some(e.to_string());
            }
            out.refused = true;
            return out;
        }
    };
    out.has_result = rec.body.result.is_some();
    let Some(kind) = rec
        .tags
        .get("Game")
        .and_then(|g| registry::find(g).ok())
        .map(|i| i.kind)
    else {
        out.refused = true;
        return out;
    };
    with_game_type!(kind, G => read_game::<G>(name, text, &rec, &mut out));
    out
}

fn read_game<G: RecordGame>(name: &str, text: &str, rec: &record::RecordFile, out: &mut Read) {
    let Ok(start) = start_position::<G>(&rec.tags) else {
        // An unknown start (Afrika Problem 1): the reading alone is checked.
        out.start_unknown = true;
        out.plies = rec.moves().count();
        for e in &rec.body.errors {
            let what = format!("{} | {}", e.token, e.expected);
            out.issues.push((e.pos.line, e.pos.column, what));
        }
        match parse_file(name, text) {
            Ok(strict) => out.strict = Some(strict.moves().count()),
            Err(e) if e.line.is_none() || e.column.is_none() => out.unlocated = Some(e.to_string()),
            // What a reader that cannot replay reports: the strict reader's error.
            Err(e) => out.issues.push((0, 0, e.message)),
        }
        return;
    };
    let report = record::verify(rec, start);
    out.plies = report.plies;
    for i in &report.issues {
        if i.pos.line == 0 || i.pos.column == 0 {
            out.unlocated = Some(format!("issue without a place: {i:?}"));
        }
        let what = format!("{} | {} | {}", i.recorded, i.actual, i.correction);
        out.issues.push((i.pos.line, i.pos.column, what));
    }
    match parse_file(name, text) {
        Err(e) => {
            if e.line.is_none() || e.column.is_none() {
                out.unlocated = Some(e.to_string());
            }
        }
        Ok(strict) => {
            // A replay error always carries its place (file, line, column, ply).
            if replay(name, &strict, start, usize::MAX, |_| {}).is_ok() {
                out.strict = Some(strict.moves().count());
            }
        }
    }
    // The position text of the start, and the moves as written, through the parsers.
    if let Some(s) = rec.tags.get("Start") {
        let _ = G::from_text(s);
    }
    for m in rec.moves() {
        let _ = start.parse_move(&m.name);
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mutation {
    Insert,
    Delete,
    Replace,
    Swap,
    HugeNumber,
    Truncate,
    DuplicateLine,
}

const ODD_CHARS: &[char] = &[
    ' ', '.', '-', ';', ',', '(', ')', '+', '!', '?', ':', '#', '[', ']', '"', '\t', '\n', 'x',
    'X', '0', '1', '9', 'é', '\u{feff}', '\u{0}', '\u{fffd}', '\u{202e}', '½',
];

fn random_char(rng: &mut SplitMix) -> char {
    if rng.below(3) == 0 {
        ODD_CHARS[rng.below(ODD_CHARS.len())]
    } else {
        let letters = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        letters[rng.below(letters.len())] as char
    }
}

/// Applies one random mutation; returns it, the mutant and the char index it starts at.
fn mutate(text: &str, rng: &mut SplitMix) -> (Mutation, String, usize) {
    let mut chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let at = rng.below(n);
    let kind = match rng.below(20) {
        0..=5 => Mutation::Insert,
        6..=10 => Mutation::Delete,
        11..=13 => Mutation::Replace,
        14..=15 => Mutation::Swap,
        16..=17 => Mutation::HugeNumber,
        18 => Mutation::Truncate,
        _ => Mutation::DuplicateLine,
    };
    match kind {
        Mutation::Insert => chars.insert(at, random_char(rng)),
        Mutation::Delete => drop(chars.remove(at)),
        Mutation::Replace => chars[at] = random_char(rng),
        Mutation::Swap if at + 1 < n => chars.swap(at, at + 1),
        Mutation::Swap => chars.swap(at, 0),
        Mutation::HugeNumber => {
            let huge = ["99999999999999999999", "4294967296", "256", "0"];
            let huge: Vec<char> = huge[rng.below(huge.len())].chars().collect();
            let digit = (at..n).find(|&i| chars[i].is_ascii_digit()).unwrap_or(at);
            let end = (digit..n)
                .find(|&i| !chars[i].is_ascii_digit())
                .unwrap_or(n);
            chars.splice(digit..end.max(digit), huge);
            return (kind, chars.into_iter().collect(), digit);
        }
        Mutation::Truncate => chars.truncate(at),
        Mutation::DuplicateLine => {
            let start = chars[..at]
                .iter()
                .rposition(|&c| c == '\n')
                .map_or(0, |i| i + 1);
            let end = (at..n).find(|&i| chars[i] == '\n').map_or(n, |i| i + 1);
            let mut line: Vec<char> = chars[start..end].to_vec();
            if line.last() != Some(&'\n') {
                line.insert(0, '\n');
            }
            chars.splice(end..end, line);
            return (kind, chars.into_iter().collect(), start);
        }
    }
    (kind, chars.into_iter().collect(), at)
}

/// The issues by their text only (places after a mutation shift; a new issue may start
/// before the mutated character, at the token or sentence that holds it).
fn issue_texts(r: &Read) -> Vec<&str> {
    let mut v: Vec<&str> = r.issues.iter().map(|(_, _, w)| w.as_str()).collect();
    v.sort();
    v
}

/// What went wrong with one mutant, if anything.
fn judge(original: &Read, mutant: &Read, kind: Mutation) -> Option<String> {
    if let Some(e) = &mutant.unlocated {
        return Some(format!("an error without a place: {e}"));
    }
    let refused = mutant.refused || mutant.start_unknown && !original.start_unknown;
    if refused || matches!(kind, Mutation::Truncate | Mutation::DuplicateLine) {
        return None;
    }
    let kept = |plies: usize, has_result: bool| {
        plies + 1 >= original.plies && (has_result || !original.has_result)
    };
    if let Some(p) = mutant.strict
        && !kept(p, mutant.has_result)
    {
        return Some(format!(
            "the strict reader accepted {p} of {} moves (result statement kept: {})",
            original.plies, mutant.has_result
        ));
    }
    let reported = issue_texts(mutant) != issue_texts(original);
    if !reported && !kept(mutant.plies, mutant.has_result) {
        return Some(format!(
            "verify read {} of {} moves and reported nothing new",
            mutant.plies, original.plies
        ));
    }
    None
}

#[test]
fn mutated_records_never_panic_nor_lose_moves_silently() {
    let cases = env_number("MANCALA_FUZZ_CASES", 3000);
    let mut rng = SplitMix(env_number("MANCALA_FUZZ_SEED", 2026));
    let mut seeds = real_records();
    seeds.push(generated::<mancala_core::kalah::Kalah>(
        "kalah", 40, &mut rng,
    ));
    seeds.push(generated::<mancala_core::andada::Andada>(
        "andada", 40, &mut rng,
    ));
    let originals: Vec<Read> = seeds.iter().map(|s| read(&s.name, &s.text)).collect();
    for (s, r) in seeds.iter().zip(&originals) {
        assert!(r.unlocated.is_none(), "{}: {:?}", s.name, r.unlocated);
    }
    let (mut panics, mut silent, mut unlocated) = (0u64, 0u64, 0u64);
    let mut examples = Vec::new();
    for case in 0..cases {
        let k = rng.below(seeds.len());
        let (kind, text, at) = mutate(&seeds[k].text, &mut rng);
        let name = &seeds[k].name;
        let outcome = catch_unwind(AssertUnwindSafe(|| read(name, &text)));
        let problem = match outcome {
            Err(_) => {
                panics += 1;
                Some("panic".to_string())
            }
            Ok(m) => {
                let p = judge(&originals[k], &m, kind);
                if let Some(p) = &p {
                    if p.starts_with("an error without") {
                        unlocated += 1;
                    } else {
                        silent += 1;
                    }
                }
                p
            }
        };
        if let Some(p) = problem
            && examples.len() < 5
        {
            let around =
                |t: &str| -> String { t.chars().skip(at.saturating_sub(30)).take(60).collect() };
            examples.push(format!(
                "case {case}, {name}, {kind:?} at {at}: {p}\n  was: {:?}\n  now: {:?}",
                around(&seeds[k].text),
                around(&text)
            ));
        }
    }
    eprintln!(
        "record fuzz: {cases} mutants of {} records; panics {panics}, silent truncations \
         {silent}, errors without a place {unlocated}",
        seeds.len()
    );
    assert!(
        examples.is_empty(),
        "{} failing mutants, first ones:\n{}",
        panics + silent + unlocated,
        examples.join("\n\n")
    );
}

/// Random text through every game's position and move parsers: errors, never a panic.
#[test]
fn random_text_through_position_and_move_parsers() {
    let cases = env_number("MANCALA_FUZZ_CASES", 3000);
    let mut rng = SplitMix(env_number("MANCALA_FUZZ_SEED", 2026) ^ 0xABCD);
    let samples = [
        "afrika south:1,0,0,3,0,2,2,0 north:0,4,4,0,1,0,0,5 south-store:54 north-store:52 to-move:south",
        "kauri south:0+1,0+0,0+2,0+1,0+1,5+7 north:7+0,0+0,0+0,0+0,0+0,0+0 south-store:18 north-store:30 to-move:south",
    ];
    for _ in 0..cases {
        let base = samples[rng.below(samples.len())];
        let (_, text, _) = mutate(base, &mut rng);
        for info in registry::GAMES {
            let r = catch_unwind(AssertUnwindSafe(|| {
                with_game_type!(info.kind, G => {
                    let _ = G::from_text(&text);
                    let start = G::standard_start(&Tags::from_pairs(&[])).unwrap();
                    let word: String = text.chars().skip(text.len() % 7).take(4).collect();
                    let _ = start.parse_move(&word);
                })
            }));
            assert!(r.is_ok(), "{} panicked on {text:?}", info.name);
        }
    }
}
