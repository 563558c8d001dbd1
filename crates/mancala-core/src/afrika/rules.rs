//! The rules of Afrika, each cited from seed 000 (Mancala World), which seed 001
//! (Wikimanqala) repeats word for word except for the hole naming.

use crate::game::{Game, Moves};
use crate::hash::hash_bytes;
use crate::player::Player;
use crate::rows::{Row, Seated, opposite, row_of};

/// Largest supported row: 2 x 12 holes.
pub const MAX_ROW: usize = 12;

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

/// An Afrika position on a 2 x m board (m <= 12). 31 bytes, `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Afrika {
    /// Stones per hole in counterclockwise order (see [`crate::rows`]); unused tail is 0.
    holes: [u8; 2 * MAX_ROW],
    /// Stones captured, by [`Player::index`].
    stores: [u8; 2],
    m: u8,
    to_move: Player,
    rules: Rules,
}

impl Seated for Afrika {
    /// "North starts each game": the first player sits North.
    const FIRST_ROW: Row = Row::North;
}

impl Afrika {
    /// The start position on 2 x `m` holes with `k` stones each, the first player (North)
    /// to move. "Afrika is played on a board with 2x8=16 holes. [...] Initially, there are
    /// 8 stones [...] in each hole."
    pub fn start(m: usize, k: u8, rules: Rules) -> Self {
        assert!(
            (1..=MAX_ROW).contains(&m),
            "Afrika rows hold 1 to {MAX_ROW} holes"
        );
        assert!(2 * m * k as usize <= 255, "at most 255 stones");
        let mut holes = [0u8; 2 * MAX_ROW];
        holes[..2 * m].fill(k);
        Afrika {
            holes,
            stores: [0; 2],
            m: m as u8,
            to_move: Player::First,
            rules,
        }
    }

    /// A position from its parts; `holes` in board order (South's row, then North's),
    /// `stores` by player. Checks sizes and the 255-stone limit.
    pub fn from_parts(
        holes: &[u8],
        stores: [u8; 2],
        to_move: Player,
        rules: Rules,
    ) -> Result<Self, String> {
        let n = holes.len();
        if !n.is_multiple_of(2) || n == 0 || n > 2 * MAX_ROW {
            return Err(format!(
                "an Afrika board has 2 x 1..{MAX_ROW} holes, not {n}"
            ));
        }
        let total: u32 =
            holes.iter().map(|&x| x as u32).sum::<u32>() + stores[0] as u32 + stores[1] as u32;
        if total > 255 {
            return Err(format!("{total} stones in all; at most 255 are supported"));
        }
        let mut h = [0u8; 2 * MAX_ROW];
        h[..n].copy_from_slice(holes);
        Ok(Afrika {
            holes: h,
            stores,
            m: (n / 2) as u8,
            to_move,
            rules,
        })
    }

    #[inline(always)]
    pub fn m(&self) -> usize {
        self.m as usize
    }
    pub fn holes(&self) -> &[u8] {
        &self.holes[..2 * self.m()]
    }
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }
    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn with_rules(mut self, rules: Rules) -> Self {
        self.rules = rules;
        self
    }
    pub fn with_to_move(mut self, p: Player) -> Self {
        self.to_move = p;
        self
    }
    pub fn on_board(&self) -> u32 {
        self.holes().iter().map(|&x| x as u32).sum()
    }
    /// All stones: on the board and captured.
    pub fn total(&self) -> u32 {
        self.on_board() + self.stores[0] as u32 + self.stores[1] as u32
    }
    fn row_sum(&self, row: Row) -> i32 {
        let s = row.start(self.m());
        self.holes[s..s + self.m()].iter().map(|&x| x as i32).sum()
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
        let m = self.m();
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
        let m = self.m();
        let s = Self::row(self.to_move).start(m);
        for i in s..s + m {
            if self.holes[i] > 0 {
                moves.push(AfrikaMove::Sow(i as u8));
            }
        }
    }

    /// [`Game::legal_moves`] for rows of up to 8 holes, a word at a time (the same moves in
    /// the same order as the plain loops): each row is one u64, the opponent's reversed so
    /// that byte j faces the mover's hole j.
    #[inline]
    fn legal_moves_swar(&self, moves: &mut Moves<AfrikaMove>) {
        const L7F: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        const L80: u64 = 0x8080_8080_8080_8080;
        // The high bit of every byte that is not zero (exact: no carry crosses a byte).
        let nonzero = |x: u64| (((x & L7F) + L7F) | x) & L80;
        let m = self.m();
        let s = Self::row(self.to_move).start(m);
        let o = m - s;
        let word =
            |start: usize| u64::from_le_bytes(self.holes[start..start + 8].try_into().unwrap());
        let row_mask = if m == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * m)) - 1
        };
        let own = word(s) & row_mask;
        let facing = (word(o) & row_mask).swap_bytes() >> (8 * (8 - m));
        let own_nz = nonzero(own);
        let captures = !own_nz & nonzero(facing) & L80 & row_mask;
        if captures != 0 {
            let size = |j: u32| (facing >> (8 * j)) as u8;
            let mut min = u8::MAX;
            let mut c = captures;
            while c != 0 {
                min = min.min(size(c.trailing_zeros() / 8));
                c &= c - 1;
            }
            let mut c = captures;
            while c != 0 {
                let j = c.trailing_zeros() / 8;
                c &= c - 1;
                if size(j) == min {
                    moves.push(AfrikaMove::Capture(opposite(s + j as usize, m) as u8));
                }
            }
        } else {
            let mut c = own_nz & row_mask;
            while c != 0 {
                let j = c.trailing_zeros() as usize / 8;
                c &= c - 1;
                moves.push(AfrikaMove::Sow((s + j) as u8));
            }
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
        let mut moves = Moves::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            return None;
        }
        if self.is_terminal() {
            return Some("the game is already over".into());
        }
        let m = self.m();
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

