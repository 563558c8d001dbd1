//! The rules of Kauri, each cited from seed 003 (Mancala World), with the readings the
//! four published games settle where the text is silent (see the module documentation of
//! [`crate::kauri`]).

use crate::game::{Game, Moves};
use crate::hash::hash_bytes;
use crate::player::Player;
use crate::rows::{Row, Seated, letter, row_of, twin_hole};
use crate::twin::Twin;

/// Holes per row: "The game is played on a standard mancala board of 2 x 6 holes."
pub const HOLES_PER_ROW: usize = 6;

/// Holes on the board.
pub const HOLES: usize = 2 * HOLES_PER_ROW;

/// Seeds per hole at the start: "Initially there are six counters in each hole: five
/// "seeds" (Caesalpinia bonduc) and one "cowrie"."
pub const START_SEEDS: u8 = 5;

/// Cowries per hole at the start.
pub const START_COWRIES: u8 = 1;

/// Seeds of the standard game (5 in each of 12 holes).
pub const TOTAL_SEEDS: u32 = START_SEEDS as u32 * HOLES as u32;

/// At most this many seeds, and this many cowries, in a position (one byte per hole and
/// store).
pub const MAX_COUNTERS: u32 = 255;

/// Which rules end the game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Rules {
    /// The official rules since May 2010: "The game ends when no seeds are left on the
    /// board. The player who captured most seeds wins the game. If the number of captured
    /// seeds is equal, the game is a draw." Values are captured margins in seeds.
    #[default]
    Current,
    /// The "Suggested Tie-Breaker", still "a rules variation": "If both players have
    /// captured the same number, the game continues until one player can't move. His
    /// adversary is then declared the winner of the game." With the seeds gone and equal
    /// totals, play goes on with cowries only (nothing can be captured any more); a player
    /// to move without a cowrie in his row cannot move and loses (no passing in this
    /// phase). Values are in half points: twice the captured margin, plus 1 for the
    /// tie-break winner and minus 1 for the loser.
    TieBreak,
}

impl Rules {
    /// The variant name records and positions use.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Current => "current",
            Rules::TieBreak => "tiebreak",
        }
    }

    /// Reads `current` (also `standard`) or `tiebreak` (also `tie-break`).
    pub fn parse(text: &str) -> Option<Rules> {
        match text.trim() {
            "current" | "standard" => Some(Rules::Current),
            "tiebreak" | "tie-break" => Some(Rules::TieBreak),
            _ => None,
        }
    }
}

/// A move: distribute the contents of one of the mover's holes (board index, see
/// [`crate::rows`]), which must hold at least one cowrie.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct KauriMove(pub u8);

/// A Kauri position. 28 bytes, `Copy`.
///
/// `First` is North, who moves first in every published record; `Second` is South.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Kauri {
    /// Seeds per hole in anticlockwise (sowing) order: South's `A..F`, then North's `a..f`.
    seeds: [u8; HOLES],
    /// Cowries per hole, same order. Cowries have no owner: they belong to whoever owns
    /// the row they lie in.
    cowries: [u8; HOLES],
    /// Seeds captured, by [`Player::index`].
    stores: [u8; 2],
    to_move: Player,
    rules: Rules,
}

impl Seated for Kauri {
    /// North moves first (the published records all open with a lowercase move).
    const FIRST_ROW: Row = Row::North;
}

impl Kauri {
    /// The player owning a hole.
    #[inline(always)]
    fn owner_of(hole: usize) -> Player {
        Self::owner(row_of(hole, HOLES_PER_ROW))
    }

    /// The board indices of a player's holes, from his left.
    #[inline(always)]
    pub fn holes_of(p: Player) -> std::ops::Range<usize> {
        let s = Self::row(p).start(HOLES_PER_ROW);
        s..s + HOLES_PER_ROW
    }

    /// The start position, North to move. "Initially there are six counters in each hole:
    /// five "seeds" (Caesalpinia bonduc) and one "cowrie"."
    pub fn start(rules: Rules) -> Self {
        Kauri {
            seeds: [START_SEEDS; HOLES],
            cowries: [START_COWRIES; HOLES],
            stores: [0; 2],
            to_move: Player::First,
            rules,
        }
    }

