use super::*;
use mancala_core::{Game, Moves};

/// xorshift, no dependencies.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `stones` stones dropped at random into 2 x `m` holes.
fn random_holes(rng: &mut Rng, m: usize, stones: u32) -> Vec<u8> {
    let mut holes = vec![0u8; 2 * m];
    for _ in 0..stones {
        holes[rng.below(2 * m)] += 1;
    }
    holes
}

/// A random line played to the end from `holes`, South to move, as a published [`Line`]
/// (stores: 10 each at the start).
fn random_line(rng: &mut Rng, holes: &[u8], name: &str) -> Line {
    let m = holes.len() / 2;
    let mut g =
        Afrika::from_parts(holes, [10, 10], Afrika::owner(Row::South), Rules::default()).unwrap();
    let mut entries = Vec::new();
    let mut ms = Moves::new();
    while !g.is_terminal() {
        g.legal_moves(&mut ms);
        let mv = ms[rng.below(ms.len())];
        let (capture, hole) = match mv {
            AfrikaMove::Sow(h) => (false, h as usize),
            AfrikaMove::Capture(h) => (true, h as usize),
        };
        entries.push(LineEntry::Move {
            mover: Afrika::row(g.to_move()),
            capture,
            hole,
            amount: capture.then(|| g.holes()[hole]),
        });
        g = g.play(mv);
    }
    let score = [Row::South, Row::North].map(|r| g.captured(Afrika::owner(r)));
    Line {
        name: name.into(),
        m,
        texts: vec![String::new(); entries.len()],
        entries,
        to_move: Row::South,
        score,
        score_note: String::new(),
    }
}

/// The line with a typo at ply `k`: the hole letter moved one hole along its row (the
/// amount as printed), so the totals the line implies stay true.
fn with_typo(mut line: Line, k: usize) -> Line {
    let m = line.m;
    if let LineEntry::Move { hole, .. } = &mut line.entries[k] {
        let row = *hole / m * m;
        *hole = row + (*hole - row + 1) % m;
    }
    line
}

#[test]
fn counts_agree_with_every_complete_position() {
    // 2 x 4 holes, 6 stones: 1716 complete starts, each replayed by the rules engine.
    for seed in 1..=4 {
        let mut rng = Rng::new(seed);
        let holes = random_holes(&mut rng, 4, 6);
        let l1 = random_line(&mut rng, &holes, "one");
        let l2 = random_line(&mut rng, &holes, "two");
        let l1 = with_typo(l1.clone(), l1.entries.len() * 2 / 3);
        let problem = Problem::new(&[l1, l2]).unwrap();
        let (table, _) = search(&problem, &[], u64::MAX, |_| {});
        let mut brute = vec![vec![0u64; problem.lines[1].len() + 1]; problem.lines[0].len() + 1];
        Start::unknown(8, problem.totals.on_board).for_each(u64::MAX, &mut |h| {
            let g = problem.totals.position(h, Row::South);
            let q1 = legal_prefix(&g, &problem.lines[0]);
            let q2 = legal_prefix(&g, &problem.lines[1]);
            for row in &mut brute[..=q1] {
                for c in &mut row[..=q2] {
                    *c += 1;
                }
            }
        });
        assert_eq!(table.count, brute, "seed {seed}");
        assert_eq!(brute[0][0], 1716);
    }
}

#[test]
fn recovers_a_random_start_despite_late_errors() {
    // 2 x 8 holes and 22 stones as in Afrika Problem 1; errors in the last third.
    for (seed, late) in [(1, 3), (2, 5), (3, 4), (4, 2), (5, 6)] {
        let mut rng = Rng::new(seed);
        let holes = random_holes(&mut rng, 8, 22);
        let l1 = random_line(&mut rng, &holes, "solution");
        let l2 = random_line(&mut rng, &holes, "wrong");
        let (e1, e2) = (l1.entries.len() - late, l2.entries.len() - late.min(3));
        let problem = Problem::new(&[with_typo(l1, e1), with_typo(l2, e2)]).unwrap();
        assert_eq!(problem.totals.on_board, 22);
        let (table, kept) = search(&problem, &[(e1, e2)], u64::MAX, |_| {});
        let mut found = Vec::new();
        for (_, s) in &kept {
            s.for_each(10, &mut |h| found.push(h.to_vec()));
        }
        // The true start is found; any other is one the clean prefixes cannot tell
        // from it (checked with the rules engine), and there are few.
        assert!(found.contains(&holes), "seed {seed}");
        assert!(found.len() <= 6, "seed {seed}: {} starts", found.len());
        for h in &found {
            let g = problem.totals.position(h, Row::South);
            assert_eq!(legal_prefix(&g, &problem.lines[0]).min(e1), e1);
            assert_eq!(legal_prefix(&g, &problem.lines[1]).min(e2), e2);
        }
        // No longer prefix pair leaves a start other than the true one.
        for (p1, p2) in table.frontier() {
            assert!(p1 >= e1 || p2 >= e2, "seed {seed}: frontier ({p1}, {p2})");
        }
    }
}
