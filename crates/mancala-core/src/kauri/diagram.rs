//! Kauri drawn as South sees the board: North's row on top (`f..a` from left to right),
//! South's row below (`A..F`); play runs anticlockwise. Each hole shows seeds+cowries.

use crate::diagram::{Cell, Diagram, Layout, status, stores_north_south, two_rows};
use crate::game::Game;
use crate::rows::Seated;
use crate::rows::letter;

use super::rules::{HOLES_PER_ROW, Kauri, Rules};

impl Diagram for Kauri {
    fn layout(&self) -> Layout {
        let cell = |i: usize| Cell {
            label: letter(i, HOLES_PER_ROW).to_string(),
            count: self.seeds()[i] as u32,
            extra: Some(self.cowries()[i] as u32),
        };
        let status = status(self.is_terminal(), Kauri::row(self.to_move()));
        let mut notes = vec!["each hole: seeds+cowries".to_string()];
        let other = self.to_move().opponent();
        if !self.is_terminal() && self.on_board() > 0 && !self.has_cowrie(other) {
            notes.push(format!(
                "{} has no cowrie and passes",
                Kauri::row(other).name()
            ));
        }
        if self.rules() == Rules::TieBreak {
            notes.push(
                "old tie-breaker: with equal totals play goes on until a player cannot move, and loses"
                    .into(),
            );
            if self.in_tie_break() {
                notes.push("tie-break phase: cowries only".into());
            }
        }
        Layout {
            title: "Kauri 2x6".into(),
            rows: two_rows(HOLES_PER_ROW, cell, false),
            stores: stores_north_south(|s| self.stores()[Kauri::owner(s).index()] as u32),
            status,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PositionText;

    #[test]
    fn north_on_top_from_f_to_a_with_cowries_as_extra() {
        let g = Kauri::from_text(
            "kauri south:0+1,0+0,0+2,0+1,0+1,5+7 north:7+0,0+0,0+0,0+0,0+0,0+0 south-store:18 north-store:30 to-move:south",
        )
        .unwrap();
        let l = g.layout();
        assert_eq!(l.rows.len(), 2);
        let labels: Vec<&str> = l.rows[0].cells.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["f", "e", "d", "c", "b", "a"]);
        assert_eq!(l.rows[0].cells[5].count, 7);
        assert_eq!(l.rows[0].cells[5].extra, Some(0));
        assert_eq!(l.rows[1].cells[5].label, "F");
        assert_eq!(
            (l.rows[1].cells[5].count, l.rows[1].cells[5].extra),
            (5, Some(7))
        );
        assert_eq!(l.stores, vec![("North".into(), 30), ("South".into(), 18)]);
        assert_eq!(l.status, "South to move");
        assert!(
            l.notes
                .iter()
                .any(|n| n == "North has no cowrie and passes")
        );
        let text = l.to_text();
        assert!(text.starts_with("Kauri 2x6\n"), "{text}");
        assert!(text.contains("5+7"), "{text}");
        let tb = g.with_rules(Rules::TieBreak).layout();
        assert!(tb.notes.iter().any(|n| n.contains("tie-breaker")));
    }
}