    /// A position from its parts, in board order (South's row `A..F`, then North's
    /// `a..f`), `stores` by player. Checks the 255-counter limits and that the player to
    /// move can move unless the game is over: while seeds are on the board a player
    /// without a cowrie passes, so he is never the one to move.
    pub fn from_parts(
        seeds: [u8; HOLES],
        cowries: [u8; HOLES],
        stores: [u8; 2],
        to_move: Player,
        rules: Rules,
    ) -> Result<Self, String> {
        let all_seeds: u32 =
            seeds.iter().map(|&x| x as u32).sum::<u32>() + stores[0] as u32 + stores[1] as u32;
        if all_seeds > MAX_COUNTERS {
            return Err(format!(
                "{all_seeds} seeds in all; at most {MAX_COUNTERS} are supported"
            ));
        }
        let all_cowries: u32 = cowries.iter().map(|&x| x as u32).sum();
        if all_cowries > MAX_COUNTERS {
            return Err(format!(
                "{all_cowries} cowries in all; at most {MAX_COUNTERS} are supported"
            ));
        }
        let g = Kauri {
            seeds,
            cowries,
            stores,
            to_move,
            rules,
        };
        if g.on_board() > 0 {
            if all_cowries == 0 {
                return Err(
                    "seeds are on the board but there is no cowrie: no one could move".into(),
                );
            }
            if !g.has_cowrie(to_move) {
                let me = Self::row(to_move);
                return Err(format!(
                    "{} is to move but has no cowrie, so must pass: {} is to move",
                    me.name(),
                    me.other().name()
                ));
            }
        }
        Ok(g)
    }

    /// Seeds per hole in board order.
    pub fn seeds(&self) -> &[u8; HOLES] {
        &self.seeds
    }
    /// Cowries per hole in board order.
    pub fn cowries(&self) -> &[u8; HOLES] {
        &self.cowries
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
    /// Seeds on the board.
    #[inline]
    pub fn on_board(&self) -> u32 {
        self.seeds.iter().map(|&x| x as u32).sum()
    }
    /// All seeds: on the board and captured.
    pub fn total(&self) -> u32 {
        self.on_board() + self.stores[0] as u32 + self.stores[1] as u32
    }
    /// All cowries (never captured, so constant).
    pub fn total_cowries(&self) -> u32 {
        self.cowries.iter().map(|&x| x as u32).sum()
    }

    /// Whether a player's row holds a cowrie, i.e. whether he can move.
    #[inline]
    pub fn has_cowrie(&self, p: Player) -> bool {
        self.cowries[Self::holes_of(p)].iter().any(|&c| c > 0)
    }

    /// Whether the seeds are gone and the old tie-breaker is deciding the game: "the game
    /// continues until one player can't move."
    pub fn in_tie_break(&self) -> bool {
        self.rules == Rules::TieBreak && self.on_board() == 0 && self.stores[0] == self.stores[1]
    }

    /// Whether a player holds more than half of all seeds (he can no longer be caught).
    pub fn over_half(&self, p: Player) -> bool {
        2 * self.stores[p.index()] as u32 > self.total()
    }

    /// Why `mv` is not legal here, in words (for reports); `None` when it is legal.
    pub fn why_illegal(&self, mv: KauriMove) -> Option<String> {
        let h = mv.0 as usize;
        if h >= HOLES {
            return Some("no such hole: the holes are A-F (South) and a-f (North)".into());
        }
        if self.is_terminal() {
            return Some("the game is already over".into());
        }
        let me = Self::row(self.to_move);
        let l = letter(h, HOLES_PER_ROW);
        if row_of(h, HOLES_PER_ROW) != me {
            return Some(format!(
                "{} moves from its own row; {l} is {}'s hole",
                me.name(),
                me.other().name()
            ));
        }
        if self.cowries[h] == 0 {
            return Some(format!(
                "hole {l} holds no cowrie ({}+0): only a hole with at least one cowrie can be moved",
                self.seeds[h]
            ));
        }
        None
    }

    /// "At his turn a player distributes the contents of one of his holes according to the
    /// following rules: The hole contains at least one cowrie. [...] He distributes the
    /// seeds first, one by one, in the anti-clockwise direction into the succeeding holes.
    /// Eventually he distributes the cowries, also one by one, continuing in the same
    /// direction. The move ends after one lap."
    ///
    /// The start hole is not skipped: a sowing of 12 or more counters drops its 12th
    /// counter, seed or cowrie, back into the emptied start hole (the records contradict
    /// skipping, see the module documentation). Captures are decided drop by drop, on the
    /// hole's contents at that moment: "The capture takes place immediately when it is
    /// effected, even when the move hasn't yet ended."
    #[inline]
    fn sow(&mut self, h: usize) {
        let me = self.to_move;
        let opp = me.opponent();
        let seeds = self.seeds[h];
        let cowries = self.cowries[h];
        self.seeds[h] = 0;
        self.cowries[h] = 0;
        let mut i = h;
        for _ in 0..seeds {
            i = if i + 1 == HOLES { 0 } else { i + 1 };
            if Self::owner_of(i) == opp && self.cowries[i] > 0 && self.seeds[i] == 0 {
                // (C) Indirect capture: "Seeds are captured when they are dropped into
                // opponent's holes that contain only cowries. The seeds are captured by the
                // opponent. The cowries are not removed from the board." The hole keeps
                // only cowries, so a further seed into it in the same sowing is captured
                // too (the literal reading; the records never test it).
                self.stores[opp.index()] += 1;
            } else {
                // Into any other hole the seed stays, the mover's own cowrie-only holes
                // included (games 2 and 4 confirm it).
                self.seeds[i] += 1;
            }
        }
        for _ in 0..cowries {
            i = if i + 1 == HOLES { 0 } else { i + 1 };
            if Self::owner_of(i) == opp && self.cowries[i] == 0 {
                // (B) Direct capture: "Seeds are captured from opponent's holes that have
                // no cowries. The capture is effected when a cowrie is dropped into such a
                // hole. The seeds are captured by the moving player. The cowries effecting
                // the capture remain on the board." Seeds sown there earlier in this move
                // are taken too; a cowrie into an empty hole takes nothing.
                self.stores[me.index()] += self.seeds[i];
                self.seeds[i] = 0;
            }
            self.cowries[i] += 1;
        }
    }

    #[inline(always)]
    fn margin(&self) -> i32 {
        let me = self.to_move.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
    }
}

/// The rules never name a seat but to say who starts: the twin has the rows (seeds and
/// cowries) and the stores exchanged and the other player to move.
impl Twin for Kauri {
    fn twin(&self) -> Self {
        let mut twin = *self;
        twin.seeds.rotate_left(HOLES_PER_ROW);
        twin.cowries.rotate_left(HOLES_PER_ROW);
        twin.stores = [self.stores[1], self.stores[0]];
        twin.to_move = self.to_move.opponent();
        twin
    }

