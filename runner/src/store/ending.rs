//! How a run ended, as its files record it: the status a user reads and the exit code.
//! What decides the ending (the SPRT, the gate, the fault limits) is
//! `local_run/ending.rs`; the outputs only write it, so the type lives down here.
//!
//! The words are a contract: `summary.json`'s `status`, the last line of a run, the
//! report, and the database's `runs.status`, which the server writes in the same words
//! (`xq.run_ending` in `store/pg/schema_v3.sql`). [`Ending`]'s `Display` writes them and
//! its `FromStr` is the one place they are read back.

use std::fmt;
use std::str::FromStr;

use crate::exit;
use crate::store::meta::Shard;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// SPRT: H1 accepted (the change is stronger).
    H1Accepted,
    /// SPRT: H0 accepted.
    H0Accepted,
    /// Every pair played and the Elo at least the gate's minimum.
    GatePassed,
    /// Every pair played and the Elo below the gate's minimum (or undefined).
    GateFailed,
    /// Every pair played, neither SPRT nor gate.
    Finished,
    /// Every pair of an SPRT test played without a verdict.
    NoVerdict,
    /// Stopped early and resumable: too many faults of an engine, a journal that cannot
    /// be written, a game that cannot start. The reason is empty only in folders of the
    /// first versions, which wrote a bare `aborted`.
    Aborted(String),
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): resumable.
    Interrupted,
    /// A shard played all its pairs: the verdict comes at `merge`.
    ShardDone(Shard),
    /// `merge` of shards that together miss pairs.
    Incomplete { missing: u64 },
    /// A stored run still open when its folder was written (`report --db`).
    InProgress,
    /// A stored run cancelled (`cancel`).
    Cancelled,
}

impl Ending {
    /// A run that could not go on (a journal write failed, a game could not start).
    #[must_use]
    pub fn aborted(why: &str) -> Ending {
        Ending::Aborted(why.to_owned())
    }

    /// A run stopped by a signal.
    #[must_use]
    pub fn interrupted() -> Ending {
        Ending::Interrupted
    }

    /// A shard that played all its pairs.
    #[must_use]
    pub fn shard_done(shard: Shard) -> Ending {
        Ending::ShardDone(shard)
    }

    /// The exit code of `xq-runner` for this ending (README, "Exit codes").
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            Ending::H1Accepted | Ending::GatePassed | Ending::Finished | Ending::ShardDone(_) => {
                exit::OK
            }
            Ending::H0Accepted | Ending::GateFailed => exit::H0,
            Ending::NoVerdict | Ending::Incomplete { .. } | Ending::InProgress => exit::NO_VERDICT,
            Ending::Aborted(_) | Ending::Interrupted | Ending::Cancelled => exit::ABORTED,
        }
    }

    /// Whether the run ended early (exit code 4): a local one can be resumed.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.exit_code() == exit::ABORTED
    }
}

/// The tail of a shard's status, after `shard I/N`.
const SHARD_PLAYED: &str = " played (merge the shards for the run's result)";

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::H1Accepted => f.write_str("H1 accepted"),
            Ending::H0Accepted => f.write_str("H0 accepted"),
            Ending::GatePassed => f.write_str("gate passed"),
            Ending::GateFailed => f.write_str("gate failed: Elo below the minimum"),
            Ending::Finished => f.write_str("finished"),
            Ending::NoVerdict => f.write_str("finished without an SPRT verdict"),
            Ending::Aborted(why) if why.is_empty() => f.write_str("aborted"),
            Ending::Aborted(why) => write!(f, "aborted: {why}"),
            Ending::Interrupted => f.write_str("interrupted"),
            Ending::ShardDone(shard) => write!(f, "shard {shard}{SHARD_PLAYED}"),
            Ending::Incomplete { missing } => write!(
                f,
                "incomplete: {missing} pair{} missing",
                if *missing == 1 { "" } else { "s" }
            ),
            Ending::InProgress => f.write_str("in progress"),
            Ending::Cancelled => f.write_str("cancelled"),
        }
    }
}

/// A status that is none of the words a run ends with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not how a run ends (H1 accepted, H0 accepted, gate passed, gate failed: ..., finished, finished without an SPRT verdict, aborted: ..., interrupted, shard I/N played ..., incomplete: N pairs missing, in progress, cancelled)")]
pub struct UnknownEnding(pub String);

impl FromStr for Ending {
    type Err = UnknownEnding;

