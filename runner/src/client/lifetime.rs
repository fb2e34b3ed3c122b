//! Engine processes that die with the runner, however the runner ends.
//!
//! - **Marked**: every engine gets `XQ_RUNNER_ENGINE=<runner>.<n>` in its environment
//!   (see [`super::sweep`]), so what it starts is found and killed when it ends, in
//!   any process group or session.
//! - **Parent-death signal** (Linux): `PR_SET_PDEATHSIG(SIGKILL)` is set in the child
//!   between fork and exec, so the kernel kills the engine when the runner dies, even
//!   by SIGKILL. The kernel sends it when the *thread* that forked the engine ends,
//!   not the process; tokio spawns a child on whichever thread polls the spawn (a
//!   runtime worker, the thread in `block_on`, or a blocking-pool thread, which exits
//!   after 10 s idle), and such a thread can end while the engine should live on (a
//!   runtime shut down while another keeps the engine, a `spawn_blocking` caller). So
//!   every engine is forked by one dedicated thread that lives as long as the process:
//!   the signal then fires exactly when the runner process ends.
//! - **Pinned** (Linux, `tournament.affinity`): the CPU mask is set in the same hook,
//!   before exec, so every thread the engine starts inherits it.
//! - **Leftovers** of a runner killed by SIGKILL (what its engines had started in new
//!   sessions; the parent-death signal reaches only the engine itself) are killed when
//!   the next runner on the machine starts its first engine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, OnceLock};

use tokio::process::{Child, Command};

use super::sweep;

/// This runner's part of the marks: `<pid>-<start time>-<PID namespace>`.
#[must_use]
pub fn runner_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let pid = std::process::id();
        let start = sweep::stat(pid as i32).map_or(0, |(_, start)| start);
        format!("{pid}-{start}-{}", sweep::pid_namespace())
    })
}

/// A fresh mark for one engine process.
fn next_mark() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{}.{}", runner_id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A spawn request for the spawner thread.
struct Request {
    command: Command,
    runtime: tokio::runtime::Handle,
    reply: tokio::sync::oneshot::Sender<std::io::Result<Child>>,
}

/// The channel to the spawner thread; `None` when the thread could not be started.
fn spawner() -> Option<&'static mpsc::Sender<Request>> {
    static SPAWNER: OnceLock<Option<mpsc::Sender<Request>>> = OnceLock::new();
    SPAWNER
        .get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Request>();
            let started = std::thread::Builder::new()
                .name("xq-engine-spawner".to_owned())
                .spawn(move || {
                    // The sender lives in a static, so this loop ends only with the
                    // process: the thread never exits and never fires a parent-death
                    // signal early.
                    while let Ok(mut request) = rx.recv() {
                        let _entered = request.runtime.enter();
                        let _ = request.reply.send(request.command.spawn());
                    }
                });
            match started {
                Ok(_) => {
                    let (killed, runners) = sweep::kill_left_by_dead_runners();
                    if killed > 0 {
                        tracing::warn!(
                            "killed {killed} engine processes left behind by xq-runner {runners:?}, which was killed before it could end them"
                        );
                    }
                    Some(tx)
                }
                Err(e) => {
                    tracing::warn!("cannot start the engine spawner thread ({e}); engines may outlive a killed runner");
                    None
                }
            }
        })
        .as_ref()
}

/// Starts `command` as an engine: marked, with the parent-death signal, pinned to
/// `cpu` if given. Returns the child and its mark.
///
/// # Errors
/// The process cannot be started.
pub async fn spawn(mut command: Command, cpu: Option<usize>) -> std::io::Result<(Child, String)> {
    let mark = next_mark();
    command.env(sweep::MARK_VAR, &mark);
    #[cfg(target_os = "linux")]
    before_exec(&mut command, cpu)?;
    #[cfg(not(target_os = "linux"))]
    if cpu.is_some() {
        tracing::warn!("CPU affinity is only supported on Linux; the engine is not pinned");
    }
    let Some(spawner) = spawner() else {
        return command.spawn().map(|child| (child, mark));
    };
    let (reply, answer) = tokio::sync::oneshot::channel();
    let request = Request {
        command,
        runtime: tokio::runtime::Handle::current(),
        reply,
    };
    if spawner.send(request).is_err() {
        return Err(std::io::Error::other("the engine spawner thread is gone"));
    }
    match answer.await {
        Ok(result) => result.map(|child| (child, mark)),
        Err(_) => Err(std::io::Error::other("the engine spawner thread is gone")),
    }
}

/// Installs the hook that runs in the child between fork and exec.
#[cfg(target_os = "linux")]
fn before_exec(command: &mut Command, cpu: Option<usize>) -> std::io::Result<()> {
    use nix::errno::Errno;
    use nix::sched::{sched_setaffinity, CpuSet};
    use nix::sys::prctl::set_pdeathsig;
    use nix::sys::signal::Signal;
    use nix::unistd::{getppid, Pid};

    let parent = Pid::from_raw(std::process::id() as i32);
    // Built here, not in the hook: the hook may not allocate.
    let cpus = match cpu {
        Some(core) => {
            let mut set = CpuSet::new();
            set.set(core)
                .map_err(|e| std::io::Error::other(format!("cpu {core}: {e}")))?;
            Some(set)
        }
        None => None,
    };
    let hook = move || -> std::io::Result<()> {
        set_pdeathsig(Signal::SIGKILL)?;
        // The runner may have died between fork and prctl; then nobody would kill us.
        if getppid() != parent {
            // (An errno, not a message: the hook may not allocate.)
            return Err(Errno::ESRCH.into());
        }
        if let Some(set) = &cpus {
            sched_setaffinity(Pid::from_raw(0), set)?;
        }
        Ok(())
    };
    // Safety: the hook runs in the forked child before exec, where only
    // async-signal-safe calls are allowed: it makes three system calls (prctl, getppid,
    // sched_setaffinity) on values built before the fork, allocates nothing and takes
    // no lock.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(hook);
    }
    Ok(())
}

/// Kills everything this runner's engines started (a run that stops at once).
pub fn kill_all() -> usize {
    sweep::kill_all_of_runner(runner_id())
}
