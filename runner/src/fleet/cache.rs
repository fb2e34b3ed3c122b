//! A worker's cache of the files runs carry (`--cache DIR`): each file once, named by
//! its SHA-256 (`blobs/`), downloaded a few chunks at a time and checked before
//! anything runs (and hashed again each time a run starts: a blob changed in place is
//! downloaded again); each engine's program and files linked together into a folder of
//! their own (`places/`, checked each time too: `places.rs`), where the engine runs;
//! and a size cap kept by evicting the files used least recently. The run's config is
//! then pointed at those folders by overrides, so it is read and validated as anywhere
//! else.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::places::{self, PlaceFile, MANIFEST};
use crate::plain_file;
use crate::store::artifact::{sha256_of, this_platform, Hasher};
use crate::store::pg::artifacts::{FileRole, RunFile};
use crate::store::pg::runs::RunRow;
use crate::store::pg::{Db, DbError};

/// Why a run's files are not ready.
#[derive(Debug)]
pub enum NotReady {
    /// This worker cannot play the run (another platform, a file that is not what the
    /// run names, a cache it cannot write): it refuses the run, saying this.
    Refused(String),
    /// The database went away: try again.
    Failed(DbError),
}

impl From<DbError> for NotReady {
    fn from(e: DbError) -> NotReady {
        NotReady::Failed(e)
    }
}

/// The files of `run` made ready in `cache`: `Ok(Err(why))` when this worker refuses the
/// run, `Err` when the database went away (the worker tries again).
///
/// # Errors
/// [`DbError`].
pub async fn fetch_run(
    db: &Db,
    cache: &Cache,
    run: &RunRow,
) -> Result<Result<Ready, String>, DbError> {
    let files = db.run_files(run.id).await?;
    match cache.ready(db, &run.config, &files).await {
        Ok(ready) => Ok(Ok(ready)),
        Err(NotReady::Refused(why)) => Ok(Err(why)),
        Err(NotReady::Failed(e)) => Err(e),
    }
}

/// The files of a run, ready here.
#[derive(Debug, Default)]
pub struct Ready {
    /// `key=value` assignments that point the run's config at the cached files.
    pub overrides: Vec<String>,
    /// The files downloaded for it (the others were in the cache): name and bytes.
    pub fetched: Vec<(String, u64)>,
}

/// The cache folder and its cap.
#[derive(Clone, Debug)]
pub struct Cache {
    pub root: PathBuf,
    /// Bytes of `blobs/` kept at most (a run's own files are never evicted for it).
    pub max_size: u64,
}

impl Cache {
    /// `$XDG_CACHE_HOME/xq-runner/artifacts`, else under `~/.cache`.
    #[must_use]
    pub fn default_root() -> PathBuf {
        crate::config::cache_dir().join("artifacts")
    }

    fn blob(&self, sha256: &str) -> PathBuf {
        self.root.join("blobs").join(sha256)
    }

