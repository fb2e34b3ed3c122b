//! fastchess's flags, with fastchess's meanings and defaults, turned into config
//! overrides: each `key=value` of the config a flag amounts to, labelled with the flag.
//! Applied to an empty config they make the run a TOML file would describe, read and
//! checked by the same code; an error in a value names the flag that set it.
//! Which flags are read or refused, and the key each amounts to, is the table of
//! `flag_table.rs`, which `docs/fastchess-flags.md` shows.

use toml::Value;

use super::args::Flag;
use super::engine::{EngineDraft, FlagValue};
use super::flag_table;
use crate::config::Override;

/// What the command line asks for besides the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Play (or continue, with `--resume`) the run.
    Play {
        resume: bool,
    },
    /// `--dry-run`: validate and print the plan.
    DryRun,
    /// `--print-config`: print the TOML and play nothing.
    PrintConfig,
    Help,
    Version,
}

/// A translated command line.
#[derive(Debug, Clone)]
pub struct Translation {
    pub overrides: Vec<Override>,
    pub mode: Mode,
    /// `-log file=F`: the engine traffic goes to F (`run --log F`).
    pub log: Option<std::path::PathBuf>,
}

fn unknown(name: &str) -> String {
    let best = flag_table::known_flags()
        .chain(flag_table::REFUSED.iter().map(|(f, _)| *f))
        .map(|k| (crate::spelling::levenshtein(name, k), k))
        .min();
    match best {
        Some((d, k)) if d <= 2 => format!("{name}: unknown flag (did you mean {k}?)"),
        _ => format!("{name}: unknown flag (xq-runner -help lists them)"),
    }
}

/// A value of a config key as TOML text.
fn text(value: &Value) -> String {
    value.to_string()
}

fn string(s: &str) -> Value {
    Value::String(s.to_owned())
}

/// A key part, quoted when it is not a bare TOML key.
fn key_part(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        name.to_owned()
    } else {
        text(&string(name))
    }
}

fn parse_number<T: std::str::FromStr>(flag: &str, value: &str, what: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: `{value}` is not {what}"))
}

fn parse_bool(label: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("{label}: `{other}`: expected true or false")),
    }
}

/// The translation as it goes, flag by flag.
#[derive(Debug, Default)]
struct State {
    engines: Vec<EngineDraft>,
    /// `-each` parameters with their labels, applied after every engine.
    each: Vec<(String, String, String)>,
    rounds: Option<FlagValue<u64>>,
    games: Option<FlagValue<u64>>,
    sprt: bool,
    kind: Option<FlagValue<&'static str>>,
    out: Option<FlagValue<String>>,
    recover: bool,
    concurrency: bool,
    /// Overrides in the order of their flags (everything but engines and counts).
    overrides: Vec<Override>,
    mode: Option<Mode>,
    resume: bool,
    log: Option<std::path::PathBuf>,
}

impl State {
    fn set(&mut self, label: String, key: &str, value: &Value) {
        self.overrides
            .push(Override::flag(label, format!("{key}={}", text(value))));
    }

