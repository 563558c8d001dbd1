//! Kalah drawn as South sees the board: North's row on top (its last hole at the left),
//! South's row below (A.. from left to right), each store at its owner's right; play runs
//! counterclockwise.

use crate::diagram::{Cell, Diagram, Layout, Row};
use crate::game::Game;
use crate::rows::{Row as Side, letter};

use super::rules::{Capture, Kalah};

impl Diagram for Kalah {
    fn layout(&self) -> Layout {
        let m = self.m();
        let h = self.holes();
        let cell = |i: usize| Cell {
            label: letter(i, m).to_string(),
            count: h[i] as u32,
            extra: None,
        };
        let north: Vec<Cell> = (m..2 * m).rev().map(cell).collect();
        let south: Vec<Cell> = (0..m).map(cell).collect();
        let store = |s: Side| {
            (
                s.name().to_string(),
                self.stores()[Kalah::owner(s).index()] as u32,
            )
        };
        let status = if self.is_terminal() {
            "game over".to_string()
        } else {
            format!("{} to move", Kalah::row(self.to_move()).name())
        };
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
            rows: vec![
                Row {
                    owner: "North".into(),
                    cells: north,
                    left_to_right: false,
                },
                Row {
                    owner: "South".into(),
                    cells: south,
                    left_to_right: true,
                },
            ],
            stores: vec![store(Side::North), store(Side::South)],
            status,
            notes,
        }
    }
}