    /// Makes the files of a run (whose stored config is `config`) ready here:
    /// downloads what the cache lacks, checks every file's hash, links each engine's
    /// files into its folder, and returns the overrides that point the config at them.
    ///
    /// # Errors
    /// [`NotReady`].
    pub async fn ready(&self, db: &Db, config: &str, files: &[RunFile]) -> Result<Ready, NotReady> {
        let mut ready = Ready::default();
        if files.is_empty() {
            return Ok(ready);
        }
        // The names are the database's: none may lead out of the cache.
        for f in files {
            places::check_name(&f.name).map_err(NotReady::Refused)?;
        }
        let here = this_platform();
        for f in files.iter().filter(|f| f.role == FileRole::Program) {
            if let Some(platform) = f.identity.platform.as_ref().filter(|p| **p != here) {
                return Err(NotReady::Refused(format!(
                    "{} is a program for {platform}, and this worker is {here}",
                    f.name
                )));
            }
        }
        for sub in ["blobs", "places"] {
            own_folder(&self.root.join(sub))?;
        }
        for f in files {
            if let Some(bytes) = self.fetch(db, f).await? {
                ready.fetched.push((f.name.clone(), bytes));
            }
        }
        // Each engine's program and files in one folder, and the opening file in its own.
        let mut places: BTreeMap<Option<usize>, Vec<&RunFile>> = BTreeMap::new();
        for f in files {
            places.entry(f.engine).or_default().push(f);
        }
        let table: toml::Table = config
            .parse()
            .map_err(|e| NotReady::Refused(format!("the stored config does not read: {e}")))?;
        for (engine, group) in places {
            let folder = self.place(&group)?;
            match engine {
                None => {
                    if let Some(f) = group.first() {
                        ready.overrides.push(format!(
                            "openings.file={}",
                            toml_path(&folder.join(&f.name))
                        ));
                    }
                }
                Some(index) => {
                    let Some(program) = group.iter().find(|f| f.role == FileRole::Program) else {
                        continue;
                    };
                    let mut command: Vec<toml::Value> = table
                        .get("engine")
                        .and_then(|e| e.get(index))
                        .and_then(|e| e.get("command"))
                        .and_then(toml::Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    let path =
                        toml::Value::String(folder.join(&program.name).display().to_string());
                    match command.first_mut() {
                        Some(first) => *first = path,
                        None => command.push(path),
                    }
                    ready.overrides.push(format!(
                        "engine.{index}.command={}",
                        toml::Value::Array(command)
                    ));
                    ready
                        .overrides
                        .push(format!("engine.{index}.dir={}", toml_path(&folder)));
                }
            }
        }
        let keep: BTreeSet<&str> = files.iter().map(|f| f.identity.sha256.as_str()).collect();
        self.evict(&keep);
        Ok(ready)
    }

    /// Puts the file in `blobs/` unless it is there and whole; returns the bytes
    /// downloaded, if any. Two workers sharing the cache may both download a file: each
    /// writes its own part and renames it into place, so one copy stays.
    async fn fetch(&self, db: &Db, f: &RunFile) -> Result<Option<u64>, NotReady> {
        let blob = self.blob(&f.identity.sha256);
        // A plain file only: a link in a blob's place is downloaded over, not trusted.
        if let Ok(file) = plain_file::read_only(&blob) {
            let whole = sha256_of(&file)
                .is_ok_and(|(sha, size)| sha == f.identity.sha256 && size == f.identity.size);
            if whole {
                // Used now: the last to be evicted.
                let _ = file.set_modified(SystemTime::now());
                return Ok(None);
            }
        }
        let part = blob.with_extension(format!(
            "part-{}-{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        let io =
            |e: std::io::Error| NotReady::Refused(format!("the cache: {}: {e}", part.display()));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&part).map_err(io)?);
        let mut hasher = Hasher::default();
        let written = db
            .download(&f.identity.sha256, |chunk| {
                hasher.update(chunk);
                std::io::Write::write_all(&mut out, chunk)
            })
            .await;
        let flushed = std::io::Write::flush(&mut out);
        drop(out);
        let bytes = match (written, flushed) {
            (Ok(bytes), Ok(())) => bytes,
            (Err(e), _) => {
                let _ = std::fs::remove_file(&part);
                return Err(e.into());
            }
            (_, Err(e)) => {
                let _ = std::fs::remove_file(&part);
                return Err(io(e));
            }
        };
        let sha = hasher.finish();
        if sha != f.identity.sha256 || bytes != f.identity.size {
            let _ = std::fs::remove_file(&part);
            return Err(NotReady::Refused(format!(
                "{}: the stored file is not the one the run names (sha256 {sha}, {bytes} bytes; the run names {}, {} bytes): nothing of it runs",
                f.name, f.identity.sha256, f.identity.size
            )));
        }
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&part, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        std::fs::rename(&part, &blob).map_err(io)?;
        Ok(Some(bytes))
    }

    /// The folder holding `files` under their names (hard links to the blobs), made
    /// once for the same files and names, and checked each time (see `places.rs`): one
    /// that does not verify is made again.
    fn place(&self, files: &[&RunFile]) -> Result<PathBuf, NotReady> {
        let manifest: String = files
            .iter()
            .map(|f| format!("{} {}\n", f.identity.sha256, f.name))
            .collect();
        let (key, _) = sha256_of(manifest.as_bytes())
            .map_err(|e| NotReady::Refused(format!("hashing a manifest: {e}")))?;
        let places = self.root.join("places");
        let folder = places.join(&key[..32]);
        let wanted: Vec<PlaceFile> = files
            .iter()
            .map(|f| PlaceFile {
                name: f.name.clone(),
                sha256: f.identity.sha256.clone(),
                blob: self.blob(&f.identity.sha256),
            })
            .collect();
        let io = |what: &Path, e: std::io::Error| {
            NotReady::Refused(format!("the cache: {}: {e}", what.display()))
        };
        match places::verify(&folder, &wanted, &manifest) {
            Ok(true) => return Ok(folder),
            Ok(false) => {}
            Err(why) => {
                tracing::warn!(
                    "the cache's {} does not verify ({why}): made again",
                    folder.display()
                );
                places::remove(&folder).map_err(|e| io(&folder, e))?;
            }
        }
        let temp = places.join(format!(".{}-{}", &key[..32], std::process::id()));
        let _ = std::fs::remove_dir_all(&temp);
        std::fs::create_dir_all(&temp).map_err(|e| io(&temp, e))?;
        for f in files {
            let target = temp.join(&f.name);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
            }
            let blob = self.blob(&f.identity.sha256);
            std::fs::hard_link(&blob, &target)
                .or_else(|_| std::fs::copy(&blob, &target).map(|_| ()))
                .map_err(|e| io(&target, e))?;
        }
        std::fs::write(temp.join(MANIFEST), &manifest).map_err(|e| io(&temp, e))?;
        if std::fs::rename(&temp, &folder).is_err() {
            // Another worker made it meanwhile: theirs is used if it verifies.
            let _ = std::fs::remove_dir_all(&temp);
            if let Err(why) = places::verify(&folder, &wanted, &manifest) {
                return Err(NotReady::Refused(format!(
                    "the cache: {} does not verify ({why}) and cannot be made again",
                    folder.display()
                )));
            }
        }
        Ok(folder)
    }

