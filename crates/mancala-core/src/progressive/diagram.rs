//! Progressive Mancala drawn as both players see it: "Both players sit on the same side of
//! the board in front of it", one shared row `a..k` from left to right and the common goal
//! beside it. The arrow shows the direction of the player to move.

use crate::diagram::{Cell, Diagram, DrawnRow, Layout};
use crate::game::Game;
use crate::player::Player;

use super::notation::letter;
use super::rules::{Ending, Progressive};

impl Diagram for Progressive {
    fn layout(&self) -> Layout {
        let cells: Vec<Cell> = self
            .holes()
            .iter()
            .enumerate()
            .map(|(i, &c)| Cell {
                label: letter(i).to_string(),
                count: c as u32,
                extra: None,
            })
            .collect();
        let store = |p: Player| {
            (
                Progressive::side_name(p).to_string(),
                self.stores()[p.index()] as u32,
            )
        };
        let status = if self.is_terminal() {
            "game over".to_string()
        } else {
            let m = self.moves_left();
            format!(
                "{} to move ({} move{} left in this turn)",
                Progressive::side_name(self.to_move()),
                m,
                if m == 1 { "" } else { "s" }
            )
        };
        let mut notes = vec![format!(
            "goal: {} (sown between {} and a; the move ending there captures it)",
            self.goal(),
            letter(self.holes_per_row() - 1)
        )];
        if !self.is_terminal() && self.empties() > 0 {
            notes.push(format!(
                "{} empty ending(s) this turn: {} has {} moves next turn",
                self.empties(),
                Progressive::side_name(self.to_move().opponent()),
                1 + self.empties()
            ));
        }
        match self.ending() {
            Ending::Majority => notes.push(format!(
                "ends when a player holds more than half of the {} stones",
                self.total()
            )),
            Ending::All => notes.push("ends when every stone is captured".into()),
        }
        Layout {
            title: format!("Progressive Mancala 1x{}", self.holes_per_row()),
            rows: vec![DrawnRow {
                owner: String::new(),
                cells,
                left_to_right: self.to_move() == Player::Second,
            }],
            stores: vec![store(Player::First), store(Player::Second)],
            status,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_shared_row_with_the_goal_and_the_turn() {
        let g = Progressive::standard();
        let l = g.layout();
        assert_eq!(l.rows.len(), 1);
        assert_eq!(l.rows[0].owner, "");
        assert_eq!(l.rows[0].cells.len(), 11);
        assert_eq!(l.rows[0].cells[10].label, "k");
        assert!(!l.rows[0].left_to_right);
        assert_eq!(l.status, "East to move (1 move left in this turn)");
        assert_eq!(l.stores, vec![("East".into(), 0), ("West".into(), 0)]);
        let text = l.to_text();
        assert!(text.starts_with("Progressive Mancala 1x11\n"), "{text}");
        assert!(text.contains("goal: 0"), "{text}");
        assert!(text.contains(" <-  5  5"), "{text}");
    }
}
