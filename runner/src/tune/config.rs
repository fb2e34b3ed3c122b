//! A tune config: the `[tune]` section and its `[[tune.param]]` tables (plus, with
//! `--params FILE`, fishtest's parameter lines), one `[[engine]]`, and everything else
//! meaning what it means for `run`. The rest of the file is read by the runner's own
//! config code, so `[time]`, `[openings]`, `[rules]`, `[output]`, `[faults]`,
//! `tournament.concurrency` and `seed` are checked, and their errors located, exactly as
//! for `run`.

use std::path::Path;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::params::{check_all, parse_fishtest, short, Origin, TuneParam};
use super::spsa::{Gains, SpsaConstants};
use crate::config::locate::{line_at, line_of};
use crate::config::self_play::{self, SelfPlayWords};
use crate::config::{parse_shared, ConfigError, EngineCount, Override, Plan};

/// A validated tune.
#[derive(Clone, Debug)]
pub struct TunePlan {
    /// The run settings: two engines, both the tuned engine (index 0 plays theta+,
    /// index 1 theta-), `pairs` the number of iterations.
    pub plan: Plan,
    pub schedule: SpsaConstants,
    pub params: Vec<TuneParam>,
    /// The config as read (overrides applied, the `--params` lines as `[[tune.param]]`),
    /// as TOML: kept in the output folder, compared on resume, shown in the report.
    pub config: String,
}

/// `[tune]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTune {
    pairs: Option<u64>,
    alpha: Option<f64>,
    gamma: Option<f64>,
    #[serde(rename = "A")]
    a_ratio: Option<f64>,
    #[serde(default, rename = "param")]
    params: Vec<Spanned<RawParam>>,
}

/// `[[tune.param]]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    name: String,
    start: f64,
    min: f64,
    max: f64,
    c_end: f64,
    r_end: f64,
}

/// The parts of the file the tuner reads itself.
#[derive(Debug, Deserialize)]
struct TuneFile {
    tune: Option<Spanned<RawTune>>,
}

const WORDS: SelfPlayWords = SelfPlayWords {
    one_engine: "a tune has exactly one [[engine]], the engine it tunes",
    no_engine: "missing: the [[engine]] to tune",
    fixed_length: |key| {
        if key == "kind" {
            "a tune plays its engine against itself: leave tournament.kind out".to_owned()
        } else {
            format!("a tune plays tune.pairs iterations of one pair: set tune.pairs, not tournament.{key}")
        }
    },
    no_sprt: "a tune has no SPRT: leave the [sprt] section out",
};

fn error(
    file: &str,
    line: Option<usize>,
    key: Option<&str>,
    message: impl Into<String>,
) -> ConfigError {
    ConfigError::in_file(file, line, key, message)
}

/// The line of the `[tune]` table when `text` is a tune config (for `run` and `submit`,
/// which send a tune elsewhere); `None` for any other text, even one that does not parse.
#[must_use]
pub fn tune_line(text: &str) -> Option<usize> {
    line_of(text, &["tune"])
}

/// For `run` given a tune config: the one line that sends the user to `tune` (or to
/// `submit`, for workers); `None` when the file is not a tune config.
#[must_use]
pub fn sent_to_tune(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = tune_line(&text)?;
    let file = path.display();
    Some(format!(
        "{file}:{line}: tune: a tune config is played by `xq-runner tune {file}` (on workers: `xq-runner submit {file}`), not by `run`"
    ))
}

/// Applies a `--set tune.KEY=VALUE` override.
fn set_tune(tune: &mut RawTune, text: &str) -> Result<(), String> {
    let bad = |why: &str| format!("--set {text}: {why}");
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| bad("expected key=value"))?;
    let value = value.trim();
    let number = || value.parse::<f64>().map_err(|_| bad("expected a number"));
    match key.trim() {
        "tune.pairs" => {
            tune.pairs = Some(value.parse().map_err(|_| bad("expected a whole number"))?);
        }
        "tune.alpha" => tune.alpha = Some(number()?),
        "tune.gamma" => tune.gamma = Some(number()?),
        "tune.A" => tune.a_ratio = Some(number()?),
        _ => {
            return Err(bad(
                "--set changes tune.pairs, tune.alpha, tune.gamma or tune.A",
            ))
        }
    }
    Ok(())
}

/// Reads a tune config from a file, with `--set` overrides and an optional `--params`
/// file of fishtest's lines.
///
/// # Errors
/// One [`ConfigError`] naming the file, line and key of the first problem.
pub fn load(
    path: &Path,
    overrides: &[String],
    params_file: Option<&Path>,
) -> Result<TunePlan, ConfigError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| error(&name, None, None, format!("cannot read: {e}")))?;
    let extra = match params_file {
        None => Vec::new(),
        Some(p) => {
            let file = p.display().to_string();
            let lines = std::fs::read_to_string(p)
                .map_err(|e| error(&file, None, None, format!("cannot read: {e}")))?;
            parse_fishtest(&file, &lines)?
        }
    };
    parse(&name, &text, overrides, extra)
}

