//! The rules of Progressive Mancala, each cited from seed 002 (Mancala World), with the
//! readings the two published games settle where the text is silent (see the module
//! documentation of [`crate::progressive`]).

use crate::game::{Game, Moves};
use crate::hash::{self, mix64};
use crate::player::Player;
use crate::twin::Twin;

/// Largest supported row: the expert board, "a board which has 17 holes".
pub const MAX_HOLES: usize = 17;

/// Smallest supported row (small boards are for solving and tests).
pub const MIN_HOLES: usize = 3;

/// Stones per hole at the start: "Initially there are five stones in each hole."
pub const STANDARD_STONES: u8 = 5;

/// At most this many stones in all (one byte per hole, goal and store).
pub const MAX_STONES: u32 = 255;

/// Most moves one player can make in a row, from any position with at most
/// [`MAX_STONES`] stones on at most [`MAX_HOLES`] holes: T + (T + 1)(N - 1)T with T = 255
/// and N = 17. This bounds the length of a turn, hence both turn counters of the state.
///
/// Proof. Take the consecutive moves of one player (say East; West is the mirror image).
/// (a) A move whose sowing reaches the goal drops at least one stone into it. A stone in
/// the goal leaves it only by being captured, and captured stones never return, so each
/// stone enters the goal at most once in the rest of the game: at most T such moves.
/// (b) A move that does not reach the goal only moves stones to holes nearer `a` (relays
/// included), so it strictly lowers the potential P = sum over holes of (index x stones),
/// which lies in 0..=(N - 1)T. Between two moves of kind (a) there are therefore at most
/// (N - 1)T moves of kind (b). A player always has a move while a hole holds stones, so
/// after T + (T + 1)(N - 1)T moves in a row no hole holds a stone and the game is over.
///
/// So a turn has at most `MAX_TURN_MOVES` moves, the empty endings of a turn number at
/// most that many, and the next turn at most one more. A position read from text may claim
/// up to `MAX_TURN_MOVES` for either counter; its current turn then adds at most
/// `MAX_TURN_MOVES` empty endings, and every later turn is bounded as above. Every counter
/// therefore stays below 2 x `MAX_TURN_MOVES` + 1 (about 2.1 million), far inside `u32`.
pub const MAX_TURN_MOVES: u32 = 255 + 256 * 16 * 255;

/// How the game ends.
///
/// With an odd number of stones in all (every published board), the two endings name the
/// same winner, from every position and under best play. Proof: along any line of play the
/// first player to hold more than half of the stones wins under [`Ending::Majority`], and
/// under [`Ending::All`] he still holds more than half when the last stone is captured,
/// because captured stones never return; with an odd total one of the two players does end
/// with more than half. So both games have the same tree up to the moment that decides the
/// winner, and the same winner below it. Only the margins differ: the all ending goes on
/// counting. Hence an all-ending solve or proof answers the majority game's "who wins?"
/// (tests/progressive_endings.rs in mancala-solver checks this against minimax).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Ending {
    /// The end the published games imply (game 2 stops at 5:28 with a bonus move unplayed):
    /// the game ends at once, even in the middle of a turn, when a player has captured more
    /// than half of all stones (28 of 55 on 1x11, 43 of 85 on 1x17). "The player who
    /// captured most stones is declared the winner."
    #[default]
    Majority,
    /// Play on until every stone is captured.
    All,
}

impl Ending {
    /// The variant name records and positions use.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Majority => "majority",
            Ending::All => "all",
        }
    }

    /// Reads `majority` (also `standard`) or `all`.
    pub fn parse(text: &str) -> Option<Ending> {
        match text.trim() {
            "majority" | "standard" => Some(Ending::Majority),
            "all" => Some(Ending::All),
            _ => None,
        }
    }
}

/// A move: empty and sow one hole (index 0 = `a`, the leftmost). The holes are shared, so
/// either player may take any non-empty hole.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ProgressiveMove(pub u8);

