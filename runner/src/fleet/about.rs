//! What a stored run is to the people reading it, beside its numbers: what it tests
//! (`tournament.description`), who asked for it, and which build of each engine plays
//! (the first 12 hex digits of its program's SHA-256, where the run carries it). The
//! same for a match and a tune, in `status` (text and JSON) and on the pages.

use serde::Serialize;

use crate::output::printable::printable;
use crate::store::pg::runs::{RunRow, RunWorker};

/// One engine of a run and its build.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct EngineBuild {
    pub name: String,
    /// `None` for a program the workers have (not carried by the run).
    pub build: Option<String>,
    /// The name it announced (`id name`) to the first worker that benched it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub announced: Option<String>,
    /// The bench signature the run expects of it (its config's `bench`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bench: Option<u64>,
    /// Its bench speed, nodes per second, the mean over the workers that measured it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    /// The git commit it was built from, where `bisect` built it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// A run's description, submitter and engines.
#[derive(Clone, Debug, Serialize, Default, PartialEq, Eq)]
pub struct About {
    pub description: Option<String>,
    pub submitter: Option<String>,
    pub engines: Vec<EngineBuild>,
}

impl About {
    /// The about of `run`, whose engines are `names` in config order. The description
    /// is read from the stored config as played (so `--set` carries it); a match's was
    /// checked at submit (`config/validate/tournament.rs`).
    #[must_use]
    pub fn of(run: &RunRow, names: &[String]) -> About {
        let description = run
            .config
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| {
                t.get("tournament")?
                    .get("description")?
                    .as_str()
                    .map(str::to_owned)
            })
            .filter(|d| !d.trim().is_empty());
        About {
            description,
            submitter: run.submitter.clone(),
            engines: names
                .iter()
                .enumerate()
                .map(|(i, name)| EngineBuild {
                    name: name.clone(),
                    build: run.builds.get(&i).cloned(),
                    announced: None,
                    bench: run.bench.get(name).copied(),
                    nps: None,
                    commit: run.commits.get(&i).cloned(),
                })
                .collect(),
        }
    }

    /// The about with what the workers measured of each engine: the name it announced
    /// (the first worker's, by name) and its mean bench speed.
    #[must_use]
    pub fn measured_by(mut self, workers: &[RunWorker]) -> About {
        for e in &mut self.engines {
            e.announced = workers
                .iter()
                .find_map(|w| w.announced.get(&e.name).cloned());
            let speeds: Vec<u64> = workers
                .iter()
                .filter_map(|w| w.bench_nps.get(&e.name).copied())
                .collect();
            e.nps = u64::try_from(speeds.len())
                .ok()
                .filter(|n| *n > 0)
                .map(|n| speeds.iter().sum::<u64>() / n);
        }
        self
    }

    /// The engine names of a stored config (`[[engine]] name`), for a run whose config
    /// is not read as a plan here (a tune).
    #[must_use]
    pub fn engine_names(config: &str) -> Vec<String> {
        let Ok(table) = config.parse::<toml::Table>() else {
            return Vec::new();
        };
        table
            .get("engine")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, e)| {
                e.get("name")
                    .and_then(toml::Value::as_str)
                    .map_or_else(|| format!("engine {}", i + 1), str::to_owned)
            })
            .collect()
    }

    /// The lines `status` prints under a run's first: its description, who submitted
    /// it, its engines with their builds; each printable (a name from a config or a
    /// submitter cannot move the terminal's cursor).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(d) = &self.description {
            out.push_str(&format!("Description: {}\n", printable(d)));
        }
        if let Some(s) = &self.submitter {
            out.push_str(&format!("Submitted by: {}\n", printable(s)));
        }
        if !self.engines.is_empty() {
            let engines: Vec<String> = self
                .engines
                .iter()
                .map(|e| match &e.build {
                    Some(b) => format!("{} (build {b})", printable(&e.name)),
                    None => format!("{} (build not carried)", printable(&e.name)),
                })
                .collect();
            out.push_str(&format!("Engines: {}\n", engines.join(", ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_of_a_config_in_order_with_a_default() {
        let config = "[[engine]]\nname = \"a\"\n[[engine]]\ncommand = [\"x\"]\n";
        assert_eq!(About::engine_names(config), ["a", "engine 2"]);
        assert!(About::engine_names("not toml [").is_empty());
    }

    #[test]
    fn the_text_names_each_build_or_says_it_is_not_carried() {
        let about = About {
            description: Some("LMR \u{1b}[2J".to_owned()),
            submitter: Some("ann@box".to_owned()),
            engines: vec![
                EngineBuild {
                    name: "new".to_owned(),
                    build: Some("0123456789ab".to_owned()),
                    ..EngineBuild::default()
                },
                EngineBuild {
                    name: "base".to_owned(),
                    build: None,
                    ..EngineBuild::default()
                },
            ],
        };
        let text = about.to_text();
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("Submitted by: ann@box\n"), "{text}");
        assert!(
            text.contains("Engines: new (build 0123456789ab), base (build not carried)\n"),
            "{text}"
        );
    }
}
