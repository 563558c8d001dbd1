use super::*;

/// A line played from a random small-material position (xorshift, no dependencies).
fn random_game(seed: u64, stones: u32) -> (Afrika, Line) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let m = 8;
    let mut holes = vec![0u8; 2 * m];
    for _ in 0..stones {
        holes[(next() % (2 * m as u64)) as usize] += 1;
    }
    let start =
        Afrika::from_parts(&holes, [0, 0], player_of(Row::South), Rules::default()).unwrap();
    let mut g = start;
    let mut entries = Vec::new();
    let mut texts = Vec::new();
    let mut ms = Moves::new();
    while !g.is_terminal() {
        g.legal_moves(&mut ms);
        let mv = ms[(next() % ms.len() as u64) as usize];
        let mover = Afrika::row(g.to_move());
        let (capture, hole) = match mv {
            AfrikaMove::Sow(h) => (false, h as usize),
            AfrikaMove::Capture(h) => (true, h as usize),
        };
        let amount = capture.then(|| g.holes()[hole]);
        texts.push(describe(mv, amount.unwrap_or(0), m));
        entries.push(LineEntry::Move {
            mover,
            capture,
            hole,
            amount,
        });
        g = g.play(mv);
    }
    let s = g.stores();
    let score = [
        s[player_of(Row::South).index()] as u32,
        s[player_of(Row::North).index()] as u32,
    ];
    // Put the rest of the 128 stones in the start stores, as in a real endgame.
    let extra = (128 - score[0] - score[1]) / 2;
    let mut st = [0u8; 2];
    st[player_of(Row::South).index()] = extra as u8;
    st[player_of(Row::North).index()] = (128 - score[0] - score[1] - extra) as u8;
    let start = Afrika::from_parts(&holes, st, player_of(Row::South), Rules::default()).unwrap();
    let line = Line {
        name: format!("random {seed}"),
        m,
        entries,
        texts,
        to_move: Row::South,
        score: [
            score[0] + st[player_of(Row::South).index()] as u32,
            score[1] + st[player_of(Row::North).index()] as u32,
        ],
        score_note: String::new(),
    };
    (start, line)
}

fn contains(fits: &[LineFit], start: &Afrika) -> Option<usize> {
    fits.iter().find(|f| f.start == *start).map(LineFit::cost)
}

/// The starts that fit `line` with at most `budget` corrections; asserts that the search
/// stayed within `node_limit` nodes.
fn fit_within(line: &Line, budget: usize, node_limit: u64) -> Vec<LineFit> {
    let (fits, nodes, cut) = fit_line(line, budget, node_limit);
    assert!(!cut, "{}: node limit after {nodes}", line.name);
    fits
}

/// The hole and amount of each capture (`capture`) or else each sowing of `line`, in
/// the line's order.
fn moves_mut(
    line: &mut Line,
    capture: bool,
) -> impl DoubleEndedIterator<Item = (&mut usize, &mut Option<u8>)> {
    line.entries.iter_mut().filter_map(move |e| match e {
        LineEntry::Move {
            capture: c,
            hole,
            amount,
            ..
        } if *c == capture => Some((hole, amount)),
        _ => None,
    })
}

/// The first two random games of the seeds `seeds` (with `stones` stones) whose line
/// `spoil` can spoil, with their seeds and true starts; asserts that there are two.
fn two_spoiled_games(
    seeds: std::ops::Range<u64>,
    stones: u32,
    spoil: impl Fn(&mut Line) -> bool,
) -> Vec<(u64, Afrika, Line)> {
    let games: Vec<_> = seeds
        .filter_map(|seed| {
            let (start, mut line) = random_game(seed, stones);
            spoil(&mut line).then_some((seed, start, line))
        })
        .take(2)
        .collect();
    assert_eq!(games.len(), 2);
    games
}

#[test]
fn recovers_a_random_start_exactly() {
    for seed in 1..6 {
        let (start, line) = random_game(seed, 9);
        let fits = fit_within(&line, 0, 5_000_000);
        assert_eq!(contains(&fits, &start), Some(0), "seed {seed}: {fits:?}");
        for f in &fits {
            assert!(replay(&f.start, &f.moves).is_ok());
        }
    }
}

#[test]
fn recovers_a_random_start_despite_a_wrong_amount() {
    // The first capture's amount 2 too high.
    let spoil = |line: &mut Line| {
        let first_capture = moves_mut(line, true).next();
        first_capture
            .map(|(_, amount)| *amount = Some(amount.unwrap() + 2))
            .is_some()
    };
    for (seed, start, line) in two_spoiled_games(1..20, 9, spoil) {
        let (fits0, _, _) = fit_line(&line, 0, 5_000_000);
        assert_eq!(contains(&fits0, &start), None, "seed {seed}");
        let fits = fit_within(&line, 1, 20_000_000);
        let f = fits
            .iter()
            .find(|f| f.start == start)
            .expect("start recovered");
        assert_eq!(f.cost(), 1);
        assert!(
            f.corrections.iter().any(|c| c.text.contains("amount")),
            "{:?}",
            f.corrections
        );
    }
}

