//! Which build of the engine plays a datagen's games, as each ledger line records it
//! and each chunk's manifest row repeats: the engine's `bench` signature (the node
//! count of its fixed benchmark, the same on every machine for the same search) and
//! the git commit of the checkout its program lies in. Both are taken when a datagen
//! starts or resumes, so a rebuilt engine between a stop and a resume is seen.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::client::{bench_signature, EngineSpec};

/// A bench of xq-engine takes about half a second; a loaded machine gets far more.
const BENCH_TIMEOUT: Duration = Duration::from_secs(120);

/// An engine build: what is known of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineBuild {
    pub bench: Option<u64>,
    pub commit: Option<String>,
}

impl EngineBuild {
    /// The build of the engine `spec` starts, and a line for each thing not known.
    pub async fn of(spec: &EngineSpec) -> (EngineBuild, Vec<String>) {
        let mut notes = Vec::new();
        let bench = match bench_signature(spec, BENCH_TIMEOUT).await {
            Ok(bench) => Some(bench.nodes),
            Err(why) => {
                notes.push(format!("engine build: no bench signature: {why}"));
                None
            }
        };
        let commit = match program_dir(spec) {
            Some(dir) => git_head(&dir).await,
            None => None,
        };
        if commit.is_none() {
            notes.push(format!(
                "engine build: no git commit (`{}` is not in a git checkout)",
                spec.command.first().map_or("", String::as_str)
            ));
        }
        (EngineBuild { bench, commit }, notes)
    }
}

/// The folder of the engine's program, when the command names it by a path (a bare
/// name is found on `PATH`, whose checkout nobody knows).
fn program_dir(spec: &EngineSpec) -> Option<PathBuf> {
    let program = Path::new(spec.command.first()?);
    let parent = program.parent().filter(|p| !p.as_os_str().is_empty())?;
    Some(match &spec.working_dir {
        Some(dir) if parent.is_relative() => dir.join(parent),
        _ => parent.to_path_buf(),
    })
}

/// `git rev-parse HEAD` in `dir`.
async fn git_head(dir: &Path) -> Option<String> {
    let output = tokio::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .await
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let head = text.trim();
    (output.status.success() && head.len() >= 7 && head.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| head.to_owned())
}
