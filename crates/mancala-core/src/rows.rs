//! Two-row boards: hole indices, rows and hole letters shared by Afrika, Kauri, Andada
//! and Kalah.
//!
//! Holes are indexed in sowing (counterclockwise) order: `0..m` is South's row from
//! South's left to right, `m..2m` North's row from North's left to right. Opposite holes
//! therefore sum to `2m - 1`. Letters follow the convention of the published Afrika
//! games (seed 000: "both times as viewed from left to right by its respective owner"):
//! South's holes are `A, B, ...` and North's `a, b, ...`, each from its owner's left.

use crate::error::ParseError;
use crate::game::{Game, Moves};
use crate::hash;
use crate::lanes::{LaneOps, Lanes, Row16};
use crate::player::Player;
use crate::text::{Fields, counts, join_counts, number};

/// A row of a two-row board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Row {
    South,
    North,
}

impl Row {
    pub fn name(self) -> &'static str {
        match self {
            Row::South => "South",
            Row::North => "North",
        }
    }
    pub fn other(self) -> Row {
        match self {
            Row::South => Row::North,
            Row::North => Row::South,
        }
    }
    /// The row player `p` owns when the first player sits on `first`.
    #[inline(always)]
    pub fn of(p: Player, first: Row) -> Row {
        match p {
            Player::First => first,
            Player::Second => first.other(),
        }
    }
    /// The owner of this row when the first player sits on `first`.
    #[inline(always)]
    pub fn owner(self, first: Row) -> Player {
        if self == first {
            Player::First
        } else {
            Player::Second
        }
    }
    /// First index of this row on a board of `m` holes per row.
    #[inline(always)]
    pub fn start(self, m: usize) -> usize {
        match self {
            Row::South => 0,
            Row::North => m,
        }
    }
}

/// Where the first player sits on a two-row board, and so which row each player owns.
pub trait Seated {
    /// The first player's row.
    const FIRST_ROW: Row;

    /// The row a player owns.
    #[inline(always)]
    fn row(p: Player) -> Row {
        Row::of(p, Self::FIRST_ROW)
    }

    /// The player owning a row.
    #[inline(always)]
    fn owner(row: Row) -> Player {
        row.owner(Self::FIRST_ROW)
    }
}

/// The hole named by letter `c` in the move text `t`, which must lie in `mover`'s row
/// (`verb` is what the mover does there: "sows", "plays").
pub fn own_hole(t: &str, c: char, m: usize, mover: Row, verb: &str) -> Result<usize, ParseError> {
    let h = hole_of_letter(c, m)?;
    let row = row_of(h, m);
    if row != mover {
        return Err(ParseError::new(format!(
            "\"{t}\": {} to move {verb} from its own row; {c} is {}'s hole",
            mover.name(),
            row.name()
        )));
    }
    Ok(h)
}

/// How records of a two-row game name the players: by their rows, first player first.
pub fn seat_names<S: Seated>() -> [&'static str; 2] {
    Player::BOTH.map(|p| S::row(p).name())
}

/// The row a hole belongs to.
#[inline(always)]
pub fn row_of(hole: usize, m: usize) -> Row {
    if hole < m { Row::South } else { Row::North }
}

/// The hole across the board.
#[inline(always)]
pub fn opposite(hole: usize, m: usize) -> usize {
    2 * m - 1 - hole
}

/// The hole at the same place in the other row (counted from its owner's left): where a
/// hole goes when the players exchange seats.
#[inline(always)]
pub fn twin_hole(hole: usize, m: usize) -> usize {
    (hole + m) % (2 * m)
}

/// The letter of a hole: `A..` for South's row, `a..` for North's.
pub fn letter(hole: usize, m: usize) -> char {
    let i = (hole % m) as u8;
    match row_of(hole, m) {
        Row::South => (b'A' + i) as char,
        Row::North => (b'a' + i) as char,
    }
}

