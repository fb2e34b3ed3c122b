//! Where the finished games of a run go and where they come from, and the counts made
//! of them: the local journal (`games.jsonl` with `run.json` beside it), and for runs on
//! many machines PostgreSQL. The game-playing code hands finished games to one of these
//! sinks and knows nothing of which; the outputs read them back from either.
//!
//! | file | what |
//! |---|---|
//! | `layout.rs` | the pairs and games of a run, in play order; the pairs still to play |
//! | `jsonl.rs` | reading an append-only JSON Lines file whose last line a kill may cut |
//! | `journal.rs` | one JSON line per finished game: the local store |
//! | `belongs.rs` | whether a journal line is one of this run's games (checked on resume) |
//! | `tail.rs` | a journal read as it grows, by a reader that is not its writer |
//! | `read_ahead.rs` | the journal parsed on a second thread while its entries are used |
//! | `ending.rs` | how a run ended: status and exit code |
//! | `finished.rs` | which games have finished, in memory that does not grow |
//! | `tracker.rs` | the counts of a run (pairs, games, reasons, faults, ratings) |
//! | `meta.rs` | `run.json`: the config a run plays and the inputs it depends on |
//! | `folder.rs` | a workload's output folder: checked, created or reopened, its record |
//! | `folder_lock.rs` | one runner at a time in a folder (`run.lock`) |

pub(crate) mod artifact;
pub(crate) mod belongs;
pub mod ending;
pub(crate) mod finished;
pub(crate) mod folder;
pub(crate) mod folder_lock;
pub mod journal;
pub(crate) mod jsonl;
pub mod layout;
pub mod meta;
pub mod pg;
pub(crate) mod read_ahead;
pub(crate) mod tail;
pub mod tracker;
pub(crate) mod verify;
