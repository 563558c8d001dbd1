//! The POSITION argument of `solve`, `show` and `play`: a file from `positions/`, an
//! inline position in a game's one-line format, or a named standard start such as
//! `kalah:6x4`, `afrika:8x8`, `afrika:4x3`, `andada:6`, `progressive:11`, `kauri`.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use mancala_core::record::{self, RecordFile, RuleChange, parse_file_lenient, start_position};

use mancala_core::registry::{self, GameInfo};

use crate::dispatch::CliGame;
use crate::input::{display_name, read_text};

/// Where a position comes from.
pub enum Source {
    /// `game:spec`, a standard start.
    Named {
        game: &'static GameInfo,
        spec: String,
    },
    /// A position line given on the command line.
    Inline {
        game: &'static GameInfo,
        text: String,
    },
    /// A file: tags, then a position line or a record to replay.
    File {
        game: &'static GameInfo,
        name: String,
        file: RecordFile,
        position_line: Option<String>,
    },
}

impl Source {
    pub fn game(&self) -> &'static GameInfo {
        match self {
            Source::Named { game, .. }
            | Source::Inline { game, .. }
            | Source::File { game, .. } => game,
        }
    }
}

/// The rule options every command that sets up a position takes.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RuleArgs {
    /// Rule variant, e.g. afrika: standard, 65, giveaway, own-side; kauri: current,
    /// tiebreak; progressive: majority, all; andada: clockwise, endless-draw; kalah:
    /// standard-capture.
    #[arg(long)]
    pub rules: Option<String>,
    /// Komi for the second player in points (Afrika only), e.g. 2.5 or -1.5.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::args::komi)]
    pub komi: Option<String>,
}

impl RuleArgs {
    /// These options, playing a record file's first `ply` moves.
    pub fn with_ply(&self, ply: Option<usize>) -> RuleOptions {
        RuleOptions {
            rules: self.rules.clone(),
            komi: self.komi.clone(),
            ply,
        }
    }
}

/// [`RuleArgs`] and `--ply`, for the commands that take the position a record reaches.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RecordArgs {
    #[command(flatten)]
    pub rule_args: RuleArgs,
    /// With a record file: the position after its first N moves (play stops there).
    #[arg(long, value_parser = crate::args::ply)]
    pub ply: Option<usize>,
}

impl RecordArgs {
    /// The rule options and the moves to play.
    pub fn options(&self) -> RuleOptions {
        self.rule_args.with_ply(self.ply)
    }
}

/// Rule options from the command line, applied on top of the position's own.
#[derive(Default, Clone, Debug)]
pub struct RuleOptions {
    pub rules: Option<String>,
    pub komi: Option<String>,
    /// Play only this many moves of a record file.
    pub ply: Option<usize>,
}

/// Works out what kind of argument `arg` is and which game it belongs to.
pub fn classify(arg: &str) -> Result<Source> {
    classify_as(arg, None)
}

/// Like [`classify`]; `game` (from `--game`) names the game of a file without a [Game] tag
/// or position line (a bare move list), and must agree with the game of any other
/// argument (a tag, a position line, a named start).
pub fn classify_as(arg: &str, game: Option<&str>) -> Result<Source> {
    let src = classify_source(arg, game)?;
    if let Some(g) = game {
        let g = registry::find(g)?;
        if g.kind != src.game().kind {
            bail!(
                "{}: a {} position, but --game {} was given",
                display_name(arg),
                src.game().name,
                g.name
            );
        }
    }
    Ok(src)
}

fn classify_source(arg: &str, game: Option<&str>) -> Result<Source> {
    let first_word = arg.split_whitespace().next().unwrap_or("");
    // An inline position: "afrika south:... north:...".
    if arg.contains(char::is_whitespace)
        && arg.contains(':')
        && let Ok(game) = registry::find(first_word)
    {
        return Ok(Source::Inline {
            game,
            text: arg.to_string(),
        });
    }
    if arg == "-" || Path::new(arg).exists() {
        let name = if arg == "-" {
            "<stdin>".to_string()
        } else {
            arg.to_string()
        };
        let text = read_text(arg)?;
        let file = parse_file_lenient(&name, &text).map_err(anyhow::Error::new)?;
        let body = file.text.trim();
        let body_first = body.split_whitespace().next().unwrap_or("");
        let position_line =
            (registry::find(body_first).is_ok() && body.contains(':')).then(|| body.to_string());
        if position_line.is_none() {
            // A record: every token of it must be read.
            file.check_readable(&name, true)
                .map_err(anyhow::Error::new)?;
        }
        let tagged = match file.tags.get("Game") {
            Some(g) => Some(registry::find(g).with_context(|| format!("{name}: [Game] tag"))?),
            None => None,
        };
        let given = game.map(registry::find).transpose()?;
        let game = match (tagged, given, &position_line) {
            (Some(t), Some(g), _) if t.kind != g.kind => {
                bail!(
                    "{name}: the file says [Game \"{}\"] but --game {} was given",
                    t.name,
                    g.name
                )
            }
            (Some(t), _, _) => t,
            (None, _, Some(_)) => registry::find(body_first)?,
            (None, Some(g), None) => g,
            (None, None, None) => bail!(
                "{name}: no [Game] tag and no position line: cannot tell the game (give --game)"
            ),
        };
        return Ok(Source::File {
            game,
            name,
            file,
            position_line,
        });
    }
    // A named start: "kalah:6x4", "kauri".
    let (g, spec) = arg.split_once(':').unwrap_or((arg, ""));
    if let Ok(game) = registry::find(g) {
        return Ok(Source::Named {
            game,
            spec: spec.to_string(),
        });
    }
    if arg.contains('/') || arg.contains('.') {
        bail!("{arg}: no such file");
    }
    bail!(
        "\"{arg}\" is not a file, a position line or a named start (for example {})",
        named_examples()
    )
}

