//! A series of builds given as programs: `--builds b0 b1 ... bn` or `--builds-file F`
//! (one program a line, oldest first; blank lines and `#` comments skipped; a relative
//! path is relative to the file's folder). Each must be an executable file; the steps
//! run it by its absolute path, so that a resume from another folder finds it.

use std::path::{Path, PathBuf};

use super::state::Build;
use super::BisectError;

/// The programs of `--builds-file`.
///
/// # Errors
/// [`BisectError::Input`] when the file cannot be read.
pub fn read_list(file: &Path) -> Result<Vec<PathBuf>, BisectError> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        BisectError::Input(format!(
            "--builds-file {}: cannot read: {e}",
            file.display()
        ))
    })?;
    let base = file.parent().unwrap_or_else(|| Path::new("."));
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let p = PathBuf::from(l);
            if p.is_relative() {
                base.join(p)
            } else {
                p
            }
        })
        .collect())
}

/// The builds of a list of programs, checked: at least two, each an executable file.
///
/// # Errors
/// [`BisectError::Input`] naming the flag and the first bad program.
pub fn from_programs(programs: &[PathBuf], flag: &str) -> Result<Vec<Build>, BisectError> {
    if programs.len() < 2 {
        return Err(BisectError::Input(format!(
            "{flag}: {} build{} given: a bisection needs at least two (the good one first, the bad one last)",
            programs.len(),
            if programs.len() == 1 { "" } else { "s" }
        )));
    }
    programs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let program = executable(p).map_err(|why| {
                BisectError::Input(format!("{flag}: build {i} ({}): {why}", p.display()))
            })?;
            Ok(Build {
                program,
                commit: None,
                subject: None,
            })
        })
        .collect()
}

/// The absolute path of an executable file.
///
/// # Errors
/// Why it is not one.
pub fn executable(path: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt as _;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err("is not a file".to_owned());
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err("is not executable".to_owned());
    }
    std::fs::canonicalize(path).map_err(|e| format!("cannot be resolved: {e}"))
}
