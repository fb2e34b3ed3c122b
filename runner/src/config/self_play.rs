//! What a workload that plays one engine against itself (a tune, a datagen) refuses in
//! the sections it shares with a run: a second `[[engine]]` or none, a length of its
//! own in `[tournament]` (the workload's table decides it), and an `[sprt]`.

use serde::Deserialize;
use toml::Spanned;

use super::locate::{line_at, line_of};
use super::ConfigError;

/// The shared sections as such a workload reads them (read apart from the workload's
/// own table: `Spanned` keeps no span under `#[serde(flatten)]`).
#[derive(Debug, Default, Deserialize)]
struct SelfPlaySections {
    #[serde(default)]
    engine: Vec<Spanned<toml::Value>>,
    #[serde(default)]
    tournament: toml::Table,
    sprt: Option<Spanned<toml::Value>>,
}

/// What the workload says when it refuses each.
pub(crate) struct SelfPlayWords {
    /// Before `; found N` when there are two engines or more.
    pub one_engine: &'static str,
    /// When there is none.
    pub no_engine: &'static str,
    /// Why `tournament.KEY` is refused, for `pairs`, `games` and `kind`.
    pub fixed_length: fn(&str) -> String,
    /// Why `[sprt]` is refused.
    pub no_sprt: &'static str,
}

/// The first thing of the shared sections of file `name` (whose text is `text`) that
/// the workload refuses, as an error at its line.
///
/// # Errors
/// One [`ConfigError`] naming the line and key.
pub(crate) fn check(name: &str, text: &str, words: &SelfPlayWords) -> Result<(), ConfigError> {
    let this: SelfPlaySections = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_at(text, s.start));
        ConfigError::in_file(name, line, None, e.message().to_owned())
    })?;
    this.refused(name, text, words)
}

impl SelfPlaySections {
    fn refused(&self, name: &str, text: &str, words: &SelfPlayWords) -> Result<(), ConfigError> {
        if let Some(second) = self.engine.get(1) {
            let why = format!("{}; found {}", words.one_engine, self.engine.len());
            let line = line_at(text, second.span().start);
            return Err(ConfigError::in_file(
                name,
                Some(line),
                Some("engine.1"),
                why,
            ));
        }
        if self.engine.is_empty() {
            return Err(ConfigError::in_file(
                name,
                None,
                Some("engine"),
                words.no_engine,
            ));
        }
        for key in ["pairs", "games", "kind"] {
            if self.tournament.contains_key(key) {
                return Err(ConfigError::in_file(
                    name,
                    line_of(text, &["tournament", key]),
                    Some(&format!("tournament.{key}")),
                    (words.fixed_length)(key),
                ));
            }
        }
        if let Some(sprt) = &self.sprt {
            return Err(ConfigError::in_file(
                name,
                Some(line_at(text, sprt.span().start)),
                Some("sprt"),
                words.no_sprt,
            ));
        }
        Ok(())
    }
}
