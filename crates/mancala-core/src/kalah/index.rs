//! Kalah positions indexed by the seeds still in play, for endgame databases.
//!
//! The stores never influence play (only the final margin), so a class is every board
//! with `seeds` seeds in the holes, and values are stored relative to
//! [`Game::banked`]: the margin still to be won from the seeds in play. Kalah is
//! symmetric between the players, so positions are numbered relative to the side to
//! move: the mover's row first, then the opponent's. A position with North to move gets
//! the number of its colour-swapped twin (South to move, rows exchanged); both have the
//! same value for their mover ([`Indexed::mirrored`] tells the retrograde engine).
//!
//! Positions with an empty row are over (the rules sweep the other row at once), so
//! their value is known without a table; they are left out, as in Irving, Donkers and
//! Uiterwijk's databases. A class of n seeds therefore holds every pair (mover's row,
//! opponent's row) of non-empty rows: sum over a = 1..n-1 of D(a)·D(n-a), with D(s) the
//! C(s+m-1, m-1) distributions of s seeds over m holes; that is
//! C(n+2m-1, 2m-1) − 2·C(n+m-1, m-1) for n >= 1, and summed over the classes 1..=n the
//! paper's count C(n+2m, 2m) − 2·C(n+m, m) + 1 of all positions with at most n seeds.
//!
//! Numbering: classes of boards with `a` seeds in the mover's row come in order of `a`;
//! within one, the mover's row's rank times D(n-a) plus the opponent's row's rank
//! (each the colex rank of [`crate::index::Binomials`]).

use crate::game::Game;
use crate::index::catalog::{Catalogued, Shelf};
use crate::index::{BINOMIALS, Indexed};
use crate::player::Player;
use crate::rows::Row;
use crate::rows::Seated;

use super::rules::{Capture, Kalah, MAX_ROW, Rules};

/// All positions of Kalah on 2 x `m` with `seeds` seeds in the holes, both rows
/// non-empty, under the capture rule `capture`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SeedsInPlay {
    pub m: u8,
    pub seeds: u8,
    pub capture: Capture,
}

/// Binomials C(n, k) for k up to a row's width, in one flat table (the probes of a
/// database build rank two rows per child position: the general table's nested vectors
/// cost a quarter of the build).
struct RowBinomials {
    c: Vec<u64>,
}

/// Largest n of the flat table: 255 seeds plus a row of 12.
const FLAT_N: usize = 256 + MAX_ROW;

impl RowBinomials {
    fn new() -> Self {
        let mut c = vec![0u64; (FLAT_N + 1) * (MAX_ROW + 1)];
        for n in 0..=FLAT_N {
            for k in 0..=MAX_ROW {
                c[n * (MAX_ROW + 1) + k] = BINOMIALS.c(n, k);
            }
        }
        RowBinomials { c }
    }

    #[inline(always)]
    fn c(&self, n: usize, k: usize) -> u64 {
        self.c[n * (MAX_ROW + 1) + k]
    }

    /// The colex rank of one row, as [`crate::index::Binomials::rank`].
    #[inline(always)]
    fn rank(&self, row: &[u8]) -> u64 {
        let mut r = 0;
        let mut seeds = 0usize;
        for (j, &x) in row[..row.len() - 1].iter().enumerate() {
            seeds += x as usize;
            r += self.c(seeds + j, j + 1);
        }
        r
    }
}

static ROWS: std::sync::LazyLock<RowBinomials> = std::sync::LazyLock::new(RowBinomials::new);

/// Distributions of `s` seeds over one row of `m` holes.
#[inline(always)]
fn row_count(s: usize, m: usize) -> u64 {
    ROWS.c(s + m - 1, m - 1)
}

/// Number of positions of the class with fewer than `a` seeds in the mover's row.
#[inline]
fn offset(n: usize, m: usize, a: usize) -> u64 {
    (1..a).map(|x| row_count(x, m) * row_count(n - x, m)).sum()
}

impl Indexed for Kalah {
    type Class = SeedsInPlay;

