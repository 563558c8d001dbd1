//! The checks of what [`super::dfpn`] found, apart from the search: the table only
//! suggests which move to follow, and every position the certificate needs is played out
//! and looked at again; where a suggestion turns out wrong, the check goes back and
//! follows another ([`strategy`] for a proof, [`safe_set`] for a disproof). A position whose exact value an endgame database given to the
//! check knows counts like a final position: such a certificate rests on that database.
//!
//! - A proof is a finite winning strategy: at the attacker's move one move to a proven
//!   position, at the defender's every move, down to final positions the attacker wins,
//!   and no position twice on one line (a cycle would be endless play, a draw).
//! - A disproof is a set S of positions holding the root in which the attacker never
//!   wins: no final position in S is his win, each of the attacker's moves from S stays in
//!   S, and from each defender's position in S some move stays in S or ends the game
//!   without a win for the attacker. The defender then keeps every game in S: it ends
//!   without the attacker winning, or never ends, a draw. Cycles inside S are allowed.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::sync::atomic::{AtomicBool, Ordering};

use arrayvec::ArrayVec;
use mancala_core::Game;
use mancala_core::game::MAX_MOVES;

use super::dfpn::{Limits, ProofSearch, Verdict};
use super::table::ProofTable;
use super::{Goal, known_verdict, proof_key};
use crate::retro::Oracle;

mod parts;
mod safe_set;
mod saved;
mod strategy;

pub use safe_set::{DisproofCheck, check_disproof};
pub use saved::set::{DisproofState, load_disproof_check};
pub use saved::strategy::{ProofState, load_proof_check};
pub use saved::{SavedCheck, StretchedCheck};

/// The arguments of [`check_proof`] and [`check_disproof`] as one.
#[allow(clippy::too_many_arguments)]
fn inputs<'a, 't, 'r, G: Game>(
    goal: impl Into<Goal>,
    table: &'a ProofTable,
    oracle: Option<&'a dyn Oracle<G>>,
    repair: Option<Repair<'t>>,
    report: &'r mut dyn FnMut(&Checked),
    stop: Option<&'static AtomicBool>,
) -> CheckInputs<'a, 't, 'r, G> {
    CheckInputs {
        goal: goal.into(),
        table,
        oracle,
        repair,
        report,
        stop,
        split: None,
        helpers: Vec::new(),
    }
}
pub use strategy::{ProofCheck, check_proof};

/// Why a certificate does not hold, with the repetition key of the position where it
/// failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Gap {
    #[error("position {0:016x}: no move to a proven position at the attacker's turn")]
    NoProvenMove(u64),
    #[error("position {0:016x}: the proof comes back to it on one line (endless play is a draw)")]
    Cycle(u64),
    #[error("position {0:016x}: the game ends there without a win for the attacker")]
    NotAWin(u64),
    #[error("position {0:016x}: the attacker wins there, inside the set claimed safe")]
    AttackerWins(u64),
    #[error("position {0:016x}: the defender has no move known to keep the attacker from winning")]
    NoEscape(u64),
    #[error(
        "position {0:016x}: its repetition reaches the attacker's goal under these rules (in a win/draw/loss game: is no draw), so endless play there is no safe escape"
    )]
    RepetitionNotDraw(u64),
}

impl Gap {
    /// The gap as two words, for a saved check ([`Gap::from_code`] reads them back).
    fn code(self) -> (u64, u64) {
        match self {
            Gap::NoProvenMove(k) => (0, k),
            Gap::Cycle(k) => (1, k),
            Gap::NotAWin(k) => (2, k),
            Gap::AttackerWins(k) => (3, k),
            Gap::NoEscape(k) => (4, k),
            Gap::RepetitionNotDraw(k) => (5, k),
        }
    }

    fn from_code(kind: u64, key: u64) -> Option<Gap> {
        Some(match kind {
            0 => Gap::NoProvenMove(key),
            1 => Gap::Cycle(key),
            2 => Gap::NotAWin(key),
            3 => Gap::AttackerWins(key),
            4 => Gap::NoEscape(key),
            5 => Gap::RepetitionNotDraw(key),
            _ => return None,
        })
    }
}

/// Where a stretch of a check ([`DisproofCheck::run`], [`ProofCheck::run`]) stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum Step<T> {
    /// The check ended: its certificate is checked, a gap was found, or the stop flag was
    /// raised ([`CheckError::Stopped`], the check's state whole, so it can be saved and
    /// resumed).
    Done(Result<T, CheckError>),
    /// The pause came first; `run` again goes on where it was.
    Paused,
}

