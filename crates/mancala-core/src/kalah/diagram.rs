//! Kalah drawn as South sees the board: North's row on top (its last hole at the left),
//! South's row below (A.. from left to right), each store at its owner's right; play runs
//! counterclockwise.

use crate::diagram::{Diagram, Layout};
use crate::game::Game;

use super::rules::{Capture, Kalah};

impl Diagram for Kalah {
    fn layout(&self) -> Layout {
        let notes = vec![match self.rules().capture {
            Capture::Empty => "empty capture: a last seed in an own empty hole is captured with \
                               the opposite hole, even an empty one"
                .to_string(),
            Capture::Standard => {
                "standard capture: only when the opposite hole holds seeds".to_string()
            }
        }];
        let over = self.is_terminal();
        self.board()
            .layout::<Kalah>("Kalah", over, self.to_move(), notes)
    }
}
