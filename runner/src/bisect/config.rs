//! The match settings of the steps: the user's run config made into a template once
//! (a match of two engines, the bisection's SPRT in place of its `[sprt]`, no
//! `pgnout` and no `bench` signatures, which differ from build to build), then, for
//! each step, the tested build and build 0 put in as the two engines' programs (their
//! arguments, options and times kept) and the step's folder as `output.dir`. The step
//! is then read by `config::parse` as any run config is.

use std::path::Path;

use toml::{Table, Value};

use super::state::Design;
use super::BisectError;
use crate::config::Loaded;

fn bad(file: &str, why: impl std::fmt::Display) -> BisectError {
    BisectError::Input(format!("--config {file}: {why}"))
}

/// The table `key` of `table`, made if missing.
fn section<'t>(table: &'t mut Table, key: &str, file: &str) -> Result<&'t mut Table, BisectError> {
    table
        .entry(key)
        .or_insert_with(|| Value::Table(Table::new()))
        .as_table_mut()
        .ok_or_else(|| bad(file, format!("`{key}` is not a table")))
}

/// The template of the steps' config from the text of a run config (`file` names it
/// in errors).
///
/// # Errors
/// [`BisectError::Input`]: not TOML, or not one or two engines.
pub fn template(
    file: &str,
    text: &str,
    design: &Design,
    pairs: Option<u64>,
) -> Result<String, BisectError> {
    let mut table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| bad(file, e.message().trim().replace('\n', "; ")))?;
    let tournament = section(&mut table, "tournament", file)?;
    tournament.insert("kind".into(), Value::String("match".into()));
    if let Some(p) = pairs {
        tournament.remove("games");
        tournament.insert(
            "pairs".into(),
            Value::Integer(i64::try_from(p).map_err(|_| bad(file, "--pairs: too many"))?),
        );
    }
    let mut sprt = Table::new();
    sprt.insert("elo0".into(), Value::Float(-design.elo));
    sprt.insert("elo1".into(), Value::Float(0.0));
    sprt.insert("alpha".into(), Value::Float(design.alpha));
    sprt.insert("beta".into(), Value::Float(design.beta));
    sprt.insert("model".into(), Value::String("normalized".into()));
    table.insert("sprt".into(), Value::Table(sprt));
    if let Some(output) = table.get_mut("output").and_then(Value::as_table_mut) {
        output.remove("pgnout");
        output.remove("pgnout_append");
        output.remove("dir");
    }
    let engines = table
        .get_mut("engine")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| bad(file, "no [[engine]]: bisect needs one or two to fill in"))?;
    match engines.len() {
        1 => {
            let copy = engines[0].clone();
            engines.push(copy);
        }
        2 => {}
        n => {
            return Err(bad(
                file,
                format!("{n} [[engine]] entries: bisect plays a match, give one or two (their programs are the builds)"),
            ))
        }
    }
    for engine in engines.iter_mut() {
        let engine = engine
            .as_table_mut()
            .ok_or_else(|| bad(file, "[[engine]] is not a table"))?;
        engine.remove("bench");
    }
    toml::to_string(&table).map_err(|e| bad(file, e))
}

/// Sets `tournament.concurrency` in a template (a resume's `--concurrency`).
///
/// # Errors
/// [`BisectError::State`]-like input errors when the template is not TOML.
pub fn with_concurrency(template: &str, concurrency: usize) -> Result<String, BisectError> {
    let mut table: Table = template
        .parse()
        .map_err(|e: toml::de::Error| bad("bisect.json", e.message().trim().to_owned()))?;
    section(&mut table, "tournament", "bisect.json")?.insert(
        "concurrency".into(),
        Value::Integer(i64::try_from(concurrency).unwrap_or(i64::MAX)),
    );
    toml::to_string(&table).map_err(|e| bad("bisect.json", e))
}

/// One engine of a step: its name and program.
#[derive(Debug)]
pub struct Side<'a> {
    pub name: String,
    pub program: &'a Path,
}

/// The config of one step: `tested` as the first engine (the one the SPRT measures),
/// `good` as the second, played into `dir`.
///
/// # Errors
/// [`BisectError::Config`] when the result is not a valid run config.
pub fn step(
    file: &str,
    template: &str,
    tested: &Side<'_>,
    good: &Side<'_>,
    dir: &Path,
) -> Result<Loaded, BisectError> {
    let mut table: Table = template
        .parse()
        .map_err(|e: toml::de::Error| bad(file, e.message().trim().to_owned()))?;
    let engines = table
        .get_mut("engine")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| bad(file, "no [[engine]]"))?;
    for (engine, side) in engines.iter_mut().zip([tested, good]) {
        let engine = engine
            .as_table_mut()
            .ok_or_else(|| bad(file, "[[engine]] is not a table"))?;
        let program = Value::String(side.program.display().to_string());
        let mut command = match engine.remove("command") {
            Some(Value::Array(words)) => words,
            _ => Vec::new(),
        };
        match command.first_mut() {
            Some(first) => *first = program,
            None => command.push(program),
        }
        engine.insert("command".into(), Value::Array(command));
        engine.insert("name".into(), Value::String(side.name.clone()));
    }
    section(&mut table, "output", file)?
        .insert("dir".into(), Value::String(dir.display().to_string()));
    let text = toml::to_string(&table).map_err(|e| bad(file, e))?;
    crate::config::parse(&format!("{file} (as bisect plays it)"), &text, &[])
        .map_err(BisectError::Config)
}
