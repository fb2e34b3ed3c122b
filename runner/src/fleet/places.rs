//! A worker cache's places (`places/KEY`): each engine's program and files in a folder
//! of their own, hard links to the blobs, where the engine runs. A place is checked
//! every time a run starts, not trusted because it is there: a file replaced in it, a
//! file planted beside the run's, or a place that is a link to a folder elsewhere would
//! otherwise run. A place that does not verify is removed and made again (and the
//! worker says so). Checking costs no hashing when a file is the blob itself (the same
//! inode: the blob was hashed a moment before); a copy (a cache across file systems) is
//! hashed.
//!
//! The names come from the database, which is not the worker's to trust: each must be
//! a relative path inside the place (as `submit` takes them), never `..`, absolute, or
//! the place's own `.manifest`.

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Component, Path, PathBuf};

use crate::plain_file;
use crate::store::artifact::sha256_of;

/// The file in a place that lists what it holds.
pub(crate) const MANIFEST: &str = ".manifest";

/// One file of a place: its name in the place, its hash, and its blob.
#[derive(Clone, Debug)]
pub(crate) struct PlaceFile {
    pub name: String,
    pub sha256: String,
    pub blob: PathBuf,
}

/// Whether `name` may name a file in a place: a relative path of plain components
/// (no `..`, `.`, root, empty part, NUL or other control character: a manifest holds
/// one name a line), not the place's own manifest.
///
/// # Errors
/// Why not, in words.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let path = Path::new(name);
    let plain = !name.is_empty()
        && !name.chars().any(char::is_control)
        && name
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
        && path.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Err(format!(
            "`{}`: a run's file is named by a relative path inside its engine's folder (no `..`, not absolute): nothing of the run is written",
            name.escape_debug()
        ));
    }
    if path.components().next() == Some(Component::Normal(MANIFEST.as_ref())) {
        return Err(format!(
            "`{}`: the name the cache keeps for its own list",
            name.escape_debug()
        ));
    }
    Ok(())
}

/// The place `folder` as a run needs it: a real folder (not a link), its manifest
/// `manifest`, each of `files` a plain file that is its blob or hashes alike, and
/// nothing else. `Ok(false)` when there is no place yet.
///
/// # Errors
/// Why it does not verify, in words.
pub(crate) fn verify(folder: &Path, files: &[PlaceFile], manifest: &str) -> Result<bool, String> {
    let meta = match std::fs::symlink_metadata(folder) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e.to_string()),
    };
    if meta.file_type().is_symlink() {
        return Err("a symbolic link, not a folder of the cache".to_owned());
    }
    if !meta.is_dir() {
        return Err("not a folder".to_owned());
    }
    let listed = plain_file::read_to_string(&folder.join(MANIFEST))
        .map_err(|e| format!("{MANIFEST}: {e}"))?;
    if listed != manifest {
        return Err(format!("{MANIFEST} lists other files"));
    }
    let mut expected: BTreeSet<PathBuf> = files.iter().map(|f| PathBuf::from(&f.name)).collect();
    expected.insert(PathBuf::from(MANIFEST));
    let mut found = BTreeSet::new();
    walk(folder, Path::new(""), &mut found)?;
    if let Some(extra) = found.difference(&expected).next() {
        return Err(format!(
            "`{}` is not one of the run's files",
            extra.display()
        ));
    }
    if let Some(missing) = expected.difference(&found).next() {
        return Err(format!("`{}` is missing", missing.display()));
    }
    for f in files {
        let here = folder.join(&f.name);
        if !same_file(&here, &f.blob) {
            let (sha, _) = plain_file::read_only(&here)
                .and_then(sha256_of)
                .map_err(|e| format!("`{}`: {e}", f.name))?;
            if sha != f.sha256 {
                return Err(format!(
                    "`{}` is not the file the run names (sha256 {sha})",
                    f.name
                ));
            }
        }
    }
    Ok(true)
}

/// Collects the plain files under `dir` (relative to the place, `prefix` the path so
/// far); a link, a FIFO or a device anywhere in it is refused.
fn walk(dir: &Path, prefix: &Path, found: &mut BTreeSet<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = prefix.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        if kind.is_dir() {
            walk(&entry.path(), &name, found)?;
        } else if kind.is_file() {
            found.insert(name);
        } else {
            return Err(format!("`{}` is not a plain file", name.display()));
        }
    }
    Ok(())
}

/// Whether `a` and `b` are one file (a hard link of the other), neither a link.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::symlink_metadata(a), std::fs::symlink_metadata(b)) {
        (Ok(a), Ok(b)) => {
            a.file_type().is_file()
                && b.file_type().is_file()
                && (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        _ => false,
    }
}

/// Removes what is at `folder` (a place that did not verify): a link is removed, never
/// followed; a folder with all it holds.
///
/// # Errors
/// The removal's.
pub(crate) fn remove(folder: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(folder) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(folder),
        Ok(_) => std::fs::remove_file(folder),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_place_or_take_its_manifest_are_refused() {
        for good in ["engine", "nets/eval.nnue", "a.b", "..x", "x.."] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "..",
            "../x",
            "a/../../x",
            "/etc/passwd",
            "./x",
            "a//b",
            "a/",
            "a/./b",
            "x\0y",
            "x\ny",
            ".manifest",
            ".manifest/x",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }
}