/// [`load`] of a text; `name` is used in errors, `extra` are parameters read elsewhere.
///
/// # Errors
/// As [`load`].
pub fn parse(
    name: &str,
    text: &str,
    overrides: &[String],
    extra: Vec<TuneParam>,
) -> Result<TunePlan, ConfigError> {
    let file: TuneFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_at(text, s.start));
        error(name, line, None, e.message().to_owned())
    })?;
    let tune_line = file.tune.as_ref().map(|t| line_at(text, t.span().start));
    let mut tune = file.tune.map(Spanned::into_inner).ok_or_else(|| {
        error(
            name,
            None,
            Some("tune"),
            "missing: a [tune] section (see docs/tuning.md)",
        )
    })?;
    self_play::check(name, text, &WORDS)?;
    let (tune_sets, run_sets): (Vec<&String>, Vec<&String>) = overrides
        .iter()
        .partition(|o| o.trim_start().starts_with("tune."));
    for o in tune_sets {
        set_tune(&mut tune, o).map_err(|m| error(name, None, None, m))?;
    }

    let mut params: Vec<TuneParam> = tune
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let raw = p.get_ref();
            TuneParam {
                name: raw.name.trim().to_owned(),
                start: raw.start,
                min: raw.min,
                max: raw.max,
                c_end: raw.c_end,
                r_end: raw.r_end,
                origin: Some(Origin {
                    file: name.to_owned(),
                    line: Some(line_at(text, p.span().start)),
                    key: Some(format!("tune.param.{i}")),
                }),
            }
        })
        .collect();
    params.extend(extra);
    if params.is_empty() {
        return Err(error(
            name,
            tune_line,
            Some("tune.param"),
            "no parameters: add [[tune.param]] tables or --params FILE",
        ));
    }
    check_all(&params)?;
    let pairs = match tune.pairs {
        None => {
            return Err(error(
                name,
                tune_line,
                Some("tune.pairs"),
                "missing: the number of iterations (one pair each)",
            ))
        }
        Some(0) => {
            return Err(error(
                name,
                line_of(text, &["tune", "pairs"]),
                Some("tune.pairs"),
                "must be at least 1",
            ))
        }
        Some(p) => p,
    };
    let alpha = tune.alpha.unwrap_or(SpsaConstants::ALPHA);
    let gamma = tune.gamma.unwrap_or(SpsaConstants::GAMMA);
    let a_ratio = tune.a_ratio.unwrap_or(SpsaConstants::A_RATIO);
    // SPSA converges for exponents in (0, 1] (Spall; fishtest: 0.602 and 0.101), and
    // fishtest's A is a fraction of the iterations (0.1): beyond these the gains
    // overflow or vanish rather than tune.
    for (key, value, ok, expected) in [
        (
            "alpha",
            alpha,
            alpha > 0.0 && alpha <= 1.0,
            "a number in (0, 1] (fishtest: 0.602)",
        ),
        (
            "gamma",
            gamma,
            gamma > 0.0 && gamma <= 1.0,
            "a number in (0, 1] (fishtest: 0.101)",
        ),
        (
            "A",
            a_ratio,
            (0.0..=1.0).contains(&a_ratio),
            "a fraction of the iterations in [0, 1] (fishtest: 0.1)",
        ),
    ] {
        if !ok {
            return Err(error(
                name,
                line_of(text, &["tune", key]),
                Some(&format!("tune.{key}")),
                format!("{}: expected {expected}", short(value)),
            ));
        }
    }
    let schedule = SpsaConstants::new(pairs, alpha, gamma, a_ratio);
    for p in &params {
        Gains::new(&schedule, p.min, p.max, p.c_end, p.r_end)
            .check(&schedule)
            .map_err(|e| {
                p.origin().error(format!(
                    "{}: {e} (c_end or r_end too small or too large)",
                    p.name
                ))
            })?;
    }

    // The rest, read as `run` reads a config, with the one engine it tunes.
    let mut run_overrides: Vec<Override> = run_sets.into_iter().map(|s| Override::set(s)).collect();
    run_overrides.push(Override::flag(
        "tune.pairs",
        format!("tournament.pairs={pairs}"),
    ));
    let loaded = parse_shared(
        name,
        text,
        "tune",
        EngineCount::OneAgainstItself,
        &run_overrides,
    )?;
    let mut plan = loaded.plan;
    // Counted above in the file; a `--set engine.N...` may still have added one.
    let [tuned] = plan.engines.as_slice() else {
        return Err(error(
            name,
            None,
            Some("engine"),
            format!(
                "a tune has exactly one [[engine]], the engine it tunes; --set made {}",
                plan.engines.len()
            ),
        ));
    };
    let side = |suffix: &str| {
        let mut e = tuned.clone();
        e.spec.name = format!("{}{suffix}", tuned.spec.name);
        // The tuned values are set after the fixed options and replace a fixed one of
        // the same name.
        e.spec
            .options
            .retain(|(k, _)| !params.iter().any(|p| p.name.eq_ignore_ascii_case(k)));
        e
    };
    plan.engines = vec![side("+"), side("-")];
    plan.pairings = vec![(0, 1)];

    // What the tune keeps of the config: tournament.pairs is tune.pairs.
    let unwritable = |e: String| {
        error(
            name,
            None,
            None,
            format!("cannot write the config back as TOML: {e}"),
        )
    };
    let mut canonical: toml::Table = loaded
        .text
        .parse()
        .map_err(|e: toml::de::Error| unwritable(e.to_string()))?;
    if let Some(toml::Value::Table(t)) = canonical.get_mut("tournament") {
        t.remove("pairs");
        if t.is_empty() {
            canonical.remove("tournament");
        }
    }
    let table = TuneTable {
        pairs: schedule.iterations,
        alpha: tune.alpha,
        gamma: tune.gamma,
        a_ratio: tune.a_ratio,
        param: &params,
    };
    let table = toml::Value::try_from(table).map_err(|e| unwritable(e.to_string()))?;
    canonical.insert("tune".to_owned(), table);
    Ok(TunePlan {
        plan,
        schedule,
        params,
        config: toml::to_string(&canonical).map_err(|e| unwritable(e.to_string()))?,
    })
}