impl Game for Afrika {
    type Move = AfrikaMove;

    #[inline(always)]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Moves<AfrikaMove>) {
        moves.clear();
        if self.is_terminal() {
            return;
        }
        if self.m() <= 8 {
            self.legal_moves_swar(moves);
        } else {
            self.legal_moves_loop(moves);
        }
    }

    fn play(&self, mv: AfrikaMove) -> Self {
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
                let n = 2 * self.m();
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

    fn key(&self) -> u64 {
        let n = 2 * self.m();
        let mut buf = [0u8; 2 * MAX_ROW + 4];
        buf[..n].copy_from_slice(&self.holes[..n]);
        buf[n] = self.to_move as u8;
        // The captured totals matter only to the endings that look at them.
        let len = if self.rules.ending == Ending::Empty {
            n + 1
        } else {
            buf[n + 1] = self.stores[0];
            buf[n + 2] = self.stores[1];
            n + 3
        };
        let rules = (self.rules.ending as u64) | (self.rules.repetition as u64) << 8;
        hash_bytes(0xAF01 ^ (self.m as u64) << 16 ^ rules << 24, &buf[..len])
    }

    fn can_repeat(&self) -> bool {
        true
    }

    fn repetition_value(&self) -> i32 {
        let me = Self::row(self.to_move);
        let own = self.row_sum(me);
        let theirs = self.row_sum(me.other());
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
    fn move_slot(&self, mv: AfrikaMove) -> usize {
        match mv {
            AfrikaMove::Sow(h) => h as usize,
            AfrikaMove::Capture(h) => 2 * MAX_ROW + h as usize,
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
    /// The unused tail of `holes` is always zero, so the board is empty when all 24 bytes
    /// are: three word compares.
    #[inline(always)]
    fn board_empty(&self) -> bool {
        let w = |i: usize| u64::from_le_bytes(self.holes[i..i + 8].try_into().unwrap());
        (w(0) | w(8) | w(16)) == 0
    }

    #[inline(always)]
    fn banked_margin(&self) -> i32 {
        let me = self.to_move.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
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
mod tests {
    use super::*;
    use crate::game::{Notation, PositionText};

    fn pos(text: &str) -> Afrika {
        Afrika::from_text(text).unwrap()
    }

    fn moves(g: &Afrika) -> Vec<String> {
        let mut ms = Moves::new();
        g.legal_moves(&mut ms);
        ms.iter().map(|&m| g.format_move(m)).collect()
    }

    #[test]
    fn start_has_eight_stones_in_sixteen_holes_and_north_moves() {
        // "a board with 2x8=16 holes [...] there are 8 stones [...] in each hole."
        // "North starts each game."
        let g = Afrika::start(8, 8, Rules::default());
        assert_eq!(g.holes(), &[8u8; 16][..]);
        assert_eq!(g.total(), 128);
        assert_eq!(Afrika::row(g.to_move()), Row::North);
        assert_eq!(moves(&g), vec!["a", "b", "c", "d", "e", "f", "g", "h"]);
    }

    #[test]
    fn sowing_is_counterclockwise_one_stone_per_hole() {
        // "you distribute the contents of one of your holes, one by one, into the following
        // holes." South's G with 3 stones: H, then North's a and b.
        let g = pos("afrika south:0,0,0,0,0,0,3,1 north:1,1,1,1,1,1,1,1 to-move:south");
        let n = g.play(g.parse_move("G").unwrap());
        assert_eq!(
            n.to_text(),
            "afrika south:0,0,0,0,0,0,0,2 north:2,2,1,1,1,1,1,1 south-store:0 north-store:0 to-move:north"
        );
        // North's h continues into South's A.
        let g = pos("afrika south:1,1,1,1,1,1,1,1 north:0,0,0,0,0,0,0,2 to-move:north");
        let n = g.play(g.parse_move("h").unwrap());
        assert_eq!(n.holes()[..2], [2, 2]);
    }

    #[test]
    fn the_starting_hole_is_skipped_when_stones_go_round() {
        // "If there are enough stones, the starting hole is skipped." 17 stones from A on
        // 2x8: each of the 15 other holes gets one, B and C a second.
        let g = pos("afrika south:17,1,1,1,1,1,1,1 north:1,1,1,1,1,1,1,1 to-move:south");
        let n = g.play(g.parse_move("A").unwrap());
        assert_eq!(n.holes()[0], 0);
        assert_eq!(n.holes()[1..3], [3, 3]);
        assert!(n.holes()[3..].iter().all(|&x| x == 2));
        // 15 stones reach exactly the hole before the start.
        let g = pos("afrika south:15,1,1,1,1,1,1,1 north:1,1,1,1,1,1,1,1 to-move:south");
        let n = g.play(g.parse_move("A").unwrap());
        assert_eq!(n.holes()[0], 0);
        assert!(n.holes()[1..].iter().all(|&x| x == 2));
    }

    #[test]
    fn capture_is_compulsory_and_a_whole_move() {
        // "If you can capture, you must capture. You may not distribute the contents of a
        // hole and capture in the same turn." South's A is empty opposite North's h (5).
        let g = pos("afrika south:0,1,1,1,1,1,1,1 north:1,1,1,1,1,1,1,5 to-move:south");
        assert_eq!(moves(&g), vec!["xh"]);
        let n = g.play(g.parse_move("xh").unwrap());
        assert_eq!(n.holes()[15], 0);
        assert_eq!(n.stores()[Player::Second.index()], 5);
        // Nothing else moved.
        assert_eq!(&n.holes()[..15], &g.holes()[..15]);
        assert_eq!(Afrika::row(n.to_move()), Row::North);
    }

    #[test]
    fn only_the_smallest_capturable_hole_may_be_taken() {
        // "You must capture the contents of the hole which contains the smallest number of
        // stones". South's A (opposite h=5) and B (opposite g=2) are empty.
        let g = pos("afrika south:0,0,1,1,1,1,1,1 north:1,1,1,1,1,1,2,5 to-move:south");
        assert_eq!(moves(&g), vec!["xg"]);
        let why = g.why_illegal(g.parse_move("xh").unwrap()).unwrap();
        assert!(why.contains("smallest"), "{why}");
        let why = g.why_illegal(g.parse_move("C").unwrap()).unwrap();
        assert!(why.contains("compulsory"), "{why}");
    }

    #[test]
    fn equal_minima_are_a_free_choice() {
        // "if there are several holes with the same minimum number, you decide which
        // contents you take first."
        let g = pos("afrika south:0,0,1,1,1,1,1,1 north:1,1,1,1,1,1,3,3 to-move:south");
        assert_eq!(moves(&g), vec!["xh", "xg"]);
    }

    #[test]
    fn an_empty_hole_opposite_an_empty_hole_gives_no_capture() {
        // "If you have no empty holes which are opposite to a non-empty hole of your
        // opponent, you distribute".
        let g = pos("afrika south:0,1,0,0,0,0,0,0 north:0,0,0,0,0,0,0,0 to-move:south");
        assert_eq!(moves(&g), vec!["B"]);
    }

    #[test]
    fn the_game_ends_when_the_board_is_empty() {
        // "The game ends when the board is empty." "The player gaining the largest number
        // of stones is accounted the winner."
        let g = pos(
            "afrika south:0,0,0,0,0,0,0,0 north:0,0,0,0,0,0,0,1 south-store:60 north-store:67 to-move:south",
        );
        assert!(!g.is_terminal());
        let n = g.play(g.parse_move("xh").unwrap());
        assert!(n.is_terminal());
        assert!(moves(&n).is_empty());
        assert_eq!(n.terminal_value(), 67 - 61); // North to move, ahead by 6.
    }

    #[test]
    fn the_65_point_ending_stops_at_more_than_half() {
        // "At Super Duper Games the game ends when one player has reached 65 points".
        let t = "afrika south:1,0,0,0,0,0,0,0 north:0,0,0,0,0,0,0,1 south-store:64 north-store:62 to-move:south ending:65";
        let g = pos(t);
        assert!(!g.is_terminal());
        let n = g.play(g.parse_move("xh").unwrap());
        assert!(n.is_terminal());
        assert_eq!(n.terminal_value(), 62 - 65);
        // Without the option the game goes on.
        let g = pos(&t.replace(" ending:65", ""));
        assert!(!g.play(g.parse_move("xh").unwrap()).is_terminal());
    }

    #[test]
    fn giveaway_first_past_half_loses() {
        // "the first player who captures more than half of the stones loses."
        let g = pos(
            "afrika south:1,0,0,0,0,0,0,0 north:0,0,0,0,0,0,0,1 south-store:64 north-store:62 to-move:south ending:giveaway",
        );
        let n = g.play(g.parse_move("xh").unwrap());
        assert!(n.is_terminal());
        assert_eq!(n.terminal_value(), 1); // North to move wins.
        assert_eq!(g.swing(), 1);
        assert_eq!(g.banked(), 0);
    }

    #[test]
    fn komi_goes_to_the_second_player_and_only_shifts_values() {
        // "the second player can get 2 1/2 points (called "Komi")".
        let g = pos(
            "afrika south:0,0,0,0,0,0,0,0 north:0,0,0,0,0,0,0,0 south-store:64 north-store:64 to-move:south komi:2.5",
        );
        assert_eq!(g.terminal_value(), 0);
        assert_eq!(g.points(0), 2.5);
        assert_eq!(g.with_to_move(Player::First).points(0), -2.5);
    }

    #[test]
    fn repetition_rules() {
        // The 2x2 cycle: North b,a = 0,1 / South A,B = 1,2, South to move: B, a, A, b returns.
        let g = pos("afrika south:1,2 north:1,0 south-store:3 north-store:1 to-move:south");
        let mut h = g;
        for m in ["B", "a", "A", "b"] {
            h = h.play(h.parse_move(m).unwrap());
        }
        assert_eq!(h, g);
        assert_eq!(h.key(), g.key());
        assert_eq!(g.repetition_value(), 2);
        let own = g.with_rules(Rules {
            repetition: Repetition::OwnSide,
            ..Rules::default()
        });
        assert_eq!(own.repetition_value(), 2 + 3 - 1);
    }

    #[test]
    fn word_parallel_move_generation_equals_the_plain_loops() {
        let mut rng = crate::game::SplitMix(9);
        let (mut a, mut b) = (Moves::new(), Moves::new());
        for _ in 0..20_000 {
            let m = 1 + rng.below(8);
            let holes: Vec<u8> = (0..2 * m)
                .map(|_| [0, 0, 1, 2, 3, 9, 30][rng.below(7)])
                .collect();
            let p = if rng.below(2) == 0 {
                Player::First
            } else {
                Player::Second
            };
            let Ok(g) = Afrika::from_parts(&holes, [0, 0], p, Rules::default()) else {
                continue; // more stones than a board may hold
            };
            if g.is_terminal() {
                continue;
            }
            a.clear();
            g.legal_moves_swar(&mut a);
            b.clear();
            g.legal_moves_loop(&mut b);
            assert_eq!(a, b, "{holes:?} {p:?}");
        }
    }

    #[test]
    fn keys_ignore_captures_only_where_the_rules_do() {
        let a = pos("afrika south:1,2 north:1,0 south-store:3 north-store:1 to-move:south");
        let b = pos("afrika south:1,2 north:1,0 south-store:1 north-store:3 to-move:south");
        assert_eq!(a.key(), b.key());
        let r = Rules {
            ending: Ending::Majority,
            ..Rules::default()
        };
        assert_ne!(a.with_rules(r).key(), b.with_rules(r).key());
        assert_ne!(a.key(), a.with_to_move(Player::First).key());
    }
}
