//! What `submit` stores with a run so that workers need nothing installed but the
//! runner: each uploaded engine's program and the files beside it, and the opening file.
//! An engine with `upload = false`, or every engine with `--no-upload`, is taken from the
//! path its config names on each worker, as before.

use std::path::Path;

use crate::config::EnginePlan;
use crate::store::artifact::{identify, this_platform};
use crate::store::pg::artifacts::{FileRole, RunFile, Upload};

/// The largest file stored by default: 256 MB.
pub const DEFAULT_MAX_ARTIFACT: u64 = 256 << 20;

/// Whether and up to what size `submit` stores files.
#[derive(Clone, Copy, Debug)]
pub struct UploadPolicy {
    pub enabled: bool,
    /// Bytes.
    pub max_size: u64,
}

impl Default for UploadPolicy {
    fn default() -> UploadPolicy {
        UploadPolicy {
            enabled: true,
            max_size: DEFAULT_MAX_ARTIFACT,
        }
    }
}

/// The files to store: for each engine (`(index of its [[engine]] table, plan)`) that
/// uploads, its program and files; and the opening file.
///
/// # Errors
/// One line naming the file: unreadable, over the cap, or a program built for another
/// platform than this machine's.
pub fn uploads<'a>(
    engines: impl IntoIterator<Item = (usize, &'a EnginePlan)>,
    openings: Option<&Path>,
    policy: UploadPolicy,
) -> Result<Vec<Upload>, String> {
    if !policy.enabled {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (index, engine) in engines {
        if !engine.upload {
            continue;
        }
        let program_name = engine
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| format!("{}: not a file", engine.program.display()))?;
        out.push(upload(
            Some(index),
            FileRole::Program,
            program_name,
            &engine.program,
            policy,
        )?);
        for (name, path) in &engine.files {
            out.push(upload(
                Some(index),
                FileRole::File,
                name.clone(),
                path,
                policy,
            )?);
        }
    }
    if let Some(path) = openings {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| format!("{}: not a file", path.display()))?;
        out.push(upload(None, FileRole::Openings, name, path, policy)?);
    }
    Ok(out)
}

fn upload(
    engine: Option<usize>,
    role: FileRole,
    name: String,
    path: &Path,
    policy: UploadPolicy,
) -> Result<Upload, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?
        .len();
    if size > policy.max_size {
        return Err(format!(
            "{}: {} is over the largest file a run may carry, {} (--max-artifact)",
            path.display(),
            size_text(size),
            size_text(policy.max_size)
        ));
    }
    let identity = identify(path)?;
    if role == FileRole::Program {
        let here = this_platform();
        if let Some(platform) = identity.platform.as_ref().filter(|p| **p != here) {
            return Err(format!(
                "{}: a program for {platform}, and this machine is {here}: submit it from a machine of its platform, or install it on the workers (upload = false)",
                path.display()
            ));
        }
    }
    Ok(Upload {
        file: RunFile {
            engine,
            role,
            name,
            identity,
        },
        path: path.to_path_buf(),
    })
}

/// A size for people: `512 bytes`, `3.0 KB`, `12.3 MB`.
#[must_use]
pub fn size_text(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// A size as the command line takes it: bytes, or with `KB`, `MB` or `GB` (powers of 1024).
///
/// # Errors
/// One line.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let (number, unit) = [
        ("GB", 1u64 << 30),
        ("MB", 1 << 20),
        ("KB", 1 << 10),
        ("B", 1),
    ]
    .iter()
    .find_map(|(suffix, unit)| upper.strip_suffix(suffix).map(|n| (n.trim(), *unit)))
    .unwrap_or((upper.as_str(), 1));
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .ok_or_else(|| format!("`{text}`: a size in bytes, or with KB, MB or GB (e.g. 256MB)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("256MB"), Ok(256 << 20));
        assert_eq!(parse_size("1gb"), Ok(1 << 30));
        assert_eq!(parse_size("12 KB"), Ok(12 << 10));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("-1MB").is_err());
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999999999GB").is_err(), "overflow");
    }
}