/// The `[tune]` table as the tune reads it, with every parameter as a `[[tune.param]]`.
#[derive(Serialize)]
struct TuneTable<'a> {
    pairs: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    alpha: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gamma: Option<f64>,
    #[serde(rename = "A", skip_serializing_if = "Option::is_none")]
    a_ratio: Option<f64>,
    param: &'a [TuneParam],
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(body: &str) -> String {
        format!(
            "[time]\ndepth = 1\n\n[[engine]]\nname = \"e\"\ncommand = [\"/bin/sh\"]\n\n[tune]\npairs = 10\n{body}"
        )
    }

    const PARAM: &str =
        "\n[[tune.param]]\nname = \"X\"\nstart = 50\nmin = 0\nmax = 100\nc_end = 5\nr_end = 0.01\n";

    fn problem(text: &str) -> String {
        parse("t.toml", text, &[], Vec::new())
            .map(|_| ())
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_good_config_gives_two_sides_of_one_engine() {
        let tune = parse(
            "t.toml",
            &config(PARAM),
            &["tune.pairs=20".to_owned()],
            Vec::new(),
        )
        .expect("valid");
        assert_eq!(tune.schedule.iterations, 20);
        assert_eq!(tune.plan.pairs, 20);
        assert_eq!(tune.plan.engines.len(), 2);
        assert_eq!(tune.plan.engines[0].spec.name, "e+");
        assert_eq!(
            tune.plan.engines[1].spec.command,
            vec!["/bin/sh".to_owned()]
        );
        assert_eq!(tune.params[0].name, "X");
        assert!(tune.config.contains("[[tune.param]]"), "{}", tune.config);
    }

    #[test]
    fn problems_name_their_line() {
        let two = format!(
            "{}\n[[engine]]\nname = \"f\"\ncommand = [\"/bin/sh\"]\n",
            config(PARAM)
        );
        assert_eq!(
            problem(&two),
            "t.toml:19: engine.1: a tune has exactly one [[engine]], the engine it tunes; found 2"
        );
        let bad = config(&PARAM.replace("min = 0\nmax = 100", "min = 100\nmax = 100"));
        assert_eq!(
            problem(&bad),
            "t.toml:11: tune.param.0: X: min 100 must be below max 100"
        );
        let twice = config(&format!("{PARAM}{PARAM}"));
        assert_eq!(
            problem(&twice),
            "t.toml:19: tune.param.1: parameter X is given twice (first at t.toml:11: tune.param.0)"
        );
        let unknown = config(&format!("{PARAM}colour = 1\n"));
        assert!(
            problem(&unknown).starts_with("t.toml:18"),
            "{}",
            problem(&unknown)
        );
        let tiny = config(&PARAM.replace("c_end = 5", "c_end = 1e-300"));
        assert_eq!(
            problem(&tiny),
            "t.toml:11: tune.param.0: X: the gains are not usable numbers at iteration 1: c_k = 1.262e-300, R_k = NaN (c_end or r_end too small or too large)"
        );
        let absurd = config(&PARAM.replace("r_end = 0.01", "r_end = 1e308"));
        assert!(
            problem(&absurd).starts_with("t.toml:11: tune.param.0: X: r_end 1e308 with c_end 5"),
            "{}",
            problem(&absurd)
        );
        for (set, key) in [
            ("alpha = 1e300", "alpha"),
            ("gamma = 0", "gamma"),
            ("A = 1e308", "A"),
            ("alpha = nan", "alpha"),
        ] {
            let text = config(&format!("{set}\n{PARAM}"));
            assert!(
                problem(&text).starts_with(&format!("t.toml:10: tune.{key}: ")),
                "{}",
                problem(&text)
            );
        }
        let later = format!("{}\n[output]\ndir = 5\n", config(PARAM));
        assert!(
            problem(&later).starts_with("t.toml:20: output.dir"),
            "{}",
            problem(&later)
        );
    }
}
