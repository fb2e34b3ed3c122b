//! Where each game of a match run starts, as the server checks it (`schema_v6.sql`): the
//! opening each pair plays, from the run's book, order, seed and start exactly as a
//! local run gives it (`play::engines::RunContext::start_for`), written by the owner at
//! submit, filled by `db init` for the runs of an older version, and read back by
//! `verify`. Pair `p` is round `p / k` of `k` pairings and plays the opening of slot
//! `round % cycle`, `cycle` being the book's size (1 without a book): a slot is kept for
//! each round the run reaches, at most one per opening of the book.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use tokio_postgres::Transaction;

use super::{query_error, Db, DbError};
use crate::config::{book_use, Plan};
use crate::openings::{OpeningBook, OpeningSequence};
use crate::store::meta::InputFile;

/// Where the games of one slot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The opening's index in the book (a journal entry's `opening`); `None` for the
    /// start position of a run without a book.
    pub opening: Option<usize>,
    /// The FEN the game starts from (an entry's `start_fen`).
    pub fen: String,
    /// The opening's moves, space separated (an entry's `opening_moves`).
    pub moves: String,
}

/// The starts of a run's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunStarts {
    /// Openings in the book (1 without one): the slots repeat after this many rounds.
    pub cycle: u64,
    /// The start of each slot a round of the run reaches, by slot.
    pub slots: Vec<Start>,
}

/// Rows written by one statement when a run's starts are stored.
const ROWS_PER_INSERT: usize = 10_000;

impl RunStarts {
    /// The starts of a run of `plan`, its book and schedule loaded (`load_openings`).
    ///
    /// # Errors
    /// A round whose opening the loaded book does not hold (it holds every one a run
    /// plays: a book loaded for another plan).
    pub fn of(
        plan: &Plan,
        openings: Option<&(OpeningBook, OpeningSequence)>,
    ) -> Result<RunStarts, String> {
        let Some((book, schedule)) = openings else {
            return Ok(RunStarts {
                cycle: 1,
                slots: vec![Start {
                    opening: None,
                    fen: xq_core::board::START_FEN.to_owned(),
                    moves: String::new(),
                }],
            });
        };
        let cycle = book.len() as u64;
        let slots = (0..plan.pairs.min(cycle))
            .map(|slot| {
                let index = schedule.index(slot);
                let opening = book
                    .get(index)
                    .ok_or_else(|| format!("opening {index} of the book is not loaded"))?;
                Ok(Start {
                    opening: Some(index),
                    fen: opening.start.to_fen(),
                    moves: opening
                        .moves
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                })
            })
            .collect::<Result<Vec<Start>, String>>()?;
        Ok(RunStarts { cycle, slots })
    }

    /// The start of pair `pair` of a run of `pairings` pairings.
    #[must_use]
    pub fn of_pair(&self, pair: u64, pairings: usize) -> Option<&Start> {
        let round = pair / pairings.max(1) as u64;
        let slot = round % self.cycle.max(1);
        self.slots.get(usize::try_from(slot).ok()?)
    }

    /// Stores the starts of run `run` in `tx` (with its `opening_cycle`).
    pub(super) async fn store(&self, tx: &Transaction<'_>, run: i64) -> Result<(), DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        let wide = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        tx.execute(
            "UPDATE xq.runs SET opening_cycle = $2 WHERE id = $1",
            &[&run, &wide(self.cycle)],
        )
        .await
        .map_err(q)?;
        let insert = tx
            .prepare(
                "INSERT INTO xq.run_openings (run_id, slot, opening, start_fen, moves)
                 SELECT $1, s.slot, s.opening, s.fen, s.moves
                 FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[])
                     AS s(slot, opening, fen, moves)",
            )
            .await
            .map_err(q)?;
        for (chunk, starts) in self.slots.chunks(ROWS_PER_INSERT).enumerate() {
            let first = chunk * ROWS_PER_INSERT;
            let slots: Vec<i64> = (0..starts.len())
                .map(|i| wide((first + i) as u64))
                .collect();
            let openings: Vec<Option<i64>> = starts
                .iter()
                .map(|s| s.opening.map(|o| wide(o as u64)))
                .collect();
            let fens: Vec<&str> = starts.iter().map(|s| s.fen.as_str()).collect();
            let moves: Vec<&str> = starts.iter().map(|s| s.moves.as_str()).collect();
            tx.execute(&insert, &[&run, &slots, &openings, &fens, &moves])
                .await
                .map_err(q)?;
        }
        Ok(())
    }
}

impl Db {
    /// The starts stored for run `id`; `None` when it has none on record (a run of an
    /// older version whose opening file `db init` could not find).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn run_starts(&self, id: i64) -> Result<Option<RunStarts>, DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        let cycle: Option<i64> = self
            .client()
            .query_opt("SELECT opening_cycle FROM xq.runs WHERE id = $1", &[&id])
            .await
            .map_err(q)?
            .and_then(|row| row.get(0));
        let Some(cycle) = cycle else {
            return Ok(None);
        };
        let rows = self
            .client()
            .query(
                "SELECT opening, start_fen, moves FROM xq.run_openings WHERE run_id = $1
                 ORDER BY slot",
                &[&id],
            )
            .await
            .map_err(q)?;
        let slots = rows
            .iter()
            .map(|row| Start {
                opening: row
                    .get::<_, Option<i64>>(0)
                    .and_then(|o| usize::try_from(o).ok()),
                fen: row.get(1),
                moves: row.get(2),
            })
            .collect();
        Ok(Some(RunStarts {
            cycle: u64::try_from(cycle).unwrap_or(1),
            slots,
        }))
    }
}

