//! The rules of Andada, each cited from seed 004 (Mancala World, after Pankhurst 1971).
//! Where the seed is silent, the decision taken is cited beside the code and argued in
//! `docs/rules-andada.md`.

use crate::game::{Game, Moves, play_each};
use crate::hash::hash_bytes;
use crate::player::Player;
use crate::rows::{Row, Seated, opposite, plain_verdict, row_of, twin_hole};
use crate::twin::Twin;

use super::sowing::{opening, sow};

/// Largest supported row: 2 x 24 holes ("two long rows of any multiple of three from 12
/// to no less than 24 holes").
pub const MAX_ROW: usize = 24;

/// Holes on the largest board.
pub const CELLS: usize = 2 * MAX_ROW;

/// Laps a sowing may take before the exact cycle test starts. Terminating sowings in
/// random play take far fewer laps (see `docs/rules-andada.md`), so the fast path decides
/// nearly every move by simply running it.
pub const FAST_LAPS: u32 = 1024;

/// The direction of play.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Direction {
    /// "Play is conducted in an anti-clockwise direction, if not otherwise agreed."
    /// Increasing hole index.
    #[default]
    Counterclockwise,
    /// "The game can be also played by agreement in a clockwise direction, which, however,
    /// is less common." Decreasing hole index.
    Clockwise,
}

/// What a sowing that never ends means (the seed has no rule; see the docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Endless {
    /// "The move ends when the last seed falls in an empty hole": a hole whose sowing
    /// never ends is not a legal move.
    #[default]
    Illegal,
    /// Variant `endless-draw`: such a move is legal and ends the game as a draw.
    Draw,
}

/// Rule options.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    pub direction: Direction,
    pub endless: Endless,
}

/// The stage of the game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Phase {
    /// "On his first turn a player picks up the contents of any hole of his row and drops
    /// them one by one in the next two holes [...] until a 3,3,0 pattern results."
    Opening,
    /// "After the opening, the other player decides whether he or his opponent should play
    /// the next move (the first regular move of the game)."
    Pie,
    /// Regular multi-lap moves.
    Play,
    /// Over: an endless sowing was played under [`Endless::Draw`].
    Drawn,
}

/// A move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum AndadaMove {
    /// The opening from one of the mover's holes (board index).
    Open(u8),
    /// Pie decision: the deciding player plays the first regular move himself.
    Play,
    /// Pie decision: the opponent (the player who opened) plays the first regular move.
    Pass,
    /// A regular move from one of the mover's holes (board index).
    Sow(u8),
}

/// How a regular sowing ends.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Sowing {
    /// The last seed fell in this empty hole (board index).
    Ended(usize),
    /// Bear-off: the last seed reached the end of the row and was removed.
    BornOff,
    /// The sowing never ends: its pickup states repeat.
    Endless,
}

/// An Andada position on a 2 x n board (n a multiple of 3, at most 24). 49 bytes, `Copy`:
/// one byte per hole and one for everything else.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Andada {
    /// Seeds per hole in counterclockwise order (see [`crate::rows`]); unused tail is 0.
    holes: [u8; CELLS],
    /// Bits 0-2: n / 3 - 1; bit 3: player to move; bits 4-5: [`Phase`]; bit 6: clockwise;
    /// bit 7: endless-draw.
    meta: u8,
}

const META_N: u8 = 0b111;
const META_TO_MOVE: u8 = 1 << 3;
const META_PHASE_SHIFT: u32 = 4;
const META_PHASE: u8 = 0b11 << META_PHASE_SHIFT;
const META_CLOCKWISE: u8 = 1 << 6;
const META_DRAW: u8 = 1 << 7;

/// Packs everything but the holes into one byte (`n` a valid row length).
#[inline]
fn pack(n: usize, to_move: Player, phase: Phase, rules: Rules) -> u8 {
    (n / 3 - 1) as u8
        | if to_move == Player::Second {
            META_TO_MOVE
        } else {
            0
        }
        | (phase as u8) << META_PHASE_SHIFT
        | if rules.direction == Direction::Clockwise {
            META_CLOCKWISE
        } else {
            0
        }
        | if rules.endless == Endless::Draw {
            META_DRAW
        } else {
            0
        }
}

