//! The rules of Afrika, each cited from seed 000 (Mancala World), which seed 001
//! (Wikimanqala) repeats word for word except for the hole naming.

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

/// How messages name Afrika's board and stones.
const NAMES: Names = Names {
    article: "an",
    game: "Afrika",
    counters: "stones",
};

/// How the game ends.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Ending {
    /// "The game ends when the board is empty." Most captured stones wins.
    #[default]
    Empty,
    /// "At Super Duper Games the game ends when one player has reached 65 points": on
    /// other boards, when a player holds more than half of all stones. The margin is the
    /// captured margin at that moment.
    Majority,
    /// Give-away Afrika: "the first player who captures more than half of the stones
    /// loses". A win/draw/loss game.
    GiveAway,
}

/// What happens when play would go on for ever (the seeds give no rule; see the README).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Repetition {
    /// The convention of the published Awari solution: the game ends and the stones left
    /// on the board are shared equally, so the margin gains nothing more.
    #[default]
    Shared,
    /// Each player takes the stones on his own side of the repeated position.
    OwnSide,
}

/// Rule options. Komi is kept in half points and goes to the second player.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    pub ending: Ending,
    pub repetition: Repetition,
    /// Komi in half points for [`Player::Second`] ("the second player can get 2 1/2
    /// points"); only shifts reported values, never play.
    pub komi_half: i8,
}

/// A move: sow one of the mover's holes, or capture one of the opponent's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum AfrikaMove {
    /// Sow the mover's hole (board index).
    Sow(u8),
    /// Capture the opponent's hole (board index), opposite an empty hole of the mover.
    Capture(u8),
}

/// An Afrika position on a 2 x m board (m <= 12): 32 bytes, two 16-byte halves
/// (`rows::Halves`), `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C, align(16))]
pub struct Afrika {
    /// Stones per hole, and stones captured in the stores.
    board: Board,
    to_move: Player,
    rules: Rules,
    /// Zero bytes that fill the state to two 16-byte halves ([`crate::rows::Halves`]).
    pad: [u8; PAD],
}

/// Bytes after the board, the player to move and the rules.
const PAD: usize = 32 - std::mem::size_of::<Board>() - 1 - std::mem::size_of::<Rules>();

board_game!(Afrika, NAMES);

impl Seated for Afrika {
    /// "North starts each game": the first player sits North.
    const FIRST_ROW: Row = Row::North;
}

impl Afrika {
    /// The start position on 2 x `m` holes with `k` stones each, the first player (North)
    /// to move. "Afrika is played on a board with 2x8=16 holes. [...] Initially, there are
    /// 8 stones [...] in each hole."
    pub fn start(m: usize, k: u8, rules: Rules) -> Self {
        Afrika {
            board: Board::start(m, k, NAMES),
            to_move: Player::First,
            rules,
            pad: [0; PAD],
        }
    }

    pub fn with_to_move(mut self, p: Player) -> Self {
        self.to_move = p;
        self
    }
    /// Whether a player has passed half of all stones (the 65-point and give-away
    /// endings).
    fn over_half(&self, p: Player) -> bool {
        2 * self.stores[p.index()] as u32 > self.total()
    }

    /// The captures open to the mover: "If you have an empty hole which is opposite to a
    /// non-empty hole of your opponent, you must capture its contents. [...] You must
    /// capture the contents of the hole which contains the smallest number of stones, but
    /// if there are several holes with the same minimum number, you decide which contents
    /// you take first."
    #[inline]
    fn captures(&self, moves: &mut Moves<AfrikaMove>) {
        let m = self.holes_per_row();
        let s = Self::row(self.to_move).start(m);
        let mut min = u8::MAX;
        for i in s..s + m {
            let o = opposite(i, m);
            let c = self.holes[o];
            if self.holes[i] == 0 && c > 0 {
                if c < min {
                    min = c;
                    moves.clear();
                }
                if c == min {
                    moves.push(AfrikaMove::Capture(o as u8));
                }
            }
        }
    }