/// Where the last stone of a move fell.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveEnd {
    /// Into the goal: the mover captured its whole contents.
    Goal { captured: u8 },
    /// Into an empty hole (board index), which now holds that one stone.
    EmptyHole(u8),
}

/// What one move did: for tests, record tables and statistics.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Sowing {
    /// Holes emptied and sown: the chosen hole, then one per relay.
    pub laps: u32,
    /// Stones dropped in all.
    pub drops: u32,
    pub end: MoveEnd,
}

/// A Progressive Mancala position on a 1 x n board (n odd, 3..=17). 32 bytes, `Copy`.
///
/// `First` is East, who "starts to the game and plays from right to left"; `Second` is
/// West, who "sows from left to right".
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Progressive {
    /// The n holes from left (`a`) to right, then the goal at index n: the sowing cycle in
    /// West's direction (East walks it backwards). The unused tail is 0.
    cells: [u8; MAX_HOLES + 1],
    /// Stones captured, by [`Player::index`].
    stores: [u8; 2],
    n: u8,
    /// All stones of the game (holes, goal and stores): constant, kept so that both
    /// endings are tested in constant time.
    total: u8,
    to_move: Player,
    ending: Ending,
    /// Moves the player to move still has to make in this turn (at least 1). Bounded by
    /// [`MAX_TURN_MOVES`], see there.
    moves_left: u32,
    /// Moves of this turn so far that ended in an empty hole: the opponent's next turn has
    /// one move more than this. Bounded by [`MAX_TURN_MOVES`], see there.
    empties: u32,
}

