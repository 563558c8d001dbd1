//! The rules of Kalah as solved by Irving, Donkers and Uiterwijk, "Solving Kalah" (ICGA
//! Journal 2000), with their "empty capture" rule; `docs/rules-kalah.md` states each rule.
//! Kalah is the project's validation game: its published values check the solver.

use crate::game::{Game, Moves, pick_from_list};
use crate::hash::mix64;
use crate::lanes::{self, LaneOps, Lanes, ring_run};
use crate::player::Player;
use crate::rows::{
    Board, Halves, Names, Row, Seated, board_game, opposite, plain_verdict, row_of, twin_hole,
};
use crate::twin::Twin;

/// Largest supported row: 2 x 12 holes.
pub use crate::rows::MAX_ROW;

/// How messages name Kalah's board and seeds.
const NAMES: Names = Names {
    article: "a",
    game: "Kalah",
    counters: "seeds",
};

/// When a last seed in an own empty hole captures.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Capture {
    /// The rule of the published solutions: the last seed and the opposite hole's contents
    /// go to the store even when the opposite hole is empty (the seed alone is then
    /// captured).
    #[default]
    Empty,
    /// Variant `standard-capture` (the common modern rule): only when the opposite hole
    /// holds seeds; otherwise the last seed stays where it fell.
    Standard,
}

/// Rule options.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    pub capture: Capture,
}

/// A move: the mover's hole to sow (board index). Transparent: move lists are written
/// as bytes ([`crate::lanes::SET_BITS`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(transparent)]
pub struct KalahMove(pub u8);

/// A Kalah position on a 2 x m board (m <= 12) with a store per player: 32 bytes, two
/// 16-byte halves (`rows::Halves`), `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C, align(16))]
pub struct Kalah {
    /// Seeds per hole and in each store.
    board: Board,
    to_move: Player,
    rules: Rules,
    /// Zero bytes that fill the state to two 16-byte halves ([`crate::rows::Halves`]).
    pad: [u8; PAD],
}

/// Bytes after the board, the player to move and the rules.
const PAD: usize = 32 - std::mem::size_of::<Board>() - 1 - std::mem::size_of::<Rules>();

board_game!(Kalah, NAMES);

impl Seated for Kalah {
    /// The first player sits South.
    const FIRST_ROW: Row = Row::South;
}

/// The rules treat both seats alike: the twin has the seats exchanged
/// ([`Board::seats_swapped`]) and the other player to move.
impl Twin for Kalah {
    fn twin(&self) -> Self {
        self.seats_swapped()
    }

    fn twin_move(&self, mv: KalahMove) -> KalahMove {
        KalahMove(twin_hole(mv.0 as usize, self.holes_per_row()) as u8)
    }
}

impl Kalah {
    /// Kalah(m, n): 2 x `m` holes with `n` seeds each, empty stores, South to move.
    ///
    /// # Panics
    /// When `m` is not 1 to 12, or 2mn exceeds 255 seeds.
    pub fn start(m: usize, n: u8, rules: Rules) -> Self {
        Kalah {
            board: Board::start(m, n, NAMES),
            to_move: Player::First,
            rules,
            pad: [0; PAD],
        }
    }

    /// Why `mv` is not legal here, in words; `None` when it is legal.
    pub fn why_illegal(&self, mv: KalahMove) -> Option<String> {
        if let Some(verdict) = plain_verdict(self, mv) {
            return verdict;
        }
        let m = self.holes_per_row();
        let h = mv.0 as usize;
        let mover = Self::row(self.to_move);
        Some(if h >= 2 * m {
            "no such hole".into()
        } else if row_of(h, m) != mover {
            format!(
                "{} sows from its own row, not from {}'s",
                mover.name(),
                mover.other().name()
            )
        } else {
            "the hole is empty".into()
        })
    }

    /// The hole at position `t` of the mover's sowing cycle: `0..m` the mover's holes,
    /// `m` the mover's store (`None`), `m+1..=2m` the opponent's holes.
    #[inline(always)]
    fn cycle_hole(t: usize, m: usize, own: usize, other: usize) -> Option<usize> {
        match t.cmp(&m) {
            std::cmp::Ordering::Less => Some(own + t),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(other + t - m - 1),
        }
    }

