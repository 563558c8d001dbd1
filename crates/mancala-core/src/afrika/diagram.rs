//! Afrika drawn as South sees the board: North's row on top (h..a from left to right),
//! South's row below (A..H); play runs counterclockwise.

use crate::diagram::{Diagram, Layout};
use crate::game::Game;
use crate::rows::Seated;
use crate::text::half_points;

use super::rules::{Afrika, Ending, Repetition};

impl Diagram for Afrika {
    fn layout(&self) -> Layout {
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
        let over = self.is_terminal();
        self.board()
            .layout::<Afrika>("Afrika", over, self.to_move(), notes)
    }
}
