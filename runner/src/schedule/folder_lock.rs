//! The lock `scaling/` still takes by this path, now `store::folder_lock`.

pub(crate) use crate::store::folder_lock::{FolderLock, LOCK_FILE};