/// The hole named by a letter on a board of `m` holes per row.
pub fn hole_of_letter(c: char, m: usize) -> Result<usize, ParseError> {
    let bad = || {
        ParseError::new(format!(
            "unknown hole \"{c}\": holes are A-{} (South) and a-{} (North)",
            (b'A' + m as u8 - 1) as char,
            (b'a' + m as u8 - 1) as char
        ))
    };
    if c.is_ascii_uppercase() {
        let i = (c as u8 - b'A') as usize;
        if i < m { Ok(i) } else { Err(bad()) }
    } else if c.is_ascii_lowercase() {
        let i = (c as u8 - b'a') as usize;
        if i < m { Ok(m + i) } else { Err(bad()) }
    } else {
        Err(bad())
    }
}

/// Largest row of a [`Board`]: 2 x 12 holes.
pub const MAX_ROW: usize = 12;

/// A two-row board with a store per player, as Afrika and Kalah keep it: up to
/// [`MAX_ROW`] holes per row, one byte per hole and store (at most 255 counters in all).
/// 27 bytes, `Copy`, byte-aligned; a game state starts with it, so that holes 0..16 are
/// the state's first 16 bytes (`Halves`). The games reach it through `Deref`, so their
/// rules read `self.holes`, `self.stores` and `self.m`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct Board {
    /// Counters per hole in counterclockwise order (see the module documentation); the
    /// unused tail is always 0 (keys and word-wise tests rely on it).
    pub(crate) holes: [u8; 2 * MAX_ROW],
    /// Counters in each store, by [`Player::index`].
    pub(crate) stores: [u8; 2],
    /// Holes per row.
    pub(crate) m: u8,
}

/// How a game names itself and its counters in messages.
#[derive(Copy, Clone, Debug)]
pub struct Names {
    /// The indefinite article before the game's name: "a" or "an".
    pub article: &'static str,
    /// The game's name: "Afrika".
    pub game: &'static str,
    /// What it calls its counters: "stones".
    pub counters: &'static str,
}

impl Board {
    /// 2 x `m` holes with `k` counters each and empty stores.
    ///
    /// # Panics
    /// When `m` is not 1 to 12, or 2mk exceeds 255 counters.
    pub fn start(m: usize, k: u8, names: Names) -> Self {
        assert!(
            (1..=MAX_ROW).contains(&m),
            "{} rows hold 1 to {MAX_ROW} holes",
            names.game
        );
        assert!(2 * m * k as usize <= 255, "at most 255 {}", names.counters);
        let mut holes = [0u8; 2 * MAX_ROW];
        holes[..2 * m].fill(k);
        Board {
            holes,
            stores: [0; 2],
            m: m as u8,
        }
    }

    /// A board from its parts; `holes` in board order (South's row, then North's),
    /// `stores` by player. Checks sizes and the 255-counter limit.
    pub fn from_parts(holes: &[u8], stores: [u8; 2], names: Names) -> Result<Self, String> {
        let n = holes.len();
        let odd = n % 2 == 1;
        if odd || n == 0 || n > 2 * MAX_ROW {
            return Err(format!(
                "{} {} board has 2 x 1..{MAX_ROW} holes, not {}",
                names.article,
                names.game,
                if odd {
                    format!("{n} in all")
                } else {
                    format!("2 x {}", n / 2)
                }
            ));
        }
        let total: u32 =
            holes.iter().map(|&x| x as u32).sum::<u32>() + stores[0] as u32 + stores[1] as u32;
        if total > 255 {
            return Err(format!(
                "{total} {} in all; at most 255 are supported",
                names.counters
            ));
        }
        let mut h = [0u8; 2 * MAX_ROW];
        h[..n].copy_from_slice(holes);
        Ok(Board {
            holes: h,
            stores,
            m: (n / 2) as u8,
        })
    }

