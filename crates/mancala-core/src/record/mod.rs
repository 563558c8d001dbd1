//! Published records: the file format of `positions/`, the body lexer, result
//! statements and the generic verifier.
//!
//! A record file is a few `[Tag "value"]` lines followed by the record body exactly as
//! published; `#` starts a comment line.
//!
//! ```text
//! # Afrika, seed 000, Example Games, Game 1
//! [Game "afrika"]
//! [North "Maurizio de Leo"]
//! [South "Ralf Gering"]
//! [Komi "2.5"]
//! 1. e G 2. h H 3. g E ...
//! ```

pub mod lexer;
pub mod replay;
pub mod result;
pub mod verify;

use std::collections::BTreeMap;

use crate::error::{Located, ParseError};
use crate::game::{Notation, PositionText};
use crate::player::Player;
use crate::text::parse_komi;

pub use lexer::{Annotation, Body, Claim, Group, LexError, MoveTok, Pos};
pub use replay::{MovePlace, ReplayError, Step, replay};
pub use verify::{Issue, Report, verify};

/// The tags of a record file, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(pub BTreeMap<String, String>);

impl Tags {
    /// `[Board "RxH"]` on a board of `rows` rows: the holes per row, `default` when the
    /// tag is absent; a size `valid` rejects is an error ending in `expected`.
    pub fn board(
        &self,
        rows: u8,
        default: usize,
        valid: impl Fn(usize) -> bool,
        expected: &str,
    ) -> Result<usize, ParseError> {
        let Some(b) = self.get("Board") else {
            return Ok(default);
        };
        b.strip_prefix(&format!("{rows}x"))
            .and_then(|x| x.parse::<usize>().ok())
            .filter(|&h| valid(h))
            .ok_or_else(|| ParseError::new(format!("[Board \"{b}\"]: {expected}")))
    }

    /// `[Board "RxH"]` (see [`Tags::board`]) and `[Stones "K"]`, with `defaults` (holes,
    /// stones): the board must hold at most 255 stones (or seeds) in all.
    pub fn board_and_stones(
        &self,
        rows: u8,
        defaults: (usize, u8),
        valid: impl Fn(usize) -> bool,
        expected: &str,
    ) -> Result<(usize, u8), ParseError> {
        let holes = self.board(rows, defaults.0, valid, expected)?;
        let stones = self.stones(defaults.1)?;
        if rows as usize * holes * stones as usize > 255 {
            return Err(ParseError::new("at most 255 stones are supported"));
        }
        Ok((holes, stones))
    }

    /// `[Stones "K"]`: stones per hole at the start, `default` when the tag is absent.
    pub fn stones(&self, default: u8) -> Result<u8, ParseError> {
        match self.get("Stones") {
            None => Ok(default),
            Some(s) => match s.parse::<u32>() {
                Err(_) => Err(ParseError::new(format!(
                    "stones per hole \"{s}\": expected a whole number from 1 to 255"
                ))),
                Ok(0) => Err(ParseError::new(
                    "stones per hole \"0\": a hole starts with at least 1 stone",
                )),
                Ok(k) => {
                    u8::try_from(k).map_err(|_| ParseError::new("at most 255 stones are supported"))
                }
            },
        }
    }

    /// Tags from `(key, value)` pairs.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Tags {
        Tags(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }
}

/// A record file split into tags and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    pub tags: Tags,
    pub body: Body,
    /// The body as written (without tags and comments).
    pub text: String,
}

/// Splits and tokenises a record file. `name` is used in error messages. Any text of the
/// body that cannot be read is an error (the first, with the number of others), and so
/// is a word in place of a move that no game could read as one ("North", "64:60") and a
/// capture annotation that cannot be read.
pub fn parse_file(name: &str, content: &str) -> Result<RecordFile, Located> {
    let rec = parse_file_lenient(name, content)?;
    rec.check_readable(name, true)?;
    Ok(rec)
}

/// Like [`parse_file`], but capture annotations that cannot be read are kept as written
/// (`Annotation::Unreadable`), for readers that weigh them (`reconstruct`).
pub fn parse_file_keeping_annotations(name: &str, content: &str) -> Result<RecordFile, Located> {
    let rec = parse_file_lenient(name, content)?;
    rec.check_readable(name, false)?;
    Ok(rec)
}

