//! Starting an engine process with piped standard streams, and ending it for sure.
//!
//! The engine runs in its own process group, so a wrapper script and everything it
//! started are killed together; `kill_on_drop` covers every path that forgets it.

use std::process::Stdio;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::io::LineIo;
use super::spec::EngineSpec;
use super::EngineError;

/// A running engine process.
#[derive(Debug)]
pub struct Process {
    child: Child,
    pid: Option<u32>,
}

impl Process {
    /// Starts the engine and connects its stdin/stdout; stderr lines go to the log.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] naming the command when it cannot be started.
    pub fn spawn(spec: &EngineSpec) -> Result<(Process, LineIo), EngineError> {
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
        let mut child = command.spawn().map_err(|e| spawn_error(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(spawn_error("pipes unavailable".to_owned()));
        };
        let name = spec.name.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::debug!(engine = %name, stderr = %line);
            }
        });
        let pid = child.id();
        let io = LineIo::new(Box::new(BufReader::new(stdout)), Box::new(stdin));
        Ok((Process { child, pid }, io))
    }

    /// Whether the process has exited, and how.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(format!("unknown ({e})")),
        }
    }

    /// Waits for the process to exit on its own for at most `grace`, then kills its
    /// whole process group. Never leaves a process behind.
    pub async fn end(mut self, grace: std::time::Duration) {
        if tokio::time::timeout(grace, self.child.wait())
            .await
            .is_err()
        {
            self.kill().await;
        } else if let Some(pid) = self.pid {
            // The engine is gone; take down anything it left in its group.
            let _ = killpg(Pid::from_raw(pid as i32), Signal::SIGKILL);
        }
    }

    /// Kills the process group at once and reaps the process.
    pub async fn kill(&mut self) {
        if let Some(pid) = self.pid {
            let _ = killpg(Pid::from_raw(pid as i32), Signal::SIGKILL);
        }
        let _ = self.child.kill().await;
    }
}