    /// "After any move, when either player's row is empty the game ends and each player
    /// takes the seeds left on his own side into his store."
    fn sweep_if_over(&mut self) {
        let m = self.holes_per_row();
        let south = self.row_sum(Row::South);
        let north = self.row_sum(Row::North);
        if south == 0 || north == 0 {
            self.stores[Self::owner(Row::South).index()] += south as u8;
            self.stores[Self::owner(Row::North).index()] += north as u8;
            self.holes[..2 * m].fill(0);
        }
    }

    /// [`Game::legal_moves`] hole by hole: the reference the word-wise version is checked
    /// against, and the one for rows of more than 8 holes.
    pub fn legal_moves_scalar(&self, moves: &mut Moves<KalahMove>) {
        moves.clear();
        if self.row_sum(Row::South) == 0 || self.row_sum(Row::North) == 0 {
            return;
        }
        let m = self.holes_per_row();
        let s = Self::row(self.to_move).start(m);
        for i in s..s + m {
            if self.holes[i] > 0 {
                moves.push(KalahMove(i as u8));
            }
        }
    }

    /// [`Game::play`] seed by seed: the reference the word-wise version is checked
    /// against, and the one for rows of more than 8 holes.
    pub fn play_scalar(&self, mv: KalahMove) -> Self {
        let mut next = *self;
        let me = self.to_move;
        let m = self.holes_per_row();
        let own = Self::row(me).start(m);
        let other = Self::row(me).other().start(m);
        let h = mv.0 as usize;
        // Sowing counterclockwise into the following holes and the mover's own store,
        // skipping the opponent's store: a cycle of 2m + 1 places, the start hole
        // included once the seeds go round.
        let c = 2 * m + 1;
        let s = next.holes[h] as usize;
        next.holes[h] = 0;
        let rounds = (s / c) as u8;
        if rounds > 0 {
            for x in &mut next.holes[..2 * m] {
                *x += rounds;
            }
            next.stores[me.index()] += rounds;
        }
        let mut t = h - own;
        for _ in 0..s % c {
            t += 1;
            if t == c {
                t = 0;
            }
            match Self::cycle_hole(t, m, own, other) {
                Some(i) => next.holes[i] += 1,
                None => next.stores[me.index()] += 1,
            }
        }
        next.to_move = me.opponent();
        match Self::cycle_hole(t, m, own, other) {
            // Last seed in the own store: the same player moves again.
            None => next.to_move = me,
            // Last seed in an own hole that was empty (it holds just that seed now).
            Some(l) if t < m && next.holes[l] == 1 => {
                let o = opposite(l, m);
                if self.rules.capture == Capture::Empty || next.holes[o] > 0 {
                    next.stores[me.index()] += 1 + next.holes[o];
                    next.holes[l] = 0;
                    next.holes[o] = 0;
                }
            }
            Some(_) => {}
        }
        next.sweep_if_over();
        next
    }

    /// The mover's sowable holes as bits (bit `j`: the mover's `j`-th hole), or 0 when
    /// the game is over (a row is empty): one compare over the lanes (rows of up to 8
    /// holes, [`crate::lanes`]). The legal moves in order are the set bits.
    #[inline(always)]
    fn sowable_lanes(&self) -> u32 {
        let m = self.holes_per_row();
        let own = Self::row(self.to_move).start(m);
        let full = (1 << m) - 1;
        let filled = !self.low_half().zero_bits();
        let sowable = filled >> own & full;
        if filled >> (m - own) & full == 0 {
            0
        } else {
            sowable
        }
    }

    /// [`Game::legal_moves`] for rows of up to 8 holes: the same moves in the same
    /// order as the scalar loop.
    #[inline(always)]
    fn legal_moves_lanes(&self, moves: &mut Moves<KalahMove>) {
        moves.clear();
        let sowable = self.sowable_lanes();
        let own = Self::row(self.to_move).start(self.holes_per_row());
        // All 8 entries of the table row at once, the row's start added to each byte.
        let holes = lanes::SET_BITS[sowable as usize] + own as u64 * 0x0101_0101_0101_0101;
        let holes = holes.to_le_bytes();
        // SAFETY: the list was cleared and holds 32 moves, so its first 8 slots are
        // inside it; `KalahMove` is a transparent u8, so any byte is a valid one; the
        // length set is the number of sowable holes (at most 8), all written above.
        unsafe {
            std::ptr::copy_nonoverlapping(
                holes.as_ptr().cast::<KalahMove>(),
                moves.as_mut_ptr(),
                8,
            );
            moves.set_len(lanes::count(sowable));
        }
    }

