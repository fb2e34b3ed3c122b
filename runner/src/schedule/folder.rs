//! The entry points `scaling/` still uses into a run's folder, now `store::folder`.

pub use crate::store::folder::FolderUse as Start;

use super::tournament::RunError;
use crate::store::folder::{RunFolder, Workload};

/// [`RunFolder::check_new`] of a run.
///
/// # Errors
/// As [`RunFolder::check_new`].
pub fn check_new(dir: &std::path::Path) -> Result<(), RunError> {
    Ok(RunFolder::check_new(dir, Workload::Run)?)
}
