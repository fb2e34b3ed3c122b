//! The runner binary's engine I/O as a user sees it (issues 30 and 31): memory stays
//! small whatever an engine writes on stderr, `--log FILE` records every line to and
//! from every engine, `RUST_LOG` levels show what they promise without colour codes in
//! a pipe, the wrong protocol gets a hint, and `tournament.affinity` pins engines.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::{
    bin, commands_config, eventually, fault_command, kill_all_with, path, processes_with,
    runner_with_env, scratch, wait_for,
};

#[test]
fn three_hundred_megabytes_of_stderr_without_a_newline_cost_no_memory() {
    let folder = scratch("stderr-flood");
    let t = common::tag("stderr-flood");
    let config = commands_config(
        folder.path(),
        1,
        1,
        &fault_command("stderr-flood", &t, &["--mb", "300"]),
        &fault_command("none", &t, &[]),
        "",
    );
    let (code, out, err) = common::runner(&["run", config.to_str().expect("path")]);
    assert_eq!(code, 0, "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(folder.path().join("out/summary.json")).expect("summary"),
    )
    .expect("json");
    let peak_kb = summary["runner"]["peak_rss_kb"]
        .as_u64()
        .expect("peak_rss_kb");
    assert!(
        peak_kb > 0 && peak_kb < 20 * 1024,
        "runner peak {peak_kb} kB"
    );
    let no_faults = summary["faults"].as_object().is_some_and(|engines| {
        engines
            .values()
            .all(|f| f.as_object().is_some_and(serde_json::Map::is_empty))
    });
    assert!(no_faults, "{}", summary["faults"]);
}

#[test]
fn the_log_file_has_every_line_both_ways_with_time_and_engine_and_no_colour() {
    let folder = scratch("log");
    let t = common::tag("log");
    let config = commands_config(
        folder.path(),
        1,
        1,
        &fault_command("gbk-stderr", &t, &[]),
        &fault_command("none", &t, &[]),
        "",
    );
    let log = folder.path().join("engines.log");
    let (code, out, err) = runner_with_env(
        &["run", path(&config), "--log", path(&log)],
        &[("RUST_LOG", "debug")],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&log).expect("log written");
    for (what, needle) in [
        ("hello to the engine", " first#"),
        ("hello sent", "> ucci"),
        ("hello answered", "< ucciok"),
        ("moves asked", "> go depth 1"),
        ("moves answered", "< bestmove "),
        ("stderr", " ! "),
        ("the second engine", " second#"),
        ("ends", " * exited"),
    ] {
        assert!(text.contains(needle), "{what}: no `{needle}` in the log");
    }
    // Every line starts with a UTC time stamp.
    assert!(text
        .lines()
        .all(|l| l.len() > 28 && l.as_bytes()[4] == b'-' && l[..28].contains('T')));
    assert!(!text.contains('\u{1b}'), "no colour codes in the log");
    // RUST_LOG=debug shows the engines' stderr (lossily decoded GBK), no colour in a pipe.
    let stderr = err;
    assert!(
        stderr.contains("stderr:") && stderr.contains('\u{fffd}'),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "no colour codes when stderr is not a terminal"
    );
}

#[test]
fn a_uci_engine_in_a_ucci_config_is_refused_at_once_with_the_fix() {
    let folder = scratch("uci-only");
    let t = common::tag("uci-only-bin");
    let config = commands_config(
        folder.path(),
        1,
        1,
        &fault_command("uci-only", &t, &["--protocol", "uci"]),
        &fault_command("none", &t, &[]),
        "[faults]\nstartup_timeout = \"60s\"\n",
    );
    let started = std::time::Instant::now();
    let (code, out, err) = common::runner(&["run", config.to_str().expect("path")]);
    kill_all_with(&t);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("`first`") && err.contains("protocol = \"uci\""),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "no wait for the 60 s timeout"
    );
}

/// The cores a process may run on (`Cpus_allowed_list` of /proc/<pid>/status).
fn cpus_of(cmdline_needle: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if !text.contains(cmdline_needle) {
                return None;
            }
            let status = std::fs::read_to_string(e.path().join("status")).ok()?;
            status
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(|v| v.trim().to_owned())
        })
        .collect()
}

#[test]
fn affinity_pins_each_game_slot_to_a_core() {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let folder = scratch("affinity");
    let t = common::tag("affinity");
    let config = commands_config(
        folder.path(),
        50,
        2,
        &fault_command("sleep", &t, &["--sleep-ms", "5"]),
        &fault_command("sleep", &t, &["--sleep-ms", "5"]),
        "",
    );
    let text = std::fs::read_to_string(&config).expect("config");
    std::fs::write(
        &config,
        text.replace("seed = 7", "seed = 7\naffinity = true"),
    )
    .expect("write");
    let mut runner = Command::new(bin("xq-runner"))
        .args(["run", config.to_str().expect("path")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    let mut seen: Vec<String> = Vec::new();
    let two_games = eventually(Duration::from_secs(30), || {
        seen = cpus_of(&format!("--tag {t}"));
        seen.len() >= 4
    });
    let _ = runner.kill();
    let _ = wait_for(&mut runner, Duration::from_secs(30));
    let _ = eventually(Duration::from_secs(10), || processes_with(&t).is_empty());
    kill_all_with(&t);
    assert!(two_games, "two games' engines ran: {seen:?}");
    // Each engine is pinned to one core; with two slots on two or more cores, both
    // cores are used.
    assert!(seen.iter().all(|c| c.parse::<usize>().is_ok()), "{seen:?}");
    let mut distinct = seen.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), cores.min(2), "{seen:?}");
}