    /// [`Game::legal_moves`] hole by hole (rows of any size).
    fn legal_moves_loop(&self, moves: &mut Moves<AfrikaMove>) {
        self.captures(moves);
        if !moves.is_empty() {
            return;
        }
        // "If you have no empty holes which are opposite to a non-empty hole of your
        // opponent, you distribute the contents of one of your holes".
        let m = self.holes_per_row();
        let s = Self::row(self.to_move).start(m);
        for i in s..s + m {
            if self.holes[i] > 0 {
                moves.push(AfrikaMove::Sow(i as u8));
            }
        }
    }

    /// The legal moves for rows of up to 8 holes as bits over the mover's holes, a few
    /// operations on the lanes ([`crate::lanes`]): with `true`, bit `j` captures the hole
    /// across from the mover's `j`-th hole; with `false`, bit `j` sows that hole. In
    /// the order of the set bits, the moves of the plain loops. 0 when the game is over.
    #[inline(always)]
    fn choices_lanes(&self) -> (u32, bool) {
        let decided = || self.over_half(Player::First) || self.over_half(Player::Second);
        if self.rules.ending != Ending::Empty && decided() {
            return (0, false);
        }
        let m = self.holes_per_row();
        let n = 2 * m;
        let s = Self::row(self.to_move).start(m);
        let row = (1 << m) - 1;
        let x = self.low_half();
        let empty = x.zero_bits();
        if !empty & ((1 << n) - 1) == 0 {
            return (0, false);
        }
        // The board reversed: its lane `i + shift` is the hole across from hole `i`.
        let shift = 16 - n;
        let across = x.reverse();
        let captures = (empty & !(across.zero_bits() >> shift)) >> s & row;
        if captures == 0 {
            return (!empty >> s & row, false);
        }
        // Only the smallest capturable holes: the other lanes set to 0xFF, the least
        // lane found, and the capturable holes holding it kept.
        let at = captures << (s + shift);
        let least = across.or(lanes::expand(!at & 0xFFFF)).min_lane();
        ((across.eq_bits(least) & at) >> (s + shift), true)
    }

    /// The move of bit `j` of [`Afrika::choices_lanes`].
    #[inline(always)]
    fn choice(&self, j: usize, capture: bool) -> AfrikaMove {
        let m = self.holes_per_row();
        let h = Self::row(self.to_move).start(m) + j;
        if capture {
            AfrikaMove::Capture(opposite(h, m) as u8)
        } else {
            AfrikaMove::Sow(h as u8)
        }
    }

    /// [`Game::legal_moves`] for rows of up to 8 holes (see [`Afrika::choices_lanes`]).
    #[inline(always)]
    fn legal_moves_lanes(&self, moves: &mut Moves<AfrikaMove>) {
        let (mut bits, capture) = self.choices_lanes();
        while bits != 0 {
            moves.push(self.choice(bits.trailing_zeros() as usize, capture));
            bits &= bits - 1;
        }
    }

    /// The hole a capture move takes, or the sown hole.
    pub fn hole(mv: AfrikaMove) -> usize {
        match mv {
            AfrikaMove::Sow(h) | AfrikaMove::Capture(h) => h as usize,
        }
    }

