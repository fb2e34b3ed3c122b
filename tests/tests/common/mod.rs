//! Shared helpers of the end-to-end tests: where the binaries are, engine specs, and a
//! look at the process table.

#![allow(dead_code)]

pub mod fleet;
pub mod pg;
pub mod web;

use std::path::PathBuf;

use xq_runner::client::{Coordinates, EngineSpec, Protocol};

/// The directory of the binaries of this build (`target/<profile>`).
pub fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test> -> target/<profile>
    exe.parent()
        .and_then(|deps| deps.parent())
        .map(PathBuf::from)
        .expect("target directory")
}

/// A workspace binary; panics with the command to build it when it is missing.
pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(name);
    assert!(
        path.is_file(),
        "{} is missing: run `cargo build --workspace` with the same profile first",
        path.display()
    );
    path
}

/// The fault-injection engine.
pub fn fault_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_fault-engine"))
}

/// A unique tag for the processes of one test.
pub fn tag(test: &str) -> String {
    format!("{test}-{}", std::process::id())
}

/// A fault engine spec with a fault and extra arguments.
pub fn fault_spec(name: &str, tag: &str, fault: &str, extra: &[&str]) -> EngineSpec {
    let mut command = vec![
        fault_engine().display().to_string(),
        "--fault".into(),
        fault.into(),
        "--tag".into(),
        tag.into(),
    ];
    command.extend(extra.iter().map(|s| (*s).to_owned()));
    EngineSpec {
        name: name.to_owned(),
        command,
        working_dir: None,
        env: Vec::new(),
        protocol: Protocol::Ucci,
        coordinates: Coordinates::Zero,
        options: Vec::new(),
    }
}

/// Our engine at an evaluation level.
pub fn xq_engine_spec(name: &str, level: u8) -> EngineSpec {
    EngineSpec {
        name: name.to_owned(),
        command: vec![bin("xq-engine").display().to_string()],
        working_dir: None,
        env: Vec::new(),
        protocol: Protocol::Ucci,
        coordinates: Coordinates::Zero,
        options: vec![
            ("evallevel".to_owned(), level.to_string()),
            ("hashsize".to_owned(), "8".to_owned()),
        ],
    }
}

/// Processes whose command line contains `needle` (reads /proc).
pub fn processes_with(needle: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .chars()
                .all(|c| c.is_ascii_digit())
        })
        .filter_map(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            let state = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // Zombies are gone for every purpose but the table.
            let zombie = state.split(") ").nth(1).is_some_and(|s| s.starts_with('Z'));
            (text.contains(needle) && !zombie).then_some(text)
        })
        .collect()
}

/// A fresh scratch folder for one test, removed with everything in it when the value is
/// dropped (use `.path()`).
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("xq-tests-{name}-"))
        .tempdir()
        .expect("scratch folder")
}

/// The shipped opening suite of the repository.
pub fn mainlines() -> PathBuf {
    workspace().join("openings/mainlines.epd")
}

/// The best `skill` of the tune engine in the tune tests (its `--best`).
pub const TUNE_BEST: f64 = 70.0;