    /// Every position still in play (both rows non-empty) has a class.
    fn class(&self) -> Option<SeedsInPlay> {
        (!self.is_terminal()).then(|| SeedsInPlay {
            m: self.holes_per_row() as u8,
            seeds: self.on_board() as u8,
            capture: self.rules().capture,
        })
    }

    /// Positions in play hold a seed in each row: classes start at two seeds.
    fn classes_up_to(c: &SeedsInPlay) -> Vec<SeedsInPlay> {
        (2..=c.seeds.max(2))
            .map(|seeds| SeedsInPlay { seeds, ..*c })
            .collect()
    }

    /// Saturates at `u64::MAX` for classes too big to count (up to 255 seeds), so that a
    /// request for them is refused by size rather than overflowing.
    fn class_size(c: &SeedsInPlay) -> u64 {
        let (n, m) = (c.seeds as usize, c.m as usize);
        (1..n.max(1))
            .map(|x| row_count(x, m).saturating_mul(row_count(n - x, m)))
            .fold(0, u64::saturating_add)
    }

    #[inline]
    fn index(&self) -> u64 {
        let m = self.holes_per_row();
        let me = Kalah::row(self.to_move()).start(m);
        let them = Kalah::row(self.to_move()).other().start(m);
        let h = self.holes();
        let (mine, theirs) = (&h[me..me + m], &h[them..them + m]);
        let a: usize = mine.iter().map(|&x| x as usize).sum();
        let b: usize = theirs.iter().map(|&x| x as usize).sum();
        let rows = &*ROWS;
        offset(a + b, m, a) + rows.rank(mine) * row_count(b, m) + rows.rank(theirs)
    }

    /// South to move, empty stores: the representative of the number `i`.
    fn from_index(c: &SeedsInPlay, mut i: u64) -> Self {
        let (n, m) = (c.seeds as usize, c.m as usize);
        let mut a = 1;
        loop {
            let block = row_count(a, m) * row_count(n - a, m);
            if i < block || a + 1 >= n {
                break;
            }
            i -= block;
            a += 1;
        }
        let below = row_count(n - a, m);
        let mut holes = [0u8; 2 * MAX_ROW];
        let (south, north) = holes[..2 * m].split_at_mut(m);
        BINOMIALS.unrank(a, i / below, south);
        BINOMIALS.unrank(n - a, i % below, north);
        debug_assert_eq!(Row::South.start(m), 0);
        Kalah::from_parts(
            &holes[..2 * m],
            [0, 0],
            Player::First,
            Rules { capture: c.capture },
        )
        .expect("an indexed position is valid")
    }

    fn class_name(c: &SeedsInPlay) -> String {
        let rule = match c.capture {
            Capture::Empty => "empty-capture",
            Capture::Standard => "standard-capture",
        };
        format!("kalah 2x{} {rule}, {} seeds in play", c.m, c.seeds)
    }

    /// North to move is numbered as its colour-swapped twin.
    #[inline]
    fn mirrored(&self) -> bool {
        self.to_move() == Player::Second
    }

    /// Seeds in play never increase, and a move that keeps them all in play only sows
    /// forward inside the mover's own row (see [`Game::can_repeat`] for Kalah): no cycle.
    fn class_acyclic(_c: &SeedsInPlay) -> bool {
        true
    }
}

/// The variant part of a Kalah database's file name.
fn capture_name(c: Capture) -> &'static str {
    match c {
        Capture::Empty => "empty-capture",
        Capture::Standard => "standard-capture",
    }
}

/// Kalah databases: one per board width and capture rule, classes of 2..=k seeds in play
/// (fewer than two seeds cannot leave both rows non-empty).
impl Catalogued for Kalah {
    fn shelf(&self) -> Option<Shelf> {
        Some(Shelf {
            game: super::INFO.name,
            board: format!("2x{}", self.holes_per_row()),
            variant: capture_name(self.rules().capture).into(),
        })
    }

    fn classes(&self, k: u8) -> Vec<SeedsInPlay> {
        if k < 2 {
            return Vec::new();
        }
        Kalah::classes_up_to(&SeedsInPlay {
            m: self.holes_per_row() as u8,
            seeds: k,
            capture: self.rules().capture,
        })
    }