    /// Why `mv` is not legal here, in words (for verify reports).
    pub fn why_illegal(&self, mv: AfrikaMove) -> Option<String> {
        if let Some(verdict) = plain_verdict(self, mv) {
            return verdict;
        }
        let m = self.holes_per_row();
        let mover = Self::row(self.to_move);
        let h = Self::hole(mv);
        if h >= 2 * m {
            return Some("no such hole".into());
        }
        let mut caps = Moves::new();
        self.captures(&mut caps);
        Some(match mv {
            AfrikaMove::Sow(_) if row_of(h, m) != mover => {
                format!("{} cannot sow from the opponent's row", mover.name())
            }
            AfrikaMove::Sow(_) if !caps.is_empty() => {
                let c = self.holes[Self::hole(caps[0])];
                format!("a capture is compulsory (the smallest capturable hole holds {c})")
            }
            AfrikaMove::Sow(_) => "the hole is empty".into(),
            AfrikaMove::Capture(_) if row_of(h, m) == mover => {
                "a player captures from the opponent's row".into()
            }
            AfrikaMove::Capture(_) if self.holes[h] == 0 => "the captured hole is empty".into(),
            AfrikaMove::Capture(_) if self.holes[opposite(h, m)] != 0 => {
                "the hole opposite the captured one is not empty".into()
            }
            AfrikaMove::Capture(_) => {
                let c = self.holes[Self::hole(caps[0])];
                format!(
                    "only the smallest capturable hole may be taken ({c} stones, not {})",
                    self.holes[h]
                )
            }
        })
    }
}

/// The rules never name a seat but to say who starts ("North starts each game"), and the
/// komi only shifts reported values: the twin has the seats exchanged
/// ([`Board::seats_swapped`]) and the other player to move.
impl Twin for Afrika {
    fn twin(&self) -> Self {
        self.seats_swapped()
    }

    fn twin_move(&self, mv: AfrikaMove) -> AfrikaMove {
        let across = |h: u8| twin_hole(h as usize, self.holes_per_row()) as u8;
        match mv {
            AfrikaMove::Sow(h) => AfrikaMove::Sow(across(h)),
            AfrikaMove::Capture(h) => AfrikaMove::Capture(across(h)),
        }
    }
}

impl Game for Afrika {
    type Move = AfrikaMove;

    #[inline(always)]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline(always)]
    fn legal_moves(&self, moves: &mut Moves<AfrikaMove>) {
        moves.clear();
        if self.is_terminal() {
            return;
        }
        if self.holes_per_row() <= lanes::MAX_ROW {
            self.legal_moves_lanes(moves);
        } else {
            self.legal_moves_loop(moves);
        }
    }

