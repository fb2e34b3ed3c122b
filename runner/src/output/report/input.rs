//! What a report is made from: `run.json` (the config as played), `summary.json` (the
//! status at the end; absent while a run goes on or after a kill) and `games.jsonl`.
//!
//! The shape of the run (engines, kind, pairings, SPRT) comes from `summary.json` when it
//! is there, since that is what the run used; otherwise from the config text in
//! `run.json`, resolved with the same defaults as `config::plan`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::games::{GameList, GamePicker};
use super::series::{Replay, Replayer};
use super::ReportError;
use crate::config::MoveFormat;
use crate::config::PgnExtras;
use crate::config::{RawConfig, TournamentKind};
use crate::game::TimeControl;
use crate::output::pgn_headers::{date_of, GameHeaders};
use crate::output::settings::RunSettings;
use crate::stats::{EloModel, Sprt};
use crate::store::ending::Ending;
use crate::store::journal::{Journal, JournalEntry};
use crate::store::meta::RunMeta;

/// One engine as the report shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    pub name: String,
    pub command: Vec<String>,
    /// Engine options from the config (`evallevel = 3`), if the config could be read.
    pub options: BTreeMap<String, String>,
    /// Those of them the engine did not announce (from `summary.json`).
    pub unknown_options: Vec<String>,
}

/// How the run ended, from `summary.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunStatus {
    pub ending: Ending,
    /// The exit code the run recorded with it.
    pub exit_code: u8,
    pub duration_s: f64,
}

/// Everything read from an output folder.
#[derive(Clone, Debug)]
pub struct RunInput {
    pub dir: PathBuf,
    /// `run.json`: version, config hash and the config text.
    pub meta: RunMeta,
    pub engines: Vec<EngineInfo>,
    pub kind: TournamentKind,
    /// Engine indices; the first plays Red in game 0 of each pair.
    pub pairings: Vec<(usize, usize)>,
    pub sprt: Option<Sprt>,
    /// `None` when there is no `summary.json` (a run in progress or killed).
    pub status: Option<RunStatus>,
    /// The finished games replayed in journal order.
    pub replay: Replay,
    /// The games the page lists, with their PGN.
    pub games: GameList,
    /// Time control, hash and openings, from the config (`None` when it is unreadable).
    pub settings: Option<RunSettings>,
    /// Whether `games.pgn` is there (it is written when the run ends).
    pub has_pgn: bool,
    /// What to say of a run without an ending, in place of a folder's `INCOMPLETE`
    /// (no `summary.json`): a stored run's own words, its marker and its line.
    pub pending: Option<(&'static str, String)>,
}

/// The fields of `summary.json` a report needs; the rest is rebuilt from the journal.
#[derive(Debug, Deserialize)]
struct SummaryFile {
    kind: String,
    /// Read by `Ending`'s `FromStr`: words no run writes make the file damaged.
    status: Ending,
    exit_code: u8,
    #[serde(default)]
    duration_s: f64,
    engines: Vec<SummaryEngine>,
    #[serde(default)]
    sprt: Option<Sprt>,
    #[serde(default)]
    pairings: Vec<SummaryPairing>,
}

#[derive(Debug, Deserialize)]
struct SummaryEngine {
    name: String,
    #[serde(default)]
    command: Vec<String>,
    #[serde(default)]
    unknown_options: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct SummaryPairing {
    first: String,
    second: String,
}

/// The kind of a run from its name, with the aliases `config::plan` accepts.
fn kind_from_name(name: Option<&str>) -> Option<TournamentKind> {
    name.map_or(Some(TournamentKind::Match), TournamentKind::from_name)
}

/// Reads an output folder.
///
/// # Errors
/// [`ReportError::NoRun`] without `run.json`; [`ReportError::Damaged`] when `run.json` or
/// `summary.json` is not what a run writes, or neither says which engines played;
/// [`ReportError::Journal`] when the journal cannot be read.
pub fn read_run(dir: &Path) -> Result<RunInput, ReportError> {
    let head = RunHead::read(dir)?;
    let mut reading = head.reading();
    // Alone, the reading has nothing to overlap with: parsed here, as it is read.
    Journal::scan(&dir.join("games.jsonl"), |_, entry| reading.add(&entry))?;
    let (replay, games) = reading.finish(&head.pgn_headers());
    Ok(head.into_input(replay, games))
}

/// What a report reads from a folder besides the journal: `run.json`, the config and
/// `summary.json`. The journal is then streamed through [`RunHead::reading`], alone
/// ([`read_run`]) or in the pass that writes `games.pgn` too.
#[derive(Debug)]
pub struct RunHead {
    dir: PathBuf,
    meta: RunMeta,
    config: Option<RawConfig>,
    summary: Option<SummaryFile>,
    engines: Vec<EngineInfo>,
    names: Vec<String>,
    kind: TournamentKind,
    pairings: Vec<(usize, usize)>,
    sprt: Option<Sprt>,
}

/// The report's reading of the journal, one entry at a time; kept and fed further as a
/// journal grows (`serve` of a folder), its figures taken at any point by
/// [`HeadReading::so_far`].
#[derive(Clone, Debug)]
pub struct HeadReading {
    replayer: Replayer,
    picker: GamePicker,
}

impl HeadReading {
    /// The next entry of the journal.
    pub fn add(&mut self, entry: &JournalEntry) {
        self.replayer.add(entry);
        self.picker.add(entry);
    }

