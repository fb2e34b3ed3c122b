//! One run folder followed as it is played: its journal read as it grows ([`Tail`]:
//! only the new bytes each time, never locked), replayed by the report's own reading
//! (`output::report`), so that the page and its JSON show the numbers `report` writes
//! for the folder at that moment.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::super::error::WebError;
use crate::output::pgn_headers::GameHeaders;
use crate::output::report::games::GameList;
use crate::output::report::{render, Facts, HeadReading, ReportError, RunHead, RunInput};
use crate::stats::Verdict;
use crate::store::journal::{JournalEntry, JOURNAL_FILE};
use crate::store::layout::Jobs;
use crate::store::tail::{Tail, TailError};

/// A folder's state, with the keys of `status --json` of a stored run where they mean
/// the same; `id` is the folder's path under the served folder.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct FolderStatus {
    pub id: String,
    pub title: String,
    /// `open` while a runner plays into it, else `finished`, `aborted` or `stopped`
    /// (ended without `summary.json`: killed; a resume continues it).
    pub state: String,
    pub status: String,
    pub exit_code: Option<u8>,
    pub games: u64,
    pub pairs: u64,
    pub pairs_total: u64,
    pub penta: [u64; 5],
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub elo: f64,
    pub elo_ci95: f64,
    pub nelo: f64,
    pub nelo_ci95: f64,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    pub verdict: Option<Verdict>,
    /// Complete lines of `games.jsonl` read (games whose pair is not complete too).
    pub journal_lines: usize,
    /// The block the run prints (result block or rating table).
    pub text: String,
}

/// A folder's run, read up to the end of its journal when last asked.
#[derive(Debug)]
pub(crate) struct Watched {
    dir: PathBuf,
    tail: Tail,
    reading: HeadReading,
    headers: GameHeaders<'static>,
    /// The pairs its config plans, once read (0 when the config does not read here).
    pairs_total: Option<u64>,
    /// The page last drawn, and the journal lines and status it was drawn at.
    drawn: Option<(usize, String, Arc<String>)>,
}

fn report_error(e: ReportError) -> WebError {
    match e {
        ReportError::NoRun(dir) => {
            WebError::NotFound(format!("{}: no run here (removed?)", dir.display()))
        }
        e => WebError::Failed(e.to_string()),
    }
}

impl Watched {
    /// Starts following the run in `dir` (nothing of its journal read yet).
    ///
    /// # Errors
    /// [`WebError::NotFound`] without `run.json`; [`WebError::Failed`] when it is not
    /// what a run writes.
    pub(crate) fn new(dir: &Path) -> Result<Watched, WebError> {
        let head = RunHead::read(dir).map_err(report_error)?;
        Ok(Watched {
            dir: dir.to_owned(),
            tail: Tail::new(&dir.join(JOURNAL_FILE)),
            reading: head.reading(),
            headers: head.pgn_headers(),
            pairs_total: None,
            drawn: None,
        })
    }

    /// Reads what the journal gained since the last call.
    fn catch_up(&mut self, head: &RunHead) -> Result<(), WebError> {
        loop {
            let reading = &mut self.reading;
            let read = self.tail.read(u64::MAX, |line| {
                let entry: JournalEntry = serde_json::from_slice(line)
                    .map_err(|e| format!("not a journal entry: {e}"))?;
                reading.add(&entry);
                Ok(())
            });
            match read {
                Ok(_) => return Ok(()),
                // Cut or replaced: read again from the start.
                Err(TailError::Rewritten(_)) => {
                    self.reading = head.reading();
                    self.drawn = None;
                }
                Err(e) => return Err(WebError::Failed(e.to_string())),
            }
        }
    }

    /// The run as it is now: its journal read to its end, with `run.json` and
    /// `summary.json` read again (a run that ended wrote the latter); the games the
    /// page lists only `with_games` (writing their PGN is most of the cost).
    fn now(&mut self, with_games: bool) -> Result<RunInput, WebError> {
        let head = RunHead::read(&self.dir).map_err(report_error)?;
        self.catch_up(&head)?;
        let (replay, games) = if with_games {
            self.reading.so_far(&self.headers)
        } else {
            (self.reading.replay_so_far(), GameList::default())
        };
        let input = head.into_input(replay, games);
        if self.pairs_total.is_none() {
            let planned = crate::config::parse_stored("run.json", &input.meta.config)
                .map(|l| Jobs::new(l.plan.pairings, l.plan.pairs).total_pairs());
            self.pairs_total = Some(planned.unwrap_or(0));
        }
        Ok(input)
    }

    /// The state of the run, `id` being its path under the served folder.
    ///
    /// # Errors
    /// As [`Watched::new`]; [`WebError::Failed`] naming a journal line that is no game.
    pub(crate) fn state(&mut self, id: &str) -> Result<FolderStatus, WebError> {
        let input = self.now(false)?;
        Ok(self.status_of(id, &input))
    }

    fn status_of(&self, id: &str, input: &RunInput) -> FolderStatus {
        let facts = Facts::new(input);
        let tally = facts.pairings.first().map(|p| (p.tally, p.estimate));
        let (state, status, exit_code) = super::ended::state(&self.dir, input.status.as_ref());
        let (elo, elo_ci95, nelo, nelo_ci95) = tally
            .map_or((f64::NAN, f64::NAN, f64::NAN, f64::NAN), |(_, e)| {
                (e.elo, e.elo_ci95, e.nelo, e.nelo_ci95)
            });
        let t = tally.map(|(t, _)| t).unwrap_or_default();
        FolderStatus {
            id: id.to_owned(),
            title: facts.title(),
            state,
            status,
            exit_code,
            games: facts.games,
            pairs: input.replay.tracker.pairs(),
            pairs_total: self.pairs_total.unwrap_or(0),
            penta: t.penta.to_array(),
            wins: t.wdl.wins,
            draws: t.wdl.draws,
            losses: t.wdl.losses,
            elo,
            elo_ci95,
            nelo,
            nelo_ci95,
            llr: facts.sprt.as_ref().map(|r| r.llr),
            llr_lower: facts.sprt.as_ref().map(|r| r.llr_lower),
            llr_upper: facts.sprt.as_ref().map(|r| r.llr_upper),
            verdict: facts.sprt.as_ref().map(|r| r.verdict),
            journal_lines: self.tail.lines(),
            text: facts.result_text.clone(),
        }
    }

    /// The report of the run (`report.html`'s markup, listing fewer games) and its
    /// state; the report is drawn again only when the journal or the status changed.
    ///
    /// # Errors
    /// As [`Watched::state`].
    pub(crate) fn page(&mut self, id: &str) -> Result<(Arc<String>, FolderStatus), WebError> {
        let state = self.state(id)?;
        let key = (self.tail.lines(), state.status.clone());
        if let Some((lines, status, page)) = &self.drawn {
            if (*lines, status) == (key.0, &key.1) {
                return Ok((Arc::clone(page), state));
            }
        }
        let mut input = self.now(true)?;
        // The journal may have grown since: the card and the report of the same lines.
        let state = self.status_of(id, &input);
        let key = (self.tail.lines(), state.status.clone());
        super::super::run_page::fewer_games(&mut input.games.rows);
        // Its PGN is streamed from the journal under the run's path.
        input.has_pgn = true;
        let (report, _) = render(&input);
        let page = Arc::new(report.replace(
            "<a href=\"games.pgn\">",
            &format!("<a href=\"{}/games.pgn\">", super::href(id)),
        ));
        self.drawn = Some((key.0, key.1, Arc::clone(&page)));
        Ok((page, state))
    }
}