impl Progressive {
    /// The seat name of a player: East moves first.
    pub fn side_name(p: Player) -> &'static str {
        match p {
            Player::First => "East",
            Player::Second => "West",
        }
    }

    /// The start position on 1 x `n` holes with `k` stones each, East to move with one
    /// move. "Progressive Mancala is played on a one-rank mancala board which numbers
    /// eleven holes. Initially there are five stones in each hole. There is also a common
    /// goal". "Good players may take a board which has 17 holes. Again, there are five
    /// stones in each hole at the start of the game." "East starts to the game".
    pub fn start(n: usize, k: u8, ending: Ending) -> Self {
        assert!(
            Self::valid_size(n),
            "Progressive Mancala rows hold an odd number of holes from {MIN_HOLES} to {MAX_HOLES}"
        );
        assert!(n * k as usize <= MAX_STONES as usize, "at most 255 stones");
        let mut cells = [0u8; MAX_HOLES + 1];
        cells[..n].fill(k);
        Progressive {
            cells,
            stores: [0; 2],
            n: n as u8,
            total: (n * k as usize) as u8,
            to_move: Player::First,
            ending,
            moves_left: 1,
            empties: 0,
        }
    }

    /// The published start: 1 x 11 holes, 5 stones each, the majority ending.
    pub fn standard() -> Self {
        Self::start(11, STANDARD_STONES, Ending::Majority)
    }

    /// Whether `n` holes make a board: odd (the goal is "adjacent to the central hole"),
    /// from [`MIN_HOLES`] to [`MAX_HOLES`].
    pub fn valid_size(n: usize) -> bool {
        n % 2 == 1 && (MIN_HOLES..=MAX_HOLES).contains(&n)
    }

    /// A position from its parts; `holes` from `a` rightwards, `stores` by player. Checks
    /// the board size, the 255-stone limit, the turn counters and that stones left in the
    /// goal have a hole to come from (a row emptied by a move ending in the goal has just
    /// captured the goal, so holes all empty with a full goal never arise).
    pub fn from_parts(
        holes: &[u8],
        goal: u8,
        stores: [u8; 2],
        to_move: Player,
        moves_left: u32,
        empties: u32,
        ending: Ending,
    ) -> Result<Self, String> {
        let n = holes.len();
        if !Self::valid_size(n) {
            return Err(format!(
                "a Progressive Mancala board has an odd number of holes from {MIN_HOLES} to {MAX_HOLES}, not {n}"
            ));
        }
        let on_board: u32 = holes.iter().map(|&x| x as u32).sum();
        let total = on_board + goal as u32 + stores[0] as u32 + stores[1] as u32;
        if total > MAX_STONES {
            return Err(format!(
                "{total} stones in all; at most {MAX_STONES} are supported"
            ));
        }
        if on_board == 0 && goal > 0 {
            return Err(format!(
                "the holes are empty but the goal holds {goal}: unreachable (the move that empties the row captures the goal)"
            ));
        }
        if !(1..=MAX_TURN_MOVES).contains(&moves_left) {
            return Err(format!(
                "moves left in the turn must be 1 to {MAX_TURN_MOVES}, not {moves_left}"
            ));
        }
        if empties > MAX_TURN_MOVES {
            return Err(format!(
                "empty endings in the turn must be at most {MAX_TURN_MOVES}, not {empties}"
            ));
        }
        let mut cells = [0u8; MAX_HOLES + 1];
        cells[..n].copy_from_slice(holes);
        cells[n] = goal;
        Ok(Progressive {
            cells,
            stores,
            n: n as u8,
            total: total as u8,
            to_move,
            ending,
            moves_left,
            empties,
        })
    }

    /// Number of holes in the row.
    #[inline(always)]
    pub fn holes_per_row(&self) -> usize {
        self.n as usize
    }
    /// The holes from `a` rightwards.
    pub fn holes(&self) -> &[u8] {
        &self.cells[..self.holes_per_row()]
    }

    /// The holes the player to move may sow from, in order: those holding a stone, none
    /// once the game is over (the legal moves, and their number for the proof search).
    #[inline]
    fn sowable(&self) -> impl Iterator<Item = usize> + '_ {
        let over = self.is_terminal();
        let holes = self.holes().iter().enumerate();
        holes.filter(move |&(_, &x)| !over && x > 0).map(|(i, _)| i)
    }
    /// Stones in the common goal.
    pub fn goal(&self) -> u8 {
        self.cells[self.holes_per_row()]
    }
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }
    pub fn ending(&self) -> Ending {
        self.ending
    }
    pub fn with_ending(mut self, ending: Ending) -> Self {
        self.ending = ending;
        self
    }
    /// Moves the player to move still has to make in this turn.
    pub fn moves_left(&self) -> u32 {
        self.moves_left
    }
    /// Moves of this turn so far that ended in an empty hole.
    pub fn empties(&self) -> u32 {
        self.empties
    }
    /// Stones in the holes.
    pub fn on_board(&self) -> u32 {
        self.holes().iter().map(|&x| x as u32).sum()
    }
    /// All stones: in the holes, in the goal and captured.
    pub fn total(&self) -> u32 {
        self.total as u32
    }

    /// Whether a player holds more than half of all stones. "Draws are impossible because
    /// the sum of all stones is odd": on the published boards a player who holds more than
    /// half can no longer be caught.
    pub fn over_half(&self, p: Player) -> bool {
        2 * self.stores[p.index()] as u32 > self.total()
    }

    /// The most stones a move from this position can drop: every n + 1 consecutive drops
    /// pass the goal once, and the goal, never emptied during a move, can take at most
    /// total - goal more stones, so a move drops at most (n + 1)(total - goal + 1) stones.
    pub fn drop_bound(&self) -> u32 {
        (self.holes_per_row() as u32 + 1) * (self.total() - self.goal() as u32 + 1)
    }

    /// The next cell of the sowing cycle in the mover's direction. "East starts to the game
    /// and plays from right to left. West sows from left to right." "If he reaches the end
    /// of the board, he continues to distribute the stones by first dropping a stone into
    /// the Goal, then into the holes starting from the opposite end of the board. That is,
    /// he circles around the board."
    #[inline(always)]
    fn step(&self, cell: usize) -> usize {
        let n = self.holes_per_row();
        match self.to_move {
            Player::First => {
                if cell == 0 {
                    n
                } else {
                    cell - 1
                }
            }
            Player::Second => {
                if cell == n {
                    0
                } else {
                    cell + 1
                }
            }
        }
    }

    /// Plays `mv` and reports what the sowing did. `mv` must be legal here.
    ///
    /// "On each turn a player empties a hole and then distributes its contents into the
    /// following holes, one by one, in his direction." The start hole is not skipped: a
    /// sowing of n + 1 stones ends in its own, emptied, start hole, which counts as an
    /// empty hole (the records need the start hole sown into; sowings of 13, 15 and 16
    /// stones occur).
    ///
    /// Relay sowing never runs for ever: the drops of a move form one walk round the
    /// cycle of n holes and the goal, so every n + 1 consecutive drops put a stone into the
    /// goal, and the goal is not emptied before the move ends; hence a move drops at most
    /// [`Progressive::drop_bound`] stones ((n + 1)(T - goal + 1): 672 on 1x11 and 1548 on
    /// 1x17 from an empty goal). The loop below is plain and the bound is asserted in
    /// debug builds.
    pub fn play_traced(&self, mv: ProgressiveMove) -> (Self, Sowing) {
        let mut next = *self;
        let n = self.holes_per_row();
        let len = n + 1;
        let goal = n;
        let me = self.to_move.index();
        let mut cell = mv.0 as usize;
        debug_assert!(cell < n && self.cells[cell] > 0, "illegal move {mv:?}");
        let (mut laps, mut drops) = (0u32, 0u32);
        let end = loop {
            let stones = next.cells[cell] as usize;
            next.cells[cell] = 0;
            laps += 1;
            drops += stones as u32;
            debug_assert!(drops <= self.drop_bound(), "sowing exceeds its bound");
            // Whole circuits drop one stone into every cell, the start hole included.
            let rounds = (stones / len) as u8;
            if rounds > 0 {
                for x in &mut next.cells[..len] {
                    *x += rounds;
                }
            }
            for _ in 0..stones % len {
                cell = next.step(cell);
                next.cells[cell] += 1;
            }
            // `cell` now holds the last stone (the start hole itself after whole circuits).
            if cell == goal {
                // "If the last stone is dropped into the goal, the player captures its
                // contents including the last distributed stone. The captured stones are
                // stored."
                let captured = next.cells[goal];
                next.stores[me] += captured;
                next.cells[goal] = 0;
                break MoveEnd::Goal { captured };
            }
            if next.cells[cell] == 1 {
                // "The move ends if the last stone is dropped into an empty hole or the
                // goal."
                break MoveEnd::EmptyHole(cell as u8);
            }
            // "If the last stone is dropped into a non-empty hole, its contents (including
            // the last distributed stone) are picked up and then distributed as usual in
            // multi-lap games."
        };
        next.end_move(matches!(end, MoveEnd::EmptyHole(_)));
        (next, Sowing { laps, drops, end })
    }

    /// The turn bookkeeping after a move. "For each move that a player has terminated in an
    /// empty hole, his enemy must make a bonus move (bonus moves are compulsory)."
    /// "Dropping the last stone into the goal never results in a bonus move for the
    /// opponent." Every move of a turn counts, bonus moves included; the bonus moves are
    /// played in the enemy's next turn, which thus has 1 + (empty endings) moves.
    #[inline(always)]
    fn end_move(&mut self, ended_empty: bool) {
        // No overflow: both counters stay below 2 x MAX_TURN_MOVES + 1 (see there).
        self.empties += ended_empty as u32;
        self.moves_left -= 1;
        if self.moves_left == 0 {
            self.to_move = self.to_move.opponent();
            self.moves_left = 1 + self.empties;
            self.empties = 0;
        }
    }

    /// Why `mv` is not legal here, in words (for reports); `None` when it is legal.
    pub fn why_illegal(&self, mv: ProgressiveMove) -> Option<String> {
        let h = mv.0 as usize;
        if h >= self.holes_per_row() {
            return Some(format!(
                "no such hole: a 1x{} board has holes a-{}",
                self.holes_per_row(),
                (b'a' + self.holes_per_row() as u8 - 1) as char
            ));
        }
        if self.is_terminal() {
            return Some("the game is already over".into());
        }
        if self.cells[h] == 0 {
            return Some(format!(
                "hole {} is empty; a move empties a hole that holds stones",
                (b'a' + mv.0) as char
            ));
        }
        None
    }

    /// The cells as the player to move sees them: West's row mirrored, so that a
    /// position and its mirror image read the same.
    #[inline(always)]
    fn seen_by_mover(&self) -> [u8; MAX_HOLES + 1] {
        match self.to_move {
            Player::First => self.cells,
            Player::Second => self.flipped_cells(),
        }
    }

    /// The cells with the row reversed and the goal in place.
    #[inline(always)]
    fn flipped_cells(&self) -> [u8; MAX_HOLES + 1] {
        let mut c = self.cells;
        c[..self.holes_per_row()].reverse();
        c
    }

    #[inline(always)]
    fn banked_margin(&self) -> i32 {
        let me = self.to_move.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
    }
}