impl RecordFile {
    /// Whether every token of the body was read: no lexing error, every move shaped as
    /// a move, and (with `annotations`) every capture annotation readable. The error is
    /// the first problem, with the number of others.
    pub fn check_readable(&self, name: &str, annotations: bool) -> Result<(), Located> {
        let mut errors = self.body.errors.clone();
        errors.extend(
            self.moves()
                .filter(|m| !lexer::move_shaped(&m.name))
                .map(|m| LexError {
                    pos: m.pos,
                    token: m.name.clone(),
                    expected: "a move (a hole letter or number, x and a letter, play, pass)".into(),
                }),
        );
        if annotations {
            let written = self.body.groups.iter().flat_map(|g| {
                let own = g.moves.iter().map(|m| (&m.annotation, m.pos));
                own.chain(std::iter::once((&g.annotation, g.moves[0].pos)))
            });
            errors.extend(written.filter_map(|(ann, pos)| {
                match ann {
                    Some(Annotation::Unreadable(a)) => Some(LexError {
                        pos,
                        token: a.clone(),
                        expected: "a capture annotation \"(+N)\", \"(-N)\" or \"(+N;-M)\" after \
                               the move here"
                            .into(),
                    }),
                    _ => None,
                }
            }));
        }
        errors.sort_by_key(|e| (e.pos.line, e.pos.column));
        match errors.split_first() {
            None => Ok(()),
            Some((first, rest)) => {
                let mut e = first.located(name);
                if !rest.is_empty() {
                    e.message += &format!(
                        " (and {} more unreadable place(s); `mancala verify` lists them all)",
                        rest.len()
                    );
                }
                Err(e)
            }
        }
    }
}

/// Like [`parse_file`], but text of the body that cannot be read is kept in
/// `body.errors` instead (for `verify`, which reports every problem of a record); a
/// malformed tag is still an error.
pub fn parse_file_lenient(name: &str, content: &str) -> Result<RecordFile, Located> {
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    // Old Mac line endings (a lone CR) end lines too; `lines` only knows LF and CRLF.
    let unified;
    let content = if content.contains('\r') {
        unified = content.replace("\r\n", "\n").replace('\r', "\n");
        unified.as_str()
    } else {
        content
    };
    let mut tags = Tags::default();
    let mut body_lines: Vec<&str> = Vec::new();
    let mut first_body_line = None;
    for (n, line) in content.lines().enumerate() {
        let t = line.trim();
        if first_body_line.is_none() {
            if t.is_empty() || is_comment(t) {
                continue;
            }
            if t.starts_with('[') {
                let (k, v) = parse_tag(t).map_err(|e| Located::new(e.0).file(name).line(n + 1))?;
                if !KNOWN_TAGS.contains(&k.as_str()) {
                    let known = KNOWN_TAGS.join(", ");
                    return Err(
                        Located::new(format!("unknown tag \"{k}\" (known: {known})"))
                            .file(name)
                            .line(n + 1),
                    );
                }
                if tags.0.insert(k.clone(), v).is_some() {
                    return Err(Located::new(format!("tag \"{k}\" given twice"))
                        .file(name)
                        .line(n + 1));
                }
                continue;
            }
            first_body_line = Some(n + 1);
        }
        if is_comment(t) {
            body_lines.push("");
        } else {
            body_lines.push(line);
        }
    }
    let first = first_body_line.unwrap_or(content.lines().count() + 1);
    let text = body_lines.join("\n");
    let body = lexer::lex(&text, first);
    Ok(RecordFile {
        tags,
        body,
        text: text.trim().to_string(),
    })
}

/// The tags a record may carry: those that set up the game (read by [`start_position`]
/// and the games' rule readers), then the descriptive ones of the published records. Any
/// other is refused, so that a misspelt `[Rulez "tiebreak"]` cannot leave the default rules
/// silently in force.
pub const KNOWN_TAGS: [&str; 15] = [
    "Game", "Start", "Rules", "Komi", "Board", "Stones", "ToMove", "Event", "Site", "Date",
    "Source", "North", "South", "East", "West",
];