    /// Evicts the blobs used least recently, other than `keep`, until `blobs/` is under
    /// the cap, and the folders that link them.
    fn evict(&self, keep: &BTreeSet<&str>) {
        let Ok(entries) = std::fs::read_dir(self.root.join("blobs")) else {
            return;
        };
        let mut blobs: Vec<(SystemTime, u64, String)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                let name = e.file_name().to_string_lossy().into_owned();
                (meta.is_file() && name.len() == 64).then(|| {
                    (
                        meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                        meta.len(),
                        name,
                    )
                })
            })
            .collect();
        let mut total: u64 = blobs.iter().map(|b| b.1).sum();
        blobs.sort();
        let mut evicted = BTreeSet::new();
        for (_, size, name) in blobs {
            if total <= self.max_size {
                break;
            }
            if keep.contains(name.as_str()) {
                continue;
            }
            if std::fs::remove_file(self.blob(&name)).is_ok() {
                total = total.saturating_sub(size);
                evicted.insert(name);
            }
        }
        if evicted.is_empty() {
            return;
        }
        let Ok(places) = std::fs::read_dir(self.root.join("places")) else {
            return;
        };
        for place in places.filter_map(Result::ok) {
            let manifest =
                plain_file::read_to_string(&place.path().join(MANIFEST)).unwrap_or_default();
            if manifest
                .lines()
                .filter_map(|l| l.split(' ').next())
                .any(|sha| evicted.contains(sha))
            {
                let _ = places::remove(&place.path());
            }
        }
    }
}

/// Makes `dir` a folder of the cache's own: a link in its place (to a folder elsewhere,
/// whose files would run) is removed, never followed.
fn own_folder(dir: &Path) -> Result<(), NotReady> {
    let io = |e: std::io::Error| NotReady::Refused(format!("the cache: {}: {e}", dir.display()));
    if std::fs::symlink_metadata(dir).is_ok_and(|m| !m.is_dir()) {
        tracing::warn!(
            "the cache's {} is not a folder of its own: made again",
            dir.display()
        );
        places::remove(dir).map_err(io)?;
    }
    std::fs::create_dir_all(dir).map_err(io)
}

/// A path as a TOML string.
fn toml_path(path: &Path) -> String {
    toml::Value::String(path.display().to_string()).to_string()
}
