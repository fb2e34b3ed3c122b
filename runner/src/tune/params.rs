//! The parameters to tune: as `[[tune.param]]` tables or as fishtest's text lines
//! (`name, start, min, max, c_end, r_end`), each remembered with the file and line it
//! came from, and the checks every parameter must pass.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::config::ConfigError;

/// Where a parameter was written: for errors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    pub file: String,
    pub line: Option<usize>,
    /// The config key (`tune.param.2`), for a parameter of the TOML file.
    pub key: Option<String>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        Ok(())
    }
}

/// One parameter as given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneParam {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration, as fishtest defines it.
    pub r_end: f64,
    #[serde(skip)]
    pub origin: Option<Origin>,
}

/// The largest start, min or max: an engine receives integers, and a `f64` holds every
/// integer up to 2^53 exactly.
pub const MAX_ABS_VALUE: f64 = 9_007_199_254_740_992.0;

/// A number short, whatever its size: `0.05`, `8`, `1e308` (`Display` writes 1e308 in
/// 309 digits).
#[must_use]
pub fn short(v: f64) -> String {
    let text = format!("{v:?}");
    match text.strip_suffix(".0") {
        Some(whole) => whole.to_owned(),
        None => text,
    }
}

/// A parameter error: one line naming where the parameter was written.
pub type ParamError = ConfigError;

impl Origin {
    /// The error `message` at this place.
    #[must_use]
    pub fn error(&self, message: String) -> ConfigError {
        ConfigError {
            file: self.file.clone(),
            line: self.line,
            flag: None,
            key: self.key.clone(),
            message,
        }
    }
}

impl TuneParam {
    /// The line of fishtest's parameter list that gives this parameter.
    #[must_use]
    pub fn fishtest_line(&self, value: f64) -> String {
        format!(
            "{}, {}, {}, {}, {}, {}",
            self.name, value, self.min, self.max, self.c_end, self.r_end
        )
    }

    /// Where the parameter was written (`(parameters)` when nowhere).
    #[must_use]
    pub fn origin(&self) -> Origin {
        self.origin.clone().unwrap_or(Origin {
            file: "(parameters)".to_owned(),
            line: None,
            key: None,
        })
    }

    fn error(&self, message: String) -> ParamError {
        self.origin().error(message)
    }

    /// The checks of one parameter on its own: finite numbers within ±2^53, `min <
    /// max`, `start` within them, positive `c_end` and `r_end`, a perturbation
    /// (`c_end`) and a last step (`r_end * c_end`) no wider than the range. Wider
    /// inputs leave nothing to tune (both sides sit on the bounds, one pair throws
    /// theta from bound to bound) or overflow: `r_end = 1e308` made theta NaN, played
    /// as 0 by both sides.
    ///
    /// # Errors
    /// The first check that fails.
    pub fn check(&self) -> Result<(), ParamError> {
        let name = &self.name;
        if name.is_empty() || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(self.error(format!(
                "parameter name {name:?}: expected an engine option's name"
            )));
        }
        for (what, v) in [
            ("start", self.start),
            ("min", self.min),
            ("max", self.max),
            ("c_end", self.c_end),
            ("r_end", self.r_end),
        ] {
            if !v.is_finite() {
                return Err(self.error(format!("{name}: {what} {v} is not a finite number")));
            }
            if what != "r_end" && v.abs() > MAX_ABS_VALUE {
                return Err(self.error(format!(
                    "{name}: {what} {} is beyond ±2^53 (an engine option's integer, exact in the tuner's numbers)",
                    short(v)
                )));
            }
        }
        if self.min >= self.max {
            return Err(self.error(format!(
                "{name}: min {} must be below max {}",
                self.min, self.max
            )));
        }
        if self.start < self.min || self.start > self.max {
            return Err(self.error(format!(
                "{name}: start {} is outside [{}, {}]",
                self.start, self.min, self.max
            )));
        }
        if self.c_end <= 0.0 {
            return Err(self.error(format!(
                "{name}: c_end {} must be positive (the perturbation at the last iteration)",
                self.c_end
            )));
        }
        if self.r_end <= 0.0 {
            return Err(self.error(format!(
                "{name}: r_end {} must be positive (the learning rate at the last iteration)",
                self.r_end
            )));
        }
        let range = self.max - self.min;
        if self.c_end > range {
            return Err(self.error(format!(
                "{name}: c_end {} is wider than the range max - min = {} (both sides would sit on the bounds)",
                short(self.c_end),
                short(range)
            )));
        }
        let step = self.r_end * self.c_end;
        if step > range {
            return Err(self.error(format!(
                "{name}: r_end {} with c_end {} moves theta by r_end * c_end = {} for a won pair at the last iteration, more than the range max - min = {}",
                short(self.r_end),
                short(self.c_end),
                short(step),
                short(range)
            )));
        }
        Ok(())
    }
}

