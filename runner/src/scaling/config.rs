//! The `[scaling]` section: one list of settings (`tc`, `depth` or `nodes`) and
//! `interleave`. Each setting becomes a point: the rest of the config read by the run's
//! own config code with the setting put in `[time]` (`--set time.depth=4`), so that a
//! point is, key for key, the match of that setting alone (same hash, same openings).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::locate::{line_at, line_of};
use crate::config::{parse_shared, ConfigError, EngineCount, Loaded, Override};
use crate::game::TimeControl;

/// The kinds of setting a list may hold (the `[time]` limits it replaces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Tc,
    Depth,
    Nodes,
}

impl Kind {
    /// The key of the list, and of the `[time]` limit it replaces.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Kind::Tc => "tc",
            Kind::Depth => "depth",
            Kind::Nodes => "nodes",
        }
    }

    /// Whether the chart's horizontal axis is logarithmic (clocks and node counts grow
    /// by factors; depths by steps).
    #[must_use]
    pub fn log_axis(self) -> bool {
        !matches!(self, Kind::Depth)
    }
}

/// `[scaling]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScaling {
    tc: Option<Vec<Spanned<String>>>,
    depth: Option<Vec<Spanned<u32>>>,
    nodes: Option<Vec<Spanned<u64>>>,
    interleave: Option<bool>,
}

/// The part of the file read here; the rest is the run's.
#[derive(Debug, Deserialize)]
struct ScalingFile {
    scaling: Option<Spanned<RawScaling>>,
    #[serde(default)]
    time: toml::Table,
}

/// One setting, ready to play: its match, and where it plays.
#[derive(Clone, Debug)]
pub struct Point {
    /// `depth 4`, `tc 2+0.02`.
    pub label: String,
    /// The setting as written (`4`, `2+0.02`).
    pub setting: String,
    /// Its folder inside the scaling folder (`depth-4`).
    pub dir: String,
    /// Its place on the chart's horizontal axis (a depth, nodes, or a clock's seconds
    /// a side in a game of the estimate's length).
    pub x: f64,
    /// The point's match, its output folder set to the point's folder.
    pub loaded: Loaded,
}

/// A validated scaling run.
#[derive(Clone, Debug)]
pub struct ScalingPlan {
    pub kind: Kind,
    pub interleave: bool,
    /// The scaling folder (the config's `output.dir`).
    pub root: PathBuf,
    pub points: Vec<Point>,
}

fn error(file: &str, line: Option<usize>, key: &str, message: String) -> ConfigError {
    ConfigError {
        file: file.to_owned(),
        line,
        flag: None,
        key: (!key.is_empty()).then(|| key.to_owned()),
        message,
    }
}

/// The line of the `[scaling]` table when `text` is a scaling config; `None` for any
/// other text, even one that does not parse.
#[must_use]
pub fn scaling_line(text: &str) -> Option<usize> {
    let table: toml::Table = text.parse().ok()?;
    table
        .contains_key("scaling")
        .then(|| line_of(text, &["scaling"]))?
}

/// A setting as a folder name: letters, digits and `+.-`, anything else `_`.
fn folder_name(kind: Kind, setting: &str) -> String {
    let safe: String = setting
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "+.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{}-{safe}", kind.key())
}

/// One setting of the list: its text, the `[time]` assignment, its line, its x.
struct Setting {
    text: String,
    assignment: String,
    line: usize,
    x: f64,
}

/// The settings of the one list `[scaling]` holds.
fn settings(
    name: &str,
    text: &str,
    raw: &RawScaling,
    at: usize,
) -> Result<(Kind, Vec<Setting>), ConfigError> {
    let line = |offset: usize| line_at(text, offset);
    let mut lists: Vec<(Kind, Vec<Setting>)> = Vec::new();
    if let Some(tc) = &raw.tc {
        let mut out = Vec::new();
        for t in tc {
            let l = line(t.span().start);
            let written = t.get_ref().trim();
            let x = match TimeControl::parse(written) {
                Ok(TimeControl::Clock {
                    moves,
                    base,
                    increment,
                }) => crate::scaling::estimate::side_seconds(moves, base, increment),
                Ok(_) => {
                    return Err(error(name, Some(l), "scaling.tc", format!("`{written}` is a time per move: a tc list holds clocks like 10+0.1 or 40/60")));
                }
                Err(e) => return Err(error(name, Some(l), "scaling.tc", e.to_string())),
            };
            out.push(Setting {
                text: written.to_owned(),
                assignment: format!(
                    "time.tc=\"{}\"",
                    written.replace('\\', "\\\\").replace('"', "\\\"")
                ),
                line: l,
                x,
            });
        }
        lists.push((Kind::Tc, out));
    }
    if let Some(depth) = &raw.depth {
        let list = depth
            .iter()
            .map(|d| Setting {
                text: d.get_ref().to_string(),
                assignment: format!("time.depth={}", d.get_ref()),
                line: line(d.span().start),
                x: f64::from(*d.get_ref()),
            })
            .collect();
        lists.push((Kind::Depth, list));
    }
    if let Some(nodes) = &raw.nodes {
        let list = nodes
            .iter()
            .map(|n| Setting {
                text: n.get_ref().to_string(),
                assignment: format!("time.nodes={}", n.get_ref()),
                line: line(n.span().start),
                x: *n.get_ref() as f64,
            })
            .collect();
        lists.push((Kind::Nodes, list));
    }
    let Some((kind, list)) = lists.pop() else {
        return Err(error(name, Some(at), "scaling", "missing: one list of settings, tc = [\"2+0.02\", \"10+0.1\"], depth = [4, 6] or nodes = [...]".to_owned()));
    };
    if let Some((other, _)) = lists.first() {
        return Err(error(name, Some(at), "scaling", format!("set one list of settings: this one sets {} and {} (one kind of setting varies in a scaling run)", other.key(), kind.key())));
    }
    let key = format!("scaling.{}", kind.key());
    if list.len() < 2 {
        return Err(error(name, Some(line_of(text, &["scaling", kind.key()]).unwrap_or(at)), &key, format!("a scaling list needs at least two settings (this one has {}): one setting is a plain run", list.len())));
    }
    for (i, s) in list.iter().enumerate() {
        if list[..i].iter().any(|t| t.text == s.text) {
            return Err(error(
                name,
                Some(s.line),
                &key,
                format!("{} is in the list twice", s.text),
            ));
        }
    }
    Ok((kind, list))
}

