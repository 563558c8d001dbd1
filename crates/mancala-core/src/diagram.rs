//! A game-neutral description of a board for drawing: rows of labelled holes, stores,
//! and who is to move. The command line renders it as text or SVG, so drawing code is
//! written once for every game.

/// One hole as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The hole's name in the game's notation ("A", "e").
    pub label: String,
    /// Stones or seeds in the hole.
    pub count: u32,
    /// A second kind of counter (Kauri's cowries), if the game has one.
    pub extra: Option<u32>,
}

/// A board laid out as the players see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Game name and size, e.g. "Afrika 2x8".
    pub title: String,
    /// Rows from top to bottom, each from left to right as drawn.
    pub rows: Vec<DrawnRow>,
    /// Stores or captured totals: (owner, amount), shown beside the board.
    pub stores: Vec<(String, u32)>,
    /// "North to move", "game over", ...
    pub status: String,
    /// Further lines (komi, rule variant, moves left in a turn).
    pub notes: Vec<String>,
}

/// A row of holes with the name of its owner ("North", "" for a shared row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnRow {
    pub owner: String,
    pub cells: Vec<Cell>,
    /// Whether play in this row runs left to right as drawn (for an arrow).
    pub left_to_right: bool,
}

/// A two-row board as South sees it (Afrika, Kauri, Andada, Kalah): North's row on top
/// from its last hole to its first, South's row below from its first; `cell` draws hole
/// `i` in sowing order. The rows' arrows follow counterclockwise play unless `clockwise`.
pub fn two_rows(m: usize, cell: impl Fn(usize) -> Cell, clockwise: bool) -> Vec<DrawnRow> {
    let row = |owner: crate::rows::Row, cells: Vec<Cell>, left_to_right: bool| DrawnRow {
        owner: owner.name().into(),
        cells,
        left_to_right,
    };
    vec![
        row(
            crate::rows::Row::North,
            (m..2 * m).rev().map(&cell).collect(),
            clockwise,
        ),
        row(
            crate::rows::Row::South,
            (0..m).map(&cell).collect(),
            !clockwise,
        ),
    ]
}

/// A hole of a two-row board with one kind of counter: its letter and its count.
pub fn plain_cell(holes: &[u8], m: usize) -> impl Fn(usize) -> Cell + '_ {
    move |i| Cell {
        label: crate::rows::letter(i, m).to_string(),
        count: holes[i] as u32,
        extra: None,
    }
}

/// "North to move", or "game over" once no move is left.
pub fn status(over: bool, mover: crate::rows::Row) -> String {
    if over {
        "game over".to_string()
    } else {
        format!("{} to move", mover.name())
    }
}

/// The stores of a two-row board as drawn beside it: North's, then South's.
pub fn stores_north_south(owner_total: impl Fn(crate::rows::Row) -> u32) -> Vec<(String, u32)> {
    [crate::rows::Row::North, crate::rows::Row::South]
        .map(|r| (r.name().to_string(), owner_total(r)))
        .to_vec()
}

/// Games that can be drawn.
pub trait Diagram {
    fn layout(&self) -> Layout;
}

impl Layout {
    /// A plain-text drawing: one line per row, labels above counts.
    pub fn to_text(&self) -> String {
        let width = self
            .rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .map(|c| {
                match c.extra {
                    Some(e) => format!("{}+{}", c.count, e).len(),
                    None => c.count.to_string().len(),
                }
                .max(c.label.len())
            })
            .max()
            .unwrap_or(1)
            .max(2);
        let owner_w = self.rows.iter().map(|r| r.owner.len()).max().unwrap_or(0);
        let mut s = format!("{}\n", self.title);
        for r in &self.rows {
            let labels: Vec<String> = r
                .cells
                .iter()
                .map(|c| format!("{:>width$}", c.label))
                .collect();
            let counts: Vec<String> = r
                .cells
                .iter()
                .map(|c| match c.extra {
                    Some(e) => format!("{:>width$}", format!("{}+{}", c.count, e)),
                    None => format!("{:>width$}", c.count),
                })
                .collect();
            let arrow = if r.left_to_right { "->" } else { "<-" };
            s += &format!("{:owner_w$}    {}\n", "", labels.join(" "));
            s += &format!("{:owner_w$} {arrow} {}\n", r.owner, counts.join(" "));
        }
        let stores: Vec<String> = self
            .stores
            .iter()
            .map(|(o, n)| format!("{o} {n}"))
            .collect();
        if !stores.is_empty() {
            s += &format!("captured: {}\n", stores.join(", "));
        }
        s += &self.status;
        s.push('\n');
        for n in &self.notes {
            s += n;
            s.push('\n');
        }
        s
    }
}

impl crate::rows::Board {
    /// The layout of a two-row board with stores seated as `S`: `Name 2xM`, South's row
    /// below running left to right, each store at its owner's side, and the status line.
    pub fn layout<S: crate::rows::Seated>(
        &self,
        name: &str,
        over: bool,
        to_move: crate::Player,
        notes: Vec<String>,
    ) -> Layout {
        let m = self.holes_per_row();
        Layout {
            title: format!("{name} 2x{m}"),
            rows: two_rows(m, plain_cell(self.holes(), m), false),
            stores: stores_north_south(|row| self.stores()[S::owner(row).index()] as u32),
            status: status(over, S::row(to_move)),
            notes,
        }
    }
}