    /// [`Game::play`] for rows of up to 8 holes: the sowing as one vector addition
    /// ([`crate::lanes`]), the same position as the scalar sowing. Seen from the board's
    /// holes, the sowing runs round the ring of 2m holes from the next hole on, one
    /// hole shorter when it passes the mover's store (which lies between the mover's
    /// last hole and the opponent's first).
    #[inline(always)]
    fn play_lanes(&self, mv: KalahMove) -> Self {
        let me = self.to_move;
        let m = self.holes_per_row();
        let n = 2 * m;
        let own = Self::row(me).start(m);
        let h = mv.0 as usize;
        let c = n + 1;
        let s = self.holes[h] as usize;
        let (rounds, rest) = if s < c { (0, s) } else { (s / c, s % c) };
        // Places from the sown hole to the mover's store, the store included.
        let t0 = h - own;
        let passes = rest >= m - t0;
        let from = if h + 1 == n { 0 } else { h + 1 };
        let laps = Lanes::splat(rounds as u8).and(lanes::first(n));
        let x = (self.low_half().and_not(lanes::hole(h)))
            .add(laps)
            .add(ring_run(n, from, rest - passes as usize));
        // Where the last seed fell in the mover's cycle (as in the scalar sowing).
        let t = if t0 + rest >= c {
            t0 + rest - c
        } else {
            t0 + rest
        };
        let next = if t == m { me } else { me.opponent() };
        // A capture without a branch (random play makes it unpredictable): the last hole
        // and the one across are cleared under a mask that is empty when none is due,
        // and their sum (the last seed and the seeds across) goes to the store.
        let l = own + if t < m { t } else { 0 };
        let o = opposite(l, m);
        // `&` rather than `&&`: one mask, no branch.
        let capture = (t < m)
            & (x.eq_bits(1) >> l & 1 == 1)
            & ((self.rules.capture == Capture::Empty) | (x.zero_bits() >> o & 1 == 0));
        let pair = lanes::hole(l)
            .or(lanes::hole(o))
            .and(Lanes::splat(0u8.wrapping_sub(capture as u8)));
        let taken = x.and(pair).sum();
        let x = x.and_not(pair);
        let mut after = self.after_move(x, me, (rounds + passes as usize) as u32 + taken, next);
        let empty = x.zero_bits();
        let full = (1 << m) - 1;
        if empty & full == full || empty >> m & full == full {
            after.sweep_if_over();
        }
        after
    }

    #[inline(always)]
    fn margin(&self) -> i32 {
        self.board.margin(self.to_move)
    }
}

impl Game for Kalah {
    type Move = KalahMove;

    #[inline(always)]
    fn to_move(&self) -> Player {
        self.to_move
    }

    /// The mover's non-empty holes, left to right.
    #[inline(always)]
    fn legal_moves(&self, moves: &mut Moves<KalahMove>) {
        if self.holes_per_row() <= lanes::MAX_ROW {
            self.legal_moves_lanes(moves);
        } else {
            self.legal_moves_scalar(moves);
        }
    }

