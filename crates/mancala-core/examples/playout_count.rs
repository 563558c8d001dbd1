use mancala_core::afrika::{Afrika, Rules};
use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves};
fn main() {
    let start = Afrika::start(8, 8, Rules::default());
    let mut rng = SplitMix(1);
    let mut moves = Moves::new();
    let mut n = 0u64;
    for _ in 0..20000 {
        let mut g = start;
        loop {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g = g.play(moves[rng.below(moves.len())]);
            n += 1;
        }
    }
    println!("{n}");
}