/// Fills what the checks of version 6 need for the match runs of an older version:
/// the endings their config can produce, from the config as this runner reads it, and
/// the starts of their games, from the opening file stored with the run (else the file
/// the config names here, if its fingerprint is the run's). A run whose config no
/// longer reads keeps neither (its batches are refused already); one whose opening
/// file is found nowhere keeps no starts: the server does not check where its games
/// start, and `verify` says so.
pub(super) async fn fill_older_runs(tx: &Transaction<'_>) -> Result<(), DbError> {
    let q = |e: tokio_postgres::Error| query_error(&e);
    let rows = tx
        .query(
            "SELECT id, config, openings_fingerprint FROM xq.runs
             WHERE kind = 'match' AND (clocked IS NULL OR opening_cycle IS NULL) ORDER BY id",
            &[],
        )
        .await
        .map_err(q)?;
    for row in rows {
        let (id, config, fingerprint): (i64, String, Option<String>) =
            (row.get(0), row.get(1), row.get(2));
        // Its files as written: the owner's machine need not hold them (the opening
        // file is read from the database).
        let Ok(loaded) = crate::config::parse_stored(&format!("run {id}"), &config) else {
            tracing::warn!(
                "run {id}: its config no longer reads here; its batches will be refused"
            );
            continue;
        };
        let plan = &loaded.plan;
        let judge = super::runs::RunJudge::of(plan);
        tx.execute(
            "UPDATE xq.runs SET adjudicate_draw = $2, adjudicate_resign = $3, max_plies = $4,
                 clocked = $5
             WHERE id = $1",
            &[
                &id,
                &judge.adjudicate_draw,
                &judge.adjudicate_resign,
                &judge.max_plies,
                &judge.clocked,
            ],
        )
        .await
        .map_err(q)?;
        match older_starts(tx, id, plan, fingerprint.as_deref()).await? {
            Ok(starts) => starts.store(tx, id).await?,
            Err(why) => tracing::warn!(
                "run {id}: {why}: the server cannot check where its games start (`verify` says so)"
            ),
        }
    }
    Ok(())
}

/// The starts of older run `id` of `plan`, or why they cannot be known.
async fn older_starts(
    tx: &Transaction<'_>,
    id: i64,
    plan: &Plan,
    fingerprint: Option<&str>,
) -> Result<Result<RunStarts, String>, DbError> {
    let Some(openings) = &plan.openings else {
        return Ok(RunStarts::of(plan, None));
    };
    let stored: Option<String> = tx
        .query_opt(
            "SELECT sha256 FROM xq.run_files WHERE run_id = $1 AND role = 'openings'",
            &[&id],
        )
        .await
        .map_err(|e| query_error(&e))?
        .map(|row| row.get(0));
    let load = |path: &Path| {
        OpeningBook::load_used(path, &book_use(plan, openings))
            .map_err(|e| e.to_string())
            .and_then(|loaded| RunStarts::of(plan, Some(&loaded)))
    };
    if let Some(sha256) = stored {
        let copy = TempCopy::new(id);
        download(tx, &sha256, &copy.path).await?;
        return Ok(load(&copy.path));
    }
    let here = InputFile::of(&openings.path).ok();
    Ok(match (here, fingerprint) {
        (Some(here), Some(want)) if here.fingerprint == want => load(&openings.path),
        _ => Err(format!(
            "its opening file is not stored with it, and {} here is not the file it was submitted with",
            openings.path.display()
        )),
    })
}

/// A file of this process in the temporary folder, removed when dropped.
struct TempCopy {
    path: PathBuf,
}

impl TempCopy {
    fn new(run: i64) -> TempCopy {
        let path =
            std::env::temp_dir().join(format!("xq-runner-openings-{}-{run}", std::process::id()));
        // Left by an earlier process of the same id that was killed.
        let _ = std::fs::remove_file(&path);
        TempCopy { path }
    }
}

impl Drop for TempCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Writes stored artifact `sha256` to `path`, a few chunks at a time, in `tx`.
async fn download(tx: &Transaction<'_>, sha256: &str, path: &Path) -> Result<(), DbError> {
    let io = |e: std::io::Error| DbError::Query(format!("{}: {e}", path.display()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(io)?;
    let mut next = 0i32;
    loop {
        let rows = tx
            .query(
                "SELECT seq, data FROM xq.artifact_chunks WHERE sha256 = $1 AND seq >= $2
                 ORDER BY seq LIMIT 4",
                &[&sha256, &next],
            )
            .await
            .map_err(|e| query_error(&e))?;
        if rows.is_empty() {
            return file.flush().map_err(io);
        }
        for row in &rows {
            let data: &[u8] = row.get(1);
            file.write_all(data).map_err(io)?;
            next = row.get::<_, i32>(0) + 1;
        }
    }
}