    fn twin_move(&self, mv: KauriMove) -> KauriMove {
        KauriMove(twin_hole(mv.0 as usize, HOLES_PER_ROW) as u8)
    }
}

impl Game for Kauri {
    type Move = KauriMove;

    #[inline(always)]
    fn to_move(&self) -> Player {
        self.to_move
    }

    /// "The hole contains at least one cowrie": every hole of the mover's row with a
    /// cowrie, whether or not it holds seeds (a hole of cowries only is a waiting move).
    fn legal_moves(&self, moves: &mut Moves<KauriMove>) {
        moves.clear();
        if self.is_terminal() {
            return;
        }
        for h in Self::holes_of(self.to_move) {
            if self.cowries[h] > 0 {
                moves.push(KauriMove(h as u8));
            }
        }
    }

    /// Sows the hole, then passes the turn. "A player must move, if he can. If a player
    /// still has seeds, but no cowries, he must pass until he can move again." A pass is
    /// never a move of its own (the records write the mover's consecutive moves "d-a-f"):
    /// while seeds are on the board and the opponent has no cowrie, the mover moves again.
    /// In the tie-break phase nobody passes: the player without a cowrie is to move and has
    /// lost.
    #[inline]
    fn play(&self, mv: KauriMove) -> Self {
        let h = mv.0 as usize;
        debug_assert!(
            h < HOLES && Self::owner_of(h) == self.to_move && self.cowries[h] > 0,
            "illegal move {mv:?}"
        );
        let mut next = *self;
        next.sow(h);
        let opp = self.to_move.opponent();
        if next.on_board() == 0 || next.has_cowrie(opp) {
            next.to_move = opp;
        }
        next
    }

    /// "The game ends when no seeds are left on the board." Under the old tie-breaker, with
    /// equal totals, only when the player to move cannot move.
    #[inline]
    fn is_terminal(&self) -> bool {
        if self.seeds.iter().any(|&x| x > 0) {
            return false;
        }
        match self.rules {
            Rules::Current => true,
            Rules::TieBreak => self.stores[0] != self.stores[1] || !self.has_cowrie(self.to_move),
        }
    }

