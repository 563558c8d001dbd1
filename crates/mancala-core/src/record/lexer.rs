//! Tokenises the body of a published record: move numbers, moves (single or joined by
//! `-` into one turn), capture annotations in parentheses, `;`/`,` separators and the
//! trailing result statement.
//!
//! One lexer reads every game's notation as printed in the seeds: Afrika "1. e G 2. h H
//! ... 4. h xd (+11)" and "G!; e; xf (+1)", Kauri "3. b (+1) D", "d-a-f (+34)",
//! "B-B-A (+7)", "5,5,4,4", Progressive "c(+5)-a(+3)", "4.d(+1)".
//!
//! Nothing is skipped: a word that is neither a move number, an annotation nor a result
//! statement in one of the forms the sources use is kept as a move as written, so that
//! the game's move parser rejects it at its place (file, line, column, ply) rather than
//! the rest of the record being taken for a result statement.

use crate::error::Located;

use super::result;

/// Where a token starts in the record body (1-based line and column).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
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

/// Text of the body the lexer could not read, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub pos: Pos,
    /// The text as written (shortened when long).
    pub token: String,
    /// What was expected there.
    pub expected: String,
}

impl LexError {
    /// The error with its place in the file `file`.
    pub fn located(&self, file: &str) -> Located {
        Located::new(format!(
            "unreadable \"{}\": expected {}",
            self.token, self.expected
        ))
        .file(file)
        .line(self.pos.line)
        .column(self.pos.column)
    }
}

/// A tokenised record body.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Body {
    pub groups: Vec<Group>,
    /// The text after the last move ("- Gering wins by 2 1/2 points."), trimmed.
    pub result: Option<(String, Pos)>,
    /// What could not be read, in file order. Reading went on after each.
    pub errors: Vec<LexError>,
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
            let total = if sign == b'+' {
                &mut claim.gained
            } else {
                &mut claim.lost
            };
            *total = total.checked_add(n)?;
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

/// Whether a move as written has the shape of a move of some game: one to four letters
/// or digits ("e", "xd", "12" for a game to reject, "play", "pass"); an empty entry
/// ("; ;") stands for a move left out.
pub fn move_shaped(name: &str) -> bool {
    name.chars().count() <= 4 && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Whether a sentence begins as a result statement does, whatever follows: "Draw", or
/// up to four capitalised name words and a verb ("De Leo wins", "Gering resigns").
fn starts_statement(sentence: &str) -> bool {
    let words: Vec<String> = sentence
        .trim_start_matches(|c: char| c == '-' || c == '.' || c.is_whitespace())
        .split_whitespace()
        .take(5)
        .map(|w| w.trim_end_matches(['.', ',', '!', ';', ':']).to_string())
        .collect();
    if words
        .first()
        .is_some_and(|w| w.to_lowercase().starts_with("draw"))
    {
        return true;
    }
    let verb = words.iter().position(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "wins" | "won" | "resigns" | "resigned"
        )
    });
    verb.is_some_and(|v| v >= 1 && words[..v].iter().all(|w| result::name_word(w)))
}

/// Whether a word can begin a result statement: a "." ending the last move, a
/// capitalised name of two letters or more, or "draw". Moves never do, so only these
/// words pay for a look at the sentence.
fn may_start_statement(word: &str) -> bool {
    word.is_empty() || word.to_lowercase().starts_with("draw") || result::name_word(word)
}

const EXPECTED_STATEMENT: &str = "a result statement in a form the sources use (\"- Gering \
     wins by 2 1/2 points.\", \"South wins with 65:63 points.\", \"- Gering resigns.\", \
     \"Draw.\")";

/// Where each line of `chars` starts, to turn an index into a line and column without a
/// table the size of the text.
struct Places {
    line_starts: Vec<usize>,
    first_line: usize,
}

impl Places {
    fn new(chars: &[char], first_line: usize) -> Places {
        let mut line_starts = vec![0];
        line_starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == '\n')
                .map(|(i, _)| i + 1),
        );
        Places {
            line_starts,
            first_line,
        }
    }

    fn at(&self, i: usize) -> Pos {
        let l = self.line_starts.partition_point(|&s| s <= i) - 1;
        Pos {
            line: self.first_line + l,
            column: i - self.line_starts[l] + 1,
        }
    }
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
    places: Places,
    body: Body,
    /// The move number in force.
    number: Option<u32>,
    /// The number expected where the last one was out of step (the next may follow it).
    expected: Option<u32>,
    /// The group being built.
    current: Option<Group>,
    /// Whether the last token may take a joined move ("-").
    joinable: bool,
    expect_join: bool,
    semis_since_move: usize,
}