impl Twin for Progressive {
    /// The mirror image: the row reversed (the goal stays between its ends), the stores
    /// swapped and the other player to move, with the same turn counters. Sowing differs
    /// between the players only in direction ("East ... plays from right to left. West
    /// sows from left to right"), so the mirror's game is this one's with East and West
    /// exchanged, and its value for the player to move is the same.
    fn twin(&self) -> Self {
        Progressive {
            cells: self.flipped_cells(),
            stores: [self.stores[1], self.stores[0]],
            to_move: self.to_move.opponent(),
            ..*self
        }
    }

    /// The hole at the mirrored place.
    fn twin_move(&self, mv: ProgressiveMove) -> ProgressiveMove {
        ProgressiveMove(self.holes().len() as u8 - 1 - mv.0)
    }
}

impl Game for Progressive {
    type Move = ProgressiveMove;

    #[inline(always)]
    fn to_move(&self) -> Player {
        self.to_move
    }

    /// "On each turn a player empties a hole": any non-empty hole, the holes being shared.
    fn legal_moves(&self, moves: &mut Moves<ProgressiveMove>) {
        moves.clear();
        moves.extend(self.sowable().map(|i| ProgressiveMove(i as u8)));
    }

    #[inline]
    fn play(&self, mv: ProgressiveMove) -> Self {
        self.play_traced(mv).0
    }