/// A tune of the tune engine's `skill` from `start`, written to `dir/tune.toml`:
/// `engine_args` are added to the engine's command, `extra` goes before `[tune]`, and
/// `params` replaces the `[[tune.param]]` table.
pub fn tune_config(
    dir: &std::path::Path,
    pairs: u32,
    start: f64,
    engine_args: &str,
    extra: &str,
    params: Option<&str>,
) -> PathBuf {
    let engine = PathBuf::from(env!("CARGO_BIN_EXE_tune-engine"));
    let default_param = format!(
        "[[tune.param]]\nname = \"skill\"\nstart = {start}\nmin = 0\nmax = 100\nc_end = 8\nr_end = 0.05\n"
    );
    let text = format!(
        r#"[tournament]
concurrency = 2
seed = 5

[time]
movetime = "1ms"

[rules]
move_limit = 60

[adjudication]
max_plies = 150

[output]
dir = "{out}"

[[engine]]
name = "te"
command = ["{engine}"{engine_args}, "--best", "{TUNE_BEST}"]
{extra}
[tune]
pairs = {pairs}

{param}"#,
        out = dir.join("out").display(),
        engine = engine.display(),
        param = params.unwrap_or(&default_param),
    );
    let path = dir.join("tune.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// A match config of our engine at two eval levels, fixed depth, written to `dir`.
pub fn match_config(dir: &std::path::Path, pairs: u32, extra: &str) -> PathBuf {
    let engine = bin("xq-engine").display().to_string();
    let text = format!(
        r#"[tournament]
kind = "match"
pairs = {pairs}
concurrency = 2
seed = 7

[time]
depth = 2

[openings]
file = "{openings}"
order = "random"

[rules]
ruleset = "asian"

[output]
dir = "{out}"

{extra}

[[engine]]
name = "level6"
command = ["{engine}"]
options = {{ evallevel = "6", hashsize = "4" }}

[[engine]]
name = "level0"
command = ["{engine}"]
options = {{ evallevel = "0", hashsize = "4" }}
"#,
        openings = mainlines().display(),
        out = dir.join("out").display(),
    );
    let path = dir.join("run.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// A match of two instant fault engines at depth 1 (deterministic, varied games),
/// written to `dir`: `engine_args` is what follows the program in each engine's
/// `command` list, as TOML (`, "--sleep-ms", "5"`), `extra` more TOML.
pub fn fault_config(
    dir: &std::path::Path,
    pairs: u32,
    openings: &std::path::Path,
    engine_args: [&str; 2],
    extra: &str,
) -> PathBuf {
    let engine = fault_engine().display().to_string();
    let [args_a, args_b] = engine_args;
    let text = format!(
        r#"[tournament]
pairs = {pairs}
concurrency = 2
seed = 3

[time]
depth = 1

[openings]
file = "{openings}"
order = "random"

[output]
dir = "{out}"

{extra}

[[engine]]
name = "a"
command = ["{engine}"{args_a}]

[[engine]]
name = "b"
command = ["{engine}"{args_b}]
"#,
        openings = openings.display(),
        out = dir.join("out").display(),
    );
    let path = dir.join("run.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// A path as text, for a command line.
pub fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Runs `xq-runner` with arguments; returns (exit code, stdout, stderr).
pub fn runner(args: &[&str]) -> (i32, String, String) {
    output_of(std::process::Command::new(bin("xq-runner")).args(args))
}

/// Runs `xq-runner` with arguments from the folder `dir` (relative paths in configs
/// resolve there); returns (exit code, stdout, stderr).
pub fn runner_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    output_of(
        std::process::Command::new(bin("xq-runner"))
            .args(args)
            .current_dir(dir),
    )
}

/// Runs `xq-runner` with arguments, with the variables of `set` set and those of
/// `unset` removed from its environment; returns (exit code, stdout, stderr).
pub fn runner_with_env(
    args: &[&str],
    set: &[(&str, &str)],
    unset: &[&str],
) -> (i32, String, String) {
    let mut command = std::process::Command::new(bin("xq-runner"));
    command.args(args).envs(set.iter().copied());
    for name in unset {
        command.env_remove(name);
    }
    output_of(&mut command)
}

/// Runs `xq-runner` with arguments from the folder `dir`, with the variables of `set`
/// set; returns (exit code, stdout, stderr).
pub fn runner_with_env_in(
    dir: &std::path::Path,
    args: &[&str],
    set: &[(&str, &str)],
) -> (i32, String, String) {
    output_of(
        std::process::Command::new(bin("xq-runner"))
            .args(args)
            .envs(set.iter().copied())
            .current_dir(dir),
    )
}

fn output_of(command: &mut std::process::Command) -> (i32, String, String) {
    let out = command.output().expect("run xq-runner");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The repository's top folder.
pub fn workspace() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The journal lines of a run folder, parsed.
pub fn journal(dir: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("journal line is JSON"))
        .collect()
}

/// How many games a live run has written so far: complete lines only, since a reader
/// may catch the runner between the bytes of one line.
pub fn journal_games_so_far(dir: &std::path::Path) -> usize {
    std::fs::read(dir.join("games.jsonl"))
        .map(|bytes| bytes.iter().filter(|&&b| b == b'\n').count())
        .unwrap_or(0)
}

/// Journal entries without the fields that depend on timing, sorted by pair and game.
pub fn timeless(mut entries: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    for e in &mut entries {
        if let Some(map) = e.as_object_mut() {
            map.remove("times_ms");
            map.remove("duration_ms");
            // Nodes per second are nodes over the time a search took.
            map.remove("nps");
        }
    }
    entries.sort_by_key(|e| (e["pair"].as_u64(), e["game"].as_u64()));
    entries
}

/// A fault engine's command for a config: `["fault-engine", "--fault", F, "--tag", T, ...]`.
pub fn fault_command(fault: &str, tag: &str, extra: &[&str]) -> Vec<String> {
    fault_spec("x", tag, fault, extra).command
}

/// A match config between two commands, written to `dir` (results in `dir/out`).
/// `extra` goes in at the top level (tables such as `[faults]`).
pub fn commands_config(
    dir: &std::path::Path,
    pairs: u32,
    concurrency: u32,
    first: &[String],
    second: &[String],
    extra: &str,
) -> PathBuf {
    let argv = |c: &[String]| {
        let quoted: Vec<String> = c.iter().map(|a| format!("{a:?}")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let text = format!(
        r#"[tournament]
kind = "match"
pairs = {pairs}
concurrency = {concurrency}
seed = 7

[time]
depth = 1

[adjudication]
max_plies = 60

[output]
dir = "{out}"

{extra}

[[engine]]
name = "first"
command = {first}

[[engine]]
name = "second"
command = {second}
"#,
        out = dir.join("out").display(),
        first = argv(first),
        second = argv(second),
    );
    let path = dir.join("run.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// Polls `done` every 50 ms until it holds or `limit` passes; whether it held.
pub fn eventually(limit: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    done()
}

/// Waits for a child for at most `limit`; its exit code (`None`: killed by a signal),
/// or it is killed and the test fails.
pub fn wait_for(child: &mut std::process::Child, limit: std::time::Duration) -> Option<i32> {
    let mut status = None;
    let ended = eventually(limit, || {
        status = child.try_wait().ok().flatten();
        status.is_some()
    });
    if !ended {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the runner did not end within {limit:?}");
    }
    status.and_then(|s| s.code())
}

/// Kills (SIGKILL) every process whose command line holds `needle` (a test's cleanup,
/// so that a failed test leaves nothing running).
pub fn kill_all_with(needle: &str) {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline)
            .replace('\0', " ")
            .contains(needle)
        {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}