/// Tokenises a record body. `first_line` numbers the first line of `text` in its file.
/// What cannot be read is in `Body::errors`; an unclosed parenthesis ends the body.
pub fn lex(text: &str, first_line: usize) -> Body {
    let chars: Vec<char> = text.chars().collect();
    let mut lx = Lexer {
        places: Places::new(&chars, first_line),
        chars,
        body: Body::default(),
        number: None,
        expected: None,
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
            '(' => lx.parenthesis(i),
            ')' => lx.error_at(i, i + 1, "\"(\" before it"),
            '-' => lx.dash(i),
            _ => lx.word(i),
        };
        match next {
            Next::At(j) => i = j,
            Next::Done => break,
        }
    }
    lx.flush();
    lx.body
}

impl Lexer {
    fn flush(&mut self) {
        if let Some(g) = self.current.take() {
            self.body.groups.push(g);
        }
    }

    fn text(&self, from: usize, to: usize) -> String {
        self.chars[from..to].iter().collect()
    }

    /// Records the text from `from` to `to` as unreadable and goes on after it.
    fn error_at(&mut self, from: usize, to: usize, expected: &str) -> Next {
        let mut token = self.text(from, to);
        if token.chars().count() > 60 {
            token = token.chars().take(57).collect::<String>() + "...";
        }
        self.body.errors.push(LexError {
            pos: self.places.at(from),
            token,
            expected: expected.to_string(),
        });
        self.joinable = false;
        Next::At(to)
    }

    /// The end of the sentence starting at `i`: after the first "." that ends a word,
    /// or the end of the line.
    fn sentence_end(&self, i: usize) -> usize {
        let c = &self.chars;
        let mut j = i;
        // Result statements are short: a bound keeps a one-line record linear.
        let limit = c.len().min(i + 300);
        while j < limit && c[j] != '\n' {
            let ends_word = c.get(j + 1).is_none_or(|n| n.is_whitespace());
            if c[j] == '.'
                && ends_word
                && j > i
                && !c[i..j]
                    .iter()
                    .all(|&x| x == '-' || x == '.' || x.is_whitespace())
            {
                return j + 1;
            }
            j += 1;
        }
        j
    }

