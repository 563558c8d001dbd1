//! Kalah drawn as South sees the board: North's row on top (its last hole at the left),
//! South's row below (A.. from left to right), each store at its owner's right; play runs
//! counterclockwise.

use crate::diagram::{Diagram, Layout, plain_cell, status, stores_north_south, two_rows};
use crate::game::Game;
use crate::rows::Seated;

use super::rules::{Capture, Kalah};

impl Diagram for Kalah {
    fn layout(&self) -> Layout {
        let m = self.m();
        let h = self.holes();
        let cell = plain_cell(h, m);
        let status = status(self.is_terminal(), Kalah::row(self.to_move()));
        let notes = vec![match self.rules().capture {
            Capture::Empty => "empty capture: a last seed in an own empty hole is captured with \
                               the opposite hole, even an empty one"
                .to_string(),
            Capture::Standard => {
                "standard capture: only when the opposite hole holds seeds".to_string()
            }
        }];
        Layout {
            title: format!("Kalah 2x{m}"),
            rows: two_rows(m, cell, false),
            stores: stores_north_south(|s| self.stores()[Kalah::owner(s).index()] as u32),
            status,
            notes,
        }
    }
}
