//! A datagen config: the `[datagen]` table, one `[[engine]]` that plays itself, and
//! everything else meaning what it means for `run` (`[time]`, `[openings]`, `[rules]`,
//! `[adjudication]`, `output.dir`, `tournament.concurrency`, `seed`), read by the
//! runner's own config code so their errors are located alike.

use serde::Deserialize;
use toml::Spanned;

use crate::config::locate::{line_at, line_of};
use crate::config::self_play::{self, SelfPlayWords};
use crate::config::{parse_shared, ConfigError, EngineCount, Override, Plan};
use crate::game::{ResignRule, TimeControl};

/// What `[datagen]` asks for, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatagenSettings {
    /// Positions to write in all: positions an engine searched, every one of a game
    /// (the trainer's filters choose among them when it reads).
    pub positions: u64,
    /// Random legal plies after the book opening of every game.
    pub random_plies: u32,
    /// A game both sides score beyond this (engine units) is adjudicated: the runner's
    /// resign rule, unless the config has its own `[adjudication]` resign rule.
    pub score_limit: i32,
    /// Plies the engines play before a game is a draw by length (`max_plies`).
    pub ply_limit: u32,
    /// Seeds the random plies.
    pub seed: u64,
}

impl DatagenSettings {
    /// What decides the games and the positions kept, for a resume to compare: all but
    /// `positions` (a resume may ask for more).
    #[must_use]
    pub fn identity(&self) -> String {
        format!(
            "random_plies={} score_limit={} ply_limit={} seed={}",
            self.random_plies, self.score_limit, self.ply_limit, self.seed
        )
    }
}

/// A validated datagen.
#[derive(Clone, Debug)]
pub struct DatagenPlan {
    /// Two copies of the engine (indices 0 and 1, one process for each colour) in one
    /// pairing; `pairs` is unbounded (the positions decide when it ends).
    pub plan: Plan,
    pub settings: DatagenSettings,
    /// The hash of the shared sections that decide the games (as a run's resume
    /// compares), with [`DatagenSettings::identity`].
    pub identity: String,
}

/// `[datagen]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDatagen {
    positions: Option<u64>,
    random_plies: Option<u32>,
    score_limit: Option<i32>,
    ply_limit: Option<u32>,
    seed: Option<u64>,
    /// Gone: the writer keeps every position, the trainer drops repeats. Read only to
    /// say so.
    dedup: Option<bool>,
}

/// The parts of the file datagen reads itself.
#[derive(Debug, Deserialize)]
struct DatagenFile {
    datagen: Option<Spanned<RawDatagen>>,
}

const WORDS: SelfPlayWords = SelfPlayWords {
    one_engine: "datagen plays exactly one [[engine]] against itself",
    no_engine: "missing: the [[engine]] that plays itself",
    fixed_length: |_| "datagen plays until it has datagen.positions: leave this key out".to_owned(),
    no_sprt: "datagen has no SPRT: leave the [sprt] section out",
};

/// Defaults: 8 random plies (issue 49), a limit of two rooks (a rook is 1000 units)
/// beyond which the result is settled, games capped at 400 plies.
const RANDOM_PLIES: u32 = 8;
const SCORE_LIMIT: i32 = 2000;
const PLY_LIMIT: u32 = 400;
/// Consecutive moves each side scores beyond `score_limit` before adjudication.
const RESIGN_MOVES: u32 = 4;

fn error(
    file: &str,
    line: Option<usize>,
    key: Option<&str>,
    message: impl Into<String>,
) -> ConfigError {
    ConfigError::in_file(file, line, key, message)
}

/// For `run` given a datagen config: the one line that sends the user to `datagen`;
/// `None` when the file is not one.
#[must_use]
pub fn sent_to_datagen(path: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = line_of(&text, &["datagen"])?;
    let file = path.display();
    Some(format!(
        "{file}:{line}: datagen: a datagen config is played by `xq-runner datagen {file}`, not by `run`"
    ))
}

/// Reads a datagen config from its text; `name` is used in errors.
///
/// # Errors
/// One [`ConfigError`] naming the file, line and key of the first problem.
pub fn parse(name: &str, text: &str, overrides: &[Override]) -> Result<DatagenPlan, ConfigError> {
    let file: DatagenFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_at(text, s.start));
        error(name, line, None, e.message().to_owned())
    })?;
    let Some(raw) = file.datagen else {
        return Err(error(
            name,
            None,
            Some("datagen"),
            "missing: a [datagen] table with `positions` (see docs/nnue.md)",
        ));
    };
    let datagen_line = line_at(text, raw.span().start);
    let raw = raw.into_inner();
    self_play::check(name, text, &WORDS)?;
    let settings = settings(name, text, &raw, datagen_line)?;

    // The shared sections want a length; the positions decide it (set below).
    let mut overrides = overrides.to_vec();
    overrides.push(Override::flag("datagen", "tournament.pairs=1"));
    let loaded = parse_shared(
        name,
        text,
        "datagen",
        EngineCount::OneAgainstItself,
        &overrides,
    )?;
    let mut plan = loaded.plan;
    let [engine] = plan.engines.as_slice() else {
        return Err(error(
            name,
            None,
            Some("engine"),
            format!(
                "datagen plays exactly one [[engine]]; --set made {}",
                plan.engines.len()
            ),
        ));
    };
    // A clock makes a position's score depend on the machine's load and the moment;
    // fixed nodes or depth give the same search for the same position.
    if !matches!(
        engine.time_control,
        TimeControl::Nodes(_) | TimeControl::Depth(_)
    ) {
        return Err(error(
            name,
            line_of(text, &["time"]),
            Some("time"),
            format!(
                "datagen searches at fixed nodes or depth: set time.nodes or time.depth (found {})",
                engine.time_control
            ),
        ));
    }
    // Two processes of the one engine, one per colour, each with its own hash table, as
    // a match plays: the slot pool plays a game between two engine indices.
    let mut red = engine.clone();
    let mut black = engine.clone();
    red.spec.name = format!("{}-red", engine.spec.name);
    black.spec.name = format!("{}-black", engine.spec.name);
    plan.engines = vec![red, black];
    plan.pairings = vec![(0, 1)];
    // Every game is its own round (its own opening and random plies): the book keeps
    // every opening of the file.
    plan.pairs = u64::MAX;
    plan.sprt = None;
    plan.settings.max_plies = Some(
        plan.settings
            .max_plies
            .map_or(settings.ply_limit, |m| m.min(settings.ply_limit)),
    );
    if plan.settings.resign.is_none() {
        plan.settings.resign = Some(ResignRule {
            move_count: RESIGN_MOVES,
            score: settings.score_limit,
            two_sided: true,
        });
    }
    let identity = format!("{} {}", loaded.hash, settings.identity());
    Ok(DatagenPlan {
        plan,
        settings,
        identity,
    })
}

