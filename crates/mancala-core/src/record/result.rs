//! Result statements as the seeds write them: "Gering wins by 2 1/2 points.", "De Leo
//! wins by half a point.", "Gering won by 31 : 8 points.", "South wins with 65:63
//! points.", "Gering wins with 5:28 points.", "Draw.", "Gering resigns."

use crate::player::Player;

use super::{RecordGame, Tags, player_named};

/// A result statement, read.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `winner` won; by `margin` points (komi included) and/or with the two totals
    /// `scores` as written (in the order written).
    Win {
        winner: Player,
        margin: Option<f64>,
        scores: Option<(f64, f64)>,
    },
    Draw,
    Resigns(Player),
}

/// Reads a number such as "2", "2 1/2", "half a point", "2.5".
fn read_amount(words: &[&str]) -> Option<f64> {
    let joined = words.join(" ").to_lowercase();
    if joined.starts_with("half a point") || joined.starts_with("half point") {
        return Some(0.5);
    }
    let w0 = words.first()?;
    let mut x: f64 = w0.parse().ok()?;
    if let Some(w1) = words.get(1)
        && let Some((a, b)) = w1.split_once('/')
        && let (Ok(a), Ok(b)) = (a.parse::<f64>(), b.parse::<f64>())
        && b != 0.0
    {
        x += a / b;
    }
    Some(x)
}

/// Reads "65:63", "31 : 8" from the start of `words`.
fn read_scores(words: &[&str]) -> Option<(f64, f64)> {
    let joined: String = words.iter().take(3).copied().collect::<Vec<_>>().join("");
    let (a, rest) = joined.split_once(':')?;
    let b: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Reads a statement; `None` when it says nothing this module understands.
pub fn parse<G: RecordGame>(tags: &Tags, text: &str) -> Option<Statement> {
    let t = text
        .trim()
        .trim_start_matches(|c: char| c == '-' || c == '.' || c.is_whitespace())
        .trim_end_matches('.')
        .trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() == 1 && words[0].eq_ignore_ascii_case("draw") {
        return Some(Statement::Draw);
    }
    let verb = words.iter().position(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "wins" | "won" | "resigns" | "resigned"
        )
    })?;
    let name = words[..verb].join(" ");
    let player = player_named::<G>(tags, &name)?;
    let rest = &words[verb + 1..];
    match words[verb].to_lowercase().as_str() {
        "resigns" | "resigned" => Some(Statement::Resigns(player)),
        _ => {
            let (margin, scores) = match rest.first().map(|w| w.to_lowercase()) {
                Some(w) if w == "by" => match read_scores(&rest[1..]) {
                    Some(s) => (None, Some(s)),
                    None => (Some(read_amount(&rest[1..])?), None),
                },
                Some(w) if w == "with" => (None, Some(read_scores(&rest[1..])?)),
                None => (None, None),
                _ => return None,
            };
            Some(Statement::Win {
                winner: player,
                margin,
                scores,
            })
        }
    }
}

/// Checks a statement against the final totals (first player first) and the second
/// player's komi. Returns what the rules give when the statement does not hold.
pub fn check(st: &Statement, totals: [u32; 2], komi: f64, seats: [&str; 2]) -> Result<(), String> {
    let pts = [totals[0] as f64, totals[1] as f64 + komi];
    let margin_first = pts[0] - pts[1];
    let actual = || {
        let k = if komi != 0.0 {
            format!(" (komi {komi} to {})", seats[1])
        } else {
            String::new()
        };
        format!(
            "{}:{} for {}:{}{}",
            totals[0], totals[1], seats[0], seats[1], k
        )
    };
    match st {
        Statement::Draw => {
            if margin_first == 0.0 {
                Ok(())
            } else {
                Err(format!("not a draw: {}", actual()))
            }
        }
        Statement::Resigns(_) => Ok(()),
        Statement::Win {
            winner,
            margin,
            scores,
        } => {
            let m = margin_first * winner.sign() as f64;
            if m <= 0.0 {
                return Err(format!(
                    "{} does not win: {}",
                    seats[winner.index()],
                    actual()
                ));
            }
            if let Some(x) = margin
                && (x - m).abs() > 1e-9
            {
                return Err(format!(
                    "{} wins by {m}, not {x}: {}",
                    seats[winner.index()],
                    actual()
                ));
            }
            if let Some((a, b)) = scores {
                let ok = |x: f64, y: f64| (a - x).abs() < 1e-9 && (b - y).abs() < 1e-9;
                let t = [totals[0] as f64, totals[1] as f64];
                if !(ok(t[0], t[1]) || ok(t[1], t[0]) || ok(pts[0], pts[1]) || ok(pts[1], pts[0])) {
                    return Err(format!("the totals are {}, not {a}:{b}", actual()));
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts() {
        assert_eq!(read_amount(&["2", "1/2", "points"]), Some(2.5));
        assert_eq!(read_amount(&["half", "a", "point"]), Some(0.5));
        assert_eq!(read_scores(&["31", ":", "8", "points"]), Some((31.0, 8.0)));
        assert_eq!(read_scores(&["65:63", "points"]), Some((65.0, 63.0)));
    }

    #[test]
    fn checks() {
        let seats = ["North", "South"];
        let w = Statement::Win {
            winner: Player::Second,
            margin: Some(2.5),
            scores: None,
        };
        assert!(check(&w, [64, 64], 2.5, seats).is_ok());
        assert!(check(&w, [65, 63], 2.5, seats).is_err());
        let s = Statement::Win {
            winner: Player::Second,
            margin: None,
            scores: Some((65.0, 63.0)),
        };
        assert!(check(&s, [63, 65], 0.0, seats).is_ok());
        assert!(check(&s, [65, 63], 0.0, seats).is_err());
        assert!(check(&Statement::Draw, [64, 64], 0.0, seats).is_ok());
        assert!(check(&Statement::Draw, [64, 64], 2.5, seats).is_err());
    }
}
