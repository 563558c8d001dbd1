//! Andada drawn as South sees the board: North's row on top (its last hole at the left),
//! South's row below (A.. from left to right). Counterclockwise play runs left to right in
//! South's row and right to left in North's; clockwise play the other way.

use crate::diagram::{Diagram, Layout, plain_cell, two_rows};
use crate::game::Game;
use crate::rows::Seated;

use super::notation::phase_name;
use super::rules::{Andada, Direction, Endless, Phase};

impl Diagram for Andada {
    fn layout(&self) -> Layout {
        let n = self.holes_per_row();
        let h = self.holes();
        let cell = plain_cell(h, n);
        let mover = Andada::row(self.to_move()).name();
        let status = match self.phase() {
            Phase::Drawn => "game over: drawn by an endless sowing".to_string(),
            _ if self.is_terminal() => format!(
                "game over: {mover} cannot move; {} moved last and wins",
                Andada::row(self.to_move().opponent()).name()
            ),
            Phase::Opening => format!("{mover} to make the opening"),
            Phase::Pie => format!("{mover} decides who plays the next move (play or pass)"),
            Phase::Play => format!("{mover} to move"),
        };
        let mut notes = vec![format!("phase: {}", phase_name(self.phase()))];
        if self.phase() == Phase::Play && self.bear_off() {
            notes
                .push("only singletons left: seeds reaching the end of the row are removed".into());
        }
        let r = self.rules();
        let ccw = r.direction == Direction::Counterclockwise;
        if !ccw {
            notes.push("clockwise play".into());
        }
        if r.endless == Endless::Draw {
            notes.push("an endless sowing ends the game as a draw".into());
        }
        Layout {
            title: format!("Andada 2x{n}"),
            rows: two_rows(n, cell, !ccw),
            stores: Vec::new(),
            status,
            notes,
        }
    }
}