    /// From the bit mask of `Afrika::choices_lanes`, without a list: the `k`-th set
    /// bit is the `k`-th move of [`Game::legal_moves`].
    #[inline(always)]
    fn pick_move(
        &self,
        moves: &mut Moves<AfrikaMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<(AfrikaMove, usize)> {
        if self.holes_per_row() > lanes::MAX_ROW {
            return pick_from_list(self, moves, Self::legal_moves_scalar, pick);
        }
        let (bits, capture) = self.choices_lanes();
        let (j, count) = lanes::pick_bit(bits, pick)?;
        Some((self.choice(j, capture), count))
    }

    #[inline(always)]
    fn play(&self, mv: AfrikaMove) -> Self {
        if self.holes_per_row() > lanes::MAX_ROW {
            return self.play_scalar(mv);
        }
        let me = self.to_move;
        match mv {
            AfrikaMove::Sow(h) => self.sow_lanes(h),
            AfrikaMove::Capture(h) => {
                let taken = self.holes[h as usize] as u32;
                let x = self.low_half().and_not(lanes::hole(h as usize));
                self.after_move(x, me, taken, me.opponent())
            }
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        match self.rules.ending {
            Ending::Empty => {}
            Ending::Majority | Ending::GiveAway => {
                if self.over_half(Player::First) || self.over_half(Player::Second) {
                    return true;
                }
            }
        }
        self.board_empty()
    }

    fn terminal_value(&self) -> i32 {
        match self.rules.ending {
            // "The player gaining the largest number of stones is accounted the winner."
            Ending::Empty | Ending::Majority => self.banked_margin(),
            Ending::GiveAway => self.giveaway_result(self.stores),
        }
    }

    #[inline]
    fn banked(&self) -> i32 {
        match self.rules.ending {
            Ending::Empty | Ending::Majority => self.banked_margin(),
            Ending::GiveAway => 0,
        }
    }

    #[inline]
    fn swing(&self) -> i32 {
        match self.rules.ending {
            Ending::Empty | Ending::Majority => self.on_board() as i32,
            Ending::GiveAway => 1,
        }
    }

    /// Holes, rules and, where the ending looks at them, the captured totals, all read as
    /// the player to move sees them (his row and his store first): the rules treat both
    /// seats alike, so a position and its [`Twin::twin`] share one table entry. The holes
    /// are read as words (the unused tail is always zero; rows of up to 8 holes are
    /// exchanged by two shifts), so the key costs two or three mixes and no copy.
    #[inline]
    fn key(&self) -> u64 {
        let words = self.words_seen_from(Self::row(self.to_move));
        let word = |i: usize| words[i];
        // The captured totals matter only to the endings that look at them.
        let stores = match self.rules.ending {
            Ending::Empty => 0,
            Ending::Majority | Ending::GiveAway => {
                let [mine, theirs] = [self.to_move, self.to_move.opponent()];
                self.stores[mine.index()] as u64 | (self.stores[theirs.index()] as u64) << 8
            }
        };
        let tag = self.m as u64
            | (self.rules.ending as u64) << 16
            | (self.rules.repetition as u64) << 24
            | stores << 32;
        let h = mix64(word(0) ^ mix64(word(1) ^ 0xAF01_u64.wrapping_mul(tag + 1)));
        if self.holes_per_row() <= 8 {
            h
        } else {
            mix64(h ^ word(2))
        }
    }

    fn can_repeat(&self) -> bool {
        true
    }

    /// On rows of up to 8 holes, the holes themselves with the player to move in the
    /// last lane: between positions of equal material the last hole is known from the
    /// others, and the stores (which the majority endings look at) change only with the
    /// material. The rules and the row length are the game's. Exact, and a copy of the
    /// board rather than the two mixes of the key.
    #[inline]
    fn recurrence_id(&self) -> u128 {
        if self.holes_per_row() > lanes::MAX_ROW {
            return self.mover_key() as u128;
        }
        let mut holes = self.low_half().to_row().0;
        holes[15] = self.to_move as u8;
        u128::from_le_bytes(holes)
    }

    fn repetition_value(&self) -> i32 {
        let me = Self::row(self.to_move);
        let own = self.row_sum(me) as i32;
        let theirs = self.row_sum(me.other()) as i32;
        match (self.rules.ending, self.rules.repetition) {
            (Ending::GiveAway, Repetition::Shared) => 0,
            (Ending::GiveAway, Repetition::OwnSide) => {
                let mut s = [self.stores[0] as u32, self.stores[1] as u32];
                s[self.to_move.index()] += own as u32;
                s[self.to_move.opponent().index()] += theirs as u32;
                let total = s[0] + s[1];
                let lose = |p: Player| 2 * s[p.index()] > total;
                (lose(self.to_move.opponent()) as i32) - (lose(self.to_move) as i32)
            }
            (_, Repetition::Shared) => self.banked_margin(),
            (_, Repetition::OwnSide) => self.banked_margin() + own - theirs,
        }
    }

    fn captured(&self, p: Player) -> u32 {
        self.stores[p.index()] as u32
    }

    fn material(&self) -> u32 {
        self.on_board()
    }

    fn win_loss(&self) -> bool {
        self.rules.ending == Ending::GiveAway
    }

    fn history_dependent(&self) -> bool {
        self.rules.repetition == Repetition::OwnSide
    }

    #[inline]
    /// Holes counted from the left of their owner, as the key sees the board: a table
    /// move then fits the twin it is shared with.
    fn move_slot(&self, mv: AfrikaMove) -> usize {
        let m = self.holes_per_row();
        match mv {
            AfrikaMove::Sow(h) => h as usize % m,
            AfrikaMove::Capture(h) => MAX_ROW + h as usize % m,
        }
    }

    #[inline]
    fn move_order_hint(&self, mv: AfrikaMove) -> i32 {
        match mv {
            AfrikaMove::Capture(h) => self.holes[h as usize] as i32,
            AfrikaMove::Sow(_) => 0,
        }
    }

    fn points(&self, value: i32) -> f64 {
        match self.rules.ending {
            Ending::GiveAway => value as f64,
            _ => {
                let komi = self.rules.komi_half as f64 / 2.0;
                value as f64
                    + if self.to_move == Player::Second {
                        komi
                    } else {
                        -komi
                    }
            }
        }
    }
}

impl Afrika {
    /// [`Game::play`] stone by stone: the reference the word-wise sowing is checked
    /// against, and the one for rows of more than 8 holes and for captures.
    pub fn play_scalar(&self, mv: AfrikaMove) -> Self {
        let mut next = *self;
        let me = self.to_move.index();
        match mv {
            // "You may not distribute the contents of a hole and capture in the same turn."
            AfrikaMove::Capture(h) => {
                next.stores[me] += next.holes[h as usize];
                next.holes[h as usize] = 0;
            }
            // "Play is counterclockwise and single-lap. [...] you distribute the contents of
            // one of your holes, one by one, into the following holes. If there are enough
            // stones, the starting hole is skipped. Then your turn ends without anything
            // being captured."
            AfrikaMove::Sow(h) => {
                let h = h as usize;
                let n = 2 * self.holes_per_row();
                let stones = next.holes[h] as usize;
                next.holes[h] = 0;
                let rounds = (stones / (n - 1)) as u8;
                let rest = stones % (n - 1);
                if rounds > 0 {
                    for x in next.holes[..n].iter_mut() {
                        *x += rounds;
                    }
                    next.holes[h] -= rounds;
                }
                let mut i = h;
                for _ in 0..rest {
                    i += 1;
                    if i == n {
                        i = 0;
                    }
                    next.holes[i] += 1;
                }
            }
        }
        next.to_move = self.to_move.opponent();
        next
    }

    /// [`Game::legal_moves`] hole by hole: the reference the word-wise listing is
    /// checked against.
    pub fn legal_moves_scalar(&self, moves: &mut Moves<AfrikaMove>) {
        moves.clear();
        if !self.is_terminal() {
            self.legal_moves_loop(moves);
        }
    }

    /// Sowing hole `h` on rows of up to 8 holes, as one vector addition
    /// ([`crate::lanes`]): every other hole gets the whole laps, the run after `h` the
    /// rest; the same position as the scalar sowing.
    #[inline(always)]
    fn sow_lanes(&self, h: u8) -> Self {
        let h = h as usize;
        let n = 2 * self.holes_per_row();
        let c = n - 1;
        let stones = self.holes[h] as usize;
        let (rounds, rest) = if stones < c {
            (0, stones)
        } else {
            (stones / c, stones % c)
        };
        let from = if h + 1 == n { 0 } else { h + 1 };
        let sown = lanes::hole(h);
        let laps = Lanes::splat(rounds as u8)
            .and(lanes::first(n))
            .and_not(sown);
        let x = self
            .low_half()
            .and_not(sown)
            .add(laps)
            .add(ring_run(n, from, rest));
        self.after_move(x, self.to_move, 0, self.to_move.opponent())
    }

    /// The unused tail of `holes` is always zero, so the board is empty when all 24 bytes
    /// are: three word compares.
    #[inline(always)]
    fn board_empty(&self) -> bool {
        let w = |i: usize| u64::from_le_bytes(self.holes[i..i + 8].try_into().unwrap());
        (w(0) | w(8) | w(16)) == 0
    }

    #[inline(always)]
    fn banked_margin(&self) -> i32 {
        self.board.margin(self.to_move)
    }

    /// Give-away result for the player to move from final totals: whoever holds more than
    /// half loses; equal halves draw.
    fn giveaway_result(&self, s: [u8; 2]) -> i32 {
        let total = s[0] as u32 + s[1] as u32 + self.on_board();
        let lose = |p: Player| 2 * s[p.index()] as u32 > total;
        (lose(self.to_move.opponent()) as i32) - (lose(self.to_move) as i32)
    }
}

#[cfg(test)]
mod tests;
