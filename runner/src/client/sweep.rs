//! Finding what an engine left behind, through `/proc` (Linux).
//!
//! Every engine is started with `XQ_RUNNER_ENGINE=<runner>.<n>` in its environment
//! (the mark); children inherit the environment, in any process group or session, so
//! a process an engine started and moved into its own session (`setsid`, a daemon's
//! double fork) still carries the mark and is found here. Jenkins' process-tree killer
//! finds a build's processes the same way. A process that clears or rewrites its
//! environment loses the mark; while its parent chain to the engine is intact it is
//! still found as a descendant. `<runner>` is the runner's pid, start time and PID
//! namespace, so the marks of a runner that was killed with SIGKILL are told from those
//! of a live one (and a runner in a container is not judged from outside).
//!
//! Only processes of the same user can be read, and only those are killed.

use std::collections::{HashMap, HashSet};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// The environment variable that marks engine processes.
pub const MARK_VAR: &str = "XQ_RUNNER_ENGINE";

/// What one process looks like in `/proc`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    pid: i32,
    ppid: i32,
    /// The value of [`MARK_VAR`], if set.
    mark: Option<String>,
}

/// The `(ppid, start time)` of a process, from `/proc/<pid>/stat`.
#[must_use]
pub fn stat(pid: i32) -> Option<(i32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces; fields follow the last ')'.
    let rest = text.get(text.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state (field 3), ppid (4), ..., starttime (22).
    let ppid = fields.get(1)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((ppid, start))
}

fn mark_of(pid: i32) -> Option<String> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{MARK_VAR}=");
    environ
        .split(|&b| b == 0)
        .find_map(|var| var.strip_prefix(prefix.as_bytes()))
        .map(|v| String::from_utf8_lossy(v).into_owned())
}

/// Every process that can be seen, with its parent and mark.
fn table() -> Vec<Entry> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let own = std::process::id() as i32;
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != own)
        .filter_map(|pid| {
            let (ppid, _) = stat(pid)?;
            Some(Entry {
                pid,
                ppid,
                mark: mark_of(pid),
            })
        })
        .collect()
}

/// The processes to end: those whose mark `wanted` accepts, the descendants of
/// `roots`, and the descendants of every process found.
fn targets(table: &[Entry], roots: &[i32], mut wanted: impl FnMut(&str) -> bool) -> Vec<i32> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for e in table {
        children.entry(e.ppid).or_default().push(e.pid);
    }
    let mut found: HashSet<i32> = HashSet::new();
    let mut stack: Vec<i32> = table
        .iter()
        .filter(|e| e.mark.as_deref().is_some_and(&mut wanted))
        .map(|e| e.pid)
        .collect();
    stack.extend(
        roots
            .iter()
            .flat_map(|r| children.get(r).cloned().unwrap_or_default()),
    );
    while let Some(pid) = stack.pop() {
        if found.insert(pid) {
            stack.extend(children.get(&pid).cloned().unwrap_or_default());
        }
    }
    let mut list: Vec<i32> = found.into_iter().collect();
    list.sort_unstable();
    list
}

/// Kills (SIGKILL) every process carrying `mark` and every descendant of `root` (the
/// engine itself is not touched: its owner reaps it). Returns how many were signalled.
pub fn kill_marked(mark: &str, root: Option<i32>) -> usize {
    if !cfg!(target_os = "linux") {
        return 0;
    }
    let roots: Vec<i32> = root.into_iter().collect();
    let list = targets(&table(), &roots, |m| m == mark);
    signal_all(&list, root)
}

/// Kills every process marked by this runner (`<runner>.*`): the last step of a run
/// that is stopped at once.
pub fn kill_all_of_runner(runner: &str) -> usize {
    if !cfg!(target_os = "linux") {
        return 0;
    }
    let prefix = format!("{runner}.");
    let list = targets(&table(), &[], |m| m.starts_with(&prefix));
    signal_all(&list, None)
}

/// Kills the processes marked by runners that no longer run (killed with SIGKILL, so
/// they could not clean up). Returns the number killed and the runners' pids. Only
/// marks made in this PID namespace are judged: a runner in a container has pids that
/// mean nothing out here.
pub fn kill_left_by_dead_runners() -> (usize, Vec<i32>) {
    if !cfg!(target_os = "linux") {
        return (0, Vec::new());
    }
    let here = pid_namespace();
    let table = table();
    let mut dead: Vec<i32> = Vec::new();
    let list = targets(&table, &[], |mark| {
        let Some(runner) = parse_runner(mark) else {
            return false;
        };
        if runner.namespace != here {
            return false;
        }
        let alive = stat(runner.pid).is_some_and(|(_, s)| s == runner.start);
        if !alive && !dead.contains(&runner.pid) {
            dead.push(runner.pid);
        }
        !alive
    });
    (signal_all(&list, None), dead)
}

/// The inode of this process's PID namespace (`/proc/self/ns/pid` -> `pid:[N]`), 0
/// when unknown.
#[must_use]
pub fn pid_namespace() -> u64 {
    std::fs::read_link("/proc/self/ns/pid")
        .ok()
        .and_then(|target| {
            let text = target.to_string_lossy().into_owned();
            text.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
        })
        .unwrap_or(0)
}

/// Who made a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Runner {
    pid: i32,
    start: u64,
    namespace: u64,
}

/// The runner of a mark `<pid>-<start>-<namespace>.<n>`.
fn parse_runner(mark: &str) -> Option<Runner> {
    let (runner, _) = mark.split_once('.')?;
    let mut parts = runner.split('-');
    let runner = Runner {
        pid: parts.next()?.parse().ok()?,
        start: parts.next()?.parse().ok()?,
        namespace: parts.next()?.parse().ok()?,
    };
    parts.next().is_none().then_some(runner)
}

fn signal_all(list: &[i32], except: Option<i32>) -> usize {
    list.iter()
        .filter(|&&pid| Some(pid) != except && pid > 1)
        .filter(|&&pid| kill(Pid::from_raw(pid), Signal::SIGKILL).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(pid: i32, ppid: i32, mark: Option<&str>) -> Entry {
        Entry {
            pid,
            ppid,
            mark: mark.map(str::to_owned),
        }
    }

    #[test]
    fn marked_processes_and_descendants_are_found_in_any_session() {
        let table = [
            entry(10, 1, Some("r.1")),  // the engine
            entry(11, 10, Some("r.1")), // its child
            entry(12, 1, Some("r.1")),  // a setsid child, re-parented to init
            entry(13, 12, None),        // its child, which cleared its environment
            entry(14, 10, None),        // a child of the engine without the mark
            entry(20, 1, Some("r.2")),  // another engine of the same runner
            entry(21, 1, Some("r.10")), // a mark that only starts like ours
            entry(30, 1, None),         // unrelated
        ];
        assert_eq!(
            targets(&table, &[10], |m| m == "r.1"),
            vec![10, 11, 12, 13, 14]
        );
        assert_eq!(targets(&table, &[], |m| m.starts_with("r.")).len(), 7);
    }

    #[test]
    fn runner_marks_parse() {
        assert_eq!(
            parse_runner("4711-12345-4026531836.3"),
            Some(Runner {
                pid: 4711,
                start: 12345,
                namespace: 4026531836
            })
        );
        assert_eq!(parse_runner("4711-12345.3"), None);
        assert_eq!(parse_runner("junk"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_reads_its_own_stat() {
        let (ppid, start) = stat(std::process::id() as i32).expect("own stat");
        assert!(ppid > 0 && start > 0);
    }
}
