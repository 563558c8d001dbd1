//! From a game name to the generic code for that game.

use anyhow::{Result, bail};
use mancala_core::diagram::Diagram;
use mancala_core::record::RecordGame;

/// The games the command line knows, by the names records and options use.
pub const GAMES: &[&str] = &["afrika", "kauri", "progressive", "andada", "kalah"];

/// What the command line needs of a game: records, rules by name, drawing.
pub trait CliGame: RecordGame + Diagram {}
impl<G: RecordGame + Diagram> CliGame for G {}

/// Runs `$body` with `$G` bound to the game type named by `$name`.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {{
        match $crate::dispatch::canonical($name)? {
            "afrika" => {
                type $G = mancala_core::afrika::Afrika;
                $body
            }
            "progressive" => {
                type $G = mancala_core::progressive::Progressive;
                $body
            }
            "kauri" => {
                type $G = mancala_core::kauri::Kauri;
                $body
            }
            "andada" => {
                type $G = mancala_core::andada::Andada;
                $body
            }
            "kalah" => {
                type $G = mancala_core::kalah::Kalah;
                $body
            }
            other => unreachable!("canonical() returned {other}"),
        }
    }};
}

/// The canonical name of a game, or an error listing the known ones.
pub fn canonical(name: &str) -> Result<&'static str> {
    let n = name.trim().to_lowercase();
    for g in GAMES {
        if *g == n {
            return Ok(g);
        }
    }
    bail!(
        "unknown game \"{name}\" (known games: {})",
        GAMES.join(", ")
    )
}
