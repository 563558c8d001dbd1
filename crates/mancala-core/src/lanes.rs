//! A two-row board of up to 2 x 8 holes as one 128-bit word, a byte lane per hole (SWAR:
//! SIMD within a register). A sowing is then one addition of a word with a byte per hole
//! it feeds: the whole laps as `rounds` in every lane, the last partial lap as a run of
//! ones around the ring of holes. No lane can carry into the next, since a board holds at
//! most 255 counters in all.
//!
//! Byte `i` is hole `i` of [`crate::rows::Board`] (`0..m` South's row, `m..2m` North's),
//! so the word is the board's first 16 bytes read little-endian.

/// The largest row this word holds.
pub const MAX_ROW: usize = 8;

/// A one in every byte lane.
const ONES: u128 = u128::MAX / 0xFF;

/// A one in each of the lowest `len` lanes (`len` <= 16).
#[inline(always)]
pub fn ones(len: usize) -> u128 {
    ONES & !u128::MAX.checked_shl(8 * len as u32).unwrap_or(0)
}

/// All bits of the lanes `start..start + len` (`start + len` <= 16).
#[inline(always)]
pub fn lanes(start: usize, len: usize) -> u128 {
    (ones(len) * 0xFF) << (8 * start)
}

/// All bits of the lane of hole `i` (`i` < 16): one load from a table, where a shift of
/// a 128-bit word by a variable count costs several instructions.
#[inline(always)]
pub fn hole(i: usize) -> u128 {
    HOLES[i]
}

static HOLES: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 0xFF << (8 * i);
        i += 1;
    }
    t
};

/// A one in each lane of the run of `len` holes that starts at hole `from` and goes round
/// a ring of `n` holes (`n` even, `from` < `n` <= 16, `len` <= `n`): one load from
/// [`RING_RUNS`] (the shifts of a 128-bit word cost a dozen instructions).
#[inline(always)]
pub fn ring_run(n: usize, from: usize, len: usize) -> u128 {
    RING_RUNS[n / 2 - 1][from][len]
}

/// [`ring_run`] for every even ring of up to 16 holes: `[n / 2 - 1][from][len]` (35 KB,
/// of which a game reads the 4 KB of its own board).
static RING_RUNS: [[[u128; 17]; 16]; 8] = ring_runs();

const fn ring_runs() -> [[[u128; 17]; 16]; 8] {
    let mut t = [[[0u128; 17]; 16]; 8];
    let mut r = 0;
    while r < 8 {
        let n = 2 * (r + 1);
        let mut from = 0;
        while from < n {
            let mut len = 0;
            while len <= n {
                let mut k = 0;
                while k < len {
                    t[r][from][len] |= 1 << (8 * ((from + k) % n));
                    k += 1;
                }
                len += 1;
            }
            from += 1;
        }
        r += 1;
    }
    t
}

/// The high bit of every lane that is not zero (exact: no carry crosses a lane).
#[inline(always)]
pub fn nonzero(x: u128) -> u128 {
    const LOW7: u128 = ONES * 0x7F;
    const HIGH: u128 = ONES * 0x80;
    (((x & LOW7) + LOW7) | x) & HIGH
}

/// Bit `i` set for every lane `i` of `x` whose high bit is set (the lanes of
/// [`nonzero`]): a byte per hole becomes a bit per hole.
#[inline(always)]
pub fn bits(x: u128) -> u32 {
    // The high bits of 8 lanes gathered into the top byte by one multiplication: each
    // partial product lands on its own bit, so nothing carries into another's.
    let gather = |w: u64| (w >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    (gather(x as u64) | gather((x >> 64) as u64) << 8) as u32
}

/// Byte `k` of row `b` is the `k`-th set bit of `b`: the holes of a bit mask in order,
/// to write a list of moves without a branch per move.
pub static SET_BITS: [u64; 256] = set_bits();

const fn set_bits() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= (i as u64) << (8 * k);
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// The lane of hole `i` of `x`.
#[inline(always)]
pub fn lane(x: u128, i: usize) -> u8 {
    (x >> (8 * i)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each helper against its definition, lane by lane, over every argument.
    #[test]
    fn helpers_agree_with_their_definitions_lane_by_lane() {
        for n in (2..=16).step_by(2) {
            for from in 0..n {
                for len in 0..=n {
                    let run = ring_run(n, from, len);
                    for i in 0..16 {
                        let inside = i < n && (i + n - from) % n < len;
                        assert_eq!(
                            lane(run, i),
                            inside as u8,
                            "n {n} from {from} len {len} i {i}"
                        );
                    }
                }
            }
        }
        for i in 0..16 {
            assert_eq!(hole(i), lanes(i, 1));
        }
        for start in 0..16 {
            for len in 0..=16 - start {
                let l = lanes(start, len);
                for i in 0..16 {
                    let inside = (start..start + len).contains(&i);
                    assert_eq!(lane(l, i), if inside { 0xFF } else { 0 });
                }
            }
        }
        let x = u128::from_le_bytes([0, 1, 0x7F, 0x80, 0xFF, 0, 2, 0, 0, 0, 0, 0, 0, 9, 0, 0]);
        let nz = nonzero(x);
        for i in 0..16 {
            assert_eq!(lane(nz, i), if lane(x, i) != 0 { 0x80 } else { 0 });
        }
        for b in 0..1u32 << 16 {
            let high = (0..16).fold(0u128, |w, i| w | ((b >> i & 1) as u128 * 0x80) << (8 * i));
            assert_eq!(bits(high), b, "{b:#x}");
        }
        for (b, &row) in SET_BITS.iter().enumerate() {
            let set: Vec<u64> = (0..8).filter(|i| b >> i & 1 == 1).collect();
            for (k, &i) in set.iter().enumerate() {
                assert_eq!(row >> (8 * k) & 0xFF, i, "{b:#x}");
            }
            assert_eq!(row >> (8 * set.len()).min(63), 0, "{b:#x}");
        }
    }
}
