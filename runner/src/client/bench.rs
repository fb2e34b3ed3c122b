//! An engine's `bench` signature: the node count of its fixed benchmark, printed by
//! `<command> bench` as `<N> nodes ...` on its last line (the Stockfish convention that
//! `xq-engine` follows). Equal signatures mean the same search; fishtest's workers check
//! it before they play, and so do ours.

use std::process::Stdio;
use std::time::Duration;

use super::spec::EngineSpec;

/// What a bench printed: its node count (the signature) and, when it says, its speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bench {
    pub nodes: u64,
    /// Nodes per second, from `<N> nodes <M> nps` (or `... <M> nodes/s`).
    pub nps: Option<u64>,
}

/// Runs the engine's bench and reads its node count and speed.
///
/// # Errors
/// One line: the program did not start, did not finish within `timeout`, failed, or
/// printed no `<N> nodes` line.
pub async fn bench_signature(spec: &EngineSpec, timeout: Duration) -> Result<Bench, String> {
    let (program, args) = spec
        .command
        .split_first()
        .ok_or_else(|| "the command is empty".to_owned())?;
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .arg("bench")
        .envs(spec.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    if let Some(dir) = &spec.working_dir {
        command.current_dir(dir);
    }
    let run = command.output();
    let output = tokio::time::timeout(timeout, run)
        .await
        .map_err(|_| {
            format!(
                "`{} bench` did not finish in {} s",
                spec.command.join(" "),
                timeout.as_secs()
            )
        })?
        .map_err(|e| format!("`{} bench` did not start: {e}", spec.command.join(" ")))?;
    if !output.status.success() {
        return Err(format!(
            "`{} bench` failed ({})",
            spec.command.join(" "),
            output.status
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .rev()
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let nodes = words.first()?.parse::<u64>().ok()?;
            if words.get(1) != Some(&"nodes") {
                return None;
            }
            let nps = match (words.get(2), words.get(3)) {
                (Some(n), Some(&("nps" | "nodes/s"))) => n.parse().ok(),
                _ => None,
            };
            Some(Bench { nodes, nps })
        })
        .ok_or_else(|| {
            format!(
                "`{} bench` printed no `<N> nodes` line",
                spec.command.join(" ")
            )
        })
}