/// Checks every parameter and refuses a name given twice (names compare without case,
/// as engines match option names).
///
/// # Errors
/// The first problem, at the parameter where it is.
pub fn check_all(params: &[TuneParam]) -> Result<(), ParamError> {
    for (i, p) in params.iter().enumerate() {
        p.check()?;
        if let Some(first) = params[..i]
            .iter()
            .find(|q| q.name.eq_ignore_ascii_case(&p.name))
        {
            let at = first
                .origin
                .as_ref()
                .map_or_else(String::new, |o| format!(" (first at {o})"));
            return Err(p.error(format!("parameter {} is given twice{at}", p.name)));
        }
    }
    Ok(())
}

/// Reads fishtest's parameter lines: `name, start, min, max, c_end, r_end`, one a line.
/// Blank lines are skipped, as fishtest does; so are lines starting with `#` (an
/// addition, for files kept with notes).
///
/// # Errors
/// A line without six fields or with a field that is not a number, named by its line.
pub fn parse_fishtest(file: &str, text: &str) -> Result<Vec<TuneParam>, ParamError> {
    let mut params = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let origin = Origin {
            file: file.to_owned(),
            line: Some(index + 1),
            key: None,
        };
        let error = |message: String| origin.error(message);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(error(format!(
                "expected `name, start, min, max, c_end, r_end`, found {} field{}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            )));
        }
        let number = |i: usize, what: &str| -> Result<f64, ParamError> {
            fields[i]
                .parse::<f64>()
                .map_err(|_| error(format!("{what} `{}` is not a number", fields[i])))
        };
        params.push(TuneParam {
            name: fields[0].to_owned(),
            start: number(1, "start")?,
            min: number(2, "min")?,
            max: number(3, "max")?,
            c_end: number(4, "c_end")?,
            r_end: number(5, "r_end")?,
            origin: Some(origin.clone()),
        });
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fishtest_lines_with_their_line_numbers() {
        let text =
            "FutilityMargin, 130, 0, 400, 10, 0.002\n\n# a note\nRfpMargin,110,0,400,8,0.0020\n";
        let params = parse_fishtest("p.txt", text).expect("parses");
        assert_eq!(params.len(), 2);
        assert_eq!(params[1].name, "RfpMargin");
        assert!((params[1].c_end - 8.0).abs() < f64::EPSILON);
        assert_eq!(params[1].origin.as_ref().and_then(|o| o.line), Some(4));
        assert_eq!(
            params[0].fishtest_line(131.5),
            "FutilityMargin, 131.5, 0, 400, 10, 0.002"
        );
    }

    #[test]
    fn a_short_line_or_a_bad_number_is_named_by_its_line() {
        let e =
            parse_fishtest("p.txt", "A, 1, 0, 2, 1, 0.1\nB, 1, 0, 2, 1\n").expect_err("refused");
        assert_eq!(
            e.to_string(),
            "p.txt:2: expected `name, start, min, max, c_end, r_end`, found 5 fields"
        );
        let e = parse_fishtest("p.txt", "A, one, 0, 2, 1, 0.1\n").expect_err("refused");
        assert_eq!(e.to_string(), "p.txt:1: start `one` is not a number");
    }

    #[test]
    fn bad_values_and_twice_given_names_are_refused() {
        let all = parse_fishtest(
            "p.txt",
            "A, 1, 0, 2, 1, 0.1\nB, 5, 5, 5, 1, 0.1\nC, 9, 0, 2, 1, 0.1\nD, 1, 0, 2, 0, 0.1\na, 1, 0, 2, 1, 0.1\n",
        )
        .expect("parses");
        let message = |p: &TuneParam| p.check().map_err(|e| e.to_string()).err();
        assert_eq!(message(&all[0]), None);
        assert_eq!(
            message(&all[1]).as_deref(),
            Some("p.txt:2: B: min 5 must be below max 5")
        );
        assert_eq!(
            message(&all[2]).as_deref(),
            Some("p.txt:3: C: start 9 is outside [0, 2]")
        );
        assert!(
            message(&all[3]).is_some_and(|m| m.starts_with("p.txt:4: D: c_end 0 must be positive"))
        );
        let absurd = parse_fishtest(
            "p.txt",
            "A, 1, 0, 2, 1, 1e308\nB, 1, 0, 2, 3, 0.1\nC, 1, -1e300, 2, 1, 0.1\nD, 50, 0, 100, 1e-300, 0.002\n",
        )
        .expect("parses");
        assert_eq!(
            message(&absurd[0]).as_deref(),
            Some("p.txt:1: A: r_end 1e308 with c_end 1 moves theta by r_end * c_end = 1e308 for a won pair at the last iteration, more than the range max - min = 2")
        );
        assert_eq!(
            message(&absurd[1]).as_deref(),
            Some("p.txt:2: B: c_end 3 is wider than the range max - min = 2 (both sides would sit on the bounds)")
        );
        assert!(
            message(&absurd[2])
                .is_some_and(|m| m.starts_with("p.txt:3: C: min -1e300 is beyond ±2^53")),
            "{:?}",
            message(&absurd[2])
        );
        // A tiny c_end is refused where the gains are made (see config.rs).
        assert_eq!(message(&absurd[3]), None);
        let twice = [all[0].clone(), all[4].clone()];
        assert_eq!(
            check_all(&twice).map_err(|e| e.to_string()),
            Err("p.txt:5: parameter a is given twice (first at p.txt:1)".to_owned())
        );
    }
}
