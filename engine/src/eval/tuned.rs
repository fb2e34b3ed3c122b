//! The term weights the build reads: `engine/data/term-weights.txt`, one `Option percent`
//! line per weighted term (`EvalMobility 85`), `#` comments, written by `xq-texel`. The
//! seeds' weights themselves stay in [`weights`](super::weights); this file only scales
//! each term as a whole, so the difference between the seeds and the tuned evaluation is
//! read line by line here.

use std::sync::OnceLock;

use thiserror::Error;

use super::term_weights::{TermWeights, TERM_TUNABLES};

/// The file compiled into the engine.
const TUNED: &str = include_str!("../../data/term-weights.txt");

/// A line of a weights file that is not a weight; lines are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WeightsFileError {
    #[error("line {line}: `{text}` is not `Option percent`")]
    Syntax { line: usize, text: String },
    #[error("line {line}: {name} is not a term weight (they are {known})")]
    UnknownName {
        line: usize,
        name: String,
        known: String,
    },
    #[error("line {line}: {message}")]
    Value { line: usize, message: String },
    #[error("line {line}: {name} is given twice")]
    Twice { line: usize, name: String },
}

/// The weights of a file's text; terms it does not name keep 100.
///
/// # Errors
/// [`WeightsFileError`] for the first line that is not a known term's weight in bounds.
pub fn parse(text: &str) -> Result<TermWeights, WeightsFileError> {
    let mut weights = TermWeights::neutral();
    let mut seen = [false; TERM_TUNABLES.len()];
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut words = content.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(WeightsFileError::Syntax {
                line,
                text: content.chars().take(60).collect(),
            });
        };
        let Some(at) = TERM_TUNABLES.iter().position(|t| t.option.is_named(name)) else {
            let known: Vec<&str> = TERM_TUNABLES.iter().map(|t| t.option.name).collect();
            return Err(WeightsFileError::UnknownName {
                line,
                name: name.chars().take(40).collect(),
                known: known.join(", "),
            });
        };
        if std::mem::replace(&mut seen[at], true) {
            return Err(WeightsFileError::Twice {
                line,
                name: TERM_TUNABLES[at].option.name.to_owned(),
            });
        }
        TERM_TUNABLES[at]
            .option
            .apply(&mut weights, Some(value))
            .map_err(|e| WeightsFileError::Value {
                line,
                message: e.to_string(),
            })?;
    }
    Ok(weights)
}

/// The text of a weights file: the header as comment lines, then every term's weight.
#[must_use]
pub fn format(weights: &TermWeights, header: &str) -> String {
    let mut text = String::new();
    for line in header.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    for t in &TERM_TUNABLES {
        text.push_str(&std::format!("{} {}\n", t.option.name, weights.get(t.term)));
    }
    text
}

/// The weights compiled in from `engine/data/term-weights.txt` (the defaults).
#[must_use]
pub fn compiled() -> TermWeights {
    static WEIGHTS: OnceLock<TermWeights> = OnceLock::new();
    *WEIGHTS.get_or_init(|| {
        // The file is part of the source; the test below keeps it readable.
        parse(TUNED).unwrap_or_else(|e| panic!("engine/data/term-weights.txt: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Term;

    #[test]
    fn the_compiled_file_reads_and_names_every_term_once() {
        assert!(parse(TUNED).is_ok(), "{:?}", parse(TUNED));
        let named = TUNED
            .lines()
            .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(named, TERM_TUNABLES.len());
    }

    #[test]
    fn a_written_file_reads_back_the_same_weights() {
        let mut weights = TermWeights::neutral();
        weights.set(Term::Mobility, 85);
        weights.set(Term::Tempo, 240);
        let text = format(&weights, "two lines\nof header");
        assert!(text.starts_with("# two lines\n# of header\nEvalDeficiency 100\n"));
        assert_eq!(parse(&text), Ok(weights));
    }

    #[test]
    fn bad_lines_are_named_by_number() {
        let error = |text: &str| parse(text).expect_err(text).to_string();
        assert_eq!(
            error("# c\nEvalMobility\n"),
            "line 2: `EvalMobility` is not `Option percent`"
        );
        assert!(error("EvalSpeed 10")
            .starts_with("line 1: EvalSpeed is not a term weight (they are EvalDeficiency, "));
        assert_eq!(
            error("EvalTempo 500"),
            "line 1: EvalTempo must be from 0 to 400, not 500"
        );
        assert_eq!(
            error("EvalTempo x"),
            "line 1: EvalTempo needs an integer from 0 to 400, not `x`"
        );
        assert_eq!(
            error("evaltempo 90 # lower case\nEvalTempo 80"),
            "line 2: EvalTempo is given twice"
        );
        assert_eq!(
            parse("evaltempo 90 # lower case").map(|w| w.get(Term::Tempo)),
            Ok(90)
        );
    }
}
