//! Games read on two cores: one thread reads and parses them (from a journal, or from
//! the database) while the caller uses the entries parsed before (writes their PGN,
//! replays their counts). Parsing is about half the cost of writing a long run's
//! outputs, so the two overlap.

use std::sync::mpsc;

use super::journal::JournalEntry;

/// Entries handed over at once: few enough to keep memory small, enough that the
/// hand-over costs nothing next to the parsing.
const CHUNK: usize = 128;

/// Chunks parsed ahead of the caller at most.
const AHEAD: usize = 8;

/// Runs `produce` on another thread, which hands each entry it makes (with its offset) to
/// `each` on this one, a chunk at a time: whatever reads and parses the games (a journal,
/// a database) overlaps with what uses them. `None` when the producing thread failed.
pub fn ahead<T: Send>(
    produce: impl FnOnce(&mut dyn FnMut(u64, JournalEntry)) -> T + Send,
    mut each: impl FnMut(u64, JournalEntry),
) -> Option<T> {
    let (tx, rx) = mpsc::sync_channel::<Vec<(u64, JournalEntry)>>(AHEAD);
    std::thread::scope(|scope| {
        let producer = scope.spawn(move || {
            let mut chunk = Vec::with_capacity(CHUNK);
            let mut receiver_gone = false;
            let result = produce(&mut |offset, entry| {
                if receiver_gone {
                    return;
                }
                chunk.push((offset, entry));
                if chunk.len() == CHUNK {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                    receiver_gone = tx.send(full).is_err();
                }
            });
            if !chunk.is_empty() && !receiver_gone {
                let _ = tx.send(chunk);
            }
            result
        });
        for chunk in rx {
            for (offset, entry) in chunk {
                each(offset, entry);
            }
        }
        producer.join().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::journal::{Journal, JournalError};
    use std::path::Path;

    /// [`Journal::scan`] with the parsing on the other thread, as the outputs read it.
    fn scan_ahead(path: &Path, each: impl FnMut(u64, JournalEntry)) -> Result<u64, JournalError> {
        ahead(|emit| Journal::scan(path, emit), each).expect("the reading thread")
    }

    #[test]
    fn the_same_entries_offsets_and_length_as_a_plain_scan() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        let line = include_str!("../../tests/data/report/gauntlet/games.jsonl");
        // More lines than a chunk, and a torn last line.
        let mut text = String::new();
        while text.lines().count() < 3 * CHUNK + 7 {
            text.push_str(line);
        }
        text.push_str("{\"pair\":1");
        std::fs::write(&path, &text).expect("write");
        let mut plain = Vec::new();
        let plain_len = Journal::scan(&path, |o, e| plain.push((o, e))).expect("scan");
        let mut ahead = Vec::new();
        let ahead_len = scan_ahead(&path, |o, e| ahead.push((o, e))).expect("scan ahead");
        assert!(plain.len() > 3 * CHUNK);
        assert_eq!(ahead_len, plain_len);
        assert_eq!(ahead, plain);
    }

    #[test]
    fn a_corrupt_line_is_the_same_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        let line = include_str!("../../tests/data/report/gauntlet/games.jsonl");
        std::fs::write(&path, format!("{line}not json\n{line}")).expect("write");
        let plain = Journal::scan(&path, |_, _| {}).map_err(|e| e.to_string());
        let ahead = scan_ahead(&path, |_, _| {}).map_err(|e| e.to_string());
        assert!(plain.is_err());
        assert_eq!(ahead, plain);
    }
}