    fn flag(&mut self, flag: &Flag) -> Result<(), String> {
        let name = flag.name.as_str();
        if let Some(why) = flag_table::refusal(name) {
            return Err(format!("{name}: {why}"));
        }
        // Only the flags of the table (and so of the doc) are read; the match below has
        // an arm for each.
        if !flag_table::is_known(name) {
            return Err(unknown(name));
        }
        match name {
            "-engine" => {
                let mut engine = EngineDraft::default();
                let id = flag
                    .params
                    .iter()
                    .find(|p| p.starts_with("name="))
                    .or_else(|| flag.params.iter().find(|p| p.starts_with("cmd=")))
                    .cloned();
                for (key, value) in flag.pairs()? {
                    let param = format!("{key}={value}");
                    let label = match &id {
                        Some(id) if *id != param => format!("-engine {id} {param}"),
                        _ => flag.with(&param),
                    };
                    engine.set(key, value, &label)?;
                }
                self.engines.push(engine);
            }
            "-each" => {
                for (key, value) in flag.pairs()? {
                    let label = flag.with(&format!("{key}={value}"));
                    // Checked now against a scratch engine, so a bad key is named here.
                    EngineDraft::default().set(key, value, &label)?;
                    self.each.push((key.to_owned(), value.to_owned(), label));
                }
            }
            "-rounds" => {
                let n = parse_number(&flag.shown(), flag.single()?, "a number of rounds")?;
                self.rounds = Some(FlagValue {
                    value: n,
                    label: flag.shown(),
                });
            }
            "-games" => {
                let n = parse_number(&flag.shown(), flag.single()?, "a number of games")?;
                self.games = Some(FlagValue {
                    value: n,
                    label: flag.shown(),
                });
            }
            "-repeat" => {
                let n = match flag.params.as_slice() {
                    [] => 2,
                    [n] => parse_number(&flag.shown(), n, "a number of games")?,
                    _ => return Err(format!("{}: takes at most one number", flag.shown())),
                };
                self.games = Some(FlagValue {
                    value: n,
                    label: flag.shown(),
                });
            }
            "-concurrency" => {
                let n: i64 = parse_number(&flag.shown(), flag.single()?, "a number")?;
                // fastchess: 0 or less is the number of hardware threads minus |n|.
                let threads =
                    std::thread::available_parallelism().map_or(1, std::num::NonZero::get) as i64;
                let games = if n > 0 { n } else { threads + n };
                if games < 1 {
                    return Err(format!(
                        "{}: {threads} hardware threads minus {} leaves no game to play",
                        flag.shown(),
                        -n
                    ));
                }
                self.concurrency = true;
                self.set(
                    flag.shown(),
                    "tournament.concurrency",
                    &Value::Integer(games),
                );
            }
            "-force-concurrency" | "-autosaveinterval" => {
                // No limit to lift; every game is saved as it ends.
            }
            "-openings" => self.openings(flag)?,
            "-sprt" => self.sprt(flag)?,
            "-pgnout" => self.pgnout(flag)?,
            "-ratinginterval" => {
                let n: u64 = parse_number(&flag.shown(), flag.single()?, "a number of pairs")?;
                self.set(
                    flag.shown(),
                    "output.report_interval",
                    &Value::Integer(to_i64(n)),
                );
            }
            "-srand" => {
                let n: u64 = parse_number(&flag.shown(), flag.single()?, "a seed (0 or more)")?;
                self.set(flag.shown(), "tournament.seed", &Value::Integer(to_i64(n)));
            }
            "-draw" => self.draw(flag)?,
            "-resign" => self.resign(flag)?,
            "-maxmoves" => {
                let n: u32 = parse_number(&flag.shown(), flag.single()?, "a number of moves")?;
                let plies = i64::from(n) * 2;
                self.set(
                    flag.shown(),
                    "adjudication.max_plies",
                    &Value::Integer(plies),
                );
            }
            "-recover" => {
                flag.none()?;
                self.recover = true;
            }
            "-tournament" => {
                let kind = match flag.single()? {
                    "roundrobin" | "round-robin" | "round_robin" => "round_robin",
                    "gauntlet" => "gauntlet",
                    "ladder" => "ladder",
                    other => {
                        return Err(format!(
                            "{}: `{other}`: expected roundrobin, gauntlet or ladder",
                            flag.shown()
                        ))
                    }
                };
                self.kind = Some(FlagValue {
                    value: kind,
                    label: flag.shown(),
                });
            }
            "-seeds" => {
                if flag.single()? != "1" {
                    return Err(format!(
                        "{}: a gauntlet here has one seed, the first engine",
                        flag.shown()
                    ));
                }
            }
            "-output" => {
                for (key, value) in flag.pairs()? {
                    match (key, value) {
                        ("format", "fastchess") => {}
                        ("format", "cutechess") => {
                            return Err(format!(
                                "{}: xq-runner prints fastchess's format only",
                                flag.with("format=cutechess")
                            ))
                        }
                        _ => return Err(format!("{}: expected format=fastchess", flag.shown())),
                    }
                }
            }
            "-report" => {
                for (key, value) in flag.pairs()? {
                    if (key, value) != ("penta", "true") {
                        return Err(format!(
                            "{}: pentanomial statistics are always reported",
                            flag.shown()
                        ));
                    }
                }
            }
            "-event" => {
                if flag.params.is_empty() {
                    return Err(format!("{name}: expects a name"));
                }
                self.set(
                    flag.shown(),
                    "tournament.event",
                    &string(&flag.params.join(" ")),
                );
            }
            "-out" => {
                self.out = Some(FlagValue {
                    value: flag.single()?.to_owned(),
                    label: flag.shown(),
                });
            }
            "-use-affinity" => {
                if !flag.params.is_empty() {
                    return Err(format!(
                        "{}: a CPU list is not supported; -use-affinity alone pins each game's engines to their own cores",
                        flag.shown()
                    ));
                }
                self.set(flag.shown(), "tournament.affinity", &Value::Boolean(true));
            }
            "-rules" => self.rules(flag)?,
            "-startup-ms" | "-ping-ms" => {
                let ms: u64 =
                    parse_number(&flag.shown(), flag.single()?, "a number of milliseconds")?;
                let key = if name == "-startup-ms" {
                    "faults.startup_timeout"
                } else {
                    "faults.ping_timeout"
                };
                self.set(flag.shown(), key, &string(&format!("{ms}ms")));
            }
            "-quick" => self.quick(flag)?,
            "-log" => self.log(flag)?,
            "-help" | "--help" => self.mode = Some(Mode::Help),
            "-version" | "--version" => self.mode = Some(Mode::Version),
            "--print-config" => self.mode = Some(Mode::PrintConfig),
            "--dry-run" => self.mode = Some(Mode::DryRun),
            "--resume" => {
                flag.none()?;
                self.resume = true;
            }
            other => return Err(unknown(other)),
        }
        Ok(())
    }