    /// A result statement starting at `i`, if there is one: the whole rest of the body in
    /// a form the sources use ends the body; a statement followed by more text is read and
    /// the text after it is an error; a sentence with a result verb in another form is an
    /// error. `None` when the text at `i` is no result statement at all.
    fn statement(&mut self, i: usize) -> Option<Next> {
        let end = self.sentence_end(i);
        let sentence = self.text(i, end);
        if !starts_statement(&sentence) {
            return None;
        }
        self.flush();
        let len = self.chars.len();
        let after = (end..len)
            .find(|&j| !self.chars[j].is_whitespace())
            .unwrap_or(len);
        let reads = result::read(&sentence).is_some();
        // A statement broken over lines reads as a whole (it is short: the bound keeps a
        // file of many broken statements linear).
        let whole = if reads {
            after == len
        } else {
            len - i <= 400 && result::read(&self.text(i, len)).is_some()
        };
        if whole {
            let text = self.text(i, len);
            self.body.result = Some((text.trim().to_string(), self.places.at(i)));
            return Some(Next::Done);
        }
        if !reads {
            return Some(self.error_at(i, end, EXPECTED_STATEMENT));
        }
        self.body.result = Some((sentence.trim().to_string(), self.places.at(i)));
        self.error_at(after, len, "nothing after the result statement");
        Some(Next::Done)
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
                    pos: self.places.at(i),
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
    /// comments ("(A)", a footnote reference).
    fn parenthesis(&mut self, i: usize) -> Next {
        // An annotation or a comment closes on its own line and holds no other "(": a
        // stray "(" must not turn the moves after it into a comment.
        let close = self.chars[i + 1..]
            .iter()
            .position(|&c| matches!(c, ')' | '(' | '\n'))
            .map(|k| k + 1)
            .filter(|&k| self.chars[i + k] == ')');
        let Some(close) = close else {
            return self.error_at(i, i + 1, "a \")\" closing the \"(\" on the same line");
        };
        let inner = self.text(i + 1, i + close);
        let glued = i > 0 && !self.chars[i - 1].is_whitespace();
        if is_annotation(&inner) {
            let ann = match parse_claim(&inner) {
                Some(cl) => Annotation::Claim(cl),
                None => Annotation::Unreadable(format!("({inner})")),
            };
            let Some(g) = self.current.as_mut() else {
                return self.error_at(i, i + close + 1, "a move before the capture annotation");
            };
            let single = g.moves.len() == 1;
            let last = g.moves.last_mut().expect("groups hold a move");
            if (glued || single) && last.annotation.is_none() {
                last.annotation = Some(ann);
            } else if g.annotation.is_none() {
                g.annotation = Some(ann);
            } else {
                return self.error_at(i, i + close + 1, "one capture annotation per move");
            }
        }
        self.joinable = true;
        Next::At(i + close + 1)
    }

    /// "d-a-f": a joined move; " - Gering wins ...": the result statement.
    fn dash(&mut self, i: usize) -> Next {
        let next_is_word = self
            .chars
            .get(i + 1)
            .is_some_and(|c| c.is_ascii_alphanumeric());
        if self.joinable && next_is_word {
            self.expect_join = true;
            return Next::At(i + 1);
        }
        if let Some(next) = self.statement(i) {
            return next;
        }
        if self.chars.get(i + 1).is_none_or(|c| c.is_whitespace()) {
            // " - " introduces the result statement: one error for the whole sentence.
            let end = self.sentence_end(i);
            self.flush();
            return self.error_at(i, end, EXPECTED_STATEMENT);
        }
        self.error_at(
            i,
            i + 1,
            "a move before \"-\" (\"d-a-f\") or a result statement after it",
        )
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

    /// A move number ("4."), the result statement, or a move as written (which the game
    /// then reads or rejects).
    fn word(&mut self, start: usize) -> Next {
        let j = self.word_end(start);
        let word = self.text(start, j);
        let numbered = self.chars.get(j) == Some(&'.');
        if numbered && !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
            self.flush();
            let before = self.number;
            self.number = word.parse().ok();
            let Some(n) = self.number else {
                return self.error_at(start, j + 1, "a move number below 2^32");
            };
            // Move numbers go up by one from wherever the record starts: a number out of
            // step is a typo. The next one may follow either the number written or the
            // one expected, so one typo is one error.
            let follows = |b: Option<u32>| b.and_then(|b| b.checked_add(1)) == Some(n);
            let out_of_step = before.is_some() && !follows(before) && !follows(self.expected);
            self.expected = before
                .and_then(|b| b.checked_add(1))
                .filter(|_| out_of_step);
            if let (true, Some(b)) = (out_of_step, before) {
                let next = b as u64 + 1;
                return self.error_at(
                    start,
                    j + 1,
                    &format!(
                        "the move number {next}. (the numbers go up by one; {b}. came before)"
                    ),
                );
            }
            self.joinable = false;
            return Next::At(j + 1);
        }
        if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
            // A number without its dot is a move to the game, which rejects it with its
            // own message; the number after it may follow it.
            self.expected = word.parse().ok();
        }
        if may_start_statement(&word)
            && let Some(next) = self.statement(start)
        {
            return next;
        }
        if word.is_empty() {
            // A "." that follows no move number.
            return self.error_at(
                start,
                start + 1,
                "a move, a move number such as \"12.\" or a result statement",
            );
        }
        let name = word.trim_end_matches(['!', '?']).to_string();
        if name.is_empty() {
            return self.error_at(start, j, "a move before the mark");
        }
        let marks = word[name.len()..].to_string();
        let tok = MoveTok {
            name,
            marks,
            annotation: None,
            pos: self.places.at(start),
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

    /// The move names of groups written as in [`names`]' result: groups apart by a space,
    /// the moves of a group joined by "-" ("b d-a-f": `[["b"], ["d", "a", "f"]]`), an
    /// empty group as nothing between two spaces ("b  c": `[["b"], [""], ["c"]]`).
    fn groups(text: &str) -> Vec<Vec<String>> {
        text.split(' ')
            .map(|g| g.split('-').map(str::to_string).collect())
            .collect()
    }

    /// The result statement after the moves, if any.
    fn result(b: &Body) -> Option<&str> {
        b.result.as_ref().map(|(text, _)| text.as_str())
    }

    /// Reads the line `text` and asserts the names of its moves by their groups (as
    /// [`groups`] writes them) and its result statement; returns what it read.
    fn assert_lexed(text: &str, moves: &str, result_statement: Option<&str>) -> Body {
        let b = lex(text, 1);
        assert_eq!(names(&b), groups(moves), "{text}");
        assert_eq!(result(&b), result_statement, "{text}");
        b
    }

    /// The annotation of a claim of `gained` and `lost` points.
    fn claim(gained: u32, lost: u32) -> Option<Annotation> {
        Some(Annotation::Claim(Claim { gained, lost }))
    }

    #[test]
    fn afrika_game_notation() {
        let b = assert_lexed(
            "1. e G 2. h H 3. g E 4. h xd (+11) 5. xA (+13) F - Gering wins by 2 1/2 points.",
            "e G h H g E h xd xA F",
            Some("- Gering wins by 2 1/2 points."),
        );
        assert_eq!(b.groups[7].moves[0].annotation, claim(11, 0));
        assert_eq!(b.groups[6].number, Some(4));
    }

    #[test]
    fn problem_lines_with_marks_gaps_and_odd_annotations() {
        // The two "; ;" are empty groups.
        let b = assert_lexed(
            "G!; e; xf (+1); D?; xE (a+1); xF (+12); ;xf (+1); a!; ; xc (+1) South wins with 65:63 points.",
            "G e xf D xE xF  xf a  xc",
            Some("South wins with 65:63 points."),
        );
        assert_eq!(b.groups[0].moves[0].marks, "!");
        assert_eq!(
            b.groups[4].moves[0].annotation,
            Some(Annotation::Unreadable("(a+1)".into()))
        );
    }

    #[test]
    fn kauri_groups_and_combined_annotations() {
        let b = assert_lexed(
            "3. b (+1) D; 7. d-a-f (+34) 8. c C (+1;-1); 18. d (+1) B-B-A (+7); 20. c D (-1+3); 35. f F! (A); 24. f (+1); 25. d E?",
            "b D d-a-f c C d B-B-A c D f F f d E",
            None,
        );
        assert_eq!(b.groups[2].annotation, claim(34, 0));
        assert_eq!(b.groups[4].moves[0].annotation, claim(1, 1));
        assert_eq!(b.groups[6].annotation, claim(7, 0));
        assert_eq!(b.groups[8].moves[0].annotation, claim(3, 1));
        assert_eq!(b.groups[10].moves[0].annotation, None);
        assert_eq!(b.groups[10].moves[0].marks, "!");
    }

    #[test]
    fn kauri_digit_continuation() {
        let b = lex("5,5,4,4,3,2", 1);
        assert_eq!(names(&b), groups("5 5 4 4 3 2"));
    }

    #[test]
    fn progressive_glued_annotations() {
        let b = assert_lexed(
            "1. k(+1) c(+2); 4.d(+1) c(+1); 4. g c(+5)-a(+3); 6. i(+2)-a f(+7) - Gering wins with 5:28 points.",
            "k c d c g c-a i-a f",
            Some("- Gering wins with 5:28 points."),
        );
        let g = &b.groups[5];
        assert_eq!(g.moves[0].annotation, claim(5, 0));
        assert_eq!(g.moves[1].annotation, claim(3, 0));
        assert_eq!(b.groups[6].moves[0].annotation, claim(2, 0));
        assert_eq!(b.groups[6].moves[1].annotation, None);
    }

    #[test]
    fn positions_and_errors_name_the_place() {
        let b = lex("1. e G\n2. h H", 7);
        assert_eq!(b.groups[2].moves[0].pos, Pos { line: 8, column: 4 });
        let e = &lex("1. e (+1", 3).errors[0];
        assert_eq!(e.pos, Pos { line: 3, column: 6 });
        assert_eq!(e.token, "(");
    }

    fn all_names(b: &Body) -> Vec<String> {
        b.groups
            .iter()
            .flat_map(|g| g.moves.iter().map(|m| m.name.clone()))
            .collect()
    }

    /// Lexes the one line `text` and asserts its first error's token and the names of all
    /// its moves.
    fn assert_first_error_and_names(text: &str, token: &str, names: &[&str]) {
        let b = lex(text, 1);
        assert_eq!(b.errors[0].token, token, "{text}");
        assert_eq!(all_names(&b), names, "{text}");
    }

    #[test]
    fn a_typo_is_a_move_as_written_not_the_start_of_a_result() {
        // A doubled letter, a stray character, a missing dot: each stays where it is, for
        // the game to reject, and the moves after it are still read.
        for (text, odd, errors) in [
            ("1. e G 2. hh H 3. g E", "hh", &[][..]),
            ("1. e G 2. h H: 3. g E", "H:", &[]),
            ("1. e G 2 h H 3. g E", "2", &[]),
            ("1. e G 12 h H 3. g E", "12", &["3."]),
            ("1. e G 2. h% H 3. g E", "h%", &[]),
            ("1. e G 2. Gering H 3. g E", "Gering", &[]),
        ] {
            let b = lex(text, 1);
            let names = all_names(&b);
            assert!(names.contains(&odd.to_string()), "{text}: {names:?}");
            assert_eq!(names.last().map(String::as_str), Some("E"), "{text}");
            assert!(b.result.is_none(), "{text}");
            let tokens: Vec<&str> = b.errors.iter().map(|e| e.token.as_str()).collect();
            assert_eq!(tokens, errors, "{text}");
        }
    }

    #[test]
    fn only_the_sources_forms_of_result_statement_end_a_record() {
        let b = lex("1. e G - Gering wins by 2 1/2 points.", 1);
        assert_eq!(result(&b), Some("- Gering wins by 2 1/2 points."));
        // A statement in another form is an error at its place, not a silent end.
        let b = lex("1. e G - Gering wins by lots. 2. h", 1);
        assert_eq!(b.errors.len(), 1, "{:?}", b.errors);
        assert_eq!(b.errors[0].pos, Pos { line: 1, column: 8 });
        assert_eq!(all_names(&b), ["e", "G", "h"]);
        // Text after a statement is an error.
        let b = lex("1. e G - Gering resigns. 2. h H", 1);
        assert_eq!(result(&b), Some("- Gering resigns."));
        assert_eq!(b.errors[0].token, "2. h H");
        // A dash that joins nothing and starts no statement.
        assert_first_error_and_names("1. e -G", "-", &["e", "G"]);
        // " - " and a sentence in no known form: one error for the sentence.
        assert_first_error_and_names(
            "1. e G - Gering winz by 2 points. 2. h",
            "- Gering winz by 2 points.",
            &["e", "G", "h"],
        );
    }

    #[test]
    fn stray_punctuation_is_an_error_and_reading_goes_on() {
        let b = lex("1. e) G ! 2. h (+1 H", 1);
        let tokens: Vec<&str> = b.errors.iter().map(|e| e.token.as_str()).collect();
        assert_eq!(tokens, [")", "!", "("]);
        assert_eq!(all_names(&b), ["e", "G", "h", "+1", "H"]);
        // A stray "(" before an annotation hides no move.
        assert_first_error_and_names("4. ( h xd (+11) 5. xA", "(", &["h", "xd", "xA"]);
    }

    #[test]
    fn pie_decisions_and_huge_numbers() {
        let b = lex("1. c play 2. d", 1);
        assert_eq!(all_names(&b), ["c", "play", "d"]);
        let b = lex("99999999999. e f (+99999999999)", 1);
        assert_eq!(b.errors[0].token, "99999999999.");
        assert_eq!(
            b.groups[1].moves[0].annotation,
            Some(Annotation::Unreadable("(+99999999999)".into()))
        );
    }

    #[test]
    fn move_numbers_out_of_step_are_errors_once() {
        let tokens =
            |t: &str| -> Vec<String> { lex(t, 1).errors.iter().map(|e| e.token.clone()).collect() };
        // A record may start anywhere (a continuation from move 35).
        assert!(tokens("35. a b 36. c d 37. e").is_empty());
        // One typo, one error: the next number may follow the written or the expected.
        assert_eq!(tokens("1. a b 2. c d 9. e f 4. g h 5. i"), ["9."]);
        assert_eq!(tokens("1. a b 2. c d 9. e f 10. g h 11. i"), ["9."]);
        assert_eq!(tokens("1. e G 1. h H"), ["1."]);
        let b = lex("1. a b 3. c", 1);
        assert_eq!(b.errors[0].pos, Pos { line: 1, column: 8 });
        assert!(b.errors[0].expected.contains("2."), "{:?}", b.errors[0]);
        // The moves are all kept, numbered as written.
        assert_eq!(all_names(&b), ["a", "b", "c"]);
    }
}
