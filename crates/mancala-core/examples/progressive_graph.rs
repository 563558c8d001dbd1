//! Is the full game graph of Progressive Mancala acyclic? For 3 and 5 holes with 1 to 3
//! stones per hole and 7 holes with 1 or 2 (7 holes with 3 stones each is too large for a
//! hash set of positions on a small machine: 1x7 with 2 already has about 22 million), explores every position reachable from the start
//! (full state: holes, goal, stores, side, moves left, bonus moves earned), under both
//! endings, by depth-first search, and reports a cycle if one exists.
//!
//! `cargo run --release -p mancala-core --example progressive_graph`

use std::collections::HashMap;

use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, Moves};

/// Positions reached, longest move in laps, and whether a cycle was found.
fn explore(start: Progressive) -> (usize, u32, bool) {
    // 1 = on the current path, 2 = finished.
    let mut state: HashMap<Progressive, u8> = HashMap::new();
    let mut stack: Vec<(Progressive, Moves<_>, usize)> = Vec::new();
    let mut most_laps = 0;
    let push = |g: Progressive,
                state: &mut HashMap<Progressive, u8>,
                stack: &mut Vec<(Progressive, Moves<_>, usize)>| {
        state.insert(g, 1);
        let mut ms = Moves::new();
        if !g.is_terminal() {
            g.legal_moves(&mut ms);
        }
        stack.push((g, ms, 0));
    };
    push(start, &mut state, &mut stack);
    while let Some((g, ms, i)) = stack.last_mut() {
        if *i == ms.len() {
            state.insert(*g, 2);
            stack.pop();
            continue;
        }
        let (next, s) = g.play_traced(ms[*i]);
        *i += 1;
        most_laps = most_laps.max(s.laps);
        match state.get(&next) {
            Some(1) => return (state.len(), most_laps, true),
            Some(_) => {}
            None => push(next, &mut state, &mut stack),
        }
    }
    (state.len(), most_laps, false)
}

fn main() {
    let mut cycles = 0;
    for (n, most) in [(3, 3), (5, 3), (7, 2)] {
        for k in 1..=most {
            for ending in [Ending::Majority, Ending::All] {
                let (positions, laps, cycle) = explore(Progressive::start(n, k, ending));
                println!(
                    "1x{n}, {k} per hole, ending {}: {positions} positions, longest move {laps} laps, {}",
                    ending.name(),
                    if cycle { "CYCLE" } else { "acyclic" }
                );
                cycles += usize::from(cycle);
            }
        }
    }
    println!("cycles found: {cycles}");
}
