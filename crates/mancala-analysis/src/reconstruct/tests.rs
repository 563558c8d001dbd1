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
        entries.push(Entry::Move {
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

#[test]
fn recovers_a_random_start_exactly() {
    for seed in 1..6 {
        let (start, line) = random_game(seed, 9);
        let (fits, nodes, cut) = fit_line(&line, 0, 5_000_000);
        assert!(!cut, "seed {seed}: node limit after {nodes}");
        assert_eq!(contains(&fits, &start), Some(0), "seed {seed}: {fits:?}");
        for f in &fits {
            assert!(replay(&f.start, &f.moves).is_ok());
        }
    }
}

#[test]
fn recovers_a_random_start_despite_a_wrong_amount() {
    let mut tested = 0;
    for seed in 1..20 {
        let (start, mut line) = random_game(seed, 9);
        let Some(i) = line
            .entries
            .iter()
            .position(|e| matches!(e, Entry::Move { capture: true, .. }))
        else {
            continue;
        };
        if let Entry::Move { amount, .. } = &mut line.entries[i] {
            *amount = Some(amount.unwrap() + 2);
        }
        let (fits0, _, _) = fit_line(&line, 0, 5_000_000);
        assert_eq!(contains(&fits0, &start), None, "seed {seed}");
        let (fits, _, cut) = fit_line(&line, 1, 20_000_000);
        assert!(!cut);
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
        tested += 1;
        if tested == 2 {
            break;
        }
    }
    assert_eq!(tested, 2);
}

#[test]
fn recovers_a_random_start_despite_a_wrong_letter() {
    let mut tested = 0;
    for seed in 1..40 {
        let (start, mut line) = random_game(seed, 8);
        // Change the last sowing to a neighbouring hole of the same row.
        let Some(i) = line
            .entries
            .iter()
            .rposition(|e| matches!(e, Entry::Move { capture: false, .. }))
        else {
            continue;
        };
        if let Entry::Move { hole, .. } = &mut line.entries[i] {
            *hole = if *hole % 8 == 7 { *hole - 1 } else { *hole + 1 };
        }
        let (fits, _, cut) = fit_line(&line, 1, 20_000_000);
        assert!(!cut);
        let Some(c) = contains(&fits, &start) else {
            panic!("seed {seed}: start not recovered among {} fits", fits.len());
        };
        assert!(c <= 1);
        tested += 1;
        if tested == 2 {
            break;
        }
    }
    assert_eq!(tested, 2);
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

fn stored(name: &str, text: &str) -> (mancala_core::record::RecordFile, Afrika) {
    let rec = mancala_core::record::parse_file(name, text).unwrap();
    let start = mancala_core::record::start_position::<Afrika>(&rec.tags).unwrap();
    (rec, start)
}

#[test]
fn stored_problem_2_reconstruction_is_consistent() {
    let (rec, start) = stored(
        "problem-2-solution-corrected.txt",
        include_str!("../../../../positions/afrika/problem-2-solution-corrected.txt"),
    );
    let report = mancala_core::record::verify(&rec, start);
    assert!(report.consistent, "{:?}", report.issues);
    assert!(report.game_over);
    let (_, pos) = stored(
        "problem-2.txt",
        include_str!("../../../../positions/afrika/problem-2.txt"),
    );
    assert_eq!(pos, start);
    // The published line reconstructs to the stored start with 2 corrections.
    let published = mancala_core::record::parse_file(
        "problem-2-solution.txt",
        include_str!("../../../../positions/afrika/problem-2-solution.txt"),
    )
    .unwrap();
    let line = Line::from_record("problem-2-solution.txt", &published).unwrap();
    let (fits, _, cut) = fit_line(&line, 2, 50_000_000);
    assert!(!cut);
    assert_eq!(contains(&fits, &start), Some(2));
    assert!(fits.iter().all(|f| f.cost() == 2));
}

#[test]
fn problem_1_solution_line_needs_three_corrections() {
    let published = mancala_core::record::parse_file(
        "problem-1-solution.txt",
        include_str!("../../../../positions/afrika/problem-1-solution.txt"),
    )
    .unwrap();
    let line = Line::from_record("problem-1-solution.txt", &published).unwrap();
    let (fits, _, cut) = fit_line(&line, 2, 50_000_000);
    assert!(!cut);
    assert!(fits.is_empty(), "{} fits with 2 corrections", fits.len());
    // The stored (unconfirmed) candidate replays its corrected line.
    let (rec, start) = stored(
        "problem-1-solution-corrected.txt",
        include_str!("../../../../positions/afrika/problem-1-solution-corrected.txt"),
    );
    let report = mancala_core::record::verify(&rec, start);
    assert!(report.consistent, "{:?}", report.issues);
    assert!(report.game_over);
    let (_, pos) = stored(
        "problem-1.txt",
        include_str!("../../../../positions/afrika/problem-1.txt"),
    );
    assert_eq!(pos, start);
}
