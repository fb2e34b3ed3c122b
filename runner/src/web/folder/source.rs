//! The served folder: which run folders are under it, what path names which, and each
//! run followed as it is played (one [`Watched`] per run folder, kept between requests
//! so that each reads only what its journal gained).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::super::error::WebError;
use super::groups::{kind_of, sub_folders, Kind};
use super::watched::Watched;
use crate::plain_file;
use crate::store::folder::TUNE_RUN;
use crate::store::meta::RUN_FILE;

/// How deep run folders are looked for (a scaling folder's points are one level down,
/// a folder of such folders two).
const DEPTH: usize = 3;

/// The served folder and the runs followed in it.
#[derive(Debug)]
pub(crate) struct Folders {
    /// Canonical: a path that leads elsewhere through a link is refused.
    root: PathBuf,
    watched: Mutex<HashMap<String, Arc<Mutex<Watched>>>>,
}

impl Folders {
    /// The run folders under `root`.
    ///
    /// # Errors
    /// One line when `root` is not a folder.
    pub(crate) fn new(root: &Path) -> Result<Folders, String> {
        let root = root
            .canonicalize()
            .map_err(|e| format!("{}: {e}", root.display()))?;
        if !root.is_dir() {
            return Err(format!("{}: not a folder", root.display()));
        }
        Ok(Folders {
            root,
            watched: Mutex::new(HashMap::new()),
        })
    }

    /// The served folder.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The run folder `id` names (a path under the served folder, `/`-separated).
    ///
    /// # Errors
    /// [`WebError::BadPath`] for a path that is not plainly under the served folder
    /// (`..`, `.`, an empty part, a link leading out); [`WebError::NotFound`] when no
    /// run is there.
    pub(crate) fn folder_of(&self, id: &str) -> Result<PathBuf, WebError> {
        let dir = self.plain_dir(id)?;
        if !holds_run(&dir) {
            return Err(self.gone(id));
        }
        Ok(dir)
    }

    /// The group folder `id` names (a bisection, a scaling run, a datagen folder) and
    /// its kind.
    ///
    /// # Errors
    /// As [`Folders::folder_of`].
    pub(crate) fn group_of(&self, id: &str) -> Result<(PathBuf, Kind), WebError> {
        let dir = self.plain_dir(id)?;
        match kind_of(&dir) {
            Some(kind) => Ok((dir, kind)),
            None => Err(WebError::NotFound(format!(
                "no bisection, scaling run or datagen folder `{}` here",
                id.escape_debug()
            ))),
        }
    }

    /// The folder `id` names, plainly under the served folder.
    fn plain_dir(&self, id: &str) -> Result<PathBuf, WebError> {
        let bad = || {
            WebError::BadPath(format!(
                "`{}` is not a folder under the served folder",
                id.escape_debug()
            ))
        };
        let relative = Path::new(id);
        let plain = !id.is_empty()
            && !id.contains(['\\', '\0'])
            && id.split('/').all(|part| !part.is_empty())
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !plain {
            return Err(bad());
        }
        let dir = match self.root.join(relative).canonicalize() {
            Ok(dir) => dir,
            Err(_) => return Err(self.gone(id)),
        };
        if !dir.starts_with(&self.root) {
            return Err(bad());
        }
        Ok(dir)
    }

    /// No run at `id` (any more): it is followed no longer.
    fn gone(&self, id: &str) -> WebError {
        if let Ok(mut watched) = self.watched.lock() {
            watched.remove(id);
        }
        WebError::NotFound(format!("no run folder `{}` here", id.escape_debug()))
    }

    /// `work` done on the run at `id` (blocking: it reads the run's files).
    ///
    /// # Errors
    /// As [`Folders::folder_of`] and [`Watched::new`], and `work`'s.
    pub(crate) fn with_run<T>(
        &self,
        id: &str,
        work: impl FnOnce(&mut Watched) -> Result<T, WebError>,
    ) -> Result<T, WebError> {
        let watched = self.watched(id)?;
        let mut w = watched
            .lock()
            .map_err(|_| WebError::Failed("a request failed while reading it".to_owned()))?;
        work(&mut w)
    }

    /// The run at `id`, followed from now on if it was not.
    fn watched(&self, id: &str) -> Result<Arc<Mutex<Watched>>, WebError> {
        let dir = self.folder_of(id)?;
        let mut all = self
            .watched
            .lock()
            .map_err(|_| WebError::Failed("a request failed while reading runs".to_owned()))?;
        if let Some(w) = all.get(id) {
            return Ok(Arc::clone(w));
        }
        let w = Arc::new(Mutex::new(Watched::new(&dir)?));
        all.insert(id.to_owned(), Arc::clone(&w));
        Ok(w)
    }

    /// The paths of the run folders under the served folder, by name (hidden folders
    /// and folders whose name is not UTF-8 left out: no path of a page names them).
    pub(crate) fn run_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        find(&self.root, "", DEPTH, &mut ids);
        ids
    }
}

/// Whether `dir` holds a run: a match's `run.json` or a tune's `tune-run.json`.
/// A record that is a link (to a run elsewhere) does not count: only plain files under
/// the served folder are served.
fn holds_run(dir: &Path) -> bool {
    plain_file::is_plain(&dir.join(RUN_FILE)) || is_tune(dir)
}

/// Whether `dir` holds a tune.
pub(crate) fn is_tune(dir: &Path) -> bool {
    plain_file::is_plain(&dir.join(TUNE_RUN))
}

fn find(dir: &Path, prefix: &str, depth: usize, ids: &mut Vec<String>) {
    for name in sub_folders(dir) {
        let id = format!("{prefix}{name}");
        let path = dir.join(&name);
        if holds_run(&path) {
            ids.push(id);
        } else if matches!(kind_of(&path), Some(Kind::Bisection | Kind::Scaling)) {
            // Its steps or points are its own page's, not the list's one by one.
        } else if depth > 1 {
            find(&path, &format!("{id}/"), depth - 1, ids);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_run_folders_under_the_root_can_be_named() {
        let base = tempfile::tempdir().expect("temp dir");
        let root = base.path().join("out");
        std::fs::create_dir_all(root.join("tune")).expect("mkdir");
        std::fs::write(root.join("tune").join(TUNE_RUN), "{}").expect("write");
        for run in ["a", "scaling/p1", "outside"] {
            let dir = if run == "outside" {
                base.path().join(run)
            } else {
                root.join(run)
            };
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(dir.join(RUN_FILE), "{}").expect("write");
        }
        std::fs::create_dir_all(root.join(".hidden")).expect("mkdir");
        std::fs::write(root.join(".hidden").join(RUN_FILE), "{}").expect("write");
        std::os::unix::fs::symlink(base.path().join("outside"), root.join("link"))
            .expect("symlink");
        let folders = Folders::new(&root).expect("a folder");
        assert_eq!(folders.run_ids(), ["a", "scaling/p1", "tune"]);
        assert!(folders.folder_of("a").is_ok());
        assert!(folders.folder_of("scaling/p1").is_ok());
        for bad in ["../outside", "a/..", "./a", "", "/a", "a//b", "a/", "link"] {
            assert!(
                matches!(folders.folder_of(bad), Err(WebError::BadPath(_))),
                "{bad}"
            );
        }
        for missing in ["b", "scaling", "a/b"] {
            assert!(
                matches!(folders.folder_of(missing), Err(WebError::NotFound(_))),
                "{missing}"
            );
        }
    }
}
