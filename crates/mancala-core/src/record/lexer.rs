//! Tokenises the body of a published record: move numbers, moves (single or joined by
//! `-` into one turn), capture annotations in parentheses, `;`/`,` separators and the
//! trailing result statement.
//!
//! One lexer reads every game's notation as printed in the seeds: Afrika "1. e G 2. h H
//! ... 4. h xd (+11)" and "G!; e; xf (+1)", Kauri "3. b (+1) D", "d-a-f (+34)",
//! "B-B-A (+7)", "5,5,4,4", Progressive "c(+5)-a(+3)", "4.d(+1)".

use crate::error::Located;

/// Where a token starts in the record body (1-based line and column).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// A capture annotation such as "(+11)", "(-1)", "(+1;-1)", "(-1+3)".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Stones the mover captured.
    pub gained: u32,
    /// Stones the opponent captured during the move (Kauri's indirect capture).
    pub lost: u32,
}

impl Claim {
    pub fn format(&self) -> String {
        match (self.gained, self.lost) {
            (0, 0) => String::new(),
            (g, 0) => format!("(+{g})"),
            (0, l) => format!("(-{l})"),
            (g, l) => format!("(+{g};-{l})"),
        }
    }
}

/// One annotation as written: readable, or not (the text is kept for the report).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Annotation {
    Claim(Claim),
    Unreadable(String),
}

/// One move as written, with its own annotation if glued to it ("k(+1)").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTok {
    /// The move name without "!"/"?" marks; empty for an empty entry ("; ;").
    pub name: String,
    /// The marks as written ("!", "?", "!?").
    pub marks: String,
    pub annotation: Option<Annotation>,
    pub pos: Pos,
}

/// A group of moves written as one entry: "d-a-f (+34)", "c(+5)-a(+3)", or one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The move number in force ("4." numbers both moves of "4. h xd").
    pub number: Option<u32>,
    pub moves: Vec<MoveTok>,
    /// An annotation written after the whole group ("B-B-A (+7)") when it has several
    /// moves; a single move's annotation is kept on the move.
    pub annotation: Option<Annotation>,
}

/// A tokenised record body.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Body {
    pub groups: Vec<Group>,
    /// The text after the last move ("- Gering wins by 2 1/2 points."), trimmed.
    pub result: Option<(String, Pos)>,
}

fn parse_claim(inner: &str) -> Option<Claim> {
    let s: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
    if s.is_empty() {
        return None;
    }
    let mut claim = Claim { gained: 0, lost: 0 };
    for part in s.split([';', ',']) {
        let mut rest = part;
        if rest.is_empty() {
            return None;
        }
        while !rest.is_empty() {
            let sign = rest.as_bytes()[0];
            if sign != b'+' && sign != b'-' {
                return None;
            }
            let digits: String = rest[1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if digits.is_empty() {
                return None;
            }
            let n: u32 = digits.parse().ok()?;
            if sign == b'+' {
                claim.gained += n;
            } else {
                claim.lost += n;
            }
            rest = &rest[1 + digits.len()..];
        }
    }
    Some(claim)
}

/// Whether a parenthesised text is a capture annotation at all: footnote references
/// such as "(A)" are not.
fn is_annotation(inner: &str) -> bool {
    inner.chars().any(|c| c.is_ascii_digit() || c == '+')
}

fn is_move_word(w: &str) -> bool {
    let core = w.trim_end_matches(['!', '?']);
    let core = core
        .strip_prefix('x')
        .filter(|r| !r.is_empty())
        .unwrap_or(core);
    let mut cs = core.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if c.is_ascii_alphabetic() || c.is_ascii_digit())
}

