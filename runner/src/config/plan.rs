//! Stage two of the config: every value checked and resolved into a plan that is ready
//! to run. Each problem is a [`Problem`] naming the key; `mod.rs` adds file and line.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use xq_core::rules::{LimitCounting, Rules, Ruleset};

use super::raw::{RawConfig, RawEngine, RawTime};
use crate::client::{Coordinates, EngineSpec, Protocol, Timeouts};
use crate::game::{parse_duration, GameSettings, TimeControl};
use crate::openings::{BookFormat, Order};
use crate::output::pgn::MoveFormat;
use crate::output::pgn_comment::PgnExtras;
use crate::stats::{EloModel, Sprt};

/// The most engines a run may have: the rating list keeps a table of every two engines
/// (16 bytes each), 16 MB at this size.
pub const MAX_ENGINES: usize = 1000;

/// The most pairings a run may have (a round robin of 447 engines): the run keeps the
/// counts of every pairing, and plays at least one pair of each.
pub const MAX_PAIRINGS: u64 = 100_000;

/// Tournament kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Two engines.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
    /// Each engine against the next one in the list: the neighbouring matches of a ladder of
    /// settings (levels, depths); the rating list still anchors every rung to the first.
    Ladder,
}

impl Kind {
    /// The name a config uses: `match`, `gauntlet`, `round_robin`, `ladder`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Match => "match",
            Self::Gauntlet => "gauntlet",
            Self::RoundRobin => "round_robin",
            Self::Ladder => "ladder",
        }
    }

    /// The kind named in a config, with the spellings people use.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "match" => Some(Self::Match),
            "gauntlet" => Some(Self::Gauntlet),
            "round_robin" | "roundrobin" | "round-robin" => Some(Self::RoundRobin),
            "ladder" => Some(Self::Ladder),
            _ => None,
        }
    }

    /// How many pairings `engines` engines make, without making them.
    #[must_use]
    pub fn pairing_count(self, engines: usize) -> u64 {
        let n = engines as u64;
        match self {
            Self::Match | Self::Gauntlet | Self::Ladder => n.saturating_sub(1),
            Self::RoundRobin => n * n.saturating_sub(1) / 2,
        }
    }

    /// The pairings of `engines` engines, as indices into the engine list, in playing order.
    #[must_use]
    pub fn pairings(self, engines: usize) -> Vec<(usize, usize)> {
        match self {
            Self::Match | Self::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
            Self::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
            Self::Ladder => (1..engines).map(|j| (j - 1, j)).collect(),
        }
    }
}

/// One engine, ready to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePlan {
    pub spec: EngineSpec,
    pub time_control: TimeControl,
    pub bench: Option<u64>,
    /// A new process for every game, instead of one reused across games.
    pub restart: bool,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsPlan {
    pub path: PathBuf,
    pub format: BookFormat,
    /// Plies of each opening played at most; `None`: all.
    pub plies: Option<usize>,
    pub order: Order,
    pub seed: u64,
    /// 0-based index of the first opening used.
    pub start: usize,
}

/// How a run uses its opening file: the openings of its `plan.pairs` rounds.
#[must_use]
pub fn book_use(plan: &Plan, openings: &OpeningsPlan) -> crate::openings::BookUse {
    crate::openings::BookUse {
        format: openings.format,
        order: openings.order,
        seed: openings.seed,
        start: openings.start,
        rounds: plan.pairs,
        plies: openings.plies,
    }
}

/// Output settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPlan {
    pub dir: PathBuf,
    /// Pairs between result blocks; `u64::MAX` for only the last one.
    pub report_interval: u64,
    pub pgn_format: MoveFormat,
    pub pgn_extras: PgnExtras,
    /// Where `games.pgn` is also written.
    pub pgnout: Option<PgnOut>,
}

/// A second place for `games.pgn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnOut {
    pub path: PathBuf,
    /// Keep what the file held before the run (its games come after).
    pub append: bool,
}

/// Abort thresholds per engine (fishtest style).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultLimits {
    pub max_crashes: u32,
    pub max_time_losses: u32,
    pub max_illegal_moves: u32,
}

