//! Run configuration: TOML read in two stages (serde structs with unknown keys
//! rejected, then a validated [`Plan`]), with `--set key=value` overrides. Every error
//! names the file, the line and the key.

mod embedded;
mod fault_kind;
pub(crate) mod locate;
mod overrides;
mod pgn;
mod plan;
mod raw;
pub(crate) mod self_play;
mod validate;

use std::fmt;
use std::path::Path;

use crate::fnv::{fnv1a_hex, Fnv1a};

pub(crate) use embedded::cache_dir;
pub(crate) use fault_kind::FaultKind;
pub(crate) use overrides::{Applier, Override};
pub use pgn::{MoveFormat, PgnExtras};
pub(crate) use plan::{book_use, FaultLimits, PgnOut};
pub use plan::{EnginePlan, Plan, TournamentKind};
pub(crate) use raw::RawConfig;
pub(crate) use validate::EngineCount;
use validate::Files;

/// A config error, printed as `file:line: key: message`, or `flag: key: message` when
/// a command-line flag set the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    pub line: Option<usize>,
    /// The flag that set the bad value (`--concurrency 0`, `--set time.tc=x`).
    pub flag: Option<String>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.flag {
            Some(flag) => write!(f, "{flag}")?,
            None => {
                write!(f, "{}", self.file)?;
                if let Some(line) = self.line {
                    write!(f, ":{line}")?;
                }
            }
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    /// An error of a workload's own table (`[tune]`, `[datagen]`) in `file`, its message
    /// on one line.
    pub(crate) fn in_file(
        file: &str,
        line: Option<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            file: file.to_owned(),
            line,
            flag: None,
            key: key.map(str::to_owned),
            message: message.into().trim().replace('\n', "; "),
        }
    }
}

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
pub(crate) fn load(path: Option<&Path>, overrides: &[Override]) -> Result<Loaded, ConfigError> {
    let (name, text) = match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| ConfigError {
                file: p.display().to_string(),
                line: None,
                flag: None,
                key: None,
                message: format!("cannot read: {e}"),
            })?;
            (p.display().to_string(), text)
        }
        None => (
            "configs/quick.toml (embedded)".to_owned(),
            embedded::quick(),
        ),
    };
    parse(&name, &text, overrides)
}

/// Reads a config from text; `name` is used in errors.
///
/// # Errors
/// As [`load`].
pub fn parse(name: &str, text: &str, overrides: &[Override]) -> Result<Loaded, ConfigError> {
    parse_with(name, text, overrides, Files::OnDisk, EngineCount::ForKind)
}

/// Reads the sections a workload's config shares with a run's (`[time]`, `[openings]`,
/// `[[engine]]`, ...) as a run reads them, errors located alike: `own` names the table
/// the workload reads itself (`tune`), left out here.
///
/// # Errors
/// As [`load`]; also a table `own` written other than as `[own]` and its sub-tables
/// (a dotted key elsewhere would be read here as an unknown key).
pub(crate) fn parse_shared(
    name: &str,
    text: &str,
    own: &str,
    engines: EngineCount,
    overrides: &[Override],
) -> Result<Loaded, ConfigError> {
    // The table's lines are commented out, not removed, so every other line keeps its
    // number for errors.
    let rest = locate::without_table(text, own);
    let all = text.parse::<toml::Table>().map(|mut all| {
        all.remove(own);
        all
    });
    if let (Ok(all), Ok(rest)) = (all, rest.parse::<toml::Table>()) {
        if all != rest {
            return Err(ConfigError {
                file: name.to_owned(),
                line: locate::line_of(text, &[own]),
                flag: None,
                key: Some(own.to_owned()),
                message: format!("write the {own} settings as a [{own}] table and its sub-tables"),
            });
        }
    }
    parse_with(name, &rest, overrides, Files::OnDisk, engines)
}

/// Reads the config of a stored run on any machine (`status`, `verify`): as [`parse`],
/// but its programs and files are taken as written, not looked for here.
///
/// # Errors
/// As [`load`].
pub(crate) fn parse_stored(name: &str, text: &str) -> Result<Loaded, ConfigError> {
    parse_with(name, text, &[], Files::AsWritten, EngineCount::ForKind)
}

