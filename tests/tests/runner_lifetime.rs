//! The runner binary against engines that will not go (issue 31): a runner stopped by
//! SIGTERM or SIGHUP ends its games and every engine like Ctrl-C, even engines that
//! ignore `quit`, end of input and SIGTERM, and their children in sessions of their
//! own; a runner killed by SIGKILL takes its engines with it (parent-death signal), and
//! what they started in other sessions is killed by the next runner that starts.

mod common;

use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use common::{
    bin, commands_config, eventually, fault_command, kill_all_with, processes_with, scratch,
    wait_for,
};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// One test at a time: a runner ends what any earlier runner left behind on the machine,
/// so another test's run could end the processes the SIGKILL test leaves for its own
/// next run (it then said nothing, about one run in three).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts a long run of an engine that ignores every way to stop it against one with a
/// child in a session of its own, both tagged `tag`; returns once games are played.
fn start_stubborn_run(dir: &std::path::Path, tag: &str) -> Child {
    start_stubborn_run_logging(dir, tag, Stdio::null())
}

/// [`start_stubborn_run`] with the runner's stderr (at `RUST_LOG=info`) in `stderr`.
fn start_stubborn_run_logging(dir: &std::path::Path, tag: &str, stderr: Stdio) -> Child {
    let config = commands_config(
        dir,
        500,
        2,
        &fault_command("ignore-quit", tag, &[]),
        &fault_command("setsid-child", tag, &[]),
        "",
    );
    let child = Command::new(bin("xq-runner"))
        .args(["run", config.to_str().expect("path")])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("start runner");
    let journal = dir.join("out").join("games.jsonl");
    let playing = eventually(Duration::from_secs(30), || {
        std::fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() >= 2)
    });
    assert!(playing, "the run plays games");
    let orphans = format!("orphan --tag {tag}");
    assert!(
        !processes_with(&orphans).is_empty(),
        "the engines' children in their own sessions run"
    );
    child
}

fn signal(child: &Child, signal: Signal) {
    kill(Pid::from_raw(child.id() as i32), signal).expect("signal the runner");
}

#[test]
fn sigterm_and_sighup_stop_the_run_like_ctrl_c_and_leave_no_process() {
    let _serial = serial();
    for (name, sig) in [("sigterm", Signal::SIGTERM), ("sighup", Signal::SIGHUP)] {
        let folder = scratch(name);
        let tag = common::tag(name);
        let mut runner = start_stubborn_run(folder.path(), &tag);
        signal(&runner, sig);
        let code = wait_for(&mut runner, Duration::from_secs(60));
        let gone = eventually(Duration::from_secs(10), || processes_with(&tag).is_empty());
        let left = processes_with(&tag);
        kill_all_with(&tag);
        assert_eq!(code, Some(4), "{name}: an interrupted run exits 4");
        assert!(gone, "{name}: left behind: {left:?}");
        // The journal is whole and resumable: every line parses.
        let entries = common::journal(&folder.path().join("out"));
        assert!(!entries.is_empty(), "{name}");
    }
}

#[test]
fn sigkill_takes_the_engines_along_and_the_next_runner_ends_the_rest() {
    let _serial = serial();
    let folder = scratch("sigkill");
    let tag = common::tag("sigkill");
    let mut runner = start_stubborn_run(folder.path(), &tag);
    signal(&runner, Signal::SIGKILL);
    let _ = runner.wait();
    // The engines themselves die with the runner.
    let engines = [
        format!("ignore-quit --tag {tag}"),
        format!("setsid-child --tag {tag}"),
    ];
    let engines_gone = eventually(Duration::from_secs(10), || {
        engines.iter().all(|e| processes_with(e).is_empty())
    });
    let engines_left: Vec<String> = engines.iter().flat_map(|e| processes_with(e)).collect();
    // What they started in sessions of their own is out of the kernel's reach; the next
    // runner on the machine finds it by its mark and ends it.
    let other = scratch("sigkill-next");
    let config = commands_config(
        other.path(),
        1,
        1,
        &fault_command("none", "next-run", &[]),
        &fault_command("none", "next-run", &[]),
        "",
    );
    let (code, out, err) = common::runner(&["run", config.to_str().expect("path")]);
    let rest_gone = eventually(Duration::from_secs(10), || processes_with(&tag).is_empty());
    let rest_left = processes_with(&tag);
    kill_all_with(&tag);
    assert!(
        engines_gone,
        "engines outlived a killed runner: {engines_left:?}"
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("left behind by xq-runner"),
        "the next run says so: {err}"
    );
    assert!(rest_gone, "left behind after the next run: {rest_left:?}");
}

#[test]
fn a_second_signal_kills_every_engine_process_before_exiting() {
    let _serial = serial();
    let folder = scratch("second-signal");
    let tag = common::tag("second-signal");
    let log = folder.path().join("stderr.txt");
    let file = std::fs::File::create(&log).expect("stderr file");
    let mut runner = start_stubborn_run_logging(folder.path(), &tag, Stdio::from(file));
    // Back to back: the second comes while the first's clean stop is still under way,
    // so the runner exits at once; what the engines started in sessions of their own is
    // beyond the parent-death signal and dies only because the runner kills it.
    signal(&runner, Signal::SIGTERM);
    signal(&runner, Signal::SIGINT);
    let code = wait_for(&mut runner, Duration::from_secs(60));
    let gone = eventually(Duration::from_secs(10), || processes_with(&tag).is_empty());
    let left = processes_with(&tag);
    kill_all_with(&tag);
    let err = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(code, Some(4), "a runner quit by a second signal exits 4");
    assert!(gone, "left behind: {left:?}");
    assert!(
        err.contains("second signal: killed"),
        "the second signal's sweep ran: {err}"
    );
}