/// A validated run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kind: Kind,
    pub engines: Vec<EnginePlan>,
    /// Engine index pairs; the first plays Red in the first game of each pair.
    pub pairings: Vec<(usize, usize)>,
    /// Pairs per pairing (the maximum when SPRT stops earlier).
    pub pairs: u64,
    pub concurrency: usize,
    /// Pin each game slot's engines to a core (`tournament.affinity`).
    pub affinity: bool,
    pub seed: u64,
    pub event: String,
    pub openings: Option<OpeningsPlan>,
    pub settings: GameSettings,
    pub sprt: Option<Sprt>,
    /// Regression gate: without an SPRT verdict, fail when Elo is below this.
    pub gate_min_elo: Option<f64>,
    pub output: OutputPlan,
    pub faults: FaultLimits,
    pub timeouts: Timeouts,
}

/// A validation problem at a key (`engine.1.command`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub key: String,
    pub message: String,
}

fn problem(key: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        key: key.into(),
        message: message.into(),
    }
}

/// The duration of a key, or its default.
fn duration(key: &str, value: Option<&String>, default: Duration) -> Result<Duration, Problem> {
    match value {
        None => Ok(default),
        Some(text) => parse_duration(text).map_err(|e| problem(key, e.to_string())),
    }
}

/// A setting of the judge given by name at `key`, looked up with `from_name` (whose
/// error lists the names it knows), or its default.
fn named<T: Default, E: std::fmt::Display>(
    key: &str,
    name: Option<&str>,
    from_name: fn(&str) -> Result<T, E>,
) -> Result<T, Problem> {
    name.map_or_else(
        || Ok(T::default()),
        |name| from_name(name).map_err(|e| problem(key, e.to_string())),
    )
}

/// Exactly one limit of a `[time]` table.
fn time_control(key: &str, time: &RawTime) -> Result<Option<TimeControl>, Problem> {
    let mut found = Vec::new();
    if let Some(tc) = &time.tc {
        let tc = TimeControl::parse(tc).map_err(|e| problem(format!("{key}.tc"), e.to_string()))?;
        if !matches!(tc, TimeControl::Clock { .. }) {
            return Err(problem(
                format!("{key}.tc"),
                "a clock like 10+0.1 or 40/60; use movetime for a time per move",
            ));
        }
        found.push(tc);
    }
    if let Some(t) = &time.movetime {
        found.push(TimeControl::MoveTime(
            parse_duration(t).map_err(|e| problem(format!("{key}.movetime"), e.to_string()))?,
        ));
    }
    if let Some(d) = time.depth {
        if d == 0 || d > 128 {
            return Err(problem(format!("{key}.depth"), "depth must be 1..128"));
        }
        found.push(TimeControl::Depth(d));
    }
    if let Some(n) = time.nodes {
        if n == 0 {
            return Err(problem(format!("{key}.nodes"), "nodes must be at least 1"));
        }
        found.push(TimeControl::Nodes(n));
    }
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(problem(key, "set only one of tc, movetime, depth, nodes")),
    }
}

/// Finds the program of a command: a path (relative to the working directory) must
/// exist, a bare name must be on PATH.
fn check_program(key: &str, program: &str, dir: Option<&Path>) -> Result<(), Problem> {
    let candidate = Path::new(program);
    let exists = if program.contains('/') {
        match dir {
            Some(dir) if candidate.is_relative() => {
                dir.join(candidate).is_file() || candidate.is_file()
            }
            _ => candidate.is_file(),
        }
    } else {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
            .unwrap_or(false)
    };
    if exists {
        Ok(())
    } else {
        Err(problem(
            key,
            format!("engine program `{program}` not found (build it, or fix the path)"),
        ))
    }
}

/// Refuses a text with a line break or another control character: options and names
/// are sent to the engine, or written to files, as parts of one line, and a line break
/// in them would start a command of its own (`"6\nquit"`).
fn single_line(key: &str, text: &str) -> Result<(), Problem> {
    match text.chars().find(|c| c.is_control()) {
        Some(c) => Err(problem(
            key,
            format!("{:?} contains the control character {c:?}", text),
        )),
        None => Ok(()),
    }
}