impl std::fmt::Debug for Andada {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Andada")
            .field("holes", &self.holes())
            .field("to_move", &self.to_move())
            .field("phase", &self.phase())
            .field("rules", &self.rules())
            .finish()
    }
}

impl Seated for Andada {
    /// No record says who starts; the first player sits South (see the docs).
    const FIRST_ROW: Row = Row::South;
}

impl Andada {
    /// "Initially there are two seeds in each hole called ayla ("cow")."
    pub const START_SEEDS: u8 = 2;

    /// Whether `n` holes per row is a supported board: "two long rows of any multiple of
    /// three" (3, 6 and 9 for solving; 12 to 24 as played).
    pub fn valid_row(n: usize) -> bool {
        matches!(n, 3 | 6 | 9 | 12 | 15 | 18 | 21 | 24)
    }

    /// The start position on 2 x `n` holes, two seeds each, the first player (South) to
    /// make the opening.
    ///
    /// # Panics
    /// When `n` is not a multiple of 3 from 3 to 24 (see [`Andada::valid_row`]).
    pub fn start(n: usize, rules: Rules) -> Self {
        assert!(
            Self::valid_row(n),
            "Andada rows hold a multiple of 3 holes, from 3 to {MAX_ROW}"
        );
        let mut holes = [0u8; CELLS];
        holes[..2 * n].fill(Self::START_SEEDS);
        Andada {
            holes,
            meta: pack(n, Player::First, Phase::Opening, rules),
        }
    }

    /// A position from its parts; `holes` in board order (South's row, then North's).
    /// Checks the board size, the 255-seed limit and that an opening position is the start
    /// position and a drawn one belongs to the `endless-draw` variant.
    pub fn from_parts(
        holes: &[u8],
        to_move: Player,
        phase: Phase,
        rules: Rules,
    ) -> Result<Self, String> {
        let len = holes.len();
        let odd = len % 2 == 1;
        if odd || !Self::valid_row(len / 2) {
            return Err(format!(
                "an Andada row holds a multiple of 3 holes from 3 to {MAX_ROW}, not {}",
                if odd {
                    format!("{len} holes in all")
                } else {
                    format!("{}", len / 2)
                }
            ));
        }
        let total: u32 = holes.iter().map(|&x| x as u32).sum();
        if total > 255 {
            return Err(format!(
                "{total} seeds on the board; at most 255 are supported"
            ));
        }
        if phase == Phase::Opening && holes.iter().any(|&x| x != Self::START_SEEDS) {
            return Err(
                "the opening is made from the start position: two seeds in every hole".into(),
            );
        }
        if phase == Phase::Drawn && rules.endless != Endless::Draw {
            return Err("a game drawn by an endless sowing needs the endless-draw variant".into());
        }
        let mut h = [0u8; CELLS];
        h[..len].copy_from_slice(holes);
        Ok(Andada {
            holes: h,
            meta: pack(len / 2, to_move, phase, rules),
        })
    }

    /// Holes per row.
    #[inline(always)]
    pub fn holes_per_row(&self) -> usize {
        ((self.meta & META_N) as usize + 1) * 3
    }
    pub fn holes(&self) -> &[u8] {
        &self.holes[..2 * self.holes_per_row()]
    }
    #[inline(always)]
    pub fn phase(&self) -> Phase {
        match (self.meta & META_PHASE) >> META_PHASE_SHIFT {
            0 => Phase::Opening,
            1 => Phase::Pie,
            2 => Phase::Play,
            _ => Phase::Drawn,
        }
    }
    pub fn rules(&self) -> Rules {
        Rules {
            direction: self.flag(
                META_CLOCKWISE,
                Direction::Clockwise,
                Direction::Counterclockwise,
            ),
            endless: self.endless(),
        }
    }
    #[inline(always)]
    fn endless(&self) -> Endless {
        self.flag(META_DRAW, Endless::Draw, Endless::Illegal)
    }
    /// `set` when the bit `bit` of the packed byte is set, else `clear`.
    #[inline(always)]
    fn flag<T>(&self, bit: u8, set: T, clear: T) -> T {
        if self.meta & bit != 0 { set } else { clear }
    }
    pub fn with_rules(self, rules: Rules) -> Self {
        Andada {
            holes: self.holes,
            meta: pack(self.holes_per_row(), self.to_move(), self.phase(), rules),
        }
    }
    #[inline(always)]
    fn set(&mut self, to_move: Player, phase: Phase) {
        self.meta = pack(self.holes_per_row(), to_move, phase, self.rules());
    }
    pub fn on_board(&self) -> u32 {
        self.holes().iter().map(|&x| x as u32).sum()
    }