    /// The number of [`Game::legal_moves`], counted without writing the list: proof-number
    /// search asks it of every new position, and the list took 17 % of the time of
    /// `mancala prove progressive:15x1 --rules all --at-least 2` (a profile).
    #[inline]
    fn mobility(&self) -> u32 {
        self.sowable().count() as u32
    }

    /// Over when no hole holds a stone (then every stone is captured), and in the
    /// [`Ending::Majority`] rules as soon as a player holds more than half of the stones.
    #[inline]
    fn is_terminal(&self) -> bool {
        let captured = self.stores[0] as u32 + self.stores[1] as u32;
        if captured + self.goal() as u32 == self.total() {
            return true;
        }
        match self.ending {
            Ending::Majority => {
                let most = self.stores[0].max(self.stores[1]) as u32;
                2 * most > self.total()
            }
            Ending::All => false,
        }
    }

    /// "The player who captured most stones is declared the winner": the captured margin
    /// at the end, in stones.
    fn terminal_value(&self) -> i32 {
        self.banked_margin()
    }

    #[inline]
    fn banked(&self) -> i32 {
        self.banked_margin()
    }

    /// The stones not captured yet, in the holes and in the goal.
    #[inline]
    fn swing(&self) -> i32 {
        self.total as i32 - self.stores[0] as i32 - self.stores[1] as i32
    }