    /// From the bit mask of sowable holes, without a list: the `k`-th set bit is the
    /// `k`-th move of [`Game::legal_moves`].
    #[inline(always)]
    fn pick_move(
        &self,
        moves: &mut Moves<KalahMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<(KalahMove, usize)> {
        if self.holes_per_row() > lanes::MAX_ROW {
            return pick_from_list(self, moves, Self::legal_moves_scalar, pick);
        }
        let (j, count) = lanes::pick_bit(self.sowable_lanes(), pick)?;
        let own = Self::row(self.to_move).start(self.holes_per_row());
        Some((KalahMove((own + j) as u8), count))
    }

    #[inline(always)]
    fn play(&self, mv: KalahMove) -> Self {
        if self.holes_per_row() <= lanes::MAX_ROW {
            self.play_lanes(mv)
        } else {
            self.play_scalar(mv)
        }
    }

    /// The game is over when either row is empty (after [`Game::play`] the board is then
    /// empty too, since the remaining seeds were swept into the stores).
    #[inline]
    fn is_terminal(&self) -> bool {
        let m = self.holes_per_row();
        if m <= lanes::MAX_ROW {
            let empty = self.low_half().zero_bits();
            let full = (1 << m) - 1;
            empty & full == full || empty >> m & full == full
        } else {
            self.row_sum(Row::South) == 0 || self.row_sum(Row::North) == 0
        }
    }

    /// The final store margin for the player to move, counting the seeds still on each
    /// side as that side's (they are swept there when the game ends).
    fn terminal_value(&self) -> i32 {
        let me = Self::row(self.to_move);
        self.margin() + self.row_sum(me) as i32 - self.row_sum(me.other()) as i32
    }

    #[inline]
    fn banked(&self) -> i32 {
        self.margin()
    }

    #[inline]
    fn swing(&self) -> i32 {
        self.on_board() as i32
    }

    /// Under the empty-capture rule the mover always gains at least one more seed: the
    /// non-empty hole nearest his store either sows into the store or ends in an empty
    /// own hole (every hole after it is empty), which captures at least the last seed.
    /// So of the k seeds in play he ends with g >= 1 and the margin is banked + 2g - k.
    #[inline]
    fn value_range(&self) -> (i32, i32) {
        let (b, k) = (self.margin(), self.on_board() as i32);
        let least = if self.rules.capture == Capture::Empty && !self.is_terminal() {
            2
        } else {
            0
        };
        (b - k + least, b + k)
    }

    /// Every seed in play ends in one of the stores, so the final margin is banked + 2g - k:
    /// its parity is fixed.
    #[inline]
    fn value_step(&self) -> i32 {
        2
    }

    /// Holes and capture rule: the stores never influence play, so they are left out
    /// and values are stored relative to [`Game::banked`]. The holes are read as the
    /// player to move sees them (his row first): the rules treat both seats alike, so a
    /// position and its [`Twin::twin`] have the same value for the player to move
    /// and share one table entry (measured, `solve -t 1 --tt-mb 1024`, every move's value:
    /// Kalah(5,4) 8.24 M nodes before, 7.06 M after; standard capture 15.9 M and 10.7 M;
    /// Kalah(6,3) 8.07 M and 7.14 M).
    /// The holes are read as three words (the unused tail is always zero), so the key
    /// costs three mixes and no copy: it is computed for every child the search peeks at.
    #[inline]
    fn key(&self) -> u64 {
        let words = self.words_seen_from(Self::row(self.to_move));
        let word = |i: usize| words[i];
        let tag = self.m as u64 | (self.rules.capture as u64) << 9;
        let h = mix64(word(0) ^ mix64(word(1) ^ 0x6A1A_u64.wrapping_mul(tag + 1)));
        if self.holes_per_row() <= 8 {
            h
        } else {
            mix64(h ^ word(2))
        }
    }

    /// No position can recur. Every move either puts at least one seed into a store
    /// (passing the own store, capturing, or sweeping), and the stores never give seeds
    /// back; or it moves seeds only forward inside the mover's own row, which strictly
    /// raises the sum of (seeds x position in the owner's row) of that row and leaves
    /// the other row alone. So (seeds in stores, that sum over both rows) increases
    /// lexicographically with every move.
    fn can_repeat(&self) -> bool {
        false
    }

    fn repetition_value(&self) -> i32 {
        self.banked()
    }

    /// No komi and no scaling: a value is seeds.
    fn points(&self, value: i32) -> f64 {
        value as f64
    }

    /// No position recurs, so none depends on what came before.
    fn history_dependent(&self) -> bool {
        false
    }

    /// The player with more seeds at the end wins; the value is the margin.
    fn win_loss(&self) -> bool {
        false
    }

    /// The hole counted from the mover's left, as the key sees the board: a table move
    /// then fits the seat-swapped position it is shared with.
    fn move_slot(&self, mv: KalahMove) -> usize {
        mv.0 as usize % self.holes_per_row()
    }

    /// Moves whose last seed falls in the mover's store (an extra turn) first, the hole
    /// nearest the store first among them: sowing it leaves the other holes' counts, and
    /// so their extra turns, as they were.
    fn move_order_hint(&self, mv: KalahMove) -> i32 {
        let m = self.holes_per_row();
        let h = mv.0 as usize;
        let to_store = m - h % m;
        let seeds = self.holes()[h] as usize;
        if seeds % (2 * m + 1) == to_store {
            1 + (h % m) as i32
        } else {
            0
        }
    }

    fn captured(&self, p: Player) -> u32 {
        self.stores[p.index()] as u32
    }

    fn material(&self) -> u32 {
        self.on_board()
    }
}
