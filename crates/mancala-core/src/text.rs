//! Shared pieces of the one-line position formats: `game key:value key:value ...`.

use crate::error::ParseError;

/// The `key:value` fields of a position line after its leading game name.
#[derive(Debug)]
pub struct Fields<'a> {
    game: &'static str,
    fields: Vec<(&'a str, &'a str, bool)>,
}

impl<'a> Fields<'a> {
    /// Splits `text`, checking that it starts with `game` and that no key repeats.
    pub fn parse(game: &'static str, text: &'a str) -> Result<Self, ParseError> {
        let mut words = text.split_whitespace();
        match words.next() {
            Some(w) if w.eq_ignore_ascii_case(game) => {}
            Some(w) => {
                return Err(ParseError::new(format!(
                    "a {game} position must start with \"{game}\", found \"{w}\""
                )));
            }
            None => return Err(ParseError::new(format!("empty {game} position"))),
        }
        let mut fields: Vec<(&str, &str, bool)> = Vec::new();
        for w in words {
            let Some((k, v)) = w.split_once(':') else {
                return Err(ParseError::new(format!(
                    "{game} position: \"{w}\" is not of the form key:value"
                )));
            };
            if fields.iter().any(|f| f.0 == k) {
                return Err(ParseError::new(format!(
                    "{game} position: field \"{k}\" given twice"
                )));
            }
            fields.push((k, v, false));
        }
        Ok(Fields { game, fields })
    }

    /// The value of a field that must be present.
    pub fn required(&mut self, key: &str) -> Result<&'a str, ParseError> {
        self.optional(key).ok_or_else(|| {
            ParseError::new(format!("{} position: missing field \"{key}:\"", self.game))
        })
    }

    pub fn optional(&mut self, key: &str) -> Option<&'a str> {
        let f = self.fields.iter_mut().find(|f| f.0 == key)?;
        f.2 = true;
        Some(f.1)
    }

    /// Fails on any field no one asked for (a typo must not pass silently).
    pub fn finish(self) -> Result<(), ParseError> {
        if let Some(f) = self.fields.iter().find(|f| !f.2) {
            return Err(ParseError::new(format!(
                "{} position: unknown field \"{}:\"",
                self.game, f.0
            )));
        }
        Ok(())
    }

    pub fn game(&self) -> &'static str {
        self.game
    }

    /// [`Fields::finish`], then the position `built` from the fields read, its error
    /// after the game's name.
    pub fn finish_with<T>(self, built: Result<T, String>) -> Result<T, ParseError> {
        let game = self.game;
        self.finish()?;
        built.map_err(|e| ParseError::new(format!("{game} position: {e}")))
    }

    /// The value of an optional field named by one of `options`; any other word is an
    /// error listing them.
    pub fn choice<T: Copy>(
        &mut self,
        key: &str,
        options: &[(&str, T)],
    ) -> Result<Option<T>, ParseError> {
        let known: Vec<&str> = options.iter().map(|&(name, _)| name).collect();
        let find = |v: &str| options.iter().find(|(name, _)| *name == v).map(|o| o.1);
        self.parsed(key, find, &known.join(", "))
    }

    /// The value of an optional field read by `parse`; a value it refuses is an error
    /// naming the field and the `known` values.
    pub fn parsed<T>(
        &mut self,
        key: &str,
        parse: impl Fn(&str) -> Option<T>,
        known: &str,
    ) -> Result<Option<T>, ParseError> {
        let Some(v) = self.optional(key) else {
            return Ok(None);
        };
        let unknown = || {
            let game = self.game;
            ParseError::new(format!(
                "{game} position: unknown {key} \"{key}:{v}\" (known: {known})"
            ))
        };
        parse(v).map(Some).ok_or_else(unknown)
    }
}

/// Reads a comma-separated list of rule variants (`clockwise,endless-draw`) onto the
/// default rules: `apply` sets one part and says whether it knew it; a part it does not
/// know is an error naming the `game` and the `known` parts, and so are an empty list
/// and two parts that contradict each other (`65,giveaway`: both set the ending), which
/// would otherwise leave the last one silently in force. Two parts contradict each other
/// when their order matters: applied the other way round they give other rules.
pub fn rule_list<R: Default + Clone + PartialEq>(
    text: &str,
    game: &str,
    known: &str,
    mut apply: impl FnMut(&mut R, &str) -> Result<bool, ParseError>,
) -> Result<R, ParseError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if let Some(empty) = parts.iter().position(|p| p.is_empty()) {
        let what = if parts.len() == 1 {
            "no rule is named".to_string()
        } else {
            format!("part {} of \"{text}\" is empty", empty + 1)
        };
        return Err(ParseError::new(format!(
            "{game} rules: {what} (known: {known})"
        )));
    }
    let mut r = R::default();
    for (k, part) in parts.iter().enumerate() {
        if !apply(&mut r, part)? {
            return Err(ParseError::new(format!(
                "unknown {game} rule \"{part}\" (known: {known})"
            )));
        }
        for earlier in &parts[..k] {
            let mut pair = |a: &str, b: &str| -> Result<R, ParseError> {
                let mut x = R::default();
                apply(&mut x, a)?;
                apply(&mut x, b)?;
                Ok(x)
            };
            if pair(earlier, part)? != pair(part, earlier)? {
                return Err(ParseError::new(format!(
                    "{game} rules \"{earlier}\" and \"{part}\" contradict each other; give one"
                )));
            }
        }
    }
    Ok(r)
}