    /// "The player who captured most seeds wins the game. If the number of captured seeds
    /// is equal, the game is a draw." Under the tie-breaker, in half points: a tie won at
    /// the end of the cowrie phase is +1 (here always a loss, -1, for the player to move,
    /// who cannot move).
    fn terminal_value(&self) -> i32 {
        match self.rules {
            Rules::Current => self.margin(),
            Rules::TieBreak => {
                let m = self.margin();
                if m != 0 { 2 * m } else { -1 }
            }
        }
    }

    #[inline]
    fn banked(&self) -> i32 {
        match self.rules {
            Rules::Current => self.margin(),
            Rules::TieBreak => 2 * self.margin(),
        }
    }

    /// The seeds still on the board (and the half point of the tie-break).
    #[inline]
    fn swing(&self) -> i32 {
        match self.rules {
            Rules::Current => self.on_board() as i32,
            Rules::TieBreak => 2 * self.on_board() as i32 + 1,
        }
    }

    /// Seeds and cowries of every hole and the rules, read as the player to move sees
    /// them (his row first); under the tie-breaker also the captured difference, his
    /// less the opponent's (the ending asks whether the totals are equal). Under the
    /// current rules the stores are left out: the rest of the game never looks at them.
    /// The rules treat both seats alike, so a position and its [`Twin::twin`] share one
    /// table entry.
    fn key(&self) -> u64 {
        let mut buf = [0u8; 2 * HOLES + 2];
        buf[..HOLES].copy_from_slice(&self.seeds);
        buf[HOLES..2 * HOLES].copy_from_slice(&self.cowries);
        if self.to_move == Self::owner(Row::North) {
            buf[..HOLES].rotate_left(HOLES_PER_ROW);
            buf[HOLES..2 * HOLES].rotate_left(HOLES_PER_ROW);
        }
        let len = match self.rules {
            Rules::Current => 2 * HOLES,
            Rules::TieBreak => {
                buf[2 * HOLES..].copy_from_slice(&(self.margin() as i16).to_le_bytes());
                2 * HOLES + 2
            }
        };
        hash_bytes(0x6A0E ^ (self.rules as u64) << 16, &buf[..len])
    }

    /// Cowries circulate for ever, so positions can recur (a cowrie-only waiting move
    /// changes no seed).
    fn can_repeat(&self) -> bool {
        true
    }

    /// The seed gives no repetition rule. The project's rule: play that returns to an
    /// earlier position ends the game with nothing more gained, i.e. the captured margin so
    /// far; in the tie-break phase that is 0, a draw.
    fn repetition_value(&self) -> i32 {
        self.banked()
    }

    /// A repetition ends the game with the captured margin, which the position itself
    /// holds: the value never depends on the positions before.
    fn history_dependent(&self) -> bool {
        false
    }

    /// "The player who captured most seeds wins": the value is the margin (the old
    /// tie-breaker's win counts +0.5, see [`Game::points`]).
    fn win_loss(&self) -> bool {
        false
    }

    fn captured(&self, p: Player) -> u32 {
        self.stores[p.index()] as u32
    }

    /// Seeds on the board: never increase.
    fn material(&self) -> u32 {
        self.on_board()
    }

    fn points(&self, value: i32) -> f64 {
        match self.rules {
            Rules::Current => value as f64,
            Rules::TieBreak => value as f64 / 2.0,
        }
    }

    /// The hole sown, counted from the mover's left as the key sees the board: a table
    /// move then fits the twin it is shared with.
    #[inline]
    fn move_slot(&self, mv: KauriMove) -> usize {
        mv.0 as usize % HOLES_PER_ROW
    }

    /// The seeds the move gains on balance (the mover's captures less the opponent's
    /// indirect captures), found by playing it: a sowing is a few dozen byte operations.
    #[inline]
    fn move_order_hint(&self, mv: KauriMove) -> i32 {
        let mut next = *self;
        next.sow(mv.0 as usize);
        let me = self.to_move.index();
        (next.stores[me] as i32 - self.stores[me] as i32)
            - (next.stores[1 - me] as i32 - self.stores[1 - me] as i32)
    }
}

#[cfg(test)]
mod tests;
