//! The database behind the pages: one connection shared by every request, opened again
//! when it broke (the server restarted), so that `serve` outlives the database's outages
//! and the pages recover on their own.

use std::sync::Arc;

use tokio::sync::RwLock;

use super::error::WebError;
use crate::store::pg::{Db, Target};

/// The connection, or none while the server is away.
#[derive(Debug)]
pub(crate) struct Source {
    target: Target,
    db: RwLock<Option<Arc<Db>>>,
    /// The last report drawn of each run.
    pub(crate) reports: super::cache::Reports,
    /// The state of each run, folded from its committed batches.
    pub(crate) folds: super::fold::Folds,
    /// Each answer made less than a moment ago, shared by the pages polling it.
    pub(crate) recent: super::cache::Recent,
}

impl Source {
    /// A source holding `db`, an open connection to `target`.
    pub(crate) fn new(target: Target, db: Db) -> Source {
        Source {
            target,
            db: RwLock::new(Some(Arc::new(db))),
            reports: super::cache::Reports::default(),
            folds: super::fold::Folds::default(),
            recent: super::cache::Recent::default(),
        }
    }

    /// The open connection; a new one when it broke.
    ///
    /// # Errors
    /// [`WebError::Unreachable`] when the server cannot be reached.
    pub(crate) async fn db(&self) -> Result<Arc<Db>, WebError> {
        if let Some(db) = self.db.read().await.as_ref().filter(|db| !db.is_closed()) {
            return Ok(Arc::clone(db));
        }
        let mut held = self.db.write().await;
        // Another request may have opened it while this one waited for the lock.
        if let Some(db) = held.as_ref().filter(|db| !db.is_closed()) {
            return Ok(Arc::clone(db));
        }
        match Db::open(&self.target).await {
            Ok(db) => {
                tracing::info!("database reachable again");
                let db = Arc::new(db);
                *held = Some(Arc::clone(&db));
                Ok(db)
            }
            Err(e) => {
                if held.take().is_some() {
                    // Said once per outage; its message names the target without password.
                    tracing::warn!("{e}");
                }
                Err(WebError::Unreachable)
            }
        }
    }
}
