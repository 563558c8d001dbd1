//! Afrika drawn as South sees the board: North's row on top (h..a from left to right),
//! South's row below (A..H); play runs counterclockwise.

use crate::diagram::{Cell, Diagram, Layout, Row};
use crate::game::Game;
use crate::rows::{Row as Side, letter};
use crate::text::half_points;

use super::rules::{Afrika, Ending, Repetition};

impl Diagram for Afrika {
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
                self.stores()[Afrika::owner(s).index()] as u32,
            )
        };
        let status = if self.is_terminal() {
            "game over".to_string()
        } else {
            format!("{} to move", Afrika::row(self.to_move()).name())
        };
        let mut notes = Vec::new();
        let r = self.rules();
        if r.komi_half != 0 {
            notes.push(format!(
                "komi {} to {}",
                half_points(r.komi_half as i32),
                Afrika::row(crate::Player::Second).name()
            ));
        }
        match r.ending {
            Ending::Empty => {}
            Ending::Majority => notes
                .push("ends when a player holds more than half of the stones (65 on 2x8)".into()),
            Ending::GiveAway => notes.push(
                "Give-away: the first player to capture more than half of the stones loses".into(),
            ),
        }
        if r.repetition == Repetition::OwnSide {
            notes.push("repetition: each player takes the stones on his side".into());
        }
        Layout {
            title: format!("Afrika 2x{m}"),
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
