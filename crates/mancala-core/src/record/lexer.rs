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

/// Tokenises a record body. `first_line` numbers the first line of `text` in its file.
pub fn lex(text: &str, first_line: usize) -> Result<Body, Located> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos_of = Vec::with_capacity(chars.len() + 1);
    let (mut line, mut col) = (first_line, 1);
    for &c in &chars {
        pos_of.push(Pos { line, column: col });
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    pos_of.push(Pos { line, column: col });

    let mut body = Body::default();
    let mut number: Option<u32> = None;
    // The group being built and whether the last token may take a joined move ("-").
    let mut current: Option<Group> = None;
    let mut joinable = false;
    let mut expect_join = false;
    let mut semis_since_move = 0usize;
    let flush = |cur: &mut Option<Group>, body: &mut Body| {
        if let Some(g) = cur.take() {
            body.groups.push(g);
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let p = pos_of[i];
        if c.is_whitespace() {
            joinable = false;
            i += 1;
            continue;
        }
        match c {
            ';' => {
                semis_since_move += 1;
                if semis_since_move >= 2 {
                    // "; ;" stands for a move the record left out.
                    flush(&mut current, &mut body);
                    body.groups.push(Group {
                        number,
                        moves: vec![MoveTok {
                            name: String::new(),
                            marks: String::new(),
                            annotation: None,
                            pos: p,
                        }],
                        annotation: None,
                    });
                    semis_since_move = 1;
                }
                flush(&mut current, &mut body);
                joinable = false;
                i += 1;
            }
            ',' => {
                flush(&mut current, &mut body);
                joinable = false;
                i += 1;
            }
            '(' => {
                let Some(close) = chars[i..].iter().position(|&c| c == ')') else {
                    return Err(Located::new("\"(\" without a closing \")\"")
                        .line(p.line)
                        .column(p.column));
                };
                let inner: String = chars[i + 1..i + close].iter().collect();
                let glued = i > 0 && !chars[i - 1].is_whitespace();
                if is_annotation(&inner) {
                    let ann = match parse_claim(&inner) {
                        Some(cl) => Annotation::Claim(cl),
                        None => Annotation::Unreadable(format!("({inner})")),
                    };
                    let Some(g) = current.as_mut() else {
                        return Err(Located::new(format!(
                            "annotation \"({inner})\" follows no move"
                        ))
                        .line(p.line)
                        .column(p.column));
                    };
                    let single = g.moves.len() == 1;
                    let last = g.moves.last_mut().expect("groups hold a move");
                    if (glued || single) && last.annotation.is_none() {
                        last.annotation = Some(ann);
                    } else if g.annotation.is_none() {
                        g.annotation = Some(ann);
                    } else {
                        return Err(Located::new(format!(
                            "a second annotation \"({inner})\" for one move"
                        ))
                        .line(p.line)
                        .column(p.column));
                    }
                }
                i += close + 1;
                joinable = true;
            }
            '-' => {
                let next_is_word = chars.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric());
                if joinable && next_is_word {
                    expect_join = true;
                    i += 1;
                } else {
                    // " - Gering wins ...": the result statement.
                    flush(&mut current, &mut body);
                    let rest: String = chars[i..].iter().collect();
                    body.result = Some((rest.trim().to_string(), p));
                    return Ok(body);
                }
            }
            _ => {
                // A word: up to whitespace or punctuation that ends a token.
                let start = i;
                let mut j = i;
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
                let word: String = chars[start..j].iter().collect();
                if j < chars.len()
                    && chars[j] == '.'
                    && !word.is_empty()
                    && word.chars().all(|c| c.is_ascii_digit())
                {
                    flush(&mut current, &mut body);
                    number = word.parse().ok();
                    i = j + 1;
                    joinable = false;
                    continue;
                }
                if !is_move_word(&word) {
                    flush(&mut current, &mut body);
                    let rest: String = chars[start..].iter().collect();
                    body.result = Some((rest.trim().to_string(), p));
                    return Ok(body);
                }
                let name = word.trim_end_matches(['!', '?']).to_string();
                let marks = word[name.len()..].to_string();
                let tok = MoveTok {
                    name,
                    marks,
                    annotation: None,
                    pos: p,
                };
                if let (true, Some(g)) = (expect_join, current.as_mut()) {
                    g.moves.push(tok);
                } else {
                    flush(&mut current, &mut body);
                    current = Some(Group {
                        number,
                        moves: vec![tok],
                        annotation: None,
                    });
                }
                expect_join = false;
                semis_since_move = 0;
                joinable = true;
                i = j;
            }
        }
    }
    flush(&mut current, &mut body);
    Ok(body)
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