/// Reads a scaling config: `[scaling]` from the file as written, each point through
/// the run's config code with `overrides` and the point's setting.
///
/// # Errors
/// One [`ConfigError`] naming the file, line and key of the first problem.
pub fn parse(name: &str, text: &str, overrides: &[Override]) -> Result<ScalingPlan, ConfigError> {
    if let Some(o) = overrides
        .iter()
        .find(|o| o.assignment.trim_start().starts_with("scaling"))
    {
        return Err(ConfigError {
            file: name.to_owned(),
            line: None,
            flag: Some(o.label.clone()),
            key: Some("scaling".to_owned()),
            message: "the [scaling] list is changed in the file, not by --set".to_owned(),
        });
    }
    let file: ScalingFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_at(text, s.start));
        let message = e.message().trim().replace('\n', "; ");
        let key = if message.contains("unknown field") {
            "scaling"
        } else {
            ""
        };
        error(name, line, key, message)
    })?;
    let Some(raw) = file.scaling else {
        return Err(error(
            name,
            None,
            "scaling",
            "missing: a [scaling] section".to_owned(),
        ));
    };
    let at = line_at(text, raw.span().start);
    let raw = raw.into_inner();
    let (kind, list) = settings(name, text, &raw, at)?;
    // A point replaces its own kind of limit in [time]; another kind there would make
    // two limits, but for the clock of a depth list (each search on the clock, capped
    // at the point's depth).
    for other in ["tc", "movetime", "depth", "nodes"] {
        let shared = kind == Kind::Depth && other == "tc";
        if other != kind.key() && !shared && file.time.contains_key(other) {
            return Err(error(
                name,
                line_of(text, &["time", other]),
                &format!("time.{other}"),
                format!("the [scaling] {} list sets the limit of each point: remove time.{other} (a point has one limit, or a clock capped by a depth list; [time] keeps what the points share, as margin)", kind.key()),
            ));
        }
    }
    let mut points = Vec::with_capacity(list.len());
    let mut root: Option<PathBuf> = None;
    // A depth under a clock: setting `time.depth` alone would replace the clock (one
    // limit per table, as `--set` does), so the point sets its whole `[time]` table,
    // the clock and the depth, before the command line's overrides.
    let clocked = kind == Kind::Depth && file.time.contains_key("tc");
    for s in list {
        let label = format!("{name}:{}: scaling.{}", s.line, kind.key());
        let all = if clocked {
            let mut time = file.time.clone();
            time.insert("depth".into(), toml::Value::Integer(s.x as i64));
            let point = Override::flag(label, format!("time={}", toml::Value::Table(time)));
            std::iter::once(point)
                .chain(overrides.iter().cloned())
                .collect()
        } else {
            let mut all = overrides.to_vec();
            all.push(Override::flag(label, s.assignment.clone()));
            all
        };
        let mut loaded = parse_shared(name, text, "scaling", EngineCount::ForKind, &all)?;
        if loaded.plan.output.pgnout.is_some() {
            return Err(error(name, line_of(text, &["output", "pgnout"]), "output.pgnout", "a scaling run keeps each point's games.pgn in the point's folder: remove output.pgnout".to_owned()));
        }
        let base = root
            .get_or_insert_with(|| loaded.plan.output.dir.clone())
            .clone();
        let dir = folder_name(kind, &s.text);
        loaded.plan.output.dir = base.join(&dir);
        points.push(Point {
            label: format!("{} {}", kind.key(), s.text),
            setting: s.text,
            dir,
            x: s.x,
            loaded,
        });
    }
    if let [first, second, ..] = points.as_slice() {
        let limits = |p: &Point| -> Vec<(TimeControl, Option<u32>)> {
            p.loaded
                .plan
                .engines
                .iter()
                .map(|e| (e.time_control, e.depth_cap))
                .collect()
        };
        if limits(first) == limits(second) {
            return Err(error(name, Some(at), "scaling", "every engine has its own limit (engine time): the points would play the same games; leave the limit of at least one engine to [time]".to_owned()));
        }
    }
    Ok(ScalingPlan {
        kind,
        interleave: raw.interleave.unwrap_or(false),
        root: root.unwrap_or_default(),
        points,
    })
}

/// [`parse`] of a file.
///
/// # Errors
/// As [`parse`], and a file that cannot be read.
pub fn load(path: &Path, overrides: &[Override]) -> Result<ScalingPlan, ConfigError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| error(&name, None, "", format!("cannot read: {e}")))?;
    parse(&name, &text, overrides)
}