    fn openings(&mut self, flag: &Flag) -> Result<(), String> {
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            match key {
                "file" => self.set(label, "openings.file", &string(value)),
                "format" => match value {
                    "epd" | "pgn" => self.set(label, "openings.format", &string(value)),
                    other => return Err(format!("{label}: `{other}`: expected epd or pgn")),
                },
                "order" => match value {
                    "sequential" | "random" => self.set(label, "openings.order", &string(value)),
                    other => {
                        return Err(format!("{label}: `{other}`: expected sequential or random"))
                    }
                },
                "plies" => {
                    let plies: i64 = parse_number(&label, value, "a number of plies")?;
                    // fastchess: -1 (its default) for every ply.
                    if plies >= 0 {
                        self.set(label, "openings.plies", &Value::Integer(plies));
                    }
                }
                "start" => {
                    let start: i64 = parse_number(&label, value, "an opening number")?;
                    self.set(label, "openings.start", &Value::Integer(start));
                }
                "policy" if value == "round" || value == "default" => {}
                _ => {
                    return Err(format!(
                        "{label}: unknown key (file, format, order, plies, start)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn sprt(&mut self, flag: &Flag) -> Result<(), String> {
        self.sprt = true;
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            match key {
                "elo0" | "elo1" | "alpha" | "beta" => {
                    let x: f64 = parse_number(&label, value, "a number")?;
                    self.set(label, &format!("sprt.{key}"), &Value::Float(x));
                }
                "model" => match value {
                    "normalized" | "logistic" => self.set(label, "sprt.model", &string(value)),
                    other => {
                        return Err(format!(
                            "{label}: `{other}`: expected normalized or logistic (no bayesian model here)"
                        ))
                    }
                },
                _ => return Err(format!("{label}: unknown key (elo0, elo1, alpha, beta, model)")),
            }
        }
        if !self
            .overrides
            .iter()
            .any(|o| o.assignment.starts_with("sprt."))
        {
            return Err(format!(
                "{}: expects elo0=, elo1=, alpha=, beta= or model=",
                flag.name
            ));
        }
        Ok(())
    }

    /// `-log file=F [engine=true]`: the engine traffic, every line with its time and
    /// engine, to F. fastchess's levels and compression are not here: refused by name.
    fn log(&mut self, flag: &Flag) -> Result<(), String> {
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            match key {
                "file" if !value.trim().is_empty() => {
                    self.log = Some(std::path::PathBuf::from(value));
                }
                "engine" if parse_bool(&label, value)? => {}
                _ => {
                    return Err(format!(
                        "{label}: not supported (-log file=F [engine=true] writes the engine traffic to F)"
                    ))
                }
            }
        }
        if self.log.is_none() {
            return Err(format!("{}: expects file=F", flag.shown()));
        }
        Ok(())
    }

    fn pgnout(&mut self, flag: &Flag) -> Result<(), String> {
        for param in &flag.params {
            let label = flag.with(param);
            let Some((key, value)) = param.split_once('=') else {
                // cutechess: `-pgnout FILE [min] [fi]`.
                if param == "min" || param == "fi" {
                    return Err(format!("{label}: not supported"));
                }
                self.set(label, "output.pgnout", &string(param));
                continue;
            };
            match key {
                "file" => self.set(label, "output.pgnout", &string(value)),
                "append" => {
                    let append = parse_bool(&label, value)?;
                    self.set(label, "output.pgnout_append", &Value::Boolean(append));
                }
                "notation" => {
                    let format = match value {
                        "san" | "wxf" => "wxf",
                        "lan" | "uci" | "iccs" => "iccs",
                        other => {
                            return Err(format!(
                                "{label}: `{other}`: expected iccs, wxf (or fastchess's uci, lan = iccs; san = wxf)"
                            ))
                        }
                    };
                    self.set(label, "output.pgn_format", &string(format));
                }
                "nodes" | "seldepth" | "nps" => {
                    let on = parse_bool(&label, value)?;
                    let key = format!("output.pgn_{key}");
                    self.set(label, &key, &Value::Boolean(on));
                }
                "hashfull" | "tbhits" | "pv" | "timeleft" | "latency" | "min" => {
                    if parse_bool(&label, value)? {
                        return Err(format!(
                            "{label}: not supported (each move's comment has the score, depth and time)"
                        ));
                    }
                }
                _ => {
                    return Err(format!(
                        "{label}: unknown key (file, append, notation, nodes, seldepth, nps)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn draw(&mut self, flag: &Flag) -> Result<(), String> {
        // fastchess's defaults.
        let (mut number, mut count, mut score) = (0i64, 1i64, 0i64);
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            let n: i64 = parse_number(&label, value, "a whole number")?;
            match key {
                "movenumber" => number = n,
                "movecount" => count = n,
                "score" => score = n,
                _ => {
                    return Err(format!(
                        "{label}: unknown key (movenumber, movecount, score)"
                    ))
                }
            }
        }
        let mut rule = toml::Table::new();
        rule.insert("move_number".into(), Value::Integer(number));
        rule.insert("move_count".into(), Value::Integer(count));
        rule.insert("score".into(), Value::Integer(score));
        self.set(flag.shown(), "adjudication.draw", &Value::Table(rule));
        Ok(())
    }

    fn resign(&mut self, flag: &Flag) -> Result<(), String> {
        let (mut count, mut score, mut two_sided) = (1i64, 0i64, false);
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            match key {
                "movecount" => count = parse_number(&label, value, "a whole number")?,
                "score" => score = parse_number(&label, value, "a whole number")?,
                "twosided" => two_sided = parse_bool(&label, value)?,
                _ => return Err(format!("{label}: unknown key (movecount, score, twosided)")),
            }
        }
        let mut rule = toml::Table::new();
        rule.insert("move_count".into(), Value::Integer(count));
        rule.insert("score".into(), Value::Integer(score));
        rule.insert("two_sided".into(), Value::Boolean(two_sided));
        self.set(flag.shown(), "adjudication.resign", &Value::Table(rule));
        Ok(())
    }

    fn rules(&mut self, flag: &Flag) -> Result<(), String> {
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            match key {
                "ruleset" => self.set(label, "rules.ruleset", &string(value)),
                "counting" => self.set(label, "rules.limit_counting", &string(value)),
                "movelimit" => {
                    let n: i64 = parse_number(&label, value, "a number of plies")?;
                    self.set(label, "rules.move_limit", &Value::Integer(n));
                }
                "banmoves" => {
                    let on = parse_bool(&label, value)?;
                    self.set(label, "rules.banmoves", &Value::Boolean(on));
                }
                _ => {
                    return Err(format!(
                        "{label}: unknown key (ruleset, movelimit, counting, banmoves)"
                    ))
                }
            }
        }
        Ok(())
    }

    /// fastchess's `-quick cmd=A cmd=B book=FILE`: 10+0.1, random openings, 25000
    /// rounds of 2 games, concurrency = hardware threads - 2, recover, draw 30/8/8.
    fn quick(&mut self, flag: &Flag) -> Result<(), String> {
        let mut engines = 0;
        for (key, value) in flag.pairs()? {
            let label = flag.with(&format!("{key}={value}"));
            match key {
                "cmd" => {
                    let mut e = EngineDraft::default();
                    e.set("cmd", value, &label)?;
                    e.set("tc", "10+0.1", &flag.shown())?;
                    self.engines.push(e);
                    engines += 1;
                }
                "book" => {
                    self.set(label.clone(), "openings.file", &string(value));
                    self.set(label, "openings.order", &string("random"));
                }
                _ => return Err(format!("{label}: unknown key (cmd, book)")),
            }
        }
        if engines != 2 {
            return Err(format!("{}: needs exactly two cmd=", flag.shown()));
        }
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let label = flag.shown();
        self.rounds = Some(FlagValue {
            value: 25_000,
            label: label.clone(),
        });
        self.recover = true;
        self.concurrency = true;
        self.set(
            label.clone(),
            "tournament.concurrency",
            &Value::Integer(i64::try_from(threads.saturating_sub(2).max(1)).unwrap_or(1)),
        );
        let mut rule = toml::Table::new();
        rule.insert("move_number".into(), Value::Integer(30));
        rule.insert("move_count".into(), Value::Integer(8));
        rule.insert("score".into(), Value::Integer(8));
        self.set(label, "adjudication.draw", &Value::Table(rule));
        Ok(())
    }

    fn finish(mut self) -> Result<Translation, String> {
        if let Some(mode @ (Mode::Help | Mode::Version)) = self.mode {
            return Ok(Translation {
                overrides: Vec::new(),
                mode,
                log: None,
            });
        }
        if self.engines.len() < 2 {
            return Err(format!(
                "-engine: a run needs at least two engines, found {}",
                self.engines.len()
            ));
        }
        let each = std::mem::take(&mut self.each);
        for engine in &mut self.engines {
            for (key, value, label) in &each {
                engine.set(key, value, label)?;
            }
        }
        let mut out: Vec<Override> = Vec::new();
        self.counts(&mut out)?;
        self.kind(&mut out);
        if !self.concurrency {
            out.push(Override::flag(
                "fastchess's default -concurrency 1",
                "tournament.concurrency=1",
            ));
        }
        self.engine_overrides(&mut out)?;
        let crashes = if self.recover { u32::MAX } else { 0 };
        out.push(Override::flag(
            if self.recover {
                "-recover"
            } else {
                "no -recover (the run stops at the first crash or stall, as in fastchess)"
            },
            format!("faults.max_crashes={crashes}"),
        ));
        let dir = match self.out.take() {
            Some(dir) => dir,
            None => FlagValue {
                value: default_dir(&self.engines),
                label: "the default output folder (-out DIR)".to_owned(),
            },
        };
        out.append(&mut self.overrides);
        out.push(Override::flag(
            dir.label,
            format!("output.dir={}", text(&string(&dir.value))),
        ));
        let mode = match self.mode {
            Some(mode) => mode,
            None => Mode::Play {
                resume: self.resume,
            },
        };
        Ok(Translation {
            overrides: out,
            mode,
            log: self.log,
        })
    }

    /// `-rounds`, `-games` and `-repeat` as pairs: fastchess plays `rounds` rounds of
    /// `games` games on one opening each, colours alternating; with 2 games a round is
    /// exactly a pair (one opening, colours swapped), the unit here.
    fn counts(&self, out: &mut Vec<Override>) -> Result<(), String> {
        let default = |value: u64, what: &str| FlagValue {
            value,
            label: format!("fastchess's default {what}"),
        };
        let mut rounds = self
            .rounds
            .clone()
            .unwrap_or_else(|| default(2, "-rounds 2"));
        let mut games = self.games.clone().unwrap_or_else(|| default(2, "-games 2"));
        if games.value > 2 {
            // fastchess reads `-games 500 -rounds 2` as the other way round.
            std::mem::swap(&mut rounds, &mut games);
            if games.value > 2 {
                return Err(format!(
                    "{}: at most 2 games per round (one opening, colours swapped)",
                    rounds.label
                ));
            }
        }
        if games.value != 2 {
            return Err(format!(
                "{}: xq-runner plays each opening twice with colours swapped (a pair): use -games 2 or -repeat",
                games.label
            ));
        }
        let pairs = match rounds.value {
            0 if self.sprt => 500_000, // fastchess's SPRT run without a round limit
            0 => return Err(format!("{}: at least 1 round", rounds.label)),
            n => n,
        };
        out.push(Override::flag(
            rounds.label,
            format!("tournament.pairs={pairs}"),
        ));
        Ok(())
    }

    fn kind(&self, out: &mut Vec<Override>) {
        // Two engines play a match whatever the kind (fastchess's default is roundrobin);
        // more play a round robin unless told otherwise.
        let (kind, label) = match (&self.kind, self.engines.len()) {
            (_, 2) => ("match", "two -engine flags".to_owned()),
            (Some(k), _) => (k.value, k.label.clone()),
            (None, _) => (
                "round_robin",
                "fastchess's default -tournament roundrobin".to_owned(),
            ),
        };
        out.push(Override::flag(
            label,
            format!("tournament.kind={}", text(&string(kind))),
        ));
    }

    fn engine_overrides(&self, out: &mut Vec<Override>) -> Result<(), String> {
        let limits = self
            .engines
            .iter()
            .map(EngineDraft::limit)
            .collect::<Result<Vec<_>, _>>()?;
        // One limit for all: the config's [time]; else each engine's own.
        let shared = limits.first().and_then(Option::as_ref).filter(|first| {
            limits
                .iter()
                .all(|l| l.as_ref().map(|l| &l.value) == Some(&first.value))
        });
        if let Some(limit) = shared {
            let (key, value) = limit.value.key_and_value();
            out.push(Override::flag(
                limit.label.clone(),
                format!("time.{key}={}", text(&value)),
            ));
        }
        let margins: Vec<Option<&FlagValue<u64>>> =
            self.engines.iter().map(|e| e.margin_ms.as_ref()).collect();
        if let Some(Some(first)) = margins.first() {
            if margins
                .iter()
                .all(|m| m.is_some_and(|m| m.value == first.value))
            {
                out.push(Override::flag(
                    first.label.clone(),
                    format!(
                        "time.margin={}",
                        text(&string(&format!("{}ms", first.value)))
                    ),
                ));
            } else {
                return Err(format!(
                    "{}: one margin for all engines here: use -each timemargin=N",
                    first.label
                ));
            }
        } else if let Some(m) = margins.iter().flatten().next() {
            return Err(format!(
                "{}: one margin for all engines here: use -each timemargin=N",
                m.label
            ));
        }
        let mut names: Vec<String> = Vec::new();
        for (i, e) in self.engines.iter().enumerate() {
            let at = |key: &str| format!("engine.{i}.{key}");
            let Some(command) = e.command() else {
                return Err(format!("-engine (engine {}): needs cmd=PROGRAM", i + 1));
            };
            let cmd_label = e.cmd.as_ref().map_or_else(String::new, |c| c.label.clone());
            let command = Value::Array(command.iter().map(|w| string(w)).collect());
            let label = e.args_label.clone().unwrap_or_else(|| cmd_label.clone());
            out.push(Override::flag(
                label,
                format!("{}={}", at("command"), text(&command)),
            ));
            // fastchess: the program's name, and `_2`, `_3` for the second and third use.
            let (base, name_label) = match &e.name {
                Some(n) => (n.value.clone(), n.label.clone()),
                None => (e.default_name(), cmd_label.clone()),
            };
            let uses = names.iter().filter(|n| n.as_str() == base).count() + 1;
            names.push(base.clone());
            let name = if uses > 1 {
                format!("{base}_{uses}")
            } else {
                base
            };
            out.push(Override::flag(
                name_label,
                format!("{}={}", at("name"), text(&string(&name))),
            ));
            for (key, set) in [
                ("protocol", &e.proto),
                ("coordinates", &e.coordinates),
                ("dir", &e.dir),
            ] {
                if let Some(s) = set {
                    out.push(Override::flag(
                        s.label.clone(),
                        format!("{}={}", at(key), text(&string(&s.value))),
                    ));
                }
            }
            if let Some(r) = &e.restart {
                out.push(Override::flag(
                    r.label.clone(),
                    format!("{}={}", at("restart"), r.value),
                ));
            }
            for (table, entries) in [("options", &e.options), ("env", &e.env)] {
                for (k, set) in entries {
                    out.push(Override::flag(
                        set.label.clone(),
                        format!(
                            "{}.{}={}",
                            at(table),
                            key_part(k),
                            text(&string(&set.value))
                        ),
                    ));
                }
            }
            match (&limits[i], shared) {
                (_, Some(_)) => {}
                (Some(limit), None) => {
                    let (key, value) = limit.value.key_and_value();
                    out.push(Override::flag(
                        limit.label.clone(),
                        format!("{}={}", at(&format!("time.{key}")), text(&value)),
                    ));
                }
                (None, None) => {
                    return Err(format!(
                        "{}: no time control: give tc=, st=, nodes= or depth= (or -each tc=...)",
                        if cmd_label.is_empty() {
                            "-engine".to_owned()
                        } else {
                            cmd_label
                        }
                    ))
                }
            }
        }
        Ok(())
    }
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The output folder when `-out` is not given: `out/<first>-vs-<second>`, or for more
/// engines `out/<first>-and-<n>-more`; names cut to file-name characters.
fn default_dir(engines: &[EngineDraft]) -> String {
    let clean = |e: &EngineDraft| {
        let name = e
            .name
            .as_ref()
            .map_or_else(|| e.default_name(), |n| n.value.clone());
        let cleaned: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let cleaned = cleaned.trim_matches('.').to_owned();
        if cleaned.is_empty() {
            "engine".to_owned()
        } else {
            cleaned
        }
    };
    match engines {
        [a, b] => format!("out/{}-vs-{}", clean(a), clean(b)),
        [a, rest @ ..] => format!("out/{}-and-{}-more", clean(a), rest.len()),
        [] => "out/run".to_owned(),
    }
}

/// Translates the flags of a command line.
///
/// # Errors
/// One line naming the flag: unknown, not applying here, or with a bad value.
pub fn translate(flags: &[Flag]) -> Result<Translation, String> {
    let mut state = State::default();
    for flag in flags {
        state.flag(flag)?;
    }
    state.finish()
}
