//! Starting an engine process with piped standard streams, and ending it for sure.
//!
//! The engine runs in its own process group, so a wrapper script and everything it
//! started are killed together; what it moved into another session is found by its mark
//! ([`super::sweep`]); `kill_on_drop` covers every path that forgets to end it; and the
//! parent-death signal ends it with the runner ([`super::lifetime`]).

use std::process::Stdio;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::BufReader;
use tokio::process::{Child, Command};

use super::io::LineIo;
use super::spec::EngineSpec;
use super::traffic::{self, Direction};
use super::EngineError;
use super::{lifetime, stderr, sweep};

/// A running engine process.
#[derive(Debug)]
pub struct Process {
    child: Child,
    pid: Option<u32>,
    /// The value of its `XQ_RUNNER_ENGINE` mark.
    mark: String,
    /// `name#pid`, how the logs name this process.
    label: String,
    /// Ended by [`Process::end`] or [`Process::kill`]; otherwise dropping it kills all.
    ended: bool,
}

impl Process {
    /// Starts the engine (pinned to `cpu` if given) and connects its stdin/stdout;
    /// stderr is drained into the log.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] naming the command when it cannot be started.
    pub async fn spawn(
        spec: &EngineSpec,
        cpu: Option<usize>,
    ) -> Result<(Process, LineIo), EngineError> {
        let spawn_error = |reason: String| EngineError::Spawn {
            command: spec.command.join(" "),
            reason,
        };
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| spawn_error("empty command".to_owned()))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .envs(spec.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        if let Some(dir) = &spec.working_dir {
            command.current_dir(dir);
        }
        let (mut child, mark) = lifetime::spawn(command, cpu)
            .await
            .map_err(|e| spawn_error(e.to_string()))?;
        let pid = child.id();
        let label = format!("{}#{}", spec.name, pid.unwrap_or(0));
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(spawn_error("pipes unavailable".to_owned()));
        };
        tracing::info!(engine = %label, cpu, "started: {}", spec.command.join(" "));
        traffic::record(
            &label,
            Direction::Event,
            &format!("started: {}", spec.command.join(" ")),
        );
        tokio::spawn(stderr::drain(label.clone(), stderr));
        let io = LineIo::new(Box::new(BufReader::new(stdout)), Box::new(stdin));
        Ok((
            Process {
                child,
                pid,
                mark,
                label,
                ended: false,
            },
            io,
        ))
    }

    /// How the logs name this process: `name#pid`.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether the process has exited, and how.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(format!("unknown ({e})")),
        }
    }

    /// Waits until the process exits and says how. Cancel safe: used in a race with
    /// reading its output, since a child of the engine can hold the output open after
    /// the engine is gone.
    pub async fn exited(&mut self) -> String {
        match self.child.wait().await {
            Ok(status) => status.to_string(),
            Err(e) => format!("unknown ({e})"),
        }
    }

    /// Waits for the process to exit on its own for at most `grace`, then kills its
    /// whole process group. Never leaves a process behind.
    pub async fn end(mut self, grace: std::time::Duration) {
        self.ended = true;
        match tokio::time::timeout(grace, self.child.wait()).await {
            Err(_) => self.kill().await,
            Ok(status) => {
                let status = status.map_or_else(|e| format!("unknown ({e})"), |s| s.to_string());
                // The engine is gone; take down anything it left, in its group or not.
                if let Some(pid) = self.pid {
                    let _ = killpg(Pid::from_raw(pid as i32), Signal::SIGKILL);
                }
                let left = sweep::kill_marked(&self.mark, None);
                self.log_end(&format!("exited ({status})"), left);
            }
        }
    }

    /// Kills the engine and everything it started at once, and reaps the engine.
    pub async fn kill(&mut self) {
        self.ended = true;
        let root = self.pid.map(|p| p as i32);
        // Descendants first, while the engine still links them to itself.
        let left = sweep::kill_marked(&self.mark, root);
        if let Some(pid) = root {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = self.child.kill().await;
        let status = self.exit_status().unwrap_or_default();
        self.log_end(&format!("killed ({status})"), left);
    }

    fn log_end(&self, how: &str, left: usize) {
        let how = if left > 0 {
            format!("{how}; killed {left} processes it had started")
        } else {
            how.to_owned()
        };
        tracing::info!(engine = %self.label, "{how}");
        traffic::record(&self.label, Direction::Event, &how);
    }
}

impl Drop for Process {
    /// A process dropped without `end` or `kill` (a game future dropped at an abort, a
    /// panic): `kill_on_drop` kills the engine; this takes what it started along.
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let root = self.pid.map(|p| p as i32);
        let left = sweep::kill_marked(&self.mark, root);
        if let Some(pid) = root {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        self.log_end("dropped (killed)", left);
    }
}