/// A comment line: "#" alone or "# " and text. A "#" glued to text ("#12. e") is read as
/// record text, so that a stray "#" cannot silently hide a line of moves.
fn is_comment(t: &str) -> bool {
    t == "#" || t.starts_with("# ") || t.starts_with("#\t")
}

fn parse_tag(t: &str) -> Result<(String, String), ParseError> {
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| {
            ParseError::new(format!(
                "malformed tag line \"{t}\" (expected [Key \"value\"])"
            ))
        })?;
    let (k, v) = inner.split_once(char::is_whitespace).ok_or_else(|| {
        ParseError::new(format!(
            "malformed tag line \"{t}\" (expected [Key \"value\"])"
        ))
    })?;
    let v = v.trim();
    let v = v
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| ParseError::new(format!("tag {k}: the value must be in double quotes")))?;
    Ok((k.to_string(), v.to_string()))
}

/// A change to a position's rules, from a record's tags or the command line, read for
/// one game: typed, so that no option travels as text once its game is known.
#[derive(Clone, Copy, Debug)]
pub struct RuleChange<R> {
    /// A rule variant (`[Rules]`, `--rules`).
    pub rules: Option<R>,
    /// Komi of the second player in half points (`[Komi]`, `--komi`).
    pub komi_half: Option<i8>,
}

impl<R> RuleChange<R> {
    /// Reads a rule variant and a komi given as text for `G`; `komi_key` names the komi
    /// in errors (`Komi`, `--komi`).
    pub fn read<G: RecordGame<Rules = R>>(
        rules: Option<&str>,
        komi: Option<&str>,
        komi_key: &str,
    ) -> Result<Self, ParseError> {
        Ok(RuleChange {
            rules: rules.map(G::parse_rules).transpose()?,
            komi_half: komi.map(|k| parse_komi(G::NAME, komi_key, k)).transpose()?,
        })
    }
}

/// A rule variant `parse` knows by name; an unknown one is an error naming the `game`
/// and the `known` names.
pub fn named_variant<R>(
    text: &str,
    parse: impl FnOnce(&str) -> Option<R>,
    game: &str,
    known: &str,
) -> Result<R, ParseError> {
    parse(text)
        .ok_or_else(|| ParseError::new(format!("unknown {game} rules \"{text}\" (known: {known})")))
}

/// What a game adds to the generic record machinery.
pub trait RecordGame: Notation + PositionText {
    /// The game's name in `[Game "..."]` tags and on the command line.
    const NAME: &'static str;

    /// The start position a record's tags describe when `[Start]` is absent or
    /// "standard" (board size, rule variant and komi read from the tags).
    fn standard_start(tags: &Tags) -> Result<Self, ParseError>;

    /// The game's rule variants, as a `[Rules]` tag or `--rules` names them.
    type Rules: Copy + std::fmt::Debug;

    /// Reads a `[Rules]` value; the error names the variants the game knows.
    fn parse_rules(text: &str) -> Result<Self::Rules, ParseError>;

    /// This position with `change` made to its rules.
    fn change_rules(self, change: RuleChange<Self::Rules>) -> Self;

    /// Why the rules in force contradict each other, if they do (a komi where the rules
    /// count no points): refused rather than silently ignored.
    fn rules_conflict(&self) -> Option<String> {
        None
    }

    /// [`RecordGame::change_rules`], refusing rules that contradict each other.
    fn with_rule_change(self, change: RuleChange<Self::Rules>) -> Result<Self, ParseError> {
        let g = self.change_rules(change);
        match g.rules_conflict() {
            Some(why) => Err(ParseError::new(why)),
            None => Ok(g),
        }
    }

    /// Applies the tags that change rules (`[Rules]`, `[Komi]`) to a given start position.
    fn apply_rule_tags(self, tags: &Tags) -> Result<Self, ParseError> {
        let change = RuleChange::read::<Self>(tags.get("Rules"), tags.get("Komi"), "Komi")?;
        self.with_rule_change(change)
    }

