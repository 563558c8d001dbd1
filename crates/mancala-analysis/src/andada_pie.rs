//! The Andada opening and pie decision (seed 004): after the opening the second player
//! either plays on himself ("play") or lets the opener move first ("pass"). With every
//! regular position solved, each opening's value is the better of the two decisions.

use std::cmp::Ordering;

use mancala_core::andada::{Andada, AndadaMove, Rules};
use mancala_core::{Game, Moves, Notation};
use mancala_solver::retro::Database;

/// One opening and the pie decision after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The opening move in the game's notation.
    pub opening: String,
    /// Value of the pie decision "play" (the deciding second player moves first), for him.
    pub play: i32,
    /// Value of "pass" (the opener moves first), for the second player.
    pub pass: i32,
    /// The second player's best decision ("play", "pass" or "either").
    pub decision: &'static str,
    /// The opener's value of this opening: 1 win, 0 draw, -1 loss.
    pub value_for_opener: i32,
}

/// Every opening of 2 x `holes`, and how many of them leave a half-turn symmetric board
/// (seed: "the board position after the first move is always symmetrical").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieAnalysis {
    pub openings: Vec<Opening>,
    pub symmetric_openings: usize,
}

impl PieAnalysis {
    /// The game's value for the first player (who opens): his best opening.
    pub fn first_player_value(&self) -> i32 {
        let best = self.openings.iter().map(|o| o.value_for_opener).max();
        best.unwrap_or(-1)
    }
}

/// Reads the openings and pie decisions of Andada on 2 x `holes` from `db`, which must
/// hold every regular position of that board.
pub fn analyse(db: &Database<Andada>, holes: usize, rules: Rules) -> PieAnalysis {
    let start = Andada::start(holes, rules);
    let mut moves = Moves::new();
    start.legal_moves(&mut moves);
    let mut symmetric_openings = 0;
    let mut openings = Vec::new();
    for &m in &moves {
        let pie = start.play(m);
        let h = pie.holes();
        if h[..holes] == h[holes..] {
            symmetric_openings += 1;
        }
        openings.push(opening(db, &start, m));
    }
    PieAnalysis {
        openings,
        symmetric_openings,
    }
}

/// The value of both pie decisions after opening `m`.
fn opening(db: &Database<Andada>, start: &Andada, m: AndadaMove) -> Opening {
    let pie = start.play(m);
    let value = |d: AndadaMove| {
        let c = pie.play(d);
        let v = db
            .value(&c)
            .expect("every regular position is in the table");
        if c.to_move() == pie.to_move() { v } else { -v }
    };
    let (play, pass) = (value(AndadaMove::Play), value(AndadaMove::Pass));
    let decision = match play.cmp(&pass) {
        Ordering::Greater => "play",
        Ordering::Less => "pass",
        Ordering::Equal => "either",
    };
    Opening {
        opening: start.format_move(m),
        play,
        pass,
        decision,
        value_for_opener: -play.max(pass),
    }
}