    /// The replay and the games listed, their PGN written by `headers` (those of
    /// `games.pgn`).
    #[must_use]
    pub fn finish(self, headers: &GameHeaders<'_>) -> (Replay, GameList) {
        (self.replayer.finish(), self.picker.finish(headers))
    }

    /// What [`HeadReading::finish`] gives for the entries read so far, the reading left
    /// to go on.
    #[must_use]
    pub fn so_far(&self, headers: &GameHeaders<'_>) -> (Replay, GameList) {
        self.clone().finish(headers)
    }

    /// The replay of the entries read so far, without the games listed (whose PGN is
    /// most of the cost of [`HeadReading::so_far`]).
    #[must_use]
    pub fn replay_so_far(&self) -> Replay {
        self.replayer.clone().finish()
    }
}

impl RunHead {
    /// Reads `run.json`, its config and `summary.json`.
    ///
    /// # Errors
    /// As [`read_run`], but for the journal.
    pub fn read(dir: &Path) -> Result<RunHead, ReportError> {
        RunHead::read_as(dir, None)
    }

    /// As [`RunHead::read`], with the text of the `summary.json` about to be written
    /// in place of the file (the outputs are replaced together, once all are written).
    ///
    /// # Errors
    /// As [`RunHead::read`].
    pub fn read_with_summary(dir: &Path, summary: &str) -> Result<RunHead, ReportError> {
        RunHead::read_as(dir, Some(summary))
    }

    fn read_as(dir: &Path, summary_text: Option<&str>) -> Result<RunHead, ReportError> {
        let meta_path = dir.join("run.json");
        // A plain file only: a FIFO in its place would hang the reader (`serve DIR`).
        let meta_text = match crate::plain_file::read_to_string(&meta_path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ReportError::NoRun(dir.to_owned()))
            }
            Err(source) => {
                return Err(ReportError::Read {
                    path: meta_path,
                    source,
                })
            }
        };
        let meta: RunMeta = serde_json::from_str(&meta_text).map_err(|e| ReportError::Damaged {
            path: meta_path.clone(),
            why: e.to_string(),
        })?;
        let summary_path = dir.join("summary.json");
        let summary = match summary_text {
            Some(text) => parse_summary(&summary_path, text).map(Some)?,
            None => read_summary(&summary_path)?,
        };
        RunHead::of_meta(dir, meta, summary)
    }

    /// The head of a run kept elsewhere than in a folder (a stored run, shown by
    /// `serve`): its `run.json` as `meta`, no `summary.json`; `dir` names it in messages
    /// and the links of its page.
    ///
    /// # Errors
    /// [`ReportError::Damaged`] when its config does not say which engines played.
    pub fn of_stored(dir: &Path, meta: RunMeta) -> Result<RunHead, ReportError> {
        RunHead::of_meta(dir, meta, None)
    }