/// Examples of named starts of every registered game, for error messages.
fn named_examples() -> String {
    let mut examples: Vec<&str> = Vec::new();
    for info in registry::GAMES {
        for example in info.examples.split(" or ") {
            examples.push(example.split(" (").next().unwrap_or(example));
        }
    }
    examples.join(", ")
}

/// The command line's rule options read for `G`; a komi for a game without komi is an
/// error.
pub fn rule_change<G: CliGame>(opts: &RuleOptions) -> Result<RuleChange<G::Rules>> {
    if opts.komi.is_some() && !G::HAS_KOMI {
        bail!("--komi: {} has no komi", G::NAME);
    }
    let change = RuleChange::read::<G>(opts.rules.as_deref(), opts.komi.as_deref(), "--komi");
    change.map_err(|e| anyhow!("{e}"))
}

/// The start position of a record file, with the command line's rule options made on top
/// of its own tags.
pub fn record_start<G: CliGame>(name: &str, file: &RecordFile, opts: &RuleOptions) -> Result<G> {
    let change = rule_change::<G>(opts)?;
    let start: G = start_position(&file.tags).map_err(|e| anyhow!("{name}: {e}"))?;
    start
        .with_rule_change(change)
        .map_err(|e| anyhow!("{name}: {e}"))
}

/// The position a source describes, with the command line's rule options applied.
pub fn build<G: CliGame>(src: &Source, opts: &RuleOptions) -> Result<G> {
    Ok(build_line(src, opts)?.0)
}

/// [`build`], and the positions a record played before it (oldest first; none for any
/// other source): the history its value may depend on.
pub fn build_line<G: CliGame>(src: &Source, opts: &RuleOptions) -> Result<(G, Vec<G>)> {
    let change = rule_change::<G>(opts)?;
    let mut before = Vec::new();
    let g: G = match src {
        Source::Named { game, spec } => {
            let tags = game.start_tags(spec)?;
            let start = G::standard_start(&tags).map_err(|e| {
                if spec.is_empty() {
                    anyhow!("{}: {e}", game.name)
                } else {
                    anyhow!("{}:{spec}: {e}", game.name)
                }
            })?;
            start.with_rule_change(change).map_err(|e| anyhow!("{e}"))?
        }
        Source::Inline { text, .. } => G::from_text(text)
            .map_err(|e| anyhow!("{e}"))?
            .with_rule_change(change)
            .map_err(|e| anyhow!("{e}"))?,
        Source::File {
            name,
            file,
            position_line,
            ..
        } => {
            if let Some(line) = position_line {
                G::from_text(line)
                    .map_err(|e| anyhow!("{name}: {e}"))?
                    .apply_rule_tags(&file.tags)
                    .map_err(|e| anyhow!("{name}: {e}"))?
                    .with_rule_change(change)
                    .map_err(|e| anyhow!("{name}: {e}"))?
            } else {
                let start = record_start::<G>(name, file, opts)?;
                replay(name, file, start, opts.ply, &mut before)?
            }
        }
    };
    if opts.ply.is_some()
        && !matches!(
            src,
            Source::File {
                position_line: None,
                ..
            }
        )
    {
        bail!("--ply applies to record files only");
    }
    Ok((g, before))
}

/// Plays the moves of a record from `start` (all of them, or the first `ply`), each
/// checked, the positions before each move going to `before`; an unreadable or illegal
/// move is an error naming the file, line and ply.
pub fn replay<G: CliGame>(
    name: &str,
    file: &RecordFile,
    start: G,
    ply: Option<usize>,
    before: &mut Vec<G>,
) -> Result<G> {
    let len = file.moves().count();
    if let Some(p) = ply
        && p > len
    {
        bail!("{name}: --ply {p}, but the record has only {len} moves");
    }
    let g = record::replay(name, file, start, ply.unwrap_or(len), |s| {
        before.push(s.before)
    })?;
    warn_if_inconsistent(name, file, start);
    Ok(g)
}

/// Says on standard error when a record that replays is still inconsistent (a capture
/// amount or the result statement that the rules do not give): replaying plays the moves
/// as written and does not check the amounts, which `verify` does.
pub fn warn_if_inconsistent<G: CliGame>(name: &str, file: &RecordFile, start: G) {
    // A record stripped of its moves (`play` sets up its start so) has nothing to check,
    // and a bare move line (no capture amount, no result) claims nothing to check.
    let body = &file.body;
    let annotated = body
        .groups
        .iter()
        .any(|g| g.annotation.is_some() || g.moves.iter().any(|m| m.annotation.is_some()));
    if file.moves().next().is_none() || !(annotated || body.result.is_some()) {
        return;
    }
    let report = record::verify(file, start);
    if let Some(first) = report.issues.first() {
        errln!(
            "warning: {name}: {} issue(s) in the record, the first at line {}, column {}: \
             recorded \"{}\", the rules give {}; `mancala verify {name}` lists them",
            report.issues.len(),
            first.pos.line,
            first.pos.column,
            first.recorded,
            first.actual
        );
    }
}
