//! `[[engine]]`: each engine's program, directory, protocol, coordinates, time control,
//! options and name; then the list as a whole (how many, names used once).

use std::path::{Path, PathBuf};

use super::choice::choice;
use super::{defaults, problem, time, EngineCount, Files};
use crate::client::{Coordinates, EngineSpec};
use crate::config::plan::{EnginePlan, Problem, TournamentKind};
use crate::config::raw::RawEngine;
use crate::game::TimeControl;

/// Every engine, each with its own time control or `global`, checked as a list for `kind`.
pub(super) fn engines(
    kind: TournamentKind,
    raw: &[RawEngine],
    global: (Option<TimeControl>, Option<u32>),
    files: Files,
    count: EngineCount,
) -> Result<Vec<EnginePlan>, Problem> {
    let engines = raw
        .iter()
        .enumerate()
        .map(|(i, e)| engine(i, e, global, files))
        .collect::<Result<Vec<_>, _>>()?;
    let needed = if kind == TournamentKind::Match {
        "exactly 2"
    } else {
        "at least 2"
    };
    let wrong_count = engines.len() < 2 || (kind == TournamentKind::Match && engines.len() != 2);
    if count == EngineCount::ForKind && wrong_count {
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

/// Finds the program of a command: a path (relative to the engine's directory, else to
/// the working directory) must exist, a bare name must be on PATH. Returns the file.
fn find_program(key: &str, program: &str, dir: Option<&Path>) -> Result<PathBuf, Problem> {
    let candidate = Path::new(program);
    let found = if program.contains('/') {
        match dir {
            Some(dir) if candidate.is_relative() && dir.join(candidate).is_file() => {
                Some(dir.join(candidate))
            }
            _ => Some(candidate.to_path_buf()).filter(|c| c.is_file()),
        }
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join(program))
                .find(|p| p.is_file())
        })
    };
    found.ok_or_else(|| {
        problem(
            key,
            format!("engine program `{program}` not found (build it, or fix the path)"),
        )
    })
}

/// The files an engine needs beside its program: each a relative path inside `base`
/// (no `..`), present there.
fn beside_files(
    key: &str,
    names: &[String],
    base: &Path,
) -> Result<Vec<(String, PathBuf)>, Problem> {
    names
        .iter()
        .map(|name| {
            let path = Path::new(name);
            let inside = !name.is_empty()
                && path.is_relative()
                && path
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !inside {
                return Err(problem(
                    key,
                    format!("`{name}`: a file beside the program is named by a relative path inside its folder"),
                ));
            }
            let here = base.join(path);
            if !here.is_file() {
                return Err(problem(
                    key,
                    format!("`{name}` not found in {}", base.display()),
                ));
            }
            Ok((name.clone(), here))
        })
        .collect()
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

/// Where an engine's program and files are on this machine.
struct Placed {
    program: PathBuf,
    command: Vec<String>,
    dir: Option<PathBuf>,
    files: Vec<(String, PathBuf)>,
}

/// Finds the program and the files beside it. With files, the engine runs in its
/// program's folder unless it has a `dir`, as it will on a worker, where the program
/// and its files are placed together.
fn placed(
    index: usize,
    program: &str,
    command: &[String],
    dir: Option<PathBuf>,
    names: &[String],
) -> Result<Placed, Problem> {
    let key = |field: &str| format!("engine.{index}.{field}");
    if let Some(d) = &dir {
        if !d.is_dir() {
            return Err(problem(
                key("dir"),
                format!("working directory `{}` does not exist", d.display()),
            ));
        }
    }
    let program_file = find_program(&key("command"), program, dir.as_deref())?;
    let mut placed = Placed {
        program: program_file,
        command: command.to_vec(),
        dir,
        files: Vec::new(),
    };
    if names.is_empty() {
        return Ok(placed);
    }
    let absolute = std::path::absolute(&placed.program)
        .map_err(|e| problem(key("command"), format!("{}: {e}", placed.program.display())))?;
    let folder = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = placed.dir.clone().unwrap_or_else(|| folder.clone());
    placed.files = beside_files(&key("files"), names, &base)?;
    if placed.dir.is_none() {
        placed.command[0] = absolute.display().to_string();
        placed.dir = Some(folder);
    }
    Ok(placed)
}

fn engine(
    index: usize,
    raw: &RawEngine,
    global: (Option<TimeControl>, Option<u32>),
    on_disk: Files,
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
    let Placed {
        program: program_file,
        command,
        dir,
        files,
    } = match on_disk {
        Files::OnDisk => placed(index, program, &command, dir, &raw.files)?,
        Files::AsWritten => Placed {
            program: PathBuf::from(program),
            files: raw
                .files
                .iter()
                .map(|n| (n.clone(), PathBuf::from(n)))
                .collect(),
            command: command.clone(),
            dir,
        },
    };
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
        Some(t) => time::control(&key("time"), t)?.map(|c| (c, time::depth_cap(t))),
        None => None,
    };
    let (time_control, depth_cap) = own.or(global.0.map(|c| (c, global.1))).ok_or_else(|| {
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
        depth_cap,
        bench: raw.bench,
        restart: raw.restart.unwrap_or(defaults::RESTART),
        program: program_file,
        files,
        upload: raw.upload.unwrap_or(true),
    })
}