/// Where each character of `text` stands in its file (one more for the end).
fn positions(chars: &[char], first_line: usize) -> Vec<Pos> {
    let mut pos_of = Vec::with_capacity(chars.len() + 1);
    let (mut line, mut col) = (first_line, 1);
    for &c in chars {
        pos_of.push(Pos { line, column: col });
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    pos_of.push(Pos { line, column: col });
    pos_of
}

/// What the lexer does after a token: go on at a character index, or stop (the rest is
/// the result statement).
enum Next {
    At(usize),
    Done,
}

/// The state of tokenising one record body.
struct Lexer {
    chars: Vec<char>,
    pos_of: Vec<Pos>,
    body: Body,
    /// The move number in force.
    number: Option<u32>,
    /// The group being built.
    current: Option<Group>,
    /// Whether the last token may take a joined move ("-").
    joinable: bool,
    expect_join: bool,
    semis_since_move: usize,
}

/// Tokenises a record body. `first_line` numbers the first line of `text` in its file.
pub fn lex(text: &str, first_line: usize) -> Result<Body, Located> {
    let chars: Vec<char> = text.chars().collect();
    let mut lx = Lexer {
        pos_of: positions(&chars, first_line),
        chars,
        body: Body::default(),
        number: None,
        current: None,
        joinable: false,
        expect_join: false,
        semis_since_move: 0,
    };
    let mut i = 0;
    while i < lx.chars.len() {
        let next = match lx.chars[i] {
            c if c.is_whitespace() => {
                lx.joinable = false;
                Next::At(i + 1)
            }
            ';' => lx.semicolon(i),
            ',' => {
                lx.flush();
                lx.joinable = false;
                Next::At(i + 1)
            }
            '(' => lx.parenthesis(i)?,
            '-' => lx.dash(i),
            _ => lx.word(i),
        };
        match next {
            Next::At(j) => i = j,
            Next::Done => return Ok(lx.body),
        }
    }
    lx.flush();
    Ok(lx.body)
}

impl Lexer {
    fn flush(&mut self) {
        if let Some(g) = self.current.take() {
            self.body.groups.push(g);
        }
    }

    /// The rest of the text from `i` as the result statement.
    fn result_from(&mut self, i: usize) -> Next {
        self.flush();
        let rest: String = self.chars[i..].iter().collect();
        self.body.result = Some((rest.trim().to_string(), self.pos_of[i]));
        Next::Done
    }

    fn semicolon(&mut self, i: usize) -> Next {
        self.semis_since_move += 1;
        if self.semis_since_move >= 2 {
            // "; ;" stands for a move the record left out.
            self.flush();
            self.body.groups.push(Group {
                number: self.number,
                moves: vec![MoveTok {
                    name: String::new(),
                    marks: String::new(),
                    annotation: None,
                    pos: self.pos_of[i],
                }],
                annotation: None,
            });
            self.semis_since_move = 1;
        }
        self.flush();
        self.joinable = false;
        Next::At(i + 1)
    }

    /// "(+11)" after a move or a group: its capture annotation; other parentheses are
    /// comments.
    fn parenthesis(&mut self, i: usize) -> Result<Next, Located> {
        let p = self.pos_of[i];
        let at = |msg: String| Located::new(msg).line(p.line).column(p.column);
        let Some(close) = self.chars[i..].iter().position(|&c| c == ')') else {
            return Err(at("\"(\" without a closing \")\"".into()));
        };
        let inner: String = self.chars[i + 1..i + close].iter().collect();
        let glued = i > 0 && !self.chars[i - 1].is_whitespace();
        if is_annotation(&inner) {
            let ann = match parse_claim(&inner) {
                Some(cl) => Annotation::Claim(cl),
                None => Annotation::Unreadable(format!("({inner})")),
            };
            let Some(g) = self.current.as_mut() else {
                return Err(at(format!("annotation \"({inner})\" follows no move")));
            };
            let single = g.moves.len() == 1;
            let last = g.moves.last_mut().expect("groups hold a move");
            if (glued || single) && last.annotation.is_none() {
                last.annotation = Some(ann);
            } else if g.annotation.is_none() {
                g.annotation = Some(ann);
            } else {
                return Err(at(format!(
                    "a second annotation \"({inner})\" for one move"
                )));
            }
        }
        self.joinable = true;
        Ok(Next::At(i + close + 1))
    }

    /// "d-a-f": a joined move; " - Gering wins ...": the result statement.
    fn dash(&mut self, i: usize) -> Next {
        let next_is_word = self
            .chars
            .get(i + 1)
            .is_some_and(|c| c.is_ascii_alphanumeric());
        if self.joinable && next_is_word {
            self.expect_join = true;
            Next::At(i + 1)
        } else {
            self.result_from(i)
        }
    }

    /// The end of the word starting at `start`: whitespace, punctuation that ends a
    /// token, a joining "-", or the "." of a move number.
    fn word_end(&self, start: usize) -> usize {
        let chars = &self.chars;
        let mut j = start;
        while j < chars.len()
            && !chars[j].is_whitespace()
            && !matches!(chars[j], ';' | ',' | '(' | ')')
        {
            if chars[j] == '-' && j > start {
                break;
            }
            if chars[j] == '.' && chars[start..j].iter().all(|c| c.is_ascii_digit()) {
                break;
            }
            j += 1;
        }
        j
    }

    /// A move number ("4."), a move, or the first word of the result statement.
    fn word(&mut self, start: usize) -> Next {
        let j = self.word_end(start);
        let word: String = self.chars[start..j].iter().collect();
        let numbered = self.chars.get(j) == Some(&'.');
        if numbered && !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
            self.flush();
            self.number = word.parse().ok();
            self.joinable = false;
            return Next::At(j + 1);
        }
        if !is_move_word(&word) {
            return self.result_from(start);
        }
        let name = word.trim_end_matches(['!', '?']).to_string();
        let marks = word[name.len()..].to_string();
        let tok = MoveTok {
            name,
            marks,
            annotation: None,
            pos: self.pos_of[start],
        };
        if let (true, Some(g)) = (self.expect_join, self.current.as_mut()) {
            g.moves.push(tok);
        } else {
            self.flush();
            self.current = Some(Group {
                number: self.number,
                moves: vec![tok],
                annotation: None,
            });
        }
        self.expect_join = false;
        self.semis_since_move = 0;
        self.joinable = true;
        Next::At(j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: &Body) -> Vec<Vec<String>> {
        b.groups
            .iter()
            .map(|g| g.moves.iter().map(|m| m.name.clone()).collect())
            .collect()
    }

    #[test]
    fn afrika_game_notation() {
        let b = lex(
            "1. e G 2. h H 3. g E 4. h xd (+11) 5. xA (+13) F - Gering wins by 2 1/2 points.",
            1,
        )
        .unwrap();
        assert_eq!(
            names(&b),
            vec![
                vec!["e"],
                vec!["G"],
                vec!["h"],
                vec!["H"],
                vec!["g"],
                vec!["E"],
                vec!["h"],
                vec!["xd"],
                vec!["xA"],
                vec!["F"]
            ]
        );
        assert_eq!(
            b.groups[7].moves[0].annotation,
            Some(Annotation::Claim(Claim {
                gained: 11,
                lost: 0
            }))
        );
        assert_eq!(b.groups[6].number, Some(4));
        assert_eq!(
            b.result.as_ref().unwrap().0,
            "- Gering wins by 2 1/2 points."
        );
    }

    #[test]
    fn problem_lines_with_marks_gaps_and_odd_annotations() {
        let b = lex("G!; e; xf (+1); D?; xE (a+1); xF (+12); ;xf (+1); a!; ; xc (+1) South wins with 65:63 points.", 1)
            .unwrap();
        assert_eq!(
            names(&b),
            vec![
                vec!["G"],
                vec!["e"],
                vec!["xf"],
                vec!["D"],
                vec!["xE"],
                vec!["xF"],
                vec![""],
                vec!["xf"],
                vec!["a"],
                vec![""],
                vec!["xc"]
            ]
        );
        assert_eq!(b.groups[0].moves[0].marks, "!");
        assert_eq!(
            b.groups[4].moves[0].annotation,
            Some(Annotation::Unreadable("(a+1)".into()))
        );
        assert_eq!(
            b.result.as_ref().unwrap().0,
            "South wins with 65:63 points."
        );
    }

    #[test]
    fn kauri_groups_and_combined_annotations() {
        let b = lex("3. b (+1) D; 7. d-a-f (+34) 8. c C (+1;-1); 18. d (+1) B-B-A (+7); 20. c D (-1+3); 35. f F! (A); 24. f (+1); 25. d E?", 1).unwrap();
        assert_eq!(
            names(&b),
            vec![
                vec!["b"],
                vec!["D"],
                vec!["d", "a", "f"],
                vec!["c"],
                vec!["C"],
                vec!["d"],
                vec!["B", "B", "A"],
                vec!["c"],
                vec!["D"],
                vec!["f"],
                vec!["F"],
                vec!["f"],
                vec!["d"],
                vec!["E"]
            ]
        );
        assert_eq!(
            b.groups[2].annotation,
            Some(Annotation::Claim(Claim {
                gained: 34,
                lost: 0
            }))
        );
        assert_eq!(
            b.groups[4].moves[0].annotation,
            Some(Annotation::Claim(Claim { gained: 1, lost: 1 }))
        );
        assert_eq!(
            b.groups[6].annotation,
            Some(Annotation::Claim(Claim { gained: 7, lost: 0 }))
        );
        assert_eq!(
            b.groups[8].moves[0].annotation,
            Some(Annotation::Claim(Claim { gained: 3, lost: 1 }))
        );
        assert_eq!(b.groups[10].moves[0].annotation, None);
        assert_eq!(b.groups[10].moves[0].marks, "!");
        assert!(b.result.is_none());
    }

    #[test]
    fn kauri_digit_continuation() {
        let b = lex("5,5,4,4,3,2", 1).unwrap();
        assert_eq!(
            names(&b),
            vec![
                vec!["5"],
                vec!["5"],
                vec!["4"],
                vec!["4"],
                vec!["3"],
                vec!["2"]
            ]
        );
    }

    #[test]
    fn progressive_glued_annotations() {
        let b = lex("1. k(+1) c(+2); 4.d(+1) c(+1); 4. g c(+5)-a(+3); 6. i(+2)-a f(+7) - Gering wins with 5:28 points.", 1)
            .unwrap();
        assert_eq!(
            names(&b),
            vec![
                vec!["k"],
                vec!["c"],
                vec!["d"],
                vec!["c"],
                vec!["g"],
                vec!["c", "a"],
                vec!["i", "a"],
                vec!["f"]
            ]
        );
        let g = &b.groups[5];
        assert_eq!(
            g.moves[0].annotation,
            Some(Annotation::Claim(Claim { gained: 5, lost: 0 }))
        );
        assert_eq!(
            g.moves[1].annotation,
            Some(Annotation::Claim(Claim { gained: 3, lost: 0 }))
        );
        assert_eq!(
            b.groups[6].moves[0].annotation,
            Some(Annotation::Claim(Claim { gained: 2, lost: 0 }))
        );
        assert_eq!(b.groups[6].moves[1].annotation, None);
        assert_eq!(
            b.result.as_ref().unwrap().0,
            "- Gering wins with 5:28 points."
        );
    }

    #[test]
    fn positions_and_errors_name_the_place() {
        let b = lex("1. e G\n2. h H", 7).unwrap();
        assert_eq!(b.groups[2].moves[0].pos, Pos { line: 8, column: 4 });
        let e = lex("1. e (+1", 3).unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(6)));
    }
}
