//! The last report drawn of each run, kept while its games are the same: every open page
//! of a run fetches it again after each batch, and drawing it (charts, listed games'
//! PGN) takes milliseconds, so it is drawn once per change, not once per page.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What a run's report is drawn from: its games counted, its state and status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Drawn {
    pub games: u64,
    pub state: String,
    pub status: String,
}

/// The reports, by run id.
#[derive(Debug, Default)]
pub(crate) struct Reports {
    kept: Mutex<HashMap<i64, (Drawn, Arc<String>)>>,
}

impl Reports {
    /// The report of run `id` drawn from `of`, if it is kept.
    pub(crate) fn get(&self, id: i64, of: &Drawn) -> Option<Arc<String>> {
        let kept = self.kept.lock().ok()?;
        kept.get(&id)
            .filter(|(drawn, _)| drawn == of)
            .map(|(_, page)| Arc::clone(page))
    }

    /// Keeps `page`, the report of run `id` drawn from `of`, in place of the one before.
    pub(crate) fn keep(&self, id: i64, of: Drawn, page: Arc<String>) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.insert(id, (of, page));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_kept_until_its_games_change() {
        let reports = Reports::default();
        let of = |games| Drawn {
            games,
            state: "open".to_owned(),
            status: "open".to_owned(),
        };
        assert!(reports.get(1, &of(4)).is_none());
        reports.keep(1, of(4), Arc::new("four".to_owned()));
        assert_eq!(
            reports.get(1, &of(4)).as_deref().map(String::as_str),
            Some("four")
        );
        assert!(reports.get(1, &of(6)).is_none(), "more games: drawn again");
        assert!(reports.get(2, &of(4)).is_none(), "another run");
    }
}