fn option_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn engine(
    index: usize,
    raw: &RawEngine,
    global: Option<TimeControl>,
) -> Result<EnginePlan, Problem> {
    let key = |field: &str| format!("engine.{index}.{field}");
    let command = raw.command.clone().unwrap_or_default();
    let Some(program) = command.first() else {
        return Err(problem(
            key("command"),
            "missing: the program and its arguments, e.g. [\"target/release/xq-engine\"]",
        ));
    };
    let dir = raw.dir.as_ref().map(PathBuf::from);
    if let Some(d) = &dir {
        if !d.is_dir() {
            return Err(problem(
                key("dir"),
                format!("working directory `{}` does not exist", d.display()),
            ));
        }
    }
    check_program(&key("command"), program, dir.as_deref())?;
    let protocol = match raw.protocol.as_deref() {
        None => Protocol::Ucci,
        Some(p) => p.parse().map_err(|e: String| problem(key("protocol"), e))?,
    };
    let coordinates = match raw.coordinates.as_deref() {
        None | Some("0-9") => Coordinates::Zero,
        Some("1-10") => Coordinates::One,
        Some(other) => {
            return Err(problem(
                key("coordinates"),
                format!("`{other}`: expected \"0-9\" or \"1-10\""),
            ))
        }
    };
    let own = match &raw.time {
        Some(t) => time_control(&key("time"), t)?,
        None => None,
    };
    let time_control = own.or(global).ok_or_else(|| {
        problem(
            "time",
            "no time control: set one of tc, movetime, depth, nodes",
        )
    })?;
    let options: Vec<(String, String)> = raw
        .options
        .iter()
        .map(|(k, v)| (k.clone(), option_text(v)))
        .collect();
    for (option, value) in &options {
        let key = key(&format!("options.{option}"));
        single_line(&key, option)?;
        single_line(&key, value)?;
    }
    if let Some(name) = &raw.name {
        single_line(&key("name"), name)?;
    }
    let name = raw
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| {
            let base = Path::new(program)
                .file_name()
                .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned());
            format!("{base}-{}", index + 1)
        });
    Ok(EnginePlan {
        spec: EngineSpec {
            name,
            command,
            working_dir: dir,
            env: raw
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            protocol,
            coordinates,
            options,
        },
        time_control,
        bench: raw.bench,
        restart: raw.restart.unwrap_or(false),
    })
}