    /// "When both players have only singletons left, seeds reaching the end of the row are
    /// removed from the board, instead of moving across on to the opponent's side."
    /// Decision: checked at the start of each regular move, over the whole board.
    #[inline]
    pub fn bear_off(&self) -> bool {
        self.holes().iter().all(|&x| x <= 1)
    }

    #[inline(always)]
    fn clockwise(&self) -> bool {
        self.meta & META_CLOCKWISE != 0
    }

    /// How the regular sowing of hole `h` (board index) would end from this position,
    /// with the board it leaves before any capture; `None` for an empty hole or one off
    /// the board. Does not check whose hole it is.
    pub fn sowing(&self, h: usize) -> Option<(Sowing, [u8; CELLS])> {
        if h >= 2 * self.holes_per_row() || self.holes[h] == 0 {
            return None;
        }
        let mut holes = self.holes;
        let s = sow(
            &mut holes,
            self.holes_per_row(),
            h,
            self.clockwise(),
            self.bear_off(),
        );
        Some((s, holes))
    }

    /// The position after the mover's sowing that ended as `end` and left `holes`
    /// ([`Andada::sowing`]), the capture included.
    fn after_sowing(&self, end: Sowing, holes: [u8; CELLS]) -> Self {
        let n = self.holes_per_row();
        let me = self.to_move();
        let mut next = *self;
        next.set(me.opponent(), Phase::Play);
        match end {
            // "If the last seed falls in an empty hole on the player's own side, all
            // seeds in the opposite hole of the opponent are removed."
            Sowing::Ended(l) => {
                next.holes = holes;
                if row_of(l, n) == Self::row(me) {
                    next.holes[opposite(l, n)] = 0;
                }
            }
            Sowing::BornOff => next.holes = holes,
            // Legal only under `endless-draw`: the game ends, drawn, on the board as it
            // was before the move.
            Sowing::Endless => next.set(me.opponent(), Phase::Drawn),
        }
        next
    }

    /// The sowing of hole `h` ([`Andada::sowing`]) when it is a legal move: a hole with
    /// seeds whose sowing ends ("The move ends when the last seed falls in an empty
    /// hole"), or any such hole under `endless-draw`. The one legality test behind
    /// [`Game::legal_moves`], [`Game::is_terminal`] and [`Game::for_each_child`]; it
    /// does not check whose hole it is.
    #[inline]
    fn legal_sowing(&self, h: usize) -> Option<(Sowing, [u8; CELLS])> {
        self.sowing(h)
            .filter(|(end, _)| *end != Sowing::Endless || self.endless() == Endless::Draw)
    }

    /// Whether sowing hole `h` would never end.
    pub fn is_endless(&self, h: usize) -> bool {
        matches!(self.sowing(h), Some((Sowing::Endless, _)))
    }

    /// Why `mv` is not legal here, in words; `None` when it is legal.
    pub fn why_illegal(&self, mv: AndadaMove) -> Option<String> {
        if let Some(verdict) = plain_verdict(self, mv) {
            return verdict;
        }
        let n = self.holes_per_row();
        let mover = Self::row(self.to_move());
        let own_hole = |h: u8| {
            let h = h as usize;
            if h >= 2 * n {
                Some("no such hole".to_string())
            } else if row_of(h, n) != mover {
                Some(format!(
                    "{} moves from its own row, not from {}'s",
                    mover.name(),
                    mover.other().name()
                ))
            } else {
                None
            }
        };
        Some(match (self.phase(), mv) {
            (Phase::Opening, AndadaMove::Open(h)) => {
                own_hole(h).unwrap_or_else(|| "not a legal opening".into())
            }
            (Phase::Opening, _) => {
                "the game starts with the opening: a hole of the mover's row".into()
            }
            (Phase::Pie, _) => format!(
                "after the opening {} decides who plays the next move: \"play\" or \"pass\"",
                mover.name()
            ),
            (Phase::Play, AndadaMove::Sow(h)) => own_hole(h).unwrap_or_else(|| {
                if self.holes[h as usize] == 0 {
                    "the hole is empty".into()
                } else {
                    "its sowing never ends (the same sowing state recurs), so it is not a \
                     legal move"
                        .into()
                }
            }),
            (Phase::Play, AndadaMove::Open(_)) => "the opening has been played already".into(),
            (Phase::Play, _) => "the pie decision has been taken already".into(),
            (Phase::Drawn, _) => "the game is already over".into(),
        })
    }
}