/// `[datagen]`'s values, defaults filled in and each checked.
fn settings(
    name: &str,
    text: &str,
    raw: &RawDatagen,
    datagen_line: usize,
) -> Result<DatagenSettings, ConfigError> {
    let at = |key: &str| line_of(text, &["datagen", key]).or(Some(datagen_line));
    let positions = match raw.positions {
        None => {
            return Err(error(
                name,
                Some(datagen_line),
                Some("datagen.positions"),
                "missing: how many positions to write",
            ))
        }
        Some(0) => {
            return Err(error(
                name,
                at("positions"),
                Some("datagen.positions"),
                "must be at least 1",
            ))
        }
        Some(p) => p,
    };
    if raw.dedup.is_some() {
        return Err(error(
            name,
            at("dedup"),
            Some("datagen.dedup"),
            "datagen keeps every position now, and `xq-nnue train --dedup` drops repeated ones: leave this key out",
        ));
    }
    let score_limit = raw.score_limit.unwrap_or(SCORE_LIMIT);
    if score_limit <= 0 || score_limit > i32::from(i16::MAX) {
        return Err(error(
            name,
            at("score_limit"),
            Some("datagen.score_limit"),
            format!("{score_limit}: expected 1 to {} (engine units)", i16::MAX),
        ));
    }
    let ply_limit = raw.ply_limit.unwrap_or(PLY_LIMIT);
    if ply_limit == 0 {
        return Err(error(
            name,
            at("ply_limit"),
            Some("datagen.ply_limit"),
            "must be at least 1",
        ));
    }
    Ok(DatagenSettings {
        positions,
        random_plies: raw.random_plies.unwrap_or(RANDOM_PLIES),
        score_limit,
        ply_limit,
        seed: raw.seed.unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(time: &str, datagen: &str) -> String {
        format!(
            "[time]\n{time}\n\n[[engine]]\nname = \"e\"\ncommand = [\"/bin/sh\"]\n\n[datagen]\n{datagen}\n"
        )
    }

    #[test]
    fn one_engine_becomes_two_processes_with_the_limits_as_adjudication() {
        let dg = parse("d.toml", &config("nodes = 500", "positions = 7"), &[]).expect("valid");
        assert_eq!(dg.plan.engines.len(), 2);
        assert_eq!(dg.plan.pairings, vec![(0, 1)]);
        assert_eq!(dg.settings.positions, 7);
        assert_eq!(dg.settings.random_plies, RANDOM_PLIES);
        assert_eq!(dg.plan.settings.max_plies, Some(PLY_LIMIT));
        let resign = dg.plan.settings.resign.expect("a resign rule");
        assert_eq!(resign.score, SCORE_LIMIT);
        // The positions are not part of what a resume compares.
        let more = parse("d.toml", &config("nodes = 500", "positions = 70"), &[]).expect("valid");
        assert_eq!(dg.identity, more.identity);
        let other = parse(
            "d.toml",
            &config("nodes = 500", "positions = 7\nseed = 2"),
            &[],
        )
        .expect("valid");
        assert_ne!(dg.identity, other.identity);
    }

    #[test]
    fn the_ready_config_is_a_datagen_at_fixed_nodes() {
        // Its paths are the repository's, and the engine need not be built here.
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let text = include_str!("../../../configs/datagen.toml")
            .replace("\"target/release/xq-engine\"", "\"/bin/sh\"")
            .replace("\"openings/", &format!("\"{root}/openings/"));
        let dg = parse("configs/datagen.toml", &text, &[]).expect("the ready config");
        assert_eq!(dg.plan.engines[0].time_control, TimeControl::Nodes(5000));
        assert!(dg.settings.positions >= 1_000_000);
    }

    #[test]
    fn problems_name_their_line() {
        let problem = |text: &str| {
            parse("d.toml", text, &[])
                .map(|_| ())
                .expect_err("refused")
                .to_string()
        };
        assert_eq!(
            problem(&config("tc = \"1+0.1\"", "positions = 7")),
            "d.toml:1: time: datagen searches at fixed nodes or depth: set time.nodes or time.depth (found 1+0.1)"
        );
        assert_eq!(
            problem(&config("depth = 2", "positions = 7\nscore_limit = 40000")),
            "d.toml:10: datagen.score_limit: 40000: expected 1 to 32767 (engine units)"
        );
        assert_eq!(
            problem(&config("depth = 2", "positions = 7\nply_limit = 0")),
            "d.toml:10: datagen.ply_limit: must be at least 1"
        );
        assert!(
            problem(&format!("{}[sprt]\n", config("depth = 2", "positions = 7")))
                .starts_with("d.toml:10: sprt:")
        );
    }
}