    /// Holes per row.
    #[inline(always)]
    pub fn holes_per_row(&self) -> usize {
        self.m as usize
    }
    /// Counters per hole in board order.
    pub fn holes(&self) -> &[u8] {
        &self.holes[..2 * self.holes_per_row()]
    }
    /// Counters in each store, by [`Player::index`].
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }
    /// Counters on the board: the three words of `holes` added lane by lane, then the
    /// eight lanes by one multiplication. At most 255 counters in all, so no lane sum
    /// carries into the next (the unused tail is zero).
    #[inline]
    pub fn on_board(&self) -> u32 {
        let word = |i: usize| hash::word(&self.holes, i);
        let lanes = word(0) + word(1) + word(2);
        (lanes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }
    /// All counters: on the board and in the stores.
    pub fn total(&self) -> u32 {
        self.on_board() + self.stores[0] as u32 + self.stores[1] as u32
    }
    /// Whether a store holds more than half of all counters: the game is decided.
    pub fn store_holds_majority(&self) -> bool {
        self.stores.iter().any(|&s| 2 * s as u32 > self.total())
    }
    /// Counters in a row.
    pub fn row_sum(&self, row: Row) -> u32 {
        let s = row.start(self.holes_per_row());
        self.holes[s..s + self.holes_per_row()]
            .iter()
            .map(|&x| x as u32)
            .sum()
    }
    /// Store of `p` less the other store.
    #[inline(always)]
    pub fn margin(&self, p: Player) -> i32 {
        let me = p.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
    }
    /// The holes in board order as the owner of `row` sees them (that row first), as
    /// three little-endian words like [`hash::word`]'s. In a game whose rules treat both
    /// seats alike, a position and the one with the seats exchanged
    /// ([`Board::seats_swapped`], the other player to move) read the same. Rows of up to
    /// 8 holes fit in the first two words and are exchanged by two shifts: keys are
    /// computed for every child the search peeks at.
    #[inline(always)]
    pub fn words_seen_from(&self, row: Row) -> [u64; 3] {
        let holes = match row {
            Row::South => self.holes,
            Row::North if self.holes_per_row() <= 8 => {
                let bits = 8 * self.holes_per_row() as u32;
                let x = u128::from_le_bytes(self.holes[..16].try_into().unwrap());
                let south = x & ((1u128 << bits) - 1);
                let y = x >> bits | south << bits;
                return [y as u64, (y >> 64) as u64, 0];
            }
            Row::North => self.seats_swapped().holes,
        };
        [0, 1, 2].map(|i| hash::word(&holes, i))
    }
    /// The board with the players' seats exchanged: each row moves to the other side
    /// (South's holes become North's, in the same order from their owner's left) and the
    /// stores follow their players' rows.
    pub fn seats_swapped(&self) -> Board {
        let m = self.holes_per_row();
        let mut holes = self.holes;
        holes[..2 * m].rotate_left(m);
        Board {
            holes,
            stores: [self.stores[1], self.stores[0]],
            m: self.m,
        }
    }
}

/// A game state of 32 bytes, aligned to 16 and without padding, that starts with a
/// [`Board`]: its first half is holes 0..16 (the whole board on rows of up to 8 holes),
/// its second half holes 16..24 (zero on such rows), the stores (lanes 8 and 9), the
/// holes per row (10), the player to move (11) and the game's rule options. A move reads
/// each half with one vector load and writes it with one vector store: no field is
/// written alone on the hot path, since a load of 16 bytes that spans several smaller
/// stores waits for them to reach the cache (the cost that dominated the earlier
/// byte-aligned 29-31-byte states).
///
/// # Safety
/// Implementors are `#[repr(C, align(16))]`, 32 bytes, start with their `Board` and have
/// no padding byte (explicit zero bytes instead), so both halves are initialised bytes.
pub(crate) unsafe trait Halves: Copy + std::ops::Deref<Target = Board> {
    /// Holes 0..16.
    #[inline(always)]
    fn low_half(&self) -> Lanes {
        // SAFETY: the first 16 bytes are initialised and aligned to 16 (see the trait).
        Lanes::load(unsafe { &*(self as *const Self as *const Row16) })
    }

    /// The position after a move that leaves holes `x` (rows of up to 8 holes), puts
    /// `gain` more counters into the store of `me` and leaves `next` to move: both
    /// halves written whole.
    #[inline(always)]
    fn after_move(&self, x: Lanes, me: Player, gain: u32, next: Player) -> Self {
        debug_assert!(self.holes_per_row() <= crate::lanes::MAX_ROW);
        // SAFETY: the second half is initialised and aligned to 16 (see the trait).
        let hi = Lanes::load(unsafe { &*(self as *const Self as *const Row16).add(1) });
        let mover = crate::lanes::hole(11);
        let change = (gain as u64) << (8 * me.index()) | (next as u64) << 24;
        let hi = hi.and_not(mover).add(Lanes::from_u64s(0, change));
        let mut out = *self;
        // SAFETY: the two writes stay inside the 32 bytes of `out`, aligned to 16. The
        // first half holds only holes (any byte is valid); in the second half only a
        // store (a u8, no carry: at most 255 counters in all) and the player to move
        // change, and that lane is a valid `Player` (`next as u8`). Every other byte is
        // written back as read.
        unsafe {
            let halves = &mut out as *mut Self as *mut Row16;
            *halves = x.to_row();
            *halves.add(1) = hi.to_row();
        }
        out
    }
}

