//! Andada's sowing: the opening's pairs, and the relay sowing of a regular move with its
//! bear-off and the exact test for sowings that never end. The rules these functions
//! carry out are cited beside them; `rules.rs` decides what a move does with the result.

use crate::rows::row_of;

use super::rules::{CELLS, FAST_LAPS, Sowing};

/// One step in the direction of play on a board of `n2` holes.
#[inline(always)]
fn step(i: usize, n2: usize, cw: bool) -> usize {
    if cw {
        if i == 0 { n2 - 1 } else { i - 1 }
    } else if i + 1 == n2 {
        0
    } else {
        i + 1
    }
}

/// The opening from hole `start`: "picks up the contents of any hole of his row and drops
/// them one by one in the next two holes, after which he takes up the next pair of seeds,
/// and proceeds in this way, until a 3,3,0 pattern results."
pub(super) fn opening(holes: &mut [u8; CELLS], n: usize, start: usize, cw: bool) {
    let n2 = 2 * n;
    let mut i = start;
    // 2n is a multiple of 3: after 2n/3 pairs the 0,3,3 pattern covers the whole board.
    for _ in 0..n2 / 3 {
        let s = holes[i];
        holes[i] = 0;
        let mut j = i;
        for _ in 0..s {
            j = step(j, n2, cw);
            holes[j] += 1;
        }
        i = step(j, n2, cw);
    }
}

/// One lap: picks up hole `from` and sows its seeds. Returns the hole of the last seed, or
/// `None` when the last seed was removed at the end of the row (bear-off).
#[inline]
fn lap(holes: &mut [u8; CELLS], n: usize, from: usize, cw: bool, bear_off: bool) -> Option<usize> {
    let s = holes[from] as usize;
    holes[from] = 0;
    let n2 = 2 * n;
    if bear_off {
        // Seeds never leave the mover's row: those reaching its end are removed.
        let lo = row_of(from, n).start(n);
        if cw {
            let room = from - lo;
            if s <= room {
                for x in &mut holes[from - s..from] {
                    *x += 1;
                }
                return Some(from - s);
            }
            for x in &mut holes[lo..from] {
                *x += 1;
            }
        } else {
            let room = lo + n - 1 - from;
            if s <= room {
                for x in &mut holes[from + 1..=from + s] {
                    *x += 1;
                }
                return Some(from + s);
            }
            for x in &mut holes[from + 1..lo + n] {
                *x += 1;
            }
        }
        return None;
    }
    // "Seeds are now distributed one by one in the usual manner": one per hole, the start
    // hole included once the seeds go round the whole board.
    let rounds = (s / n2) as u8;
    if rounds > 0 {
        for x in &mut holes[..n2] {
            *x += rounds;
        }
    }
    let mut i = from;
    for _ in 0..s % n2 {
        i = step(i, n2, cw);
        holes[i] += 1;
    }
    Some(i)
}

/// Sows hole `start` (which must hold seeds) with relays until the move ends. Leaves the
/// board as the sowing does (before any capture).
///
/// "If the last seed falls in a non-empty hole, its contents are picked up and distributed
/// in another lap. The move ends when the last seed falls in an empty hole."
///
/// Sowing is deterministic, so the pickup states (board, hole picked up; the hand is that
/// hole's content) either reach an end or repeat, and then the sowing never ends. The fast
/// path runs [`FAST_LAPS`] laps; beyond that Brent's cycle detection decides exactly with
/// two saved states.
pub(super) fn sow(
    holes: &mut [u8; CELLS],
    n: usize,
    start: usize,
    cw: bool,
    bear_off: bool,
) -> Sowing {
    if holes[start] == 0 {
        // Nothing to sow; the move (illegal) ends where it starts.
        return Sowing::Ended(start);
    }
    let mut from = start;
    // The last seed made its hole hold exactly one seed iff the hole was empty.
    let next = |holes: &mut [u8; CELLS], from: usize| match lap(holes, n, from, cw, bear_off) {
        None => Err(Sowing::BornOff),
        Some(l) if holes[l] == 1 => Err(Sowing::Ended(l)),
        Some(l) => Ok(l),
    };
    for _ in 0..FAST_LAPS {
        match next(holes, from) {
            Ok(l) => from = l,
            Err(end) => return end,
        }
    }
    let mut power: u64 = 1;
    let mut lambda: u64 = 0;
    let mut tortoise = (*holes, from);
    loop {
        match next(holes, from) {
            Ok(l) => from = l,
            Err(end) => return end,
        }
        lambda += 1;
        if from == tortoise.1 && holes[..2 * n] == tortoise.0[..2 * n] {
            return Sowing::Endless;
        }
        if lambda == power {
            tortoise = (*holes, from);
            power *= 2;
            lambda = 0;
        }
    }
}
