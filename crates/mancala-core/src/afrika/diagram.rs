//! Afrika drawn as South sees the board: North's row on top (h..a from left to right),
//! South's row below (A..H); play runs counterclockwise.

use crate::diagram::{Diagram, Layout, plain_cell, status, stores_north_south, two_rows};
use crate::game::Game;
use crate::rows::Seated;
use crate::text::half_points;

use super::rules::{Afrika, Ending, Repetition};

impl Diagram for Afrika {
    fn layout(&self) -> Layout {
        let m = self.m();
        let h = self.holes();
        let cell = plain_cell(h, m);
        let status = status(self.is_terminal(), Afrika::row(self.to_move()));
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
            rows: two_rows(m, cell, false),
            stores: stores_north_south(|s| self.stores()[Afrika::owner(s).index()] as u32),
            status,
            notes,
        }
    }
}
