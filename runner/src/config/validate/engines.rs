//! `[[engine]]`: each engine's program, directory, protocol, coordinates, time control,
//! options and name; then the list as a whole (how many, names used once).

use std::path::{Path, PathBuf};

use super::choice::choice;
use super::{defaults, problem, time};
use crate::client::{Coordinates, EngineSpec};
use crate::config::plan::{EnginePlan, Problem, TournamentKind};
use crate::config::raw::RawEngine;
use crate::game::TimeControl;

/// Every engine, each with its own time control or `global`, checked as a list for `kind`.
pub(super) fn engines(
    kind: TournamentKind,
    raw: &[RawEngine],
    global: Option<TimeControl>,
) -> Result<Vec<EnginePlan>, Problem> {
    let engines = raw
        .iter()
        .enumerate()
        .map(|(i, e)| engine(i, e, global))
        .collect::<Result<Vec<_>, _>>()?;
    let needed = if kind == TournamentKind::Match {
        "exactly 2"
    } else {
        "at least 2"
    };
    if engines.len() < 2 || (kind == TournamentKind::Match && engines.len() != 2) {
        return Err(problem(
            "engine",
            format!(
                "a {kind:?} needs {needed} [[engine]] tables, found {}",
                engines.len()
            )
            .to_lowercase(),
        ));
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i]
            .iter()
            .any(|other| other.spec.name == e.spec.name)
        {
            return Err(problem(
                format!("engine.{i}.name"),
                format!("engine name `{}` is used twice", e.spec.name),
            ));
        }
    }
    Ok(engines)
}

/// Finds the program of a command: a path (relative to the working directory) must
/// exist, a bare name must be on PATH.
fn check_program(key: &str, program: &str, dir: Option<&Path>) -> Result<(), Problem> {
    let candidate = Path::new(program);
    let exists = if program.contains('/') {
        match dir {
            Some(dir) if candidate.is_relative() => {
                dir.join(candidate).is_file() || candidate.is_file()
            }
            _ => candidate.is_file(),
        }
    } else {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
            .unwrap_or(false)
    };
    if exists {
        Ok(())
    } else {
        Err(problem(
            key,
            format!("engine program `{program}` not found (build it, or fix the path)"),
        ))
    }
}

/// Refuses a text with a line break or another control character: options and names
/// are sent to the engine, or written to files, as parts of one line, and a line break
/// in them would start a command of its own (`"6\nquit"`).
fn single_line(key: &str, text: &str) -> Result<(), Problem> {
    match text.chars().find(|c| c.is_control()) {
        Some(c) => Err(problem(
            key,
            format!("{:?} contains the control character {c:?}", text),
        )),
        None => Ok(()),
    }
}

fn option_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn engine(
    index: usize,
    raw: &RawEngine,
    global: Option<TimeControl>,
) -> Result<EnginePlan, Problem> {
    let key = |field: &str| format!("engine.{index}.{field}");
    let command = raw.command.clone().unwrap_or_default();
    let Some(program) = command.first() else {
        return Err(problem(
            key("command"),
            "missing: the program and its arguments, e.g. [\"target/release/xq-engine\"]",
        ));
    };
    let dir = raw.dir.as_ref().map(PathBuf::from);
    if let Some(d) = &dir {
        if !d.is_dir() {
            return Err(problem(
                key("dir"),
                format!("working directory `{}` does not exist", d.display()),
            ));
        }
    }
    check_program(&key("command"), program, dir.as_deref())?;
    let protocol = match raw.protocol.as_deref() {
        None => defaults::PROTOCOL,
        Some(p) => p.parse().map_err(|e: String| problem(key("protocol"), e))?,
    };
    let coordinates = choice(
        &key("coordinates"),
        raw.coordinates.as_deref(),
        defaults::COORDINATES,
        &[("0-9", Coordinates::Zero), ("1-10", Coordinates::One)],
        "\"0-9\" or \"1-10\"",
    )?;
    let own = match &raw.time {
        Some(t) => time::control(&key("time"), t)?,
        None => None,
    };
    let time_control = own.or(global).ok_or_else(|| {
        problem(
            "time",
            "no time control: set one of tc, movetime, depth, nodes",
        )
    })?;
    let options: Vec<(String, String)> = raw
        .options
        .iter()
        .map(|(k, v)| (k.clone(), option_text(v)))
        .collect();
    for (option, value) in &options {
        let key = key(&format!("options.{option}"));
        single_line(&key, option)?;
        single_line(&key, value)?;
    }
    if let Some(name) = &raw.name {
        single_line(&key("name"), name)?;
        if name == crate::config::overrides::ADD_ENGINE {
            // `--set engine.+.KEY` adds an engine: a name that could never be set.
            return Err(problem(
                key("name"),
                "`+` adds an engine on the command line (--set engine.+.KEY): give another name",
            ));
        }
    }
    let name = raw
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| {
            let base = Path::new(program)
                .file_name()
                .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned());
            format!("{base}-{}", index + 1)
        });
    Ok(EnginePlan {
        spec: EngineSpec {
            name,
            command,
            working_dir: dir,
            env: raw
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            protocol,
            coordinates,
            options,
        },
        time_control,
        bench: raw.bench,
        restart: raw.restart.unwrap_or(defaults::RESTART),
    })
}
