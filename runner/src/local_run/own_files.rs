//! The files a run owns, and an `output.pgnout` that would land on one of them: the
//! journal (PGN written into it and the folder no longer resumes), `run.json`, the other
//! outputs, the lock, the opening file, the config file. Paths are compared as the file
//! system sees them: made absolute, with `.`, `..` and symbolic links resolved as far
//! as the path exists (the rest is not created yet), so `out/../out/games.jsonl` and a
//! link to the journal are caught too.

use std::path::{Component, Path, PathBuf};

use super::tournament::RunError;
use crate::config::Plan;
use crate::output::files::SUMMARY_FILE;
use crate::output::pgn_file::PGN_FILE;
use crate::output::pgnout::BASE_FILE;
use crate::output::report::{REPORT_HTML, SUMMARY_MD};
use crate::store::folder::FolderError;
use crate::store::folder_lock::LOCK_FILE;
use crate::store::journal::JOURNAL_FILE;
use crate::store::meta::RUN_FILE;

/// Every file a run writes in its folder, with what it is.
pub const RUN_FILES: [(&str, &str); 8] = [
    (JOURNAL_FILE, "the run's journal"),
    (RUN_FILE, "the run's config and state"),
    (LOCK_FILE, "the run's lock"),
    (PGN_FILE, "the run's own PGN"),
    (SUMMARY_FILE, "the run's summary"),
    (REPORT_HTML, "the run's report"),
    (SUMMARY_MD, "the run's summary for CI"),
    (BASE_FILE, "where the run's games start in the pgnout file"),
];

/// `path` as the file system sees it: absolute, with `.` and `..` applied and symbolic
/// links resolved in the part that exists.
#[must_use]
pub fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let parts: Vec<Component> = absolute.components().collect();
    // The longest part that exists resolves its links; what follows is applied by hand.
    for split in (0..=parts.len()).rev() {
        let head: PathBuf = parts[..split].iter().collect();
        let Ok(mut real) = head.canonicalize() else {
            continue;
        };
        for part in &parts[split..] {
            match part {
                Component::ParentDir => {
                    real.pop();
                }
                Component::Normal(name) => real.push(name),
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        return real;
    }
    absolute
}

/// Refuses an `output.pgnout` that names the output folder, a file the run writes
/// there, or the opening file; `config` is the config file, when there is one.
///
/// # Errors
/// [`RunError::OutputDir`] naming the key, the file and what it is.
pub fn check_pgnout(plan: &Plan, config: Option<&Path>) -> Result<(), RunError> {
    let Some(pgnout) = &plan.output.pgnout else {
        return Ok(());
    };
    let target = resolved(&pgnout.path);
    let dir = resolved(&plan.output.dir);
    let mut taken: Vec<(PathBuf, &str)> = RUN_FILES
        .iter()
        .map(|&(name, what)| (dir.join(name), what))
        .collect();
    taken.push((dir, "the run's output folder"));
    if let Some(o) = &plan.openings {
        taken.push((resolved(&o.path), "the run's opening file"));
    }
    if let Some(c) = config {
        taken.push((resolved(c), "the run's config file"));
    }
    match taken.into_iter().find(|(path, _)| *path == target) {
        Some((_, what)) => Err(RunError::OutputDir(FolderError::PgnOut {
            path: pgnout.path.clone(),
            what: what.to_owned(),
        })),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(dir: &Path, pgnout: &str) -> Plan {
        let program = std::env::current_exe().expect("test binary");
        let text = format!(
            "[tournament]\npairs = 1\n[time]\ndepth = 1\n[output]\ndir = {:?}\npgnout = {pgnout:?}\n\
             [[engine]]\ncommand = [{:?}]\n[[engine]]\ncommand = [{:?}]\n",
            dir.display().to_string(),
            program.display().to_string(),
            program.display().to_string()
        );
        crate::config::parse("test.toml", &text, &[])
            .expect("config")
            .plan
    }

    #[test]
    fn the_run_s_own_files_are_refused_however_they_are_spelled() {
        let folder = tempfile::tempdir().expect("dir");
        let root = folder.path();
        let out = root.join("out");
        let config = root.join("c.toml");
        std::fs::write(&config, "").expect("config");
        for (pgnout, what) in [
            (out.join("games.jsonl"), "the run's journal"),
            (out.join("run.json"), "the run's config and state"),
            (out.join("summary.json"), "the run's summary"),
            (out.join("games.pgn"), "the run's own PGN"),
            (out.join("pgnout.base"), "where the run's games start"),
            (root.join("out/../out/./report.html"), "the run's report"),
            (out.clone(), "the run's output folder"),
            (config.clone(), "the run's config file"),
        ] {
            let text = pgnout.display().to_string();
            let e = check_pgnout(&plan(&out, &text), Some(&config))
                .expect_err(&text)
                .to_string();
            assert!(
                e.starts_with(&format!("output.pgnout: `{text}` is {what}")),
                "{e}"
            );
            assert!(!e.contains('\n'), "{e}");
        }
        // A link to the journal is the journal.
        std::fs::create_dir(&out).expect("out");
        std::fs::write(out.join("games.jsonl"), "").expect("journal");
        let link = root.join("all.pgn");
        std::os::unix::fs::symlink(out.join("games.jsonl"), &link).expect("link");
        let text = link.display().to_string();
        assert!(check_pgnout(&plan(&out, &text), None).is_err());
        // Any other file is fine, in the folder or beside it.
        for fine in [root.join("games.pgn"), out.join("all.pgn")] {
            let text = fine.display().to_string();
            check_pgnout(&plan(&out, &text), Some(&config)).expect(&text);
        }
    }
}