    /// Everything that matters: the cells as the player to move sees them and both turn
    /// counters (the board alone can recur as turns grow longer); the captured totals only
    /// where the ending looks at them, the mover's first. The cells are read as two words
    /// and a tail (the unused cells are always zero), so the key costs four mixes and, with
    /// East to move, no copy: the search computes it for every child it peeks at.
    ///
    /// The rules are the same for both players but for the direction of sowing, so a
    /// position and its mirror image ([`Twin::twin`]) have the same value for the player
    /// to move: the key reads the position as the player to move sees it, and both share
    /// one table entry (measured, `solve --value-only -t 1`: 1 x 9 x 2 under the all
    /// ending 5.98 M nodes before, 4.48 M after; 1 x 9 x 3 20.8 M and 13.9 M; under the
    /// majority ending, whose key holds the stores, 1 x 11 x 1 13.9 M and 12.2 M).
    #[inline]
    fn key(&self) -> u64 {
        let cells = self.seen_by_mover();
        let word = |i: usize| hash::word(&cells, i);
        let me = self.to_move.index();
        let stores = match self.ending {
            Ending::Majority => self.stores[me] as u64 | (self.stores[1 - me] as u64) << 8,
            Ending::All => 0,
        };
        let tail = cells[16] as u64 | (cells[17] as u64) << 8;
        let tag = self.n as u64 | (self.ending as u64) << 9 | stores << 16 | tail << 32;
        let turn = self.moves_left as u64 | (self.empties as u64) << 32;
        let h = mix64(turn ^ mix64(0x9A06_u64.wrapping_mul(tag + 1)));
        mix64(word(0) ^ mix64(word(1) ^ h))
    }

    /// No position can recur. Captures are irreversible (stores only grow), so between two
    /// equal positions no move captured, and every move ended in an empty hole (a move
    /// ending in the goal captures at least its last stone). In such a stretch Q =
    /// moves left + empty endings of the turn is unchanged by each move (one less, one
    /// more), and at each change of turn the new turn starts with Q' = 1 + (the old turn's
    /// empty endings) = Q + 1. So within one turn `moves_left` strictly falls, and across
    /// turns Q strictly grows: the full state (cells, stores, side, moves left, empty
    /// endings) never repeats. (Without the empty endings it can: turns grow longer.)
    fn can_repeat(&self) -> bool {
        false
    }

    fn repetition_value(&self) -> i32 {
        self.banked_margin()
    }

    /// Moves are ordered by the margin the mover would have if the goal were his: "If the
    /// last stone is dropped into the goal, the player captures its contents", so stones
    /// in the goal are a capture waiting for whoever moves next, and a move that ends the
    /// turn with a full goal hands it over. Ordering only. Measured with `solve
    /// --value-only -t 1 --tt-mb 256` against the banked margin alone (docs/solver.md):
    /// 1 x 9 x 3 all 14.9 M -> 6.1 M nodes, 1 x 9 x 2 majority 9.5 M -> 2.9 M, 1 x 11 x 1
    /// all 8.3 M -> 6.6 M; 1 x 13 x 1 (2 GB) all 227.6 M -> 184.8 M, majority
    /// 474.5 M -> 435.5 M.
    fn ordering_margin(&self) -> i32 {
        self.banked_margin() + self.goal() as i32
    }

    /// No komi and no scaling: a value is stones.
    fn points(&self, value: i32) -> f64 {
        value as f64
    }

    /// No state recurs, so none depends on what came before.
    fn history_dependent(&self) -> bool {
        false
    }

    /// Stones won are counted: the value is the margin.
    fn win_loss(&self) -> bool {
        false
    }

    /// The hole counted in the mover's direction (East's `a` is West's last hole), as the
    /// key sees the board: a table move then fits the mirror image it is shared with.
    fn move_slot(&self, mv: ProgressiveMove) -> usize {
        match self.to_move {
            Player::First => mv.0 as usize,
            Player::Second => self.holes_per_row() - 1 - mv.0 as usize,
        }
    }

    fn captured(&self, p: Player) -> u32 {
        self.stores[p.index()] as u32
    }

    /// The stones not captured yet (in the holes and the goal): the stores only grow.
    fn material(&self) -> u32 {
        self.total() - self.captured(Player::First) - self.captured(Player::Second)
    }
}

#[cfg(test)]
mod tests;