/// Validates a raw config. `default_dir` names the output folder when the config has none.
///
/// # Errors
/// The first [`Problem`] found.
pub fn validate(raw: &RawConfig, default_dir: &str) -> Result<Plan, Problem> {
    let kind = match raw.tournament.kind.as_deref() {
        None => Kind::Match,
        Some(name) => Kind::from_name(name).ok_or_else(|| {
            problem(
                "tournament.kind",
                format!("`{name}`: expected match, gauntlet, round_robin or ladder"),
            )
        })?,
    };
    // Cheap checks first: a list of 10,000 engines is refused before any is looked at.
    if raw.engines.len() > MAX_ENGINES {
        return Err(problem(
            "engine",
            format!(
                "{} engines: at most {MAX_ENGINES} in one run",
                raw.engines.len()
            ),
        ));
    }
    let count = kind.pairing_count(raw.engines.len());
    if count > MAX_PAIRINGS {
        return Err(problem(
            "tournament.kind",
            format!(
                "a {} of {} engines has {count} pairings: at most {MAX_PAIRINGS} in one run (a gauntlet or ladder has one per engine)",
                kind.name(),
                raw.engines.len()
            ),
        ));
    }
    let global_time = time_control("time", &raw.time)?;
    let engines = raw
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| engine(i, e, global_time))
        .collect::<Result<Vec<_>, _>>()?;
    let needed = if kind == Kind::Match {
        "exactly 2"
    } else {
        "at least 2"
    };
    if engines.len() < 2 || (kind == Kind::Match && engines.len() != 2) {
        return Err(problem(
            "engine",
            format!(
                "a {kind:?} needs {needed} [[engine]] tables, found {}",
                engines.len()
            )
            .to_lowercase(),
        ));
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i]
            .iter()
            .any(|other| other.spec.name == e.spec.name)
        {
            return Err(problem(
                format!("engine.{i}.name"),
                format!("engine name `{}` is used twice", e.spec.name),
            ));
        }
    }
    let pairings = kind.pairings(engines.len());

    let sprt = match &raw.sprt {
        None => None,
        Some(s) => {
            let model = match s.model.as_deref() {
                None | Some("normalized") => EloModel::Normalized,
                Some("logistic") => EloModel::Logistic,
                Some(other) => {
                    return Err(problem(
                        "sprt.model",
                        format!("`{other}`: expected normalized or logistic"),
                    ))
                }
            };
            let sprt = Sprt::new(
                s.elo0.unwrap_or(0.0),
                s.elo1.unwrap_or(2.0),
                s.alpha.unwrap_or(0.05),
                s.beta.unwrap_or(0.05),
                model,
            )
            .map_err(|e| problem("sprt", e.to_string()))?;
            if kind != Kind::Match {
                return Err(problem("sprt", "SPRT needs a match of two engines"));
            }
            if let Some(min) = s.min_elo.filter(|m| !m.is_finite()) {
                return Err(problem(
                    "sprt.min_elo",
                    format!("`{min}`: expected a finite Elo"),
                ));
            }
            Some(sprt)
        }
    };
    let pairs = match (raw.tournament.pairs, raw.tournament.games) {
        (Some(_), Some(_)) => {
            return Err(problem("tournament.games", "set pairs or games, not both"))
        }
        (Some(0), None) => return Err(problem("tournament.pairs", "must be at least 1")),
        (Some(p), None) => p,
        (None, Some(g)) if g == 0 || g % 2 == 1 => {
            return Err(problem(
                "tournament.games",
                "an even number of games (each opening is played twice)",
            ))
        }
        (None, Some(g)) => g / 2,
        (None, None) if sprt.is_some() => 20_000,
        (None, None) => {
            return Err(problem(
                "tournament.pairs",
                "missing: how many pairs to play (or games, or an [sprt] section)",
            ))
        }
    };
    let concurrency = match raw.tournament.concurrency {
        Some(0) => return Err(problem("tournament.concurrency", "must be at least 1")),
        Some(c) if c > 1024 => return Err(problem("tournament.concurrency", "at most 1024")),
        Some(c) => c,
        None => std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
    };
    let affinity = raw.tournament.affinity.unwrap_or(false);
    if affinity {
        crate::client::affinity::check().map_err(|why| problem("tournament.affinity", why))?;
    }
    let seed = raw.tournament.seed.unwrap_or(1);

    let openings = match &raw.openings {
        None => None,
        Some(o) => {
            let file = o
                .file
                .as_ref()
                .ok_or_else(|| problem("openings.file", "missing: the opening file"))?;
            let path = PathBuf::from(file);
            if !path.is_file() {
                let why = if path.exists() {
                    "is not a regular file"
                } else {
                    "not found"
                };
                return Err(problem(
                    "openings.file",
                    format!("opening file `{file}` {why}"),
                ));
            }
            let format = match o.format.as_deref() {
                None => BookFormat::of_path(&path),
                Some(name) => BookFormat::from_name(name).ok_or_else(|| {
                    problem("openings.format", format!("`{name}`: expected epd or pgn"))
                })?,
            };
            let order = match o.order.as_deref() {
                None | Some("sequential") => Order::Sequential,
                Some("random") => Order::Random,
                Some(other) => {
                    return Err(problem(
                        "openings.order",
                        format!("`{other}`: expected sequential or random"),
                    ))
                }
            };
            let start = match o.start {
                Some(0) => return Err(problem("openings.start", "openings are counted from 1")),
                Some(s) => s - 1,
                None => 0,
            };
            Some(OpeningsPlan {
                path,
                format,
                plies: o.plies,
                order,
                seed: o.seed.unwrap_or(seed),
                start,
            })
        }
    };

    let rules = Rules::new(named(
        "rules.ruleset",
        raw.rules.ruleset.as_deref(),
        Ruleset::from_name,
    )?)
    .with_move_limit(raw.rules.move_limit.unwrap_or(Rules::DEFAULT_MOVE_LIMIT))
    .with_limit_counting(named(
        "rules.limit_counting",
        raw.rules.limit_counting.as_deref(),
        LimitCounting::from_name,
    )?);
    let time_margin = duration(
        "time.margin",
        raw.time.margin.as_ref(),
        Duration::from_millis(50),
    )?;
    if let Some(d) = raw.adjudication.draw {
        if d.move_count == 0 || d.score < 0 {
            return Err(problem(
                "adjudication.draw",
                "move_count must be at least 1 and score at least 0",
            ));
        }
    }
    if let Some(r) = raw.adjudication.resign {
        if r.move_count == 0 || r.score <= 0 {
            return Err(problem(
                "adjudication.resign",
                "move_count and score must be positive",
            ));
        }
    }
    if raw.adjudication.max_plies == Some(0) {
        return Err(problem(
            "adjudication.max_plies",
            "0 would end every game before its first move: at least 1 (leave it out for no limit)",
        ));
    }
    let settings = GameSettings {
        rules,
        time_margin,
        banmoves: raw.rules.banmoves.unwrap_or(true),
        draw: raw.adjudication.draw,
        resign: raw.adjudication.resign,
        max_plies: raw.adjudication.max_plies,
    };

    let pgn_format = match raw.output.pgn_format.as_deref() {
        None | Some("iccs") => MoveFormat::Iccs,
        Some("wxf") => MoveFormat::Wxf,
        Some(other) => {
            return Err(problem(
                "output.pgn_format",
                format!("`{other}`: expected iccs or wxf"),
            ))
        }
    };
    let dir = raw
        .output
        .dir
        .clone()
        .unwrap_or_else(|| default_dir.to_owned());
    if dir.trim().is_empty() {
        return Err(problem(
            "output.dir",
            "empty: name the folder for the results",
        ));
    }
    let pgnout = match raw.output.pgnout.as_deref() {
        None => None,
        Some(p) if p.trim().is_empty() => {
            return Err(problem(
                "output.pgnout",
                "empty: name the file, or leave the key out",
            ))
        }
        Some(p) => {
            let path = PathBuf::from(p);
            if path.is_dir() {
                return Err(problem(
                    "output.pgnout",
                    format!("`{p}` is a folder, not a file"),
                ));
            }
            Some(PgnOut {
                path,
                append: raw.output.pgnout_append.unwrap_or(true),
            })
        }
    };
    let output = OutputPlan {
        dir: PathBuf::from(dir),
        report_interval: match raw.output.report_interval {
            None => 10,
            Some(0) => u64::MAX,
            Some(n) => n,
        },
        pgn_format,
        pgn_extras: PgnExtras {
            nodes: raw.output.pgn_nodes.unwrap_or(false),
            seldepth: raw.output.pgn_seldepth.unwrap_or(false),
            nps: raw.output.pgn_nps.unwrap_or(false),
        },
        pgnout,
    };
    let f = &raw.faults;
    let defaults = Timeouts::default();
    let timeouts = Timeouts {
        startup: duration(
            "faults.startup_timeout",
            f.startup_timeout.as_ref(),
            defaults.startup,
        )?,
        ping: duration(
            "faults.ping_timeout",
            f.ping_timeout.as_ref(),
            defaults.ping,
        )?,
        stop_grace: duration(
            "faults.stop_grace",
            f.stop_grace.as_ref(),
            defaults.stop_grace,
        )?,
        quit_grace: defaults.quit_grace,
        unclocked_move: duration(
            "faults.move_timeout",
            f.move_timeout.as_ref(),
            defaults.unclocked_move,
        )?,
    };
    let faults = FaultLimits {
        max_crashes: f.max_crashes.unwrap_or(5),
        max_time_losses: f.max_time_losses.unwrap_or(20),
        max_illegal_moves: f.max_illegal_moves.unwrap_or(5),
    };
    Ok(Plan {
        kind,
        engines,
        pairings,
        pairs,
        concurrency,
        affinity,
        seed,
        event: raw
            .tournament
            .event
            .clone()
            .unwrap_or_else(|| "xq-runner".to_owned()),
        openings,
        settings,
        sprt,
        gate_min_elo: raw.sprt.as_ref().and_then(|s| s.min_elo),
        output,
        faults,
        timeouts,
    })
}