/// Parses a number field, naming the field on error.
pub fn number<T: std::str::FromStr>(game: &str, key: &str, v: &str) -> Result<T, ParseError> {
    v.parse::<T>().map_err(|_| {
        ParseError::new(format!(
            "{game} position: \"{key}:{v}\" is not a valid number"
        ))
    })
}

/// Parses a comma-separated list of counts, naming the field and index on error.
pub fn counts(game: &str, key: &str, v: &str) -> Result<Vec<u8>, ParseError> {
    v.split(',')
        .enumerate()
        .map(|(i, s)| {
            s.trim().parse::<u8>().map_err(|_| {
                ParseError::new(format!(
                    "{game} position: \"{key}\" entry {} is \"{s}\", not a count 0-255",
                    i + 1
                ))
            })
        })
        .collect()
}

/// Writes counts as a comma-separated list.
pub fn join_counts(c: impl IntoIterator<Item = u8>) -> String {
    let v: Vec<String> = c.into_iter().map(|x| x.to_string()).collect();
    v.join(",")
}

/// Formats a half-point quantity (komi) without a trailing ".0".
pub fn half_points(h: i32) -> String {
    if h % 2 == 0 {
        format!("{}", h / 2)
    } else {
        format!("{:.1}", h as f64 / 2.0)
    }
}

/// Parses "2.5", "2", "0.5" into half points.
pub fn parse_half_points(game: &str, key: &str, v: &str) -> Result<i32, ParseError> {
    let bad = || {
        ParseError::new(format!(
            "{game} position: \"{key}:{v}\" must be a multiple of 0.5"
        ))
    };
    let x: f64 = v.parse().map_err(|_| bad())?;
    let h = x * 2.0;
    if !h.is_finite() || h.fract() != 0.0 || h.abs() > 1000.0 {
        return Err(bad());
    }
    Ok(h as i32)
}

/// Komi in half points, stored in a byte: at most 63.5 points either way.
pub fn parse_komi(game: &str, key: &str, v: &str) -> Result<i8, ParseError> {
    let h = parse_half_points(game, key, v)?;
    i8::try_from(h).map_err(|_| {
        ParseError::new(format!(
            "{game} position: \"{key}:{v}\" is out of range: komi is -64 to 63.5 points"
        ))
    })
}

/// The one character of `s` (a move's hole letter); otherwise the error `"t" is not
/// what`, `t` being the whole move text.
pub fn one_char(s: &str, t: &str, what: &str) -> Result<char, ParseError> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(ParseError::new(format!("\"{t}\" is not {what}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_lists_refuse_empty_parts_and_contradictions() {
        use crate::afrika::rules::{Ending, Repetition, Rules as AfrikaRules};
        use crate::andada::rules::Rules as AndadaRules;
        let r = AfrikaRules::parse_variant("65, own-side").unwrap();
        assert_eq!(
            (r.ending, r.repetition),
            (Ending::Majority, Repetition::OwnSide)
        );
        let err = |t: &str| AfrikaRules::parse_variant(t).unwrap_err().to_string();
        assert!(err("65,giveaway").contains("\"65\" and \"giveaway\" contradict"));
        assert!(err("komi=2.5,komi=1.5").contains("contradict"));
        assert!(err("").contains("no rule is named"));
        assert!(err("65,,own-side").contains("part 2 of \"65,,own-side\" is empty"));
        // The same rule twice says one thing.
        assert!(AfrikaRules::parse_variant("65,65").is_ok());
        let andada = |t: &str| AndadaRules::parse_variant(t).map_err(|e| e.to_string());
        assert!(
            andada("clockwise,counterclockwise")
                .unwrap_err()
                .contains("contradict")
        );
        assert!(andada("clockwise,endless-draw").is_ok());
    }

    #[test]
    fn fields_reject_unknown_duplicate_and_malformed() {
        assert!(Fields::parse("afrika", "kauri a:1").is_err());
        assert!(Fields::parse("afrika", "afrika a:1 a:2").is_err());
        assert!(Fields::parse("afrika", "afrika a").is_err());
        let mut f = Fields::parse("afrika", "afrika a:1 b:2").unwrap();
        assert_eq!(f.required("a").unwrap(), "1");
        let e = f.finish().unwrap_err();
        assert!(e.0.contains("unknown field \"b:\""), "{e}");
    }

    #[test]
    fn counts_name_the_bad_entry() {
        assert_eq!(counts("g", "south", "1,2,3").unwrap(), vec![1, 2, 3]);
        let e = counts("g", "south", "1,x,3").unwrap_err();
        assert!(e.0.contains("entry 2"), "{e}");
    }

    #[test]
    fn half_points_round_trip() {
        for h in [-5, 0, 1, 4, 5] {
            assert_eq!(parse_half_points("g", "komi", &half_points(h)).unwrap(), h);
        }
        assert!(parse_half_points("g", "komi", "0.3").is_err());
    }
}
