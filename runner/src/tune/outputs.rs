//! `tune.json`: the final values, ready to paste (an `options = { ... }` line for a
//! runner config and fishtest's parameter lines), and the trajectory of every parameter
//! thinned to at most [`MAX_POINTS`] points.

use std::path::Path;

use serde::Serialize;

use super::journal::Record;
use super::params::TuneParam;

/// The name of the file.
pub const TUNE_JSON: &str = "tune.json";

/// The most points of a trajectory kept in `tune.json` (and drawn in the report).
pub const MAX_POINTS: usize = 1000;

/// One parameter's result.
#[derive(Debug, Serialize)]
pub struct FinalValue {
    /// The parameter as tuned (its range narrowed to the engine's).
    #[serde(flatten)]
    pub param: TuneParam,
    /// theta at the end.
    pub value: f64,
    /// The value an engine option takes: theta rounded to the nearest integer.
    pub rounded: i64,
}

/// A trajectory: theta after each applied result (point 0 is the start).
#[derive(Debug, Serialize)]
pub struct Trajectory {
    /// How many results had been applied at each point.
    pub pairs: Vec<u64>,
    /// Per parameter, in the order of `params`.
    pub values: Vec<Vec<f64>>,
}

/// The contents of `tune.json`.
#[derive(Debug, Serialize)]
pub struct TuneSummary {
    pub engine: String,
    pub iterations: u64,
    /// Iterations finished.
    pub played: u64,
    pub status: String,
    pub params: Vec<FinalValue>,
    /// `options = { A = 1, B = 2 }`, for an `[[engine]]` table.
    pub options_line: String,
    /// fishtest's lines with the final values as the starts: to go on tuning there.
    pub fishtest: Vec<String>,
    pub trajectory: Trajectory,
}

/// The indices of at most `max` points out of `len`, evenly spread, first and last kept.
#[must_use]
pub fn thin(len: usize, max: usize) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    if max < 2 {
        return vec![len - 1];
    }
    (0..max).map(|j| j * (len - 1) / (max - 1)).collect()
}

/// The full trajectory: the start and theta after each record, in journal order.
#[must_use]
pub fn trajectory(params: &[TuneParam], records: &[Record], max: usize) -> Trajectory {
    let at = |i: usize| -> Vec<f64> {
        if i == 0 {
            params.iter().map(|p| p.start).collect()
        } else {
            params
                .iter()
                .map(|p| {
                    records[i - 1]
                        .theta
                        .get(&p.name)
                        .copied()
                        .unwrap_or(p.start)
                })
                .collect()
        }
    };
    let kept = thin(records.len() + 1, max);
    let points: Vec<Vec<f64>> = kept.iter().map(|&i| at(i)).collect();
    Trajectory {
        pairs: kept.iter().map(|&i| i as u64).collect(),
        values: (0..params.len())
            .map(|p| points.iter().map(|v| v[p]).collect())
            .collect(),
    }
}

/// TOML's form of an option name: bare when it can be.
fn toml_key(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        name.to_owned()
    } else {
        toml::Value::String(name.to_owned()).to_string()
    }
}

impl TuneSummary {
    /// The summary of a tune at `theta` after `records`.
    #[must_use]
    pub fn new(
        engine: &str,
        iterations: u64,
        params: &[TuneParam],
        theta: &[f64],
        records: &[Record],
        status: &str,
    ) -> TuneSummary {
        let finals: Vec<FinalValue> = params
            .iter()
            .zip(theta)
            .map(|(p, &value)| FinalValue {
                param: p.clone(),
                value,
                rounded: value.round() as i64,
            })
            .collect();
        let options = finals
            .iter()
            .map(|f| format!("{} = {}", toml_key(&f.param.name), f.rounded))
            .collect::<Vec<_>>()
            .join(", ");
        TuneSummary {
            engine: engine.to_owned(),
            iterations,
            played: records.len() as u64,
            status: status.to_owned(),
            options_line: format!("options = {{ {options} }}"),
            fishtest: params
                .iter()
                .zip(theta)
                .map(|(p, &v)| p.fishtest_line((v * 100.0).round() / 100.0))
                .collect(),
            params: finals,
            trajectory: trajectory(params, records, MAX_POINTS),
        }
    }

    /// The lines printed at the end of a tune.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        for f in &self.params {
            let p = &f.param;
            out.push_str(&format!(
                "{}: {:.2} (start {}, range [{}, {}])\n",
                p.name, f.value, p.start, p.min, p.max
            ));
        }
        out.push_str(&format!("{}\n", self.options_line));
        out.push_str("fishtest parameters:\n");
        for line in &self.fishtest {
            out.push_str(line);
            out.push('\n');
        }
        out
    }

    /// Writes `tune.json` (through a temporary file: a reader never sees half of it).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let json = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        crate::atomic_file::write(&dir.join(TUNE_JSON), (json + "\n").as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_ends_and_at_most_max_points() {
        assert_eq!(thin(5, 10), vec![0, 1, 2, 3, 4]);
        let kept = thin(2501, 1000);
        assert_eq!(kept.len(), 1000);
        assert_eq!((kept[0], kept[999]), (0, 2500));
        assert!(kept.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_options_line_is_valid_toml_with_rounded_values() {
        let param = |name: &str| TuneParam {
            name: name.to_owned(),
            start: 1.0,
            min: 0.0,
            max: 10.0,
            c_end: 1.0,
            r_end: 0.01,
            origin: None,
        };
        let s = TuneSummary::new(
            "e",
            10,
            &[param("A"), param("Odd name")],
            &[3.4, 7.6],
            &[],
            "done",
        );
        assert_eq!(s.options_line, "options = { A = 3, \"Odd name\" = 8 }");
        let parsed: toml::Table = s.options_line.parse().expect("toml");
        assert_eq!(parsed["options"]["Odd name"].as_integer(), Some(8));
        assert_eq!(s.fishtest[0], "A, 3.4, 0, 10, 1, 0.01");
        assert_eq!(s.trajectory.values[1], vec![1.0]);
    }
}
