//! The embedded default run (`configs/quick.toml`, what `xq-runner run` plays without a
//! config), made to run from any folder. Its two paths are written for the repository's
//! root; elsewhere they are looked for where an installation puts them:
//!
//! - the engine beside the runner's own executable first (`cargo install` of both, or
//!   a checkout's `target/<profile>/`), then `xq-engine` on `PATH`;
//! - the opening suite of the checkout the runner was built in (`target/<profile>/` is
//!   two folders below it), else the copy the runner carries, written once into the
//!   user's cache folder (a resume reads it again from there).
//!
//! A path that works as written (from the repository's root) is left as it is.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// `configs/quick.toml` as written.
pub const QUICK: &str = include_str!("../../../configs/quick.toml");

/// The suite the quick run plays, carried for runs outside a checkout.
const MAINLINES: &str = include_str!("../../../openings/mainlines.epd");

/// The engine's path in `QUICK`, relative to the repository's root.
const ENGINE: &str = "target/release/xq-engine";
/// The opening suite's path in `QUICK`, relative to the repository's root.
const OPENINGS: &str = "openings/mainlines.epd";

/// Where the quick run's files may be.
#[derive(Debug)]
struct Places {
    /// The working folder, where the paths are read as written.
    cwd: PathBuf,
    /// The folder of the runner's executable.
    exe_dir: Option<PathBuf>,
    /// `PATH`.
    path: Option<OsString>,
    /// Where the carried suite is written.
    cache: PathBuf,
}

/// The quick run's config with its paths found from the working folder.
#[must_use]
pub fn quick() -> String {
    let places = Places {
        cwd: std::env::current_dir().unwrap_or_default(),
        exe_dir: std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_owned)),
        path: std::env::var_os("PATH"),
        cache: cache_dir(),
    };
    places.quick()
}

/// `$XDG_CACHE_HOME/xq-runner`, else `~/.cache/xq-runner`, else one in the temporary
/// folder.
pub(crate) fn cache_dir() -> PathBuf {
    let home_cache = || std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache"));
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(home_cache)
        .unwrap_or_else(std::env::temp_dir)
        .join("xq-runner")
}

/// A path as a TOML string (quoted and escaped).
fn toml_string(path: &Path) -> String {
    toml::Value::String(path.display().to_string()).to_string()
}

impl Places {
    fn quick(&self) -> String {
        let mut text = QUICK.to_owned();
        if let Some(engine) = self.engine() {
            text = text.replace(&format!("\"{ENGINE}\""), &toml_string(&engine));
        }
        if let Some(openings) = self.openings() {
            text = text.replace(&format!("\"{OPENINGS}\""), &toml_string(&openings));
        }
        text
    }

    /// The engine to play, when the path as written does not reach it.
    fn engine(&self) -> Option<PathBuf> {
        if self.cwd.join(ENGINE).is_file() {
            return None;
        }
        let name = format!("xq-engine{}", std::env::consts::EXE_SUFFIX);
        if let Some(beside) = self.exe_dir.as_ref().map(|d| d.join(&name)) {
            if beside.is_file() {
                return Some(beside);
            }
        }
        let on_path = self
            .path
            .as_ref()
            .is_some_and(|p| std::env::split_paths(p).any(|d| d.join(&name).is_file()));
        // A bare name: the engine is started through PATH, as the config check finds it.
        on_path.then(|| PathBuf::from(name))
    }

    /// The opening suite, when the path as written does not reach it.
    fn openings(&self) -> Option<PathBuf> {
        if self.cwd.join(OPENINGS).is_file() {
            return None;
        }
        let checkout = self
            .exe_dir
            .as_ref()
            .map(|d| d.join("../..").join(OPENINGS))
            .filter(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok());
        if checkout.is_some() {
            return checkout;
        }
        // Named by its content: a later runner's other suite never replaces this one
        // under a run that resumes from it.
        let copy = self.cache.join(format!(
            "mainlines-{}.epd",
            crate::fnv::fnv1a_hex(MAINLINES.as_bytes())
        ));
        if std::fs::read(&copy).ok().as_deref() != Some(MAINLINES.as_bytes()) {
            std::fs::create_dir_all(&self.cache).ok()?;
            crate::atomic_file::write(&copy, MAINLINES.as_bytes()).ok()?;
        }
        Some(copy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(root: &Path) -> Places {
        Places {
            cwd: root.join("elsewhere"),
            exe_dir: Some(root.join("bin")),
            path: Some(root.join("path").into_os_string()),
            cache: root.join("cache"),
        }
    }

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
        std::fs::write(path, "").expect("file");
    }

    #[test]
    fn the_engine_beside_the_runner_then_on_path_then_as_written() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        let p = places(root);
        assert_eq!(p.engine(), None, "nowhere: left as written");
        touch(&root.join("path/xq-engine"));
        assert_eq!(p.engine(), Some(PathBuf::from("xq-engine")));
        touch(&root.join("bin/xq-engine"));
        assert_eq!(p.engine(), Some(root.join("bin/xq-engine")));
        touch(&root.join("elsewhere/target/release/xq-engine"));
        assert_eq!(p.engine(), None, "the repository's root: as written");
    }

    #[test]
    fn the_openings_of_the_checkout_else_the_carried_copy() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        // An installed runner: the carried suite, written once into the cache.
        let p = places(root);
        let copy = p.openings().expect("the carried copy");
        assert!(copy.starts_with(root.join("cache")), "{}", copy.display());
        assert_eq!(std::fs::read_to_string(&copy).expect("copy"), MAINLINES);
        assert_eq!(p.openings(), Some(copy));
        // A checkout's build: the checkout's own suite.
        let build = Places {
            exe_dir: Some(root.join("repo/target/debug")),
            ..places(root)
        };
        touch(&root.join("repo/openings/mainlines.epd"));
        std::fs::create_dir_all(root.join("repo/target/debug")).expect("target");
        let suite = root.join("repo/openings/mainlines.epd").canonicalize();
        assert_eq!(build.openings(), suite.ok());
        let text = build.quick();
        assert!(text.contains("repo/openings/mainlines.epd\""), "{text}");
        assert!(!text.contains("\"openings/mainlines.epd\""), "{text}");
    }
}
