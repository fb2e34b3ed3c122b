//! Command-line overrides: `--set key=value` changes any key of the config before it is
//! read, e.g. `--set tournament.pairs=50`, `--set time.tc=10+0.1`,
//! `--set engine.1.options.hashsize=64` (engines by index, or by name:
//! `--set engine.level6.options.evallevel=5`).
//!
//! Each override carries the flag it came from (`--set ...`, `--pairs 0`, `-concurrency 0`),
//! so an error in a value it set names that flag, not the config file.
//!
//! Three conveniences make `--set` say what users mean:
//! - setting one limit of a `time` table (`tc`, `movetime`, `depth`, `nodes`) replaces the
//!   others there: `--set time.tc=10+0.1` on a config with `depth = 4` plays 10+0.1;
//!   likewise `tournament.pairs` and `tournament.games` replace each other;
//! - `engine.N.command=/path` takes a single string as a one-element argv;
//! - `engine.<count>.KEY` (the index just past the last engine) adds an engine, and so
//!   does `engine.+.KEY`; every later `engine.+` in the same command line refers to
//!   that same added engine. `+` is no name an engine has (names are looked up
//!   first, so an engine named `new` is `engine.new`, as README's patch test says).

use thiserror::Error;
use toml::Value;

/// Keys of real configs are at most 4 levels deep (`engine.1.options.hash`); this leaves
/// room and stops a key of thousands of levels (which would nest tables that deep and
/// overflow the stack when they are read or dropped).
pub const MAX_KEY_DEPTH: usize = 16;

/// The limits of a `time` table, of which a config sets exactly one.
const TIME_LIMITS: [&str; 4] = ["tc", "movetime", "depth", "nodes"];

/// The two ways of saying how long a run is, of which a config sets one.
const COUNTS: [&str; 2] = ["pairs", "games"];

/// One override: the `key=value` to apply and the flag that asked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    /// `key=value`, the value as TOML or as a plain string.
    pub assignment: String,
    /// The flag as the user typed it: `--set tournament.pairs=0`, `--pairs 0`.
    pub label: String,
}

impl Override {
    /// `--set key=value`.
    #[must_use]
    pub fn set(assignment: &str) -> Override {
        Override {
            assignment: assignment.to_owned(),
            label: format!("--set {}", shorten(assignment)),
        }
    }

    /// An override asked for by another flag, e.g. `flag("--pairs 0", "tournament.pairs=0")`.
    #[must_use]
    pub fn flag(label: impl Into<String>, assignment: impl Into<String>) -> Override {
        Override {
            assignment: assignment.into(),
            label: label.into(),
        }
    }
}

/// At most 80 characters of a text for an error line.
fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{head}...")
}

/// Why an override could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{label}: {why}")]
pub struct OverrideError {
    /// The flag.
    pub label: String,
    pub why: String,
}

/// The key part that adds an engine (`engine.+.command=...`): not a name an engine has.
pub const ADD_ENGINE: &str = "+";

/// What the overrides of one command line have done so far (the engine `engine.+`
/// added).
#[derive(Debug, Default)]
pub struct Applier {
    added_engine: Option<usize>,
    /// Engines added, by index, with the flag that added each.
    added: Vec<(usize, String)>,
}

/// Splits a dotted key into its parts; a part in double quotes may hold dots and spaces
/// (`engine.0.options."Skill Level"`), with `\"` and `\\` escapes.
fn split_key(path: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut part = String::new();
    let mut chars = path.chars();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if part.is_empty() && !quoted => quoted = true,
            '"' if quoted => {
                quoted = false;
                match chars.next() {
                    None => {}
                    Some('.') => {
                        parts.push(std::mem::take(&mut part));
                        continue;
                    }
                    Some(_) => return Err("a quoted key part must end at a dot".to_owned()),
                }
                parts.push(std::mem::take(&mut part));
                return if chars.next().is_none() {
                    Ok(parts)
                } else {
                    Err("a quoted key part must end at a dot".to_owned())
                };
            }
            '\\' if quoted => part.push(chars.next().unwrap_or('\\')),
            '.' if !quoted => parts.push(std::mem::take(&mut part)),
            c => part.push(c),
        }
    }
    if quoted {
        return Err("a quote in the key is not closed".to_owned());
    }
    parts.push(part);
    Ok(parts)
}