    fn scope(&self, k: u8) -> String {
        let shelf = self.shelf().expect("every Kalah position has a shelf");
        format!("{} {}, up to {k} seeds in play", shelf.board, shelf.variant)
    }

    fn rules_held() -> &'static str {
        "both capture rules"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Moves;

    fn class(m: u8, seeds: u8, capture: Capture) -> SeedsInPlay {
        SeedsInPlay { m, seeds, capture }
    }

    #[test]
    fn index_is_a_bijection_on_small_classes() {
        for capture in [Capture::Empty, Capture::Standard] {
            for m in 1..=4u8 {
                for seeds in 0..=7u8 {
                    let c = class(m, seeds, capture);
                    let size = Kalah::class_size(&c);
                    let mut seen = std::collections::HashSet::new();
                    for i in 0..size {
                        let g = Kalah::from_index(&c, i);
                        assert_eq!(g.class(), Some(c), "{g:?}");
                        assert_eq!(g.index(), i, "{g:?}");
                        assert!(!g.mirrored());
                        assert!(seen.insert(g.holes().to_vec()));
                    }
                    // Every non-terminal board of this many seeds is numbered: count them
                    // by brute force over all distributions of the 2m holes.
                    let all = BINOMIALS.distributions(seeds as usize, 2 * m as usize);
                    let mut live = 0;
                    let mut h = vec![0u8; 2 * m as usize];
                    for r in 0..all {
                        BINOMIALS.unrank(seeds as usize, r, &mut h);
                        let g = Kalah::from_parts(&h, [0, 0], Player::First, Rules { capture })
                            .unwrap();
                        live += !g.is_terminal() as u64;
                    }
                    assert_eq!(live, size, "m {m}, {seeds} seeds");
                }
            }
        }
    }

    #[test]
    fn class_sizes_follow_irving_donkers_uiterwijk() {
        let b = &*BINOMIALS;
        for m in 1..=6usize {
            let mut total = 0;
            for n in 1..=20usize {
                let size = Kalah::class_size(&class(m as u8, n as u8, Capture::Empty));
                assert_eq!(
                    size + 2 * b.c(n + m - 1, m - 1),
                    b.c(n + 2 * m - 1, 2 * m - 1)
                );
                total += size;
                // The paper's count of all positions with at most n seeds.
                assert_eq!(total + 2 * b.c(n + m, m), b.c(n + 2 * m, 2 * m) + 1);
            }
        }
        assert_eq!(Kalah::class_size(&class(6, 0, Capture::Empty)), 0);
        assert_eq!(Kalah::class_size(&class(6, 1, Capture::Empty)), 0);
    }

    #[test]
    fn north_to_move_shares_the_number_of_its_twin() {
        let rules = Rules::default();
        let south = Kalah::from_parts(&[1, 0, 2, 3, 0, 1], [4, 5], Player::First, rules).unwrap();
        let north = Kalah::from_parts(&[3, 0, 1, 1, 0, 2], [5, 4], Player::Second, rules).unwrap();
        assert_eq!(south.class(), north.class());
        assert_eq!(south.index(), north.index());
        assert!(north.mirrored() && !south.mirrored());
        // Twins play alike: their children are twins too.
        let (mut ms, mut mn) = (Moves::new(), Moves::new());
        south.legal_moves(&mut ms);
        north.legal_moves(&mut mn);
        assert_eq!(ms.len(), mn.len());
        for (&a, &b) in ms.iter().zip(&mn) {
            let (ca, cb) = (south.play(a), north.play(b));
            assert_eq!(ca.class(), cb.class());
            if ca.class().is_some() {
                assert_eq!(ca.index(), cb.index());
            }
            assert_eq!(
                ca.terminal_value() - ca.banked(),
                cb.terminal_value() - cb.banked()
            );
        }
    }

    #[test]
    fn finished_positions_have_no_class() {
        let g = Kalah::from_parts(&[0, 0, 0, 1, 2, 0], [3, 4], Player::First, Rules::default())
            .unwrap();
        assert_eq!(g.class(), None);
        assert_eq!(
            Kalah::start(6, 4, Rules::default()).class(),
            Some(class(6, 48, Capture::Empty))
        );
    }
}