/// The rules never name a seat ("a player", "his row", "the other player"), so the
/// position seen from the other seat has the same value for the player to move: the twin
/// has the rows exchanged (sowing runs on round the board as before) and the other player
/// to move, in the same phase.
impl Twin for Andada {
    fn twin(&self) -> Self {
        let n = self.holes_per_row();
        let mut twin = *self;
        twin.holes[..2 * n].rotate_left(n);
        twin.set(self.to_move().opponent(), self.phase());
        twin
    }

    /// The hole at the same place in the other row; the pie decisions stay.
    fn twin_move(&self, mv: AndadaMove) -> AndadaMove {
        let across = |h: u8| twin_hole(h as usize, self.holes_per_row()) as u8;
        match mv {
            AndadaMove::Open(h) => AndadaMove::Open(across(h)),
            AndadaMove::Sow(h) => AndadaMove::Sow(across(h)),
            AndadaMove::Play | AndadaMove::Pass => mv,
        }
    }
}

impl Game for Andada {
    type Move = AndadaMove;

    #[inline(always)]
    fn to_move(&self) -> Player {
        self.flag(META_TO_MOVE, Player::Second, Player::First)
    }

    fn legal_moves(&self, moves: &mut Moves<AndadaMove>) {
        moves.clear();
        let n = self.holes_per_row();
        let s = Self::row(self.to_move()).start(n);
        match self.phase() {
            // "picks up the contents of any hole of his row": every hole is an opening
            // (openings from holes i and i+3 give the same board; all are kept).
            Phase::Opening => {
                for i in s..s + n {
                    moves.push(AndadaMove::Open(i as u8));
                }
            }
            Phase::Pie => {
                moves.push(AndadaMove::Play);
                moves.push(AndadaMove::Pass);
            }
            Phase::Play => {
                for i in s..s + n {
                    if self.legal_sowing(i).is_some() {
                        moves.push(AndadaMove::Sow(i as u8));
                    }
                }
            }
            Phase::Drawn => {}
        }
    }

    fn play(&self, mv: AndadaMove) -> Self {
        let mut next = *self;
        let me = self.to_move();
        match mv {
            AndadaMove::Open(h) => {
                opening(
                    &mut next.holes,
                    self.holes_per_row(),
                    h as usize,
                    self.clockwise(),
                );
                // "After the opening, the other player decides [...]"
                next.set(me.opponent(), Phase::Pie);
            }
            // "[...] whether he or his opponent should play the next move".
            AndadaMove::Play => next.set(me, Phase::Play),
            AndadaMove::Pass => next.set(me.opponent(), Phase::Play),
            AndadaMove::Sow(h) => {
                // `mv` must be legal; an empty or missing hole only passes the turn.
                let Some((end, holes)) = self.sowing(h as usize) else {
                    next.set(me.opponent(), Phase::Play);
                    return next;
                };
                return self.after_sowing(end, holes);
            }
        }
        next
    }

    /// Each legal sowing once: the test for an endless sowing is the sowing itself, so
    /// its board is kept instead of sowing the hole again in [`Game::play`].
    fn for_each_child(&self, mut visit: impl FnMut(AndadaMove, Self)) {
        if self.phase() != Phase::Play {
            return play_each(self, visit);
        }
        let n = self.holes_per_row();
        let s = Self::row(self.to_move()).start(n);
        for i in s..s + n {
            if let Some((end, holes)) = self.legal_sowing(i) {
                visit(AndadaMove::Sow(i as u8), self.after_sowing(end, holes));
            }
        }
    }

    fn is_terminal(&self) -> bool {
        match self.phase() {
            Phase::Opening | Phase::Pie => false,
            Phase::Drawn => true,
            Phase::Play => {
                let n = self.holes_per_row();
                let s = Self::row(self.to_move()).start(n);
                !(s..s + n).any(|i| self.legal_sowing(i).is_some())
            }
        }
    }