/// Reads a value as TOML (`20`, `true`, `"x"`, `[1, 2]`), else as a plain string.
fn value_of(text: &str) -> Value {
    let probe = format!("v = {text}");
    match probe.parse::<toml::Table>() {
        Ok(mut table) => table
            .remove("v")
            .unwrap_or_else(|| Value::String(text.to_owned())),
        Err(_) => Value::String(text.to_owned()),
    }
}

impl Applier {
    /// A fresh applier for one command line.
    #[must_use]
    pub fn new() -> Applier {
        Applier::default()
    }

    /// Applies one override to the parsed config and returns the path of the key it set,
    /// with engines by index (`["engine", "1", "options", "hash"]`).
    ///
    /// # Errors
    /// [`OverrideError`] when the text has no `=`, the key is too deep, or the path does
    /// not fit the config.
    pub fn apply(
        &mut self,
        config: &mut toml::Table,
        o: &Override,
    ) -> Result<Vec<String>, OverrideError> {
        let error = |why: &str| OverrideError {
            label: o.label.clone(),
            why: why.to_owned(),
        };
        let (path, value) = o
            .assignment
            .split_once('=')
            .ok_or_else(|| error("expected key=value"))?;
        let parts = split_key(path.trim()).map_err(|why| error(&why))?;
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        if parts.len() > MAX_KEY_DEPTH {
            return Err(error(&format!(
                "the key has {} levels; config keys have at most {MAX_KEY_DEPTH}",
                parts.len()
            )));
        }
        if parts.iter().any(|p| p.is_empty()) {
            return Err(error("empty key"));
        }
        let mut value = value_of(value.trim());
        let mut resolved: Vec<String> = Vec::with_capacity(parts.len());
        let mut table = config;
        let mut index = 0;
        while index + 1 < parts.len() {
            let part = parts[index];
            if part == "engine" && resolved.is_empty() {
                let which = parts[index + 1];
                if index + 2 >= parts.len() {
                    return Err(error(
                        "missing key after the engine: engine.<index or name>.<key>",
                    ));
                }
                let slot = self.engine_slot(table, which).map_err(|why| error(&why))?;
                let engines = table
                    .entry("engine")
                    .or_insert_with(|| Value::Array(Vec::new()))
                    .as_array_mut()
                    .ok_or_else(|| error("`engine` is not a list of [[engine]] tables"))?;
                if slot == engines.len() {
                    engines.push(Value::Table(toml::Table::new()));
                    self.added.push((slot, o.label.clone()));
                }
                table = engines
                    .get_mut(slot)
                    .and_then(Value::as_table_mut)
                    .ok_or_else(|| error(&format!("engine {slot} is not a table")))?;
                resolved.extend(["engine".to_owned(), slot.to_string()]);
                index += 2;
                continue;
            }
            let entry = table
                .entry(part.to_owned())
                .or_insert_with(|| Value::Table(toml::Table::new()));
            table = entry
                .as_table_mut()
                .ok_or_else(|| error(&format!("`{part}` is not a table")))?;
            resolved.push(part.to_owned());
            index += 1;
        }
        let last = parts[index];
        let parent = resolved.last().map(String::as_str);
        if parent == Some("time") && TIME_LIMITS.contains(&last) {
            // One limit per table: the new one replaces whichever was there.
            for other in TIME_LIMITS {
                table.remove(other);
            }
        }
        if resolved == ["tournament"] && COUNTS.contains(&last) {
            // `pairs` and `games` say the same thing: the new one replaces the other.
            for other in COUNTS {
                table.remove(other);
            }
        }
        if last == "command" && resolved.len() == 2 && resolved[0] == "engine" {
            if let Value::String(program) = value {
                value = Value::Array(vec![Value::String(program)]);
            }
        }
        table.insert(last.to_owned(), value);
        resolved.push(last.to_owned());
        Ok(resolved)
    }

    /// The engines the overrides added, by index, with the flag that added each.
    #[must_use]
    pub fn added_engines(&self) -> &[(usize, String)] {
        &self.added
    }