    fn from_str(s: &str) -> Result<Ending, UnknownEnding> {
        let unknown = || UnknownEnding(s.to_owned());
        let ending = match s {
            "H1 accepted" => Ending::H1Accepted,
            "H0 accepted" => Ending::H0Accepted,
            "gate passed" => Ending::GatePassed,
            "gate failed: Elo below the minimum" => Ending::GateFailed,
            "finished" => Ending::Finished,
            "finished without an SPRT verdict" => Ending::NoVerdict,
            "aborted" => Ending::Aborted(String::new()),
            "interrupted" => Ending::Interrupted,
            "in progress" => Ending::InProgress,
            "cancelled" => Ending::Cancelled,
            _ => {
                if let Some(why) = s.strip_prefix("aborted: ") {
                    Ending::Aborted(why.to_owned())
                } else if let Some(shard) = s
                    .strip_prefix("shard ")
                    .and_then(|rest| rest.strip_suffix(SHARD_PLAYED))
                {
                    let (index, count) = shard.split_once('/').ok_or_else(unknown)?;
                    let index = index.parse().map_err(|_| unknown())?;
                    let count = count.parse().map_err(|_| unknown())?;
                    Ending::ShardDone(Shard::new(index, count).ok_or_else(unknown)?)
                } else if let Some(count) = s
                    .strip_prefix("incomplete: ")
                    .and_then(|rest| rest.split_once(' '))
                {
                    let missing = count.0.parse().map_err(|_| unknown())?;
                    let ending = Ending::Incomplete { missing };
                    // The plural must be the one written, so that the words read are
                    // the words a run writes.
                    if ending.to_string() != s {
                        return Err(unknown());
                    }
                    ending
                } else {
                    return Err(unknown());
                }
            }
        };
        Ok(ending)
    }
}

impl serde::Serialize for Ending {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Ending {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Ending, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_ending() -> Vec<Ending> {
        vec![
            Ending::H1Accepted,
            Ending::H0Accepted,
            Ending::GatePassed,
            Ending::GateFailed,
            Ending::Finished,
            Ending::NoVerdict,
            Ending::aborted("a crashed or stalled once (faults.max_crashes = 0)"),
            Ending::Aborted(String::new()),
            Ending::Interrupted,
            Ending::ShardDone(Shard::new(2, 3).expect("shard")),
            Ending::Incomplete { missing: 1 },
            Ending::Incomplete { missing: 12 },
            Ending::InProgress,
            Ending::Cancelled,
        ]
    }

    #[test]
    fn every_ending_reads_back_as_itself() {
        for ending in every_ending() {
            let text = ending.to_string();
            assert_eq!(text.parse::<Ending>().as_ref(), Ok(&ending), "{text}");
            let json = serde_json::to_string(&ending).expect("json");
            assert_eq!(json, format!("{text:?}"));
            assert_eq!(
                serde_json::from_str::<Ending>(&json).expect("read back"),
                ending
            );
        }
    }

    #[test]
    fn the_words_and_exit_codes_are_those_runs_wrote() {
        // The words of `xq.run_ending` in schema_v3.sql and of the summaries written
        // before the type was an enum, each with its exit code.
        let words = [
            ("H1 accepted", 0),
            ("H0 accepted", 1),
            ("gate passed", 0),
            ("gate failed: Elo below the minimum", 1),
            ("finished", 0),
            ("finished without an SPRT verdict", 3),
            (
                "aborted: a lost 2 games on time (faults.max_time_losses = 1)",
                4,
            ),
            ("aborted", 4),
            ("interrupted", 4),
            (
                "shard 1/4 played (merge the shards for the run's result)",
                0,
            ),
            ("incomplete: 1 pair missing", 3),
            ("incomplete: 3 pairs missing", 3),
            ("in progress", 3),
            ("cancelled", 4),
        ];
        for (text, code) in words {
            let ending: Ending = text.parse().expect(text);
            assert_eq!(ending.to_string(), text);
            assert_eq!(ending.exit_code(), code, "{text}");
            assert_eq!(ending.is_aborted(), code == 4, "{text}");
        }
    }

    #[test]
    fn other_words_are_refused_naming_them() {
        for text in [
            "",
            "open",
            "Finished",
            "H1",
            "gate failed",
            "shard 0/2 played (merge the shards for the run's result)",
            "shard 3/2 played (merge the shards for the run's result)",
            "shard 1/x played (merge the shards for the run's result)",
            "shard 1/2 played",
            "incomplete: 1 pairs missing",
            "incomplete: 2 pair missing",
            "incomplete: many pairs missing",
        ] {
            let err = text.parse::<Ending>().expect_err(text);
            assert_eq!(err, UnknownEnding(text.to_owned()));
            assert!(err
                .to_string()
                .starts_with(&format!("`{text}` is not how a run ends")));
        }
        let err = serde_json::from_str::<Ending>("\"open\"").expect_err("open");
        assert!(
            err.to_string().contains("`open` is not how a run ends"),
            "{err}"
        );
    }
}