#[test]
fn recovers_a_random_start_despite_a_wrong_letter() {
    // Change the last sowing to a neighbouring hole of the same row.
    let spoil = |line: &mut Line| {
        let last_sowing = moves_mut(line, false).next_back();
        last_sowing
            .map(|(hole, _)| *hole = if *hole % 8 == 7 { *hole - 1 } else { *hole + 1 })
            .is_some()
    };
    for (seed, start, line) in two_spoiled_games(1..40, 8, spoil) {
        let fits = fit_within(&line, 1, 20_000_000);
        let Some(c) = contains(&fits, &start) else {
            panic!("seed {seed}: start not recovered among {} fits", fits.len());
        };
        assert!(c <= 1);
    }
}

#[test]
fn reads_result_statements() {
    assert_eq!(
        parse_score("South wins with 65:63 points.", 128),
        Ok([65, 63])
    );
    assert_eq!(
        parse_score("North wins with 64:60 points.", 128),
        Ok([60, 64])
    );
    assert_eq!(parse_score(". Draw.", 128), Ok([64, 64]));
    assert!(parse_score("who knows", 128).is_err());
}

/// The record of the published file `positions/afrika/{name}`.
fn published(name: &str) -> RecordFile {
    let path = format!(
        "{}/../../positions/afrika/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala_core::record::parse_file(name, &text).unwrap()
}

/// The start position of the published file `positions/afrika/{name}`.
fn published_start(name: &str) -> Afrika {
    mancala_core::record::start_position(&published(name).tags).unwrap()
}

/// The published line of the file `positions/afrika/{name}`.
pub(super) fn published_line(name: &str) -> Line {
    Line::from_record(name, &published(name)).unwrap()
}

/// Asserts that the stored corrected line `file` replays consistently to the end of the
/// game from its start; returns that start.
fn assert_replays(file: &str) -> Afrika {
    let rec = published(file);
    let start = mancala_core::record::start_position(&rec.tags).unwrap();
    let report = mancala_core::record::verify(&rec, start);
    assert!(report.consistent, "{file}: {:?}", report.issues);
    assert!(report.game_over, "{file}");
    start
}

/// Asserts that the stored corrected solution of Afrika problem `n` replays consistently
/// to the end of the game from the problem's start; returns that start.
fn assert_corrected_solution_replays(n: u32) -> Afrika {
    let start = assert_replays(&format!("problem-{n}-solution-corrected.txt"));
    assert_eq!(published_start(&format!("problem-{n}.txt")), start);
    start
}

#[test]
fn stored_problem_2_reconstruction_is_consistent() {
    let start = assert_corrected_solution_replays(2);
    // The published line reconstructs to the stored start with 2 corrections.
    let fits = fit_within(&published_line("problem-2-solution.txt"), 2, 50_000_000);
    assert_eq!(contains(&fits, &start), Some(2));
    assert!(fits.iter().all(|f| f.cost() == 2));
}

#[test]
fn problem_1_solution_line_needs_three_corrections() {
    let fits = fit_within(&published_line("problem-1-solution.txt"), 2, 50_000_000);
    assert!(fits.is_empty(), "{} fits with 2 corrections", fits.len());
    // The backward method's best fit (issue 4, kept as history) replays its corrected line.
    assert_replays("problem-1-solution-corrected.txt");
}

#[test]
fn stored_problem_1_candidate_fits_the_published_lines_forwards() {
    // Issue 16: candidate A replays the wrong line with its one correction, and the
    // published lines are legal as printed for 4 and 16 plies from it.
    let start = assert_replays("problem-1-wrong-corrected.txt");
    assert_eq!(published_start("problem-1.txt"), start);
    let line = |name: &str| {
        let path = format!(
            "{}/../../positions/afrika/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let rec = mancala_core::record::parse_file_keeping_annotations(name, &text).unwrap();
        Line::from_record(name, &rec).unwrap()
    };
    let lines = [line("problem-1-solution.txt"), line("problem-1-wrong.txt")];
    let p = forward::Problem::new(&lines).unwrap();
    assert_eq!(p.totals.position(start.holes(), Row::South), start);
    let legal: Vec<usize> = p
        .lines
        .iter()
        .map(|l| forward::legal_prefix(&start, l))
        .collect();
    assert_eq!(legal, [4, 16]);
    for c in ['b', 'c', 'd', 'e'] {
        let g = published_start(&format!("problem-1-candidate-{c}.txt"));
        let legal: Vec<usize> = p
            .lines
            .iter()
            .map(|l| forward::legal_prefix(&g, l))
            .collect();
        assert_eq!(legal, [9, 11], "candidate {c}");
    }
}

/// A line without [ToMove], or with another value, is refused with what was expected.
#[test]
fn the_side_to_move_is_required_and_named() {
    let with = |to_move: Option<&str>| {
        let mut rec = published("problem-2-solution.txt");
        rec.tags.0.remove("ToMove");
        if let Some(v) = to_move {
            rec.tags.0.insert("ToMove".into(), v.into());
        }
        Line::from_record("p.txt", &rec).map(|l| l.to_move)
    };
    assert_eq!(with(Some("south")), Ok(Row::South));
    let missing = with(None).unwrap_err();
    assert!(
        missing.contains("p.txt: the [ToMove] tag is missing"),
        "{missing}"
    );
    let wrong = with(Some("East")).unwrap_err();
    assert!(
        wrong.contains("[ToMove \"East\"]: expected South or North"),
        "{wrong}"
    );
}