fn parse_with(
    name: &str,
    text: &str,
    overrides: &[Override],
    files: Files,
    engines: EngineCount,
) -> Result<Loaded, ConfigError> {
    // One line per error: TOML's messages sometimes run over two.
    let error = |line, key: Option<String>, message: String| ConfigError {
        file: name.to_owned(),
        line,
        flag: None,
        key,
        message: friendly(message.trim()).replace('\n', "; "),
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
    let mut applier = Applier::new();
    let mut applied: Vec<(Vec<String>, &str)> = Vec::with_capacity(overrides.len());
    for o in overrides {
        let flagged = |key: Option<String>, message: String| ConfigError {
            flag: Some(o.label.clone()),
            ..error(None, key, message)
        };
        let path = applier
            .apply(&mut table, o)
            .map_err(|e| flagged(None, e.why))?;
        raw = toml::Value::Table(table.clone())
            .try_into()
            .map_err(|e: toml::de::Error| flagged(Some(path.join(".")), e.message().to_owned()))?;
        applied.push((path, o.label.as_str()));
    }
    let default_dir = format!("out/{}", default_dir_name(name));
    let plan = validate::validate(&raw, &default_dir, files, engines).map_err(|p| {
        let flag = blame(&p.key, &applied, applier.added_engines());
        let path: Vec<&str> = p.key.split('.').collect();
        let line = if flag.is_some() {
            None
        } else {
            locate::line_of(text, &path)
        };
        let mut message = p.message;
        if p.key == "engine" {
            // Too many engines because a flag added one: say so, and how to change one.
            if let Some(note) = applier.added_note(&table) {
                message = format!("{message} ({note})");
            }
        }
        ConfigError {
            flag,
            ..error(line, Some(p.key.clone()), message)
        }
    })?;
    // A table read from TOML always writes back; should it not, the run's identity
    // (the resume hash) would be the hash of nothing, so say so instead.
    let unwritable = |e: toml::ser::Error| {
        error(
            None,
            None,
            format!("cannot write the config back as TOML: {e}"),
        )
    };
    let canonical = toml::to_string(&table).map_err(unwritable)?;
    let hash = run_hash(&table).map_err(unwritable)?;
    Ok(Loaded {
        plan,
        hash,
        text: canonical,
    })
}

/// The flag behind a validation problem at `key`: the last override that set that key,
/// a key inside it or a table around it, else the override that added the engine the
/// key is in; `None` when the value came from the file.
fn blame(key: &str, applied: &[(Vec<String>, &str)], added: &[(usize, String)]) -> Option<String> {
    let key: Vec<&str> = key.split('.').collect();
    if key == ["engine"] {
        // The number of engines: only an override that added one changes it.
        return added.last().map(|(_, label)| label.clone());
    }
    // The key itself, a key inside a table it set, or a table around the key it set.
    let related = |path: &[String]| path.iter().zip(&key).all(|(a, b)| a == b);
    if let Some((_, label)) = applied.iter().rev().find(|(path, _)| related(path)) {
        return Some((*label).to_owned());
    }
    match key.as_slice() {
        ["engine", index, ..] => added
            .iter()
            .find(|(i, _)| i.to_string() == *index)
            .map(|(_, label)| label.clone()),
        _ => None,
    }
}

/// serde's type names said in words: ``invalid value: integer `-1`, expected u64``
/// becomes ``-1 is negative: expected a whole number (0 or more)``.
fn friendly(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid value: integer `-") {
        if let Some((number, tail)) = rest.split_once('`') {
            if tail.contains("expected u") {
                return format!("-{number} is negative: expected a whole number (0 or more)");
            }
        }
    }
    message
        .replace("expected u64", "expected a whole number (0 or more)")
        .replace("expected u32", "expected a whole number (0 or more)")
        .replace("expected usize", "expected a whole number (0 or more)")
        .replace("expected i32", "expected a whole number")
        .replace("expected f64", "expected a number")
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

/// Keys that do not change which games a run plays: how fast it plays them, how long it
/// goes on, where and how it reports. A run resumed, extended or moved to another folder
/// with other values of these is the same run.
const NOT_IDENTITY: [(&str, &str); 10] = [
    ("tournament", "concurrency"),
    ("tournament", "pairs"),
    ("tournament", "games"),
    ("tournament", "event"),
    ("tournament", "description"),
    ("tournament", "affinity"),
    ("faults", "max_crashes"),
    ("faults", "max_time_losses"),
    ("faults", "max_illegal_moves"),
    ("output", "*"),
];

/// The config without the keys of [`NOT_IDENTITY`].
fn identity(table: &toml::Table) -> toml::Table {
    let mut identity = table.clone();
    for (section, key) in NOT_IDENTITY {
        if key == "*" {
            identity.remove(section);
        } else if let Some(toml::Value::Table(t)) = identity.get_mut(section) {
            t.remove(key);
        }
    }
    identity
}

/// The fingerprint of a file's bytes (read in chunks: opening files may be large).
///
/// # Errors
/// The file cannot be read.
pub(crate) fn fingerprint_file(path: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let mut file = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut hash = Fnv1a::new();
    let mut chunk = [0u8; 1 << 16];
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        hash.write(&chunk[..n]);
    }
    Ok(hash.hex())
}

/// The hash of everything in the config that decides which games are played.
fn run_hash(table: &toml::Table) -> Result<String, toml::ser::Error> {
    Ok(fnv1a_hex(toml::to_string(&identity(table))?.as_bytes()))
}

/// The keys (dotted, e.g. `time.depth`, `engine.1.options`) whose values differ between
/// two configs in what decides the games: why a resume with `new` is refused. Configs
/// that do not parse differ in `(the whole config)`.
#[must_use]
pub(crate) fn differences(old: &str, new: &str) -> Vec<String> {
    let (Ok(old), Ok(new)) = (old.parse::<toml::Table>(), new.parse::<toml::Table>()) else {
        return vec!["(the whole config)".to_owned()];
    };
    let mut out = Vec::new();
    diff_tables("", &identity(&old), &identity(&new), &mut out);
    out
}

fn diff_tables(prefix: &str, old: &toml::Table, new: &toml::Table, out: &mut Vec<String>) {
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match (old.get(key), new.get(key)) {
            (Some(toml::Value::Table(a)), Some(toml::Value::Table(b))) => {
                diff_tables(&name, a, b, out);
            }
            (Some(toml::Value::Array(a)), Some(toml::Value::Array(b)))
                if a.len() == b.len() && a.iter().all(toml::Value::is_table) =>
            {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    if let (toml::Value::Table(x), toml::Value::Table(y)) = (x, y) {
                        diff_tables(&format!("{name}.{i}"), x, y, out);
                    }
                }
            }
            (a, b) if a != b => out.push(name),
            _ => {}
        }
    }
}