/// How many positions a check looks at between two looks at the clock by default: a
/// position takes well under a microsecond when the tables hold it, so the clock is read
/// about every millisecond at most.
const CLOCK_EVERY: u32 = 1024;

/// A move's place among a position's moves ([`children`]), as a saved check keeps it.
fn place(i: usize) -> u8 {
    const { assert!(MAX_MOVES <= 256) };
    i as u8
}

/// Whether a stretch that has looked at `looked` positions pauses now: the clock is read
/// every `every` positions, and only after the first, so that each stretch makes progress.
fn pause_due(looked: u32, every: u32, pause: Option<std::time::Instant>) -> bool {
    looked > 0
        && looked.is_multiple_of(every)
        && pause.is_some_and(|p| std::time::Instant::now() >= p)
}

/// Why a check gave no verdict: the certificate does not hold, or the check was stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Gap(#[from] Gap),
    /// The stop flag was raised before the check ended. A gap found after it is not
    /// reported: a repair search stopped by the flag leaves its position unsettled, and
    /// the check would take that for a failure.
    #[error("the certificate check was stopped before its end")]
    Stopped,
}

/// What the check's own sets of positions (those checked, those on the current line, the
/// set S) tell positions apart by: the table's key and a second, independent 64-bit hash
/// of the whole position (SipHash). The table's key alone is a hash of 64 bits, and in a
/// certificate of 10^8 positions two of them share one with a chance of about 1 in 4,000:
/// a position would then count as checked without being looked at. Both at once are
/// shared with a chance of about 10^-23. The whole state tells apart only what a key may
/// merge (stores the rules no longer read); a position that recurs in play recurs with
/// its stores, which never fall, so no repetition goes unseen.
fn seen_key<G: Game>(g: &G) -> u128 {
    let whole = BuildHasherDefault::<DefaultHasher>::default().hash_one(g);
    (proof_key(g) as u128) << 64 | whole as u128
}

/// The table's key inside a [`seen_key`]: its upper 64 bits.
fn table_key(seen: u128) -> u64 {
    (seen >> 64) as u64
}

/// Each legal move of `g` with the position it leads to.
fn successors<G: Game>(g: &G) -> impl Iterator<Item = (G::Move, G)> {
    let mut all = ArrayVec::<_, MAX_MOVES>::new();
    g.for_each_child(|m, c| all.push((m, c)));
    all.into_iter()
}

fn children<G: Game>(g: &G) -> Vec<G> {
    successors(g).map(|(_, c)| c).collect()
}

/// The legal move of `g` that leads to `child` (the first, where two lead there).
fn move_to<G: Game>(g: &G, child: &G) -> Option<G::Move> {
    successors(g).find(|(_, c)| c == child).map(|(m, _)| m)
}

/// How a check fills a gap: where the search's table holds no settled entry for a move
/// the certificate needs (it was overwritten, or the search never settled it), a fresh
/// search of that position of at most `nodes` nodes, into `table`, a table of the
/// check's own. The check stays independent of the search: whatever a table then says is
/// played out again.
///
/// Why a table of its own: repairs written into the search's table replace settled
/// entries the rest of the certificate still needs, and each loss is one more repair.
/// The repairs read the search's table ([`ProofSearch::with_base`]), so they start from
/// what it found. `mancala prove kalah:6x4 --at-least 12 --tt-mb 128` ("no", 44.8 M
/// nodes of search): repairs into the search's table had not ended the check after
/// 150 s (45.3 M positions, 6.9 M repairs); with a 64 MB table of their own the whole
/// run took 19.0 s (1.92 M positions, 14,467 repairs, 12.3 M nodes).
///
/// The check makes `table` prefer its newest entries ([`ProofTable::prefer_newest`]).
pub struct Repair<'t> {
    pub nodes: u64,
    pub table: &'t mut ProofTable,
}

/// The search's table, which the check only reads, and the repairs' table.
struct Tables<'a, 't> {
    search: &'a ProofTable,
    repair: Option<Repair<'t>>,
}

impl<'a, 't> Tables<'a, 't> {
    fn new(search: &'a ProofTable, mut repair: Option<Repair<'t>>) -> Self {
        if let Some(r) = repair.as_mut() {
            r.table.prefer_newest();
        }
        Tables { search, repair }
    }

