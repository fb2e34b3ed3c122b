//! Run configuration: TOML read in two stages (serde structs with unknown keys
//! rejected, then a validated [`Plan`]), with `--set key=value` overrides. Every error
//! names the file, the line and the key.

mod locate;
mod overrides;
mod plan;
mod raw;

use std::fmt;
use std::path::Path;

pub use overrides::OverrideError;
pub use plan::{EnginePlan, FaultLimits, Kind, OpeningsPlan, OutputPlan, Plan, Problem};
pub use raw::RawConfig;

/// The embedded default run (`configs/quick.toml`), used when no config is given.
pub const EMBEDDED_QUICK: &str = include_str!("../../../configs/quick.toml");

/// A config error, printed as `file:line: key: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// A loaded config: the plan, and the identity of the run for `--resume`.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub plan: Plan,
    /// Hash of everything that decides which games are played (not concurrency or
    /// reporting), to check that a resumed run is the same run.
    pub hash: String,
    /// The config as read, with overrides applied, as TOML.
    pub text: String,
}

/// Reads a config from a file (or the embedded default when `path` is `None`).
///
/// # Errors
/// [`ConfigError`] for unreadable files, TOML syntax, unknown keys, bad values and bad
/// overrides.
pub fn load(path: Option<&Path>, overrides: &[String]) -> Result<Loaded, ConfigError> {
    let (name, text) = match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| ConfigError {
                file: p.display().to_string(),
                line: None,
                key: None,
                message: format!("cannot read: {e}"),
            })?;
            (p.display().to_string(), text)
        }
        None => (
            "configs/quick.toml (embedded)".to_owned(),
            EMBEDDED_QUICK.to_owned(),
        ),
    };
    parse(&name, &text, overrides)
}

/// Reads a config from text; `name` is used in errors.
///
/// # Errors
/// As [`load`].
pub fn parse(name: &str, text: &str, overrides: &[String]) -> Result<Loaded, ConfigError> {
    // One line per error: TOML's messages sometimes run over two.
    let error = |line, key: Option<String>, message: String| ConfigError {
        file: name.to_owned(),
        line,
        key,
        message: message.trim().replace('\n', "; "),
    };
    let line_at = |offset: usize| locate::line_at(text, offset);
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map(|s| line_at(s.start));
        let key = line.and_then(|l| locate::key_on_line(text, l));
        error(line, key, e.message().to_owned())
    })?;
    // Read the file as written first: serde errors then carry the line of the key.
    let mut raw = toml::from_str::<RawConfig>(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| line_at(s.start))
            .or_else(|| first_line_of_unknown(text, e.message()))
            .or_else(|| first_line_with_value(text, e.message()));
        let key = line.and_then(|l| locate::key_on_line(text, l));
        error(line, key, e.message().to_owned())
    })?;
    // Each override is applied and read in turn, so a bad one is named.
    for o in overrides {
        overrides::apply(&mut table, o).map_err(|e| error(None, None, e.to_string()))?;
        raw = toml::Value::Table(table.clone())
            .try_into()
            .map_err(|e: toml::de::Error| {
                error(None, None, format!("--set {o}: {}", e.message()))
            })?;
    }
    let default_dir = format!("out/{}", default_dir_name(name));
    let plan = plan::validate(&raw, &default_dir).map_err(|p| {
        let path: Vec<&str> = p.key.split('.').collect();
        error(locate::line_of(text, &path), Some(p.key.clone()), p.message)
    })?;
    let canonical = toml::to_string(&table).unwrap_or_default();
    Ok(Loaded {
        plan,
        hash: run_hash(&table),
        text: canonical,
    })
}

/// The line of an ``unknown field `x` `` error: the first line that sets `x`.
fn first_line_of_unknown(text: &str, message: &str) -> Option<usize> {
    let field = message.split('`').nth(1)?;
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with(field) && l[field.len()..].trim_start().starts_with('=')
                || l.trim_start_matches('[').starts_with(field) && l.starts_with('[')
        })
        .map(|i| i + 1)
}

/// The line of an ``invalid type: string "x"`` error: the first line assigning that value.
fn first_line_with_value(text: &str, message: &str) -> Option<usize> {
    let value = if let Some(rest) = message.split("string \"").nth(1) {
        format!("\"{}\"", rest.split('"').next()?)
    } else {
        message.split('`').nth(1)?.to_owned()
    };
    text.lines()
        .position(|l| {
            l.split_once('=')
                .is_some_and(|(_, v)| v.trim().starts_with(value.as_str()))
        })
        .map(|i| i + 1)
}

fn default_dir_name(name: &str) -> String {
    Path::new(name.split_whitespace().next().unwrap_or("run"))
        .file_stem()
        .map_or_else(|| "run".to_owned(), |s| s.to_string_lossy().into_owned())
}

/// FNV-1a over the config without the keys that do not change which games are played.
fn run_hash(table: &toml::Table) -> String {
    let mut identity = table.clone();
    if let Some(toml::Value::Table(t)) = identity.get_mut("tournament") {
        t.remove("concurrency");
    }
    if let Some(toml::Value::Table(o)) = identity.get_mut("output") {
        o.remove("report_interval");
    }
    let text = toml::to_string(&identity).unwrap_or_default();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}
