//! Length of best play in the Kauri cowrie-only tie-break phase (12 cowries): solves the
//! phase with the retrograde database, then computes for every position the number of
//! plies to the end with the winner hurrying and the loser delaying (depth to mate), and
//! prints it for the footnote position of game 4 (30:30, a cowrie in every hole, North to
//! move) and the end of game 4.
//!
//! `cargo run --release -p mancala-analysis --example kauri_tiebreak_length`

use mancala_core::index::Indexed;
use mancala_core::kauri::Kauri;
use mancala_core::kauri::index::TieBreakPhase;
use mancala_core::{Game, Moves, PositionText};
use mancala_solver::retro::Database;
use mancala_solver::retro::db::Quiet;

fn main() {
    let class = TieBreakPhase { cowries: 12 };
    let mut db = Database::<Kauri>::empty("kauri", "tiebreak");
    db.solve(&[class], &Quiet);
    let size = Kauri::class_size(&class) as usize;
    let value: Vec<i32> = (0..size)
        .map(|i| {
            db.value(&Kauri::from_index(&class, i as u64))
                .expect("solved")
        })
        .collect();
    assert!(value.iter().all(|&v| v == 1 || v == -1), "no draw");
    // Successor indices of every position; terminal positions have none and depth 0.
    let mut succ: Vec<Vec<u32>> = Vec::with_capacity(size);
    let mut moves = Moves::new();
    for i in 0..size {
        let g = Kauri::from_index(&class, i as u64);
        let mut s = Vec::new();
        if !g.is_terminal() {
            g.legal_moves(&mut moves);
            s.extend(moves.iter().map(|&m| g.play(m).index() as u32));
        }
        succ.push(s);
    }
    const UNKNOWN: u32 = u32::MAX;
    let mut depth: Vec<u32> = succ
        .iter()
        .map(|s| if s.is_empty() { 0 } else { UNKNOWN })
        .collect();
    let mut d = 0;
    loop {
        d += 1;
        let mut changed = 0;
        let snapshot = depth.clone();
        for i in 0..size {
            if snapshot[i] != UNKNOWN {
                continue;
            }
            let s = &succ[i];
            if value[i] == 1 {
                // A win in d plies: some move reaches a loss (for the opponent) in d - 1.
                if s.iter()
                    .any(|&j| value[j as usize] == -1 && snapshot[j as usize] == d - 1)
                {
                    depth[i] = d;
                    changed += 1;
                }
            } else if s.iter().all(|&j| snapshot[j as usize] != UNKNOWN) {
                // A loss in d plies: every move reaches a win already measured, the longest d - 1.
                let longest = s.iter().map(|&j| snapshot[j as usize]).max().unwrap();
                if longest == d - 1 {
                    depth[i] = d;
                    changed += 1;
                }
            }
        }
        // Nothing at depth d means nothing at any greater depth either.
        if changed == 0 {
            break;
        }
    }
    assert!(
        depth.iter().all(|&x| x != UNKNOWN),
        "every position measured"
    );
    let longest = depth.iter().max().unwrap();
    println!("12 cowries: {size} positions, longest best play {longest} plies");
    for text in [
        "kauri south:0+1,0+1,0+1,0+1,0+1,0+1 north:0+1,0+1,0+1,0+1,0+1,0+1 south-store:30 north-store:30 to-move:north rules:tiebreak",
        "kauri south:0+4,0+1,0+0,0+1,0+1,0+0 north:0+1,0+1,0+1,0+1,0+1,0+0 south-store:30 north-store:30 to-move:north rules:tiebreak",
    ] {
        let g = Kauri::from_text(text).unwrap();
        let i = g.index() as usize;
        println!(
            "{text}: {} for the player to move, best play {} plies",
            if value[i] == 1 { "won" } else { "lost" },
            depth[i]
        );
    }
}