    /// The numbers of `key`: a settled entry of the search's table, else the repairs'
    /// entry, else the search's unsettled one.
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let found = self.search.get(key);
        if found.is_some_and(|(pn, dn)| pn == 0 || dn == 0) {
            return found;
        }
        let repaired = self.repair.as_ref().and_then(|r| r.table.get(key));
        repaired.or(found)
    }

    /// Whether `key` is settled, proven (`proof`) or disproven.
    fn settled(&self, key: u64, proof: bool) -> bool {
        self.get(key)
            .is_some_and(|(pn, dn)| if proof { pn == 0 } else { dn == 0 })
    }
}

/// What a check is given: the question, the search's table, the database whose positions
/// count as final (the certificate then rests on it), how gaps are repaired (`None`: not
/// at all), where it reports what it has looked at, and the flag that stops it early.
pub struct CheckInputs<'a, 't, 'r, G: Game> {
    pub goal: Goal,
    pub table: &'a ProofTable,
    pub oracle: Option<&'a dyn Oracle<G>>,
    pub repair: Option<Repair<'t>>,
    pub report: &'r mut dyn FnMut(&Checked),
    pub stop: Option<&'static AtomicBool>,
    /// A disproof check's set built in parts below this ply (`None`: whole): its
    /// memory is the largest part's, at the price of checking again a position that
    /// more than one part reaches (a proof check keeps only its line and the positions
    /// it has checked, and has no parts).
    pub split: Option<u32>,
    /// The repairs of the other threads that build the parts of a split set at once, one
    /// each: the parts are built on `1 + helpers.len()` threads (a proof check runs on
    /// one and leaves them).
    pub helpers: Vec<Repair<'t>>,
}

/// What both checks work with: the question, the database whose positions count as
/// final, the tables and the tally of what was looked at.
struct Context<'a, 't, 'r, G: Game> {
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    tables: Tables<'a, 't>,
    tally: Tally<'r>,
    /// Raised (by a signal handler) to end the check early, repairs included.
    stop: Option<&'static AtomicBool>,
}

impl<'a, 't, 'r, G: Game> Context<'a, 't, 'r, G> {
    fn new(inputs: CheckInputs<'a, 't, 'r, G>) -> Self {
        Context {
            goal: inputs.goal,
            oracle: inputs.oracle,
            tables: Tables::new(inputs.table, inputs.repair),
            tally: Tally::new(inputs.report),
            stop: inputs.stop,
        }
    }

    /// Whether the stop flag has been raised.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The check's result as the caller sees it: once the stop flag is raised, a gap
    /// may come from a repair the flag cut short, so it becomes [`CheckError::Stopped`].
    fn conclude<T>(&self, found: Result<T, CheckError>) -> Result<T, CheckError> {
        match found {
            Err(CheckError::Gap(_)) if self.stopped() => Err(CheckError::Stopped),
            found => found,
        }
    }

    /// Whether `g` is final (or known to the database) and a win for the attacker.
    fn verdict(&self, g: &G) -> Option<bool> {
        known_verdict(g, self.goal, self.oracle)
    }

    /// Whether the tables hold `g` settled, proven (`proof`) or disproven.
    fn settled(&self, g: &G, proof: bool) -> bool {
        self.tables.settled(proof_key(g), proof)
    }

    /// Where no move is known to be settled, the repairs try first the moves whose
    /// numbers say they are nearest to it (smallest proof number for a proof, smallest
    /// disproof number for a disproof), then the moves the tables know nothing of.
    /// Measured on `mancala prove kalah:6x4 --at-least 12`: up to 5 % fewer repair nodes
    /// (--tt-mb 128, repairs in a 64 MB table of their own: 14.15 M to 13.44 M; --tt-mb
    /// 256, repairs in the search's table: 1.40 M to 1.35 M).
    /// `items` are sorted by the positions `position` gives (a stable sort).
    fn repair_order<T>(&self, items: &mut [T], position: impl Fn(&T) -> G, proof: bool) {
        items.sort_by_key(|item| {
            self.tables
                .get(proof_key(&position(item)))
                .map_or(u32::MAX, |(pn, dn)| if proof { pn } else { dn })
        });
    }