    /// How records and result statements name the players: `[First, Second]`, e.g.
    /// `["North", "South"]`.
    fn seat_names() -> [&'static str; 2];

    /// Whether each group of moves in a record is exactly one turn (so that the record's
    /// grouping itself can be checked); false where groups are only a way of writing
    /// consecutive moves.
    fn group_is_turn() -> bool {
        false
    }

    /// Whether the game has komi at all (`[Komi]`, `--komi`): where it has none, a komi
    /// given is an error rather than silently ignored.
    const HAS_KOMI: bool = false;

    /// Komi of the second player in points, counted in result statements.
    fn komi(&self) -> f64 {
        0.0
    }

    /// Whether the game is decided although not over (a player holds more than half of
    /// everything that can be scored).
    fn decided(&self) -> bool;
}

/// The position a record starts from: `[Start "standard"]` (or no tag), or a position in
/// the game's one-line format.
pub fn start_position<G: RecordGame>(tags: &Tags) -> Result<G, ParseError> {
    if let Some(k) = tags.get("Komi")
        && !G::HAS_KOMI
    {
        return Err(ParseError::new(format!(
            "[Komi \"{k}\"]: {} has no komi",
            G::NAME
        )));
    }
    match tags.get("Start") {
        None | Some("standard") => G::standard_start(tags),
        Some(s) if s.starts_with("unknown") => Err(ParseError::new(format!(
            "the start position of this record is not known ([Start \"{s}\"])"
        ))),
        Some(s) => G::from_text(s)?.apply_rule_tags(tags),
    }
}

/// [`start_position`] from `(tag, value)` pairs, for tests.
#[cfg(test)]
pub(crate) fn start_from<G: RecordGame>(pairs: &[(&str, &str)]) -> Result<G, ParseError> {
    start_position(&Tags::from_pairs(pairs))
}

/// Maps a player name or seat name from a result statement to a player.
pub fn player_named<G: RecordGame>(tags: &Tags, name: &str) -> Option<Player> {
    let seats = G::seat_names();
    for p in Player::BOTH {
        let seat = seats[p.index()];
        if name.eq_ignore_ascii_case(seat) {
            return Some(p);
        }
        if let Some(full) = tags.get(seat) {
            let n = name.to_lowercase();
            let f = full.to_lowercase();
            if f == n || f.split_whitespace().any(|w| w == n) || f.contains(&n) && n.len() >= 3 {
                return Some(p);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_comments_and_body() {
        let f = parse_file(
            "t.txt",
            "# c\n[Game \"afrika\"]\n[North \"A B\"]\n\n1. e G\n# note\n2. h H\n",
        )
        .unwrap();
        assert_eq!(f.tags.get("Game"), Some("afrika"));
        assert_eq!(f.body.groups.len(), 4);
        assert_eq!(f.body.groups[0].moves[0].pos.line, 5);
        assert_eq!(f.body.groups[2].moves[0].pos.line, 7);
    }

    /// Each way a [Stones] value can be wrong gets its own message: not a number, no
    /// stones, more than the board's counts hold.
    #[test]
    fn stones_per_hole_say_what_is_wrong() {
        let stones = |v: &str| Tags::from_pairs(&[("Stones", v)]).stones(4);
        assert_eq!(stones("7"), Ok(7));
        assert_eq!(Tags::default().stones(4), Ok(4));
        for (v, says) in [
            ("five", "expected a whole number from 1 to 255"),
            ("-1", "expected a whole number from 1 to 255"),
            ("0", "at least 1 stone"),
            ("300", "at most 255 stones"),
        ] {
            let e = stones(v).unwrap_err().to_string();
            assert!(e.contains(says), "{v}: {e}");
        }
    }

    #[test]
    fn malformed_tags_name_the_line() {
        let e = parse_file("t.txt", "[Game afrika]\n1. e").unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(e.to_string().starts_with("t.txt:line 1"), "{e}");
        let e = parse_file("t.txt", "[Game \"a\"]\n[Game \"b\"]\n").unwrap_err();
        assert!(e.message.contains("twice"));
    }
}