/// The parts a two-row game with a [`Board`] shares, for a state `$game { board, to_move,
/// rules, pad: [u8; PAD] }` with `Rules` and `PAD` in scope: `from_parts`, `rules`, `with_rules`, `Deref`
/// to the board (so the rules read `self.holes`, `self.stores`, `self.holes_per_row()`),
/// and [`Halves`] once the layout is checked.
macro_rules! board_game {
    ($game:ident, $names:expr) => {
        impl $game {
            /// A position from its parts; `holes` in board order (South's row, then
            /// North's), `stores` by player. Checks sizes and the 255-counter limit.
            pub fn from_parts(
                holes: &[u8],
                stores: [u8; 2],
                to_move: Player,
                rules: Rules,
            ) -> Result<Self, String> {
                let board = $crate::rows::Board::from_parts(holes, stores, $names)?;
                Ok($game {
                    board,
                    to_move,
                    rules,
                    pad: Default::default(),
                })
            }
            pub fn rules(&self) -> Rules {
                self.rules
            }
            /// The holes and stores.
            pub fn board(&self) -> &$crate::rows::Board {
                &self.board
            }
            pub fn with_rules(mut self, rules: Rules) -> Self {
                self.rules = rules;
                self
            }
            /// The position with the seats exchanged ([`Board::seats_swapped`]) and the
            /// other player to move: its twin, in a game whose rules treat both seats alike.
            fn seats_swapped(&self) -> Self {
                $game {
                    board: self.board.seats_swapped(),
                    to_move: self.to_move.opponent(),
                    ..*self
                }
            }
        }

        impl std::ops::Deref for $game {
            type Target = $crate::rows::Board;
            #[inline(always)]
            fn deref(&self) -> &$crate::rows::Board {
                &self.board
            }
        }

        const _: () = assert!(
            std::mem::size_of::<$game>() == 32 && std::mem::align_of::<$game>() == 16,
            "a state of two 16-byte halves"
        );
        const _: () = assert!(std::mem::offset_of!($game, to_move) == 27);
        // Byte-aligned parts only (so none holds padding inside), filling the 32 bytes.
        const _: () = assert!(
            std::mem::align_of::<$crate::rows::Board>() == 1
                && std::mem::align_of::<Rules>() == 1
                && std::mem::size_of::<$crate::rows::Board>()
                    + std::mem::size_of::<Player>()
                    + std::mem::size_of::<Rules>()
                    + PAD
                    == 32
        );

        // SAFETY: `#[repr(C, align(16))]`, 32 bytes (checked above): the 27-byte board,
        // the player to move at byte 27, then rule options and explicit zero bytes that
        // fill the rest, so no byte is padding.
        unsafe impl $crate::rows::Halves for $game {}

        impl std::ops::DerefMut for $game {
            #[inline(always)]
            fn deref_mut(&mut self) -> &mut $crate::rows::Board {
                &mut self.board
            }
        }
    };
}
pub(crate) use board_game;

/// The verdicts every `why_illegal` starts with: `Some(None)` when `mv` is legal,
/// `Some(Some(..))` when the game is over; `None` leaves the reason to the game.
pub fn plain_verdict<G: Game>(g: &G, mv: G::Move) -> Option<Option<String>> {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    if moves.contains(&mv) {
        return Some(None);
    }
    if g.is_terminal() {
        return Some(Some("the game is already over".into()));
    }
    None
}

/// `south:A,B,.. north:a,b,..` of a board's holes in board order, each row from its
/// owner's left, as the letters run.
pub fn rows_text(holes: &[u8]) -> String {
    let m = holes.len() / 2;
    format!(
        "south:{} north:{}",
        join_counts(holes[..m].iter().copied()),
        join_counts(holes[m..].iter().copied())
    )
}