    /// Fills `c`'s entry by a search when no table has a settled one and repairs are
    /// allowed, and says what that search found (`None`: no search ran). The caller
    /// takes the verdict from here as well as from the tables: in a small table full of
    /// settled entries the repair's own answer may find no slot, and reading it back
    /// would lose it. Either way the check then plays out the position below, so nothing
    /// is taken on trust.
    fn repaired(&mut self, c: &G) -> Option<Verdict> {
        if self
            .tables
            .get(proof_key(c))
            .is_some_and(|(pn, dn)| pn == 0 || dn == 0)
        {
            return None;
        }
        let repair = self.tables.repair.as_mut()?;
        let out = ProofSearch::new(
            repair.table,
            self.goal,
            Limits {
                nodes: Some(repair.nodes),
                stop: self.stop,
                ..Limits::default()
            },
        )
        .with_base(self.tables.search)
        .with_oracle(self.oracle)
        .run(c);
        self.tally.repaired(out.nodes);
        Some(out.verdict)
    }
}

/// A check reports what it has looked at so far (to its `report`, which may ignore it) every
/// this many positions and after each repair: a check of tens of millions of positions
/// takes minutes, and a long silence after the search's last progress line looks like a hang.
const REPORT_EVERY: usize = 1 << 12;

/// What a certificate check looked at.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Distinct positions in the certificate (while the check runs: those looked at so
    /// far). A proof check counts every position it found won, also below a move it
    /// later gave up for another; a disproof check that builds its set again counts
    /// from 0 again.
    pub positions: usize,
    /// The most positions the check held in memory at once: `positions`, or for a
    /// disproof check whose set was built in parts ([`CheckInputs::split`]), the top's
    /// and the largest part's.
    pub held: usize,
    /// A disproof check in parts: how many parts the top left (0 while the top is built,
    /// and for a whole set), and how many of them are whole.
    pub parts: usize,
    pub parts_done: usize,
    /// Searches run to fill gaps, and their nodes.
    pub repairs: u64,
    pub repair_nodes: u64,
    /// How often the check went back on a choice the table had suggested: an attacker's
    /// move whose position turned out not won, so that his next move was tried (a
    /// proof), or a defender's escape that led to a position found unsafe, so that the
    /// set was built again without it (a disproof). Going back is cheap where the table
    /// is the search's own, whose wrong suggestions are rare key collisions; a proof
    /// check forgets a failure that rested on a repetition of the line, so with a table
    /// that suggests wrong moves everywhere in a game full of cycles it can take time
    /// exponential in the depth (a review's ladder of cycles: 524,286 retries for 18
    /// levels).
    pub retries: u64,
}

/// What a running check has looked at, told to its `report` as it grows.
struct Tally<'r> {
    checked: Checked,
    report: &'r mut dyn FnMut(&Checked),
}

impl<'r> Tally<'r> {
    fn new(report: &'r mut dyn FnMut(&Checked)) -> Self {
        Tally {
            checked: Checked::default(),
            report,
        }
    }

    /// A part of a split set was started: `done` of `parts` are whole.
    fn part(&mut self, done: usize, parts: usize) {
        (self.checked.parts_done, self.checked.parts) = (done, parts);
        (self.report)(&self.checked);
    }

    /// The certificate now holds `positions` positions, `held` of them in memory.
    fn looked_at(&mut self, positions: usize, held: usize) {
        self.checked.positions = positions;
        self.checked.held = self.checked.held.max(held);
        if positions.is_multiple_of(REPORT_EVERY) {
            (self.report)(&self.checked);
        }
    }

    /// The check went back on a choice ([`Checked::retries`]).
    fn retried(&mut self) {
        self.checked.retries += 1;
        (self.report)(&self.checked);
    }

    /// A repair search of `nodes` nodes ran.
    fn repaired(&mut self, nodes: u64) {
        self.checked.repairs += 1;
        self.checked.repair_nodes += nodes;
        (self.report)(&self.checked);
    }
}

/// A checked proof: what the check looked at, and the strategy's first move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    pub checked: Checked,
    /// The move the checked strategy plays at the root when the attacker is to move
    /// there (`None` at the defender's turn, or when the root is already won): a move
    /// that wins, so a "yes" names how to win, not only that one can.
    pub first_move: Option<M>,
}

/// Nothing checked, no move (derived `Default` would ask it of the move type too).
impl<M> Default for Proof<M> {
    fn default() -> Self {
        Proof {
            checked: Checked::default(),
            first_move: None,
        }
    }
}