    /// "The player who could move last is declared the winner. A draw is not possible."
    /// The player to move has no legal move: the opponent moved last and wins.
    fn terminal_value(&self) -> i32 {
        match self.phase() {
            Phase::Drawn => 0,
            _ => -1,
        }
    }

    fn banked(&self) -> i32 {
        0
    }

    /// Nothing is banked, so moves are ordered by mobility instead: the holes the mover
    /// can sow from minus the opponent's ("The player who could move last is declared
    /// the winner"). Ordering only; on random 2x6 positions with 15-16 seeds it cut the
    /// nodes of the solved ones 3-6x (docs/solver.md).
    fn ordering_margin(&self) -> i32 {
        let n = self.holes_per_row();
        let sowable = |row: &[u8]| row.iter().filter(|&&x| x > 0).count() as i32;
        let (south, north) = self.holes[..2 * n].split_at(n);
        match self.to_move() {
            Player::First => sowable(south) - sowable(north),
            Player::Second => sowable(north) - sowable(south),
        }
    }

    fn swing(&self) -> i32 {
        1
    }

    /// 1/4, not the default 1/2: on 2 x 6 without a database "does South win?" took
    /// 80.6 M nodes at 1/4, 125.8 M at 1/2 and 87.0 M at 1/8, and "does North win?"
    /// 114.2 M at 1/4 against 133.3 M at 1/2 (`mancala prove andada:6 --only mover|opponent
    /// --tt-mb 2048`, 2026-11-29).
    const PROOF_EPSILON_INVERSE: u32 = 4;

    /// The mover's holes holding seeds: each is a move unless its sowing never ends,
    /// which is rare, and telling those apart would mean sowing every hole.
    fn mobility(&self) -> u32 {
        if self.phase() != Phase::Play {
            return match self.phase() {
                Phase::Opening => self.holes_per_row() as u32,
                Phase::Pie => 2,
                _ => 0,
            };
        }
        let n = self.holes_per_row();
        let s = Self::row(self.to_move()).start(n);
        self.holes[s..s + n].iter().filter(|&&x| x > 0).count() as u32
    }

    /// The holes as the player to move sees them (his row first), the size, phase and
    /// rules: the rules treat both seats alike, so a position and its [`Twin::twin`]
    /// share one table entry.
    fn key(&self) -> u64 {
        let n = self.holes_per_row();
        let mut buf = [0u8; CELLS + 1];
        // The mover's row first (two copies: a rotation in place took longer).
        let (south, north) = self.holes[..2 * n].split_at(n);
        let (mine, theirs) = match self.to_move() {
            Player::First => (south, north),
            Player::Second => (north, south),
        };
        buf[..n].copy_from_slice(mine);
        buf[n..2 * n].copy_from_slice(theirs);
        buf[2 * n] = self.meta & !META_TO_MOVE;
        hash_bytes(0xA4DA, &buf[..2 * n + 1])
    }

    /// Seeds circulate without being removed, so a position can recur across moves.
    fn can_repeat(&self) -> bool {
        true
    }

    /// A draw: the seed has no repetition rule, and a game that never ends has no last
    /// mover ("A draw is not possible" holds for every game that ends).
    fn repetition_value(&self) -> i32 {
        0
    }

    /// Win, draw or loss: +1, 0, -1.
    fn points(&self, value: i32) -> f64 {
        value as f64
    }

    /// A recurring position is a draw whatever came before it.
    fn history_dependent(&self) -> bool {
        false
    }

    fn win_loss(&self) -> bool {
        true
    }

    /// Seeds on the board: captures and bear-off only ever remove seeds.
    fn material(&self) -> u32 {
        self.on_board()
    }

    /// Holes counted from the mover's left, as the key sees the board: a table move then
    /// fits the twin it is shared with.
    fn move_slot(&self, mv: AndadaMove) -> usize {
        match mv {
            AndadaMove::Open(h) | AndadaMove::Sow(h) => h as usize % self.holes_per_row(),
            AndadaMove::Play => crate::game::MOVE_SLOTS - 2,
            AndadaMove::Pass => crate::game::MOVE_SLOTS - 1,
        }
    }

    /// Removed seeds "are not counted at the end, and, for that reason, they needn't be
    /// stored".
    fn captured(&self, _player: Player) -> u32 {
        0
    }
}
