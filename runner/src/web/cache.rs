//! What the pages keep between requests: the last report drawn of each run, kept while
//! its games are the same (every open page of a run fetches it again after each batch,
//! and drawing it takes milliseconds), and each answer made less than a moment ago
//! ([`Recent`]: a hundred open pages polling every 2 s share one refresh, so their polls
//! cost the database nothing in between, and the workers' submits are not slowed).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long an answer stands for all the clients asking: the pages poll every 2 s, so
/// each still sees every change within one poll and a second.
pub(crate) const FRESH_FOR: Duration = Duration::from_secs(1);

/// The answer of one path made at a time, and the lock its refresh holds.
type Slot = Arc<tokio::sync::Mutex<Option<(Instant, Arc<String>)>>>;

/// Answers by key (a path and its query), each made at most once per [`FRESH_FOR`]: a
/// request finding it older makes it again while the others asking for it wait for that
/// one refresh rather than query the database too.
#[derive(Debug, Default)]
pub(crate) struct Recent {
    slots: Mutex<HashMap<String, Slot>>,
}

impl Recent {
    /// The answer kept for `key` if made less than `fresh_for` ago, or the one `make`
    /// makes now (then kept).
    ///
    /// # Errors
    /// `make`'s, kept for nobody: the next request tries again.
    pub(crate) async fn answer<E, F>(
        &self,
        key: &str,
        fresh_for: Duration,
        make: impl FnOnce() -> F,
    ) -> Result<Arc<String>, E>
    where
        F: Future<Output = Result<String, E>>,
    {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(slots.entry(key.to_owned()).or_default())
        };
        let mut held = slot.lock().await;
        if let Some((at, answer)) = held.as_ref() {
            if at.elapsed() < fresh_for {
                return Ok(Arc::clone(answer));
            }
        }
        // As of when the reading starts: what committed while it ran shows next time.
        let at = Instant::now();
        match make().await {
            Ok(answer) => {
                let answer = Arc::new(answer);
                *held = Some((at, Arc::clone(&answer)));
                Ok(answer)
            }
            Err(e) => {
                if held.is_none() {
                    // Nothing to keep (an unknown run, say): no slot left behind per
                    // path asked for.
                    self.slots
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .remove(key);
                }
                Err(e)
            }
        }
    }
}

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

    /// `recent.answer` of `key` that counts its refreshes in `made`, each slow enough for
    /// the other requests to arrive while it runs.
    async fn counted(
        recent: &Recent,
        key: &str,
        fresh_for: Duration,
        made: &std::sync::atomic::AtomicUsize,
    ) -> Result<Arc<String>, String> {
        recent
            .answer(key, fresh_for, || async {
                let n = made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok(format!("{key} {n}"))
            })
            .await
    }

    #[tokio::test]
    async fn concurrent_requests_share_one_refresh_until_it_is_old() {
        let recent = Recent::default();
        let made = std::sync::atomic::AtomicUsize::new(0);
        let fresh = Duration::from_secs(60);
        let one = || counted(&recent, "/api/runs/1", fresh, &made);
        let (a, b, c, d) = tokio::join!(one(), one(), one(), one());
        for answer in [a, b, c, d] {
            assert_eq!(answer.as_deref().map(String::as_str), Ok("/api/runs/1 0"));
        }
        assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 1);
        let other = counted(&recent, "/api/runs/2", fresh, &made).await;
        assert_eq!(other.as_deref().map(String::as_str), Ok("/api/runs/2 1"));
        let stale = counted(&recent, "/api/runs/1", Duration::ZERO, &made).await;
        assert_eq!(
            stale.as_deref().map(String::as_str),
            Ok("/api/runs/1 2"),
            "older than asked: made again"
        );
    }

    #[tokio::test]
    async fn a_failure_is_not_kept() {
        let recent = Recent::default();
        let failed: Result<_, String> = recent
            .answer("/runs/9", FRESH_FOR, || async {
                Err("no run 9".to_owned())
            })
            .await;
        assert_eq!(failed, Err("no run 9".to_owned()));
        assert!(recent.slots.lock().map(|s| s.is_empty()).unwrap_or(false));
        let made: Result<_, String> = recent
            .answer("/runs/9", FRESH_FOR, || async { Ok("run 9".to_owned()) })
            .await;
        assert_eq!(made.as_deref().map(String::as_str), Ok("run 9"));
    }
}