/// `to-move:south` or `to-move:north`.
pub fn to_move_text<S: Seated>(p: Player) -> String {
    format!("to-move:{}", S::row(p).name().to_lowercase())
}

/// The player named by `to-move:south|north` (also `South`, `S`, ...).
pub fn read_to_move<S: Seated>(f: &mut Fields) -> Result<Player, ParseError> {
    match f.required("to-move")? {
        "south" | "South" | "S" => Ok(S::owner(Row::South)),
        "north" | "North" | "N" => Ok(S::owner(Row::North)),
        v => Err(ParseError::new(format!(
            "{} position: \"to-move:{v}\" must be south or north",
            f.game()
        ))),
    }
}

/// The `south:` and `north:` rows of a position line, in board order.
pub fn read_rows(f: &mut Fields) -> Result<Vec<u8>, ParseError> {
    let g = f.game();
    let mut holes = counts(g, "south", f.required("south")?)?;
    let north = counts(g, "north", f.required("north")?)?;
    if holes.len() != north.len() {
        return Err(ParseError::new(format!(
            "{g} position: south has {} holes but north has {}",
            holes.len(),
            north.len()
        )));
    }
    holes.extend_from_slice(&north);
    Ok(holes)
}

impl Board {
    /// `game south:.. north:.. south-store:S north-store:N to-move:..`, the start of the
    /// position line of a game seated as `S`.
    pub fn text<S: Seated>(&self, game: &str, to_move: Player) -> String {
        format!(
            "{game} {} south-store:{} north-store:{} {}",
            rows_text(self.holes()),
            self.stores[S::owner(Row::South).index()],
            self.stores[S::owner(Row::North).index()],
            to_move_text::<S>(to_move)
        )
    }

    /// The rows, stores (0 when absent) and player to move of a position line.
    pub fn read<S: Seated>(f: &mut Fields) -> Result<(Vec<u8>, [u8; 2], Player), ParseError> {
        let holes = read_rows(f)?;
        let g = f.game();
        let mut stores = [0u8; 2];
        for row in [Row::South, Row::North] {
            let key = match row {
                Row::South => "south-store",
                Row::North => "north-store",
            };
            stores[S::owner(row).index()] = number(g, key, f.optional(key).unwrap_or("0"))?;
        }
        Ok((holes, stores, read_to_move::<S>(f)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_and_opposites_pair_up() {
        for m in 1..=12 {
            for h in 0..2 * m {
                assert_eq!(hole_of_letter(letter(h, m), m).unwrap(), h);
                assert_eq!(opposite(opposite(h, m), m), h);
                assert_ne!(row_of(h, m), row_of(opposite(h, m), m));
            }
        }
        // Seed 000 naming: A (South's leftmost) faces h (North's rightmost, seen by North).
        assert_eq!(letter(opposite(hole_of_letter('A', 8).unwrap(), 8), 8), 'h');
        assert!(hole_of_letter('i', 8).is_err());
        assert!(hole_of_letter('3', 8).is_err());
    }

    #[test]
    fn counters_on_board_are_summed_word_wise() {
        let mut rng = crate::game::SplitMix(5);
        for _ in 0..10_000 {
            let m = 1 + rng.below(MAX_ROW);
            let mut holes = vec![0u8; 2 * m];
            for _ in 0..rng.below(256) {
                holes[rng.below(2 * m)] += 1;
            }
            let names = Names {
                article: "a",
                game: "test",
                counters: "counters",
            };
            let b = Board::from_parts(&holes, [0, 0], names).unwrap();
            let sum: u32 = holes.iter().map(|&x| x as u32).sum();
            assert_eq!(b.on_board(), sum, "{holes:?}");
        }
    }

    #[test]
    fn board_is_byte_aligned_and_states_are_two_halves() {
        assert_eq!(std::mem::size_of::<Board>(), 27);
        assert_eq!(std::mem::align_of::<Board>(), 1);
        assert_eq!(std::mem::size_of::<crate::kalah::Kalah>(), 32);
        assert_eq!(std::mem::align_of::<crate::kalah::Kalah>(), 16);
        assert_eq!(std::mem::size_of::<crate::afrika::Afrika>(), 32);
        assert_eq!(std::mem::align_of::<crate::afrika::Afrika>(), 16);
    }
}
