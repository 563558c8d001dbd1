//! The conformance suite: run for every game in the registry, so that a newly registered
//! game is covered with no new test code. For each game: position text and move notation
//! round-trip on positions of random playouts; every record of the game in `positions/`
//! that verifies as consistent replays move by move to the same score; alpha-beta (and
//! its one-test answer to "value at least v?") agrees with plain minimax on small
//! positions; and for the games with a retrograde index, the index is a bijection on every
//! class below a small one met in play, and the database built from those classes agrees
//! with the search.

use std::path::{Path, PathBuf};

use mancala_core::game::{SplitMix, random_line};
use mancala_core::index::Indexed;
use mancala_core::record::{self, RecordFile, Tags, parse_file_lenient, start_position};
use mancala_core::registry::{GAMES, GameInfo, Registered};
use mancala_core::{Game, Moves, Player, with_game_type, with_indexed_game_type};
use mancala_solver::minimax::minimax;
use mancala_solver::retro::Database;
use mancala_solver::retro::db::Quiet;
use mancala_solver::{Config, Solver, on_search_stack};

/// A random playout from `start`, every position on the way.
fn playout<G: Game>(start: G, rng: &mut SplitMix) -> Vec<G> {
    random_line(start, rng, 400)
}

fn round_trips<G: Registered>(info: &GameInfo) {
    let start = G::standard_start(&Tags::default()).expect("the standard start");
    let mut rng = SplitMix(0xC0FFEE);
    let mut ms = Moves::new();
    for _ in 0..20 {
        for g in playout(start, &mut rng) {
            let text = g.to_text();
            assert_eq!(G::from_text(&text).unwrap(), g, "{}: {text}", info.name);
            g.legal_moves(&mut ms);
            for &m in &ms {
                let name = g.format_move(m);
                assert_eq!(
                    g.parse_move(&name).unwrap(),
                    m,
                    "{}: {name} in {text}",
                    info.name
                );
            }
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The record files of one game in `positions/` (by their `[Game]` tag).
fn records(info: &GameInfo) -> Vec<(String, RecordFile)> {
    let mut out = Vec::new();
    // The game folders (the rows file of `table --rows` beside them is no record).
    let dirs = std::fs::read_dir(root().join("positions")).unwrap();
    for dir in dirs.map(|d| d.unwrap().path()).filter(|d| d.is_dir()) {
        for file in std::fs::read_dir(dir).unwrap() {
            let path = file.unwrap().path();
            let name = path.display().to_string();
            let rec = parse_file_lenient(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
            let game = rec.tags.get("Game").map(|g| g.to_lowercase());
            if game.as_deref() == Some(info.name) {
                out.push((name, rec));
            }
        }
    }
    out
}

/// Returns how many records of the game replayed.
fn records_replay<G: Registered>(info: &GameInfo) -> usize {
    let mut replayed = 0;
    for (name, rec) in records(info) {
        let Ok(start) = start_position::<G>(&rec.tags) else {
            continue; // a lost diagram: nothing to replay from
        };
        let report = record::verify(&rec, start);
        if !report.consistent {
            continue;
        }
        let end = record::replay(&name, &rec, start, usize::MAX, |_| {})
            .unwrap_or_else(|e| panic!("{e}"));
        let score = [end.captured(Player::First), end.captured(Player::Second)];
        assert_eq!(score, report.final_score, "{name}");
        assert_eq!(end.to_text(), report.final_position, "{name}");
        replayed += 1;
    }
    replayed
}

/// The smallest board of the game (its standard board where the size is fixed).
fn small_start<G: Registered>(info: &GameInfo) -> G {
    let spec = (info.holes.0..=info.holes.1)
        .find_map(|holes| info.table_start(holes, 1))
        .map(|s| s.split_once(':').unwrap().1.to_string())
        .unwrap_or_default();
    G::standard_start(&info.start_tags(&spec).unwrap()).unwrap()
}

/// Returns how many positions were compared.
fn alpha_beta_matches_minimax<G: Registered>(info: &GameInfo) -> usize {
    let solver = Solver::new(Config {
        threads: 1,
        tt_mb: 8,
        ..Config::default()
    });
    // The tests get a table of their own: after the exact search, the root's entry would
    // answer them with no search.
    let tester = Solver::new(Config {
        threads: 1,
        tt_mb: 8,
        ..Config::default()
    });
    let mut rng = SplitMix(0xAB);
    let mut compared = 0;
    for _ in 0..20 {
        // From the end of the playout backwards, while positions stay small enough.
        for g in playout(small_start::<G>(info), &mut rng).into_iter().rev() {
            let Some(exact) = minimax(&g, 100_000) else {
                break;
            };
            let value = on_search_stack(|| solver.value(&g, g.banked())).unwrap();
            assert_eq!(value, exact, "{}: {}", info.name, g.to_text());
            decides_as_minimax(&tester, &g, exact, info);
            compared += 1;
        }
    }
    compared
}

/// The null-window tests just at and just above the exact value (`solve --at-least`)
/// answer as it does, with fail-soft bounds on its side.
fn decides_as_minimax<G: Registered>(solver: &Solver, g: &G, exact: i32, info: &GameInfo) {
    let (lower, upper) = g.value_range();
    for beta in [exact, exact + g.value_step()] {
        if beta <= lower || beta > upper {
            continue; // every value answers this alike: nothing to test
        }
        let bound = solver.decide_after(g, &[], beta, None).unwrap();
        let at = format!("{}: {} at {beta}", info.name, g.to_text());
        assert_eq!(bound >= beta, exact >= beta, "{at}: bound {bound}");
        if bound >= beta {
            assert!(exact >= bound, "{at}: lower bound {bound} above {exact}");
        } else {
            assert!(exact <= bound, "{at}: upper bound {bound} below {exact}");
        }
    }
}

/// Material (stones on the board) never increases along a game, as the repetition
/// check and the `perfect` player rely on.
fn material_never_increases<G: Registered>(info: &GameInfo) {
    let start = G::standard_start(&Tags::default()).expect("the standard start");
    let mut rng = SplitMix(0x3A7);
    for _ in 0..20 {
        let line = playout(start, &mut rng);
        for w in line.windows(2) {
            assert!(
                w[1].material() <= w[0].material(),
                "{}: {} after {}",
                info.name,
                w[1].to_text(),
                w[0].to_text()
            );
        }
        assert!(
            line[0].material() > 0,
            "{}: no material at the start",
            info.name
        );
    }
}

#[test]
fn material_never_increases_in_any_game() {
    for info in GAMES {
        with_game_type!(info.kind, G => material_never_increases::<G>(info));
    }
}

#[test]
fn every_game_round_trips_its_notation() {
    for info in GAMES {
        with_game_type!(info.kind, G => round_trips::<G>(info));
    }
}

#[test]
fn every_consistent_record_replays_to_its_reported_end() {
    let mut total = 0;
    for info in GAMES {
        total += with_game_type!(info.kind, G => records_replay::<G>(info));
    }
    assert!(total >= 10, "only {total} records replayed");
}

#[test]
fn alpha_beta_agrees_with_minimax_on_small_positions_of_every_game() {
    for info in GAMES {
        let compared = with_game_type!(info.kind, G => alpha_beta_matches_minimax::<G>(info));
        assert!(compared > 0, "{}: no position small enough", info.name);
    }
}

/// Positions in the classes a database may hold for the suite: every class up to the one
/// named is at most this big in all.
const INDEX_LIMIT: u64 = 200_000;

/// The largest class met in playouts of the standard start whose database (it and the
/// classes below it) stays within [`INDEX_LIMIT`], and the positions of those playouts
/// that fall in the database's classes.
fn small_class<G: Registered + Indexed>() -> Option<(G::Class, Vec<G>)> {
    let start = G::standard_start(&Tags::default()).expect("the standard start");
    let mut rng = SplitMix(0x1DE);
    let lines: Vec<Vec<G>> = (0..20).map(|_| playout(start, &mut rng)).collect();
    let size = |c: &G::Class| -> u64 {
        G::classes_up_to(c)
            .iter()
            .map(G::class_size)
            .fold(0, u64::saturating_add)
    };
    let best = lines
        .iter()
        .flatten()
        .filter_map(|g| g.class())
        .filter(|c| size(c) <= INDEX_LIMIT)
        .max_by_key(|c| (size(c), format!("{c:?}")))?;
    let classes = G::classes_up_to(&best);
    let inside = lines
        .into_iter()
        .flatten()
        .filter(|g| g.class().is_some_and(|c| classes.contains(&c)))
        .collect();
    Some((best, inside))
}

/// Returns how many database values were compared with the search, or `None` when no
/// class met in play is small enough (Kauri: its one class is the whole tie-break phase).
fn index_and_database_agree<G: Registered + Indexed>(info: &GameInfo) -> Option<usize> {
    let (top, positions) = small_class::<G>()?;
    let classes = G::classes_up_to(&top);
    assert_eq!(classes.last(), Some(&top), "{}", info.name);
    for c in &classes {
        for i in 0..G::class_size(c) {
            let g = G::from_index(c, i);
            assert_eq!(g.class(), Some(*c), "{}: {c:?} #{i}", info.name);
            assert_eq!(g.index(), i, "{}: {c:?} #{i}: {}", info.name, g.to_text());
        }
    }
    let mut db = Database::<G>::empty(info.name, "conformance");
    db.solve(&classes, &Quiet);
    let solver = Solver::new(Config {
        threads: 1,
        tt_mb: 8,
        ..Config::default()
    });
    let mut compared = 0;
    for g in positions.iter().take(40) {
        let from_db = db.value(g).expect("a position of the database's classes");
        let searched = on_search_stack(|| solver.value(g, g.banked())).unwrap();
        assert_eq!(from_db, searched, "{}: {}", info.name, g.to_text());
        compared += 1;
    }
    eprintln!(
        "{}: index and database up to {} ({} classes), {compared} positions against search",
        info.name,
        G::class_name(&top),
        classes.len()
    );
    Some(compared)
}

#[test]
fn every_index_is_a_bijection_and_every_database_agrees_with_search() {
    let mut games = 0;
    for info in GAMES {
        let checked = with_indexed_game_type!(info.kind, G => index_and_database_agree::<G>(info));
        assert_eq!(checked.is_some(), info.has_index, "{}", info.name);
        if let Some(Some(n)) = checked {
            assert!(n > 0, "{}: no position compared", info.name);
            games += 1;
        }
    }
    assert!(games >= 3, "only {games} games had a class small enough");
}
