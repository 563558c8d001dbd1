//! `mancala show`: a position as a text board and as an SVG diagram.

use mancala_core::with_game_type;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use mancala_core::Moves;
use mancala_core::diagram::{Cell, Layout};
use serde::Serialize;

use crate::dispatch::CliGame;
use crate::position::{RecordArgs, RuleOptions, Source, build, classify};

/// Draw a position as a text board (rows as the players see them, hole names, captured
/// totals, side to move) and optionally as an SVG diagram.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A file, an inline position line, or a named start (afrika:8x8, kauri, ...).
    position: String,
    /// Also write the board as an SVG diagram to this file (an existing file only with
    /// --force).
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Replace an existing --svg file.
    #[arg(long, requires = "svg")]
    force: bool,
    #[command(flatten)]
    record_args: RecordArgs,
    /// Print JSON: the position line and the legal moves.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ShowJson {
    game: String,
    position: String,
    to_move: String,
    game_over: bool,
    legal_moves: Vec<String>,
    captured: [u32; 2],
}

pub fn show(a: ShowArgs) -> Result<ExitCode> {
    if let Some(path) = &a.svg {
        crate::files::may_write(std::path::Path::new(path), a.force)?;
    }
    let src = classify(&a.position)?;
    let opts = a.record_args.options();
    with_game_type!(src.game().kind, G => show_game::<G>(&src, &opts, &a))
}

fn legal_names<G: CliGame>(g: &G) -> Vec<String> {
    let mut ms = Moves::new();
    g.legal_moves(&mut ms);
    ms.iter().map(|&m| g.format_move(m)).collect()
}

fn show_game<G: CliGame>(src: &Source, opts: &RuleOptions, a: &ShowArgs) -> Result<ExitCode> {
    let g: G = build(src, opts)?;
    if let Some(path) = &a.svg {
        std::fs::write(path, svg(&g.layout()))
            .with_context(|| format!("{path}: cannot write the SVG file"))?;
    }
    if a.json {
        let j = ShowJson {
            game: G::NAME.into(),
            position: g.to_text(),
            to_move: G::seat_names()[g.to_move().index()].into(),
            game_over: g.is_terminal(),
            legal_moves: legal_names(&g),
            captured: [
                g.captured(mancala_core::Player::First),
                g.captured(mancala_core::Player::Second),
            ],
        };
        outln!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        out!("{}", g.layout().to_text());
        let legal = legal_names(&g);
        if !legal.is_empty() {
            outln!("legal moves: {}", legal.join(" "));
        }
        outln!("position: {}", g.to_text());
    }
    Ok(ExitCode::SUCCESS)
}

/// The layout as an SVG diagram in the style of the published problem diagrams: a board
/// with round holes, stone counts, hole letters, and the captured totals beside it.
/// Text made safe inside SVG markup.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One hole centred at (`cx`, `cy`) of a row starting at `y0`: the pit, its count and
/// its label above it.
fn svg_hole(c: &Cell, cx: f64, cy: f64, y0: f64, cell: f64) -> String {
    let count = match c.extra {
        Some(e) => format!("{}+{}", c.count, e),
        None => c.count.to_string(),
    };
    format!(
        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"#8b5a2b\" stroke=\"#4a2c10\" stroke-width=\"1.5\"/>\n\
         <text x=\"{cx}\" y=\"{}\" font-size=\"18\" text-anchor=\"middle\" fill=\"#ffffff\">{}</text>\n\
         <text x=\"{cx}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#222\">{}</text>\n",
        cell * 0.38,
        cy + 6.0,
        esc(&count),
        y0 + 14.0,
        esc(&c.label)
    )
}

pub fn svg(l: &Layout) -> String {
    let cols = l.rows.iter().map(|r| r.cells.len()).max().unwrap_or(1);
    let cell = 64.0;
    let margin = 24.0;
    let label_h = 18.0;
    let side = 150.0;
    let width = margin * 2.0 + cols as f64 * cell + side;
    let row_h = cell + label_h;
    let top = 40.0;
    let height = top + l.rows.len() as f64 * row_h + 30.0 + 18.0 * l.notes.len() as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n"
    );
    s += &format!("<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n");
    s += &format!(
        "<text x=\"{margin}\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{}</text>\n",
        esc(&l.title)
    );
    let board_w = cols as f64 * cell;
    let board_h = l.rows.len() as f64 * row_h;
    s += &format!(
        "<rect x=\"{}\" y=\"{top}\" width=\"{}\" height=\"{board_h}\" rx=\"18\" fill=\"#c8965a\" stroke=\"#6b4423\" stroke-width=\"2\"/>\n",
        margin - 6.0,
        board_w + 12.0
    );
    for (ri, r) in l.rows.iter().enumerate() {
        let y0 = top + ri as f64 * row_h;
        for (ci, c) in r.cells.iter().enumerate() {
            let cx = margin + (ci as f64 + 0.5) * cell;
            let cy = y0 + label_h + cell / 2.0 - 4.0;
            s += &svg_hole(c, cx, cy, y0, cell);
        }
        let arrow = if r.left_to_right {
            "\u{2192}"
        } else {
            "\u{2190}"
        };
        s += &format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"14\">{} {}</text>\n",
            margin + board_w + 16.0,
            y0 + label_h + cell / 2.0,
            esc(&r.owner),
            arrow
        );
    }
    let mut y = top + board_h + 22.0;
    let stores: Vec<String> = l.stores.iter().map(|(o, n)| format!("{o} {n}")).collect();
    s += &format!(
        "<text x=\"{margin}\" y=\"{y}\" font-size=\"14\">captured: {} \u{2014} {}</text>\n",
        esc(&stores.join(", ")),
        esc(&l.status)
    );
    for n in &l.notes {
        y += 18.0;
        s += &format!(
            "<text x=\"{margin}\" y=\"{y}\" font-size=\"12\">{}</text>\n",
            esc(n)
        );
    }
    s += "</svg>\n";
    s
}