    /// What to add to "a match needs exactly 2 engines, found 3" when an override
    /// added the extra one: which engines `config` had, and how to change one of them.
    #[must_use]
    pub fn added_note(&self, config: &toml::Table) -> Option<String> {
        let first_added = self.added.first()?.0;
        let engines = config.get("engine").and_then(Value::as_array)?;
        let names: Vec<String> = engines
            .iter()
            .take(first_added)
            .enumerate()
            .map(|(i, e)| {
                e.get("name")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("engine.{i}"), |n| format!("engine.{n}"))
            })
            .collect();
        let added = self.added.len();
        Some(format!(
            "{added} added by the command line to the config's {}; to change an engine instead, name it ({}) or give its index",
            names.len(),
            names.join(", ")
        ))
    }

    /// The index of the engine `which` names: an index (the count adds one), a name, or
    /// `+` (adds one).
    fn engine_slot(&mut self, config: &toml::Table, which: &str) -> Result<usize, String> {
        let empty = Vec::new();
        let engines = match config.get("engine") {
            Some(Value::Array(a)) => a,
            Some(_) => return Err("`engine` is not a list of [[engine]] tables".to_owned()),
            None => &empty,
        };
        if which == ADD_ENGINE {
            let slot = *self.added_engine.get_or_insert(engines.len());
            return Ok(slot);
        }
        if let Ok(i) = which.parse::<usize>() {
            return if i <= engines.len() {
                Ok(i)
            } else {
                Err(format!(
                    "no engine {i}: the config has {} (engine.{} adds one)",
                    engines.len(),
                    engines.len()
                ))
            };
        }
        engines
            .iter()
            .position(|e| e.get("name").and_then(Value::as_str) == Some(which))
            .ok_or_else(|| {
                let names: Vec<&str> = engines
                    .iter()
                    .filter_map(|e| e.get("name").and_then(Value::as_str))
                    .collect();
                format!(
                    "no engine `{which}` (the engines are {}; engine.{ADD_ENGINE} adds one)",
                    if names.is_empty() {
                        "unnamed".to_owned()
                    } else {
                        names.join(", ")
                    }
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> toml::Table {
        text.parse().expect("toml")
    }

    fn apply(config: &mut toml::Table, text: &str) -> Result<Vec<String>, OverrideError> {
        Applier::new().apply(config, &Override::set(text))
    }

    #[test]
    fn overrides_nested_keys_and_engines() {
        let mut config =
            table("[tournament]\npairs = 1\n[[engine]]\nname = \"a\"\n[[engine]]\nname = \"b\"\n");
        apply(&mut config, "tournament.pairs=20").expect("pairs");
        apply(&mut config, "time.tc=10+0.1").expect("tc");
        let path = apply(&mut config, "engine.b.options.hash=64").expect("by name");
        assert_eq!(path, ["engine", "1", "options", "hash"]);
        apply(&mut config, "engine.0.protocol=uci").expect("by index");
        assert_eq!(config["tournament"]["pairs"].as_integer(), Some(20));
        assert_eq!(config["time"]["tc"].as_str(), Some("10+0.1"));
        assert_eq!(
            config["engine"][1]["options"]["hash"].as_integer(),
            Some(64)
        );
        assert_eq!(config["engine"][0]["protocol"].as_str(), Some("uci"));
        assert!(apply(&mut config, "nothing").is_err());
        let e = apply(&mut config, "engine.zz.x=1").expect_err("no such engine");
        assert!(e.to_string().contains("a, b"), "{e}");
        assert!(apply(&mut config, "tournament.pairs.x=1").is_err());
        assert!(apply(&mut config, "engine.5.x=1").is_err());
        assert!(apply(&mut config, "engine.0=1").is_err());
    }

    #[test]
    fn a_time_limit_replaces_the_others() {
        let mut config =
            table("[time]\ndepth = 4\nmargin = \"50ms\"\n[[engine]]\n[engine.time]\nnodes = 5\n");
        apply(&mut config, "time.tc=10+0.1").expect("tc");
        assert_eq!(config["time"].get("depth"), None);
        assert_eq!(config["time"]["tc"].as_str(), Some("10+0.1"));
        assert_eq!(
            config["time"]["margin"].as_str(),
            Some("50ms"),
            "not a limit"
        );
        apply(&mut config, "engine.0.time.movetime=1s").expect("engine time");
        assert_eq!(config["engine"][0]["time"].get("nodes"), None);
    }

    #[test]
    fn a_command_may_be_one_path_and_engines_can_be_added() {
        let mut config = table("[[engine]]\nname = \"a\"\ncommand = [\"x\"]\n");
        apply(&mut config, "engine.0.command=/opt/my engine").expect("path");
        assert_eq!(
            config["engine"][0]["command"].as_array().map(Vec::len),
            Some(1)
        );
        assert_eq!(
            config["engine"][0]["command"][0].as_str(),
            Some("/opt/my engine")
        );
        assert_eq!(
            apply(&mut config, "engine.1.command=./b").expect("append"),
            ["engine", "1", "command"]
        );
        let mut applier = Applier::new();
        for text in ["engine.+.command=./c", "engine.+.name=c"] {
            let path = applier
                .apply(&mut config, &Override::set(text))
                .expect("new");
            assert_eq!(path[1], "2", "{text}");
        }
        assert_eq!(config["engine"].as_array().map(Vec::len), Some(3));
        assert_eq!(config["engine"][2]["name"].as_str(), Some("c"));
        // A config without engines gets its first one.
        let mut empty = toml::Table::new();
        apply(&mut empty, "engine.0.command=x").expect("first");
        assert_eq!(empty["engine"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn an_engine_named_new_is_that_engine_and_plus_adds_one() {
        let mut config =
            table("[[engine]]\nname = \"new\"\ncommand = [\"x\"]\n[[engine]]\nname = \"base\"\n");
        let mut applier = Applier::new();
        let path = applier
            .apply(
                &mut config,
                &Override::set(r#"engine.new.command=["./new"]"#),
            )
            .expect("by name");
        assert_eq!(path, ["engine", "0", "command"]);
        assert_eq!(config["engine"].as_array().map(Vec::len), Some(2));
        assert_eq!(config["engine"][0]["command"][0].as_str(), Some("./new"));
        assert_eq!(applier.added_note(&config), None, "nothing added");
        applier
            .apply(&mut config, &Override::set("engine.+.command=./third"))
            .expect("added");
        assert_eq!(config["engine"].as_array().map(Vec::len), Some(3));
        let note = applier.added_note(&config).expect("a note");
        assert!(
            note.contains("1 added") && note.contains("(engine.new, engine.base)"),
            "{note}"
        );
        // Without an engine of that name, `new` is a name like any other.
        let mut other = table("[[engine]]\nname = \"a\"\n");
        let e = apply(&mut other, "engine.new.command=x").expect_err("no engine new");
        assert!(e.why.contains("engine.+ adds one"), "{e}");
    }

    #[test]
    fn quoted_key_parts_hold_dots_and_spaces() {
        assert_eq!(
            split_key(r#"engine.0.options."Skill Level""#),
            Ok(vec![
                "engine".into(),
                "0".into(),
                "options".into(),
                "Skill Level".into()
            ])
        );
        assert_eq!(
            split_key(r#"a."b.c".d"#),
            Ok(vec!["a".into(), "b.c".into(), "d".into()])
        );
        assert!(split_key(r#"a."b"#).is_err());
        assert!(split_key(r#"a."b"c"#).is_err());
        let mut config = table("[[engine]]\nname = \"a\"\n");
        apply(&mut config, r#"engine.a.options."Move Overhead"=10"#).expect("quoted");
        assert_eq!(
            config["engine"][0]["options"]["Move Overhead"].as_integer(),
            Some(10)
        );
    }

    #[test]
    fn a_key_too_deep_is_refused_without_building_it() {
        let mut config = toml::Table::new();
        let deep = vec!["a"; 30_000].join(".");
        let e = apply(&mut config, &format!("{deep}=1")).expect_err("too deep");
        assert!(e.why.contains("30000 levels"), "{e}");
        assert!(e.label.len() < 100, "the label is shortened: {}", e.label);
        assert!(config.is_empty());
        let ok = vec!["a"; MAX_KEY_DEPTH].join(".");
        apply(&mut config, &format!("{ok}=1")).expect("the limit itself is fine");
    }
}