    fn of_meta(
        dir: &Path,
        meta: RunMeta,
        summary: Option<SummaryFile>,
    ) -> Result<RunHead, ReportError> {
        let meta_path = dir.join("run.json");
        // The engines' options come from the config; a report of a run whose config no
        // longer reads (an older version's keys) is still worth writing without them.
        let config: Option<RawConfig> = toml::from_str(&meta.config)
            .map_err(|e| {
                tracing::warn!(
                    "{}: the run's config does not read, the report leaves out the engines' options: {}",
                    meta_path.display(),
                    e.message()
                )
            })
            .ok();

        let options = |i: usize| -> BTreeMap<String, String> {
            config
                .as_ref()
                .and_then(|c| c.engines.get(i))
                .map(|e| {
                    e.options
                        .iter()
                        .map(|(k, v)| (k.clone(), option_text(v)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let shape = summary
            .as_ref()
            .and_then(|s| shape_from_summary(s, &options))
            .or_else(|| config.as_ref().and_then(|c| shape_from_config(c, &options)));
        let Some((engines, kind, pairings, sprt)) = shape else {
            return Err(ReportError::Damaged {
                path: meta_path,
                why: "cannot tell which engines played (config unreadable, no summary.json)"
                    .to_owned(),
            });
        };
        let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
        Ok(RunHead {
            dir: dir.to_owned(),
            meta,
            config,
            summary,
            engines,
            names,
            kind,
            pairings,
            sprt,
        })
    }

    /// A reading of the journal: one streaming pass, memory flat however long the run.
    #[must_use]
    pub fn reading(&self) -> HeadReading {
        HeadReading {
            replayer: Replayer::new(&self.names, &self.pairings, self.sprt.as_ref()),
            picker: GamePicker::new(),
        }
    }

    /// The headers `games.pgn` was written with, for a report written without it (`xq-runner
    /// report <dir>`): the run's config validated again, the date of the folder's
    /// `games.pgn` (today's without one, as it would be written now). A config that no
    /// longer validates here (an engine moved) gives what the text says, without the
    /// opening names.
    #[must_use]
    pub fn pgn_headers(&self) -> GameHeaders<'static> {
        let date = date_of(&self.dir.join("games.pgn")).unwrap_or_else(crate::output::files::today);
        match crate::config::parse("run.json", &self.meta.config, &[]) {
            Ok(loaded) => GameHeaders::for_plan(&loaded.plan, None, date),
            Err(e) => {
                tracing::warn!(
                    "the report's PGN leaves out the opening names: the run's config does not validate here: {e}"
                );
                self.config
                    .as_ref()
                    .map_or_else(GameHeaders::default, lenient_headers)
                    .with_date(date)
            }
        }
    }

    /// Everything read, with the journal's reading.
    #[must_use]
    pub fn into_input(self, replay: Replay, games: GameList) -> RunInput {
        let settings = self
            .config
            .as_ref()
            .map(|c| RunSettings::from_config(c, &self.names));
        RunInput {
            has_pgn: self.dir.join("games.pgn").is_file(),
            dir: self.dir,
            meta: self.meta,
            engines: self.engines,
            kind: self.kind,
            pairings: self.pairings,
            sprt: self.sprt,
            status: self.summary.map(|s| RunStatus {
                ending: s.status,
                exit_code: s.exit_code,
                duration_s: s.duration_s,
            }),
            replay,
            games,
            settings,
            pending: None,
        }
    }
}

/// How the run writes its PGN, as `config::plan` reads it (leniently: a report shows
/// what it can).
fn lenient_headers(c: &RawConfig) -> GameHeaders<'static> {
    let o = &c.output;
    // The first engine's own limit, else the run's: the first of them that reads.
    let own = c.engines.first().and_then(|e| e.time.as_ref());
    let time_control = own.into_iter().chain([&c.time]).find_map(|t| {
        t.tc.as_deref()
            .and_then(|tc| TimeControl::parse(tc).ok())
            .or_else(|| {
                let m = t.movetime.as_deref()?;
                crate::game::parse_duration(m)
                    .ok()
                    .map(TimeControl::MoveTime)
            })
            .or_else(|| t.depth.map(TimeControl::Depth))
            .or_else(|| t.nodes.map(TimeControl::Nodes))
    });
    GameHeaders {
        time_control,
        event: c
            .tournament
            .event
            .clone()
            .unwrap_or_else(|| "xq-runner".to_owned()),
        format: match o.pgn_format.as_deref() {
            Some("wxf") => MoveFormat::Wxf,
            _ => MoveFormat::Iccs,
        },
        extras: PgnExtras {
            nodes: o.pgn_nodes.unwrap_or(false),
            seldepth: o.pgn_seldepth.unwrap_or(false),
            nps: o.pgn_nps.unwrap_or(false),
        },
        ..GameHeaders::default()
    }
}

type Shape = (
    Vec<EngineInfo>,
    TournamentKind,
    Vec<(usize, usize)>,
    Option<Sprt>,
);

fn parse_summary(path: &Path, text: &str) -> Result<SummaryFile, ReportError> {
    serde_json::from_str(text).map_err(|e| ReportError::Damaged {
        path: path.to_owned(),
        why: e.to_string(),
    })
}

fn read_summary(path: &Path) -> Result<Option<SummaryFile>, ReportError> {
    match crate::plain_file::read_to_string(path) {
        Ok(text) => parse_summary(path, &text).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ReportError::Read {
            path: path.to_owned(),
            source,
        }),
    }
}

fn shape_from_summary(
    s: &SummaryFile,
    options: &dyn Fn(usize) -> BTreeMap<String, String>,
) -> Option<Shape> {
    let kind = kind_from_name(Some(&s.kind))?;
    let engines: Vec<EngineInfo> = s
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| EngineInfo {
            name: e.name.clone(),
            command: e.command.clone(),
            options: options(i),
            unknown_options: e.unknown_options.clone(),
        })
        .collect();
    let index = |name: &str| engines.iter().position(|e| e.name == name);
    let pairings = if s.pairings.is_empty() {
        TournamentKind::pairings(kind, engines.len())
    } else {
        s.pairings
            .iter()
            .map(|p| Some((index(&p.first)?, index(&p.second)?)))
            .collect::<Option<Vec<_>>>()?
    };
    Some((engines, kind, pairings, s.sprt))
}

fn shape_from_config(
    c: &RawConfig,
    options: &dyn Fn(usize) -> BTreeMap<String, String>,
) -> Option<Shape> {
    let kind = kind_from_name(c.tournament.kind.as_deref())?;
    let engines: Vec<EngineInfo> = c
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let command = e.command.clone().unwrap_or_default();
            // The default name of `config::plan`: the program's file name and the index.
            let name = e
                .name
                .clone()
                .filter(|n| !n.trim().is_empty())
                .unwrap_or_else(|| {
                    let program = command.first().map_or("engine", String::as_str);
                    let base = Path::new(program)
                        .file_name()
                        .map_or_else(|| program.to_owned(), |f| f.to_string_lossy().into());
                    format!("{base}-{}", i + 1)
                });
            EngineInfo {
                name,
                command,
                options: options(i),
                unknown_options: Vec::new(),
            }
        })
        .collect();
    let sprt = c.sprt.as_ref().map(|s| {
        let d = Sprt::default();
        Sprt {
            elo0: s.elo0.unwrap_or(d.elo0),
            elo1: s.elo1.unwrap_or(d.elo1),
            alpha: s.alpha.unwrap_or(d.alpha),
            beta: s.beta.unwrap_or(d.beta),
            model: match s.model.as_deref() {
                Some("logistic") => EloModel::Logistic,
                _ => EloModel::Normalized,
            },
        }
    });
    let pairings = TournamentKind::pairings(kind, engines.len());
    Some((engines, kind, pairings, sprt))
}

fn option_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_follow_the_plan_order() {
        assert_eq!(
            TournamentKind::pairings(TournamentKind::Match, 2),
            vec![(0, 1)]
        );
        assert_eq!(
            TournamentKind::pairings(TournamentKind::Gauntlet, 3),
            vec![(0, 1), (0, 2)]
        );
        assert_eq!(
            TournamentKind::pairings(TournamentKind::RoundRobin, 3),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(
            kind_from_name(Some("round-robin")),
            Some(TournamentKind::RoundRobin)
        );
        assert_eq!(kind_from_name(Some("swiss")), None);
        assert_eq!(
            TournamentKind::pairings(TournamentKind::Ladder, 4),
            vec![(0, 1), (1, 2), (2, 3)]
        );
    }
}
