//! Whether each worker's games fit the rest of a run, as fishtest judges its workers:
//! the residual of each worker's pairs against the others' (`stats/residuals.rs`), the
//! workers `purge --auto` takes (fishtest's bad workers), and fishtest's rule on
//! crashes and time losses, which a worker also applies to itself to stop playing a
//! run its machine cannot play (`match_batches.rs`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::stats::residuals::{bad_workers, homogeneity, Fit, BAD_P, BAD_RESIDUAL};
use crate::store::pg::workers::WorkerResults;

/// fishtest: more than this many crashes (here crashes and stalls) and the worker's
/// results are not to be trusted, whatever their statistics.
pub const MAX_CRASHES: u64 = 3;
/// ... nor when it played more than this many games, of which more than
/// [`MAX_TIME_LOSS_SHARE`] lost on time.
pub const TIME_LOSS_MIN_GAMES: u64 = 20;
pub const MAX_TIME_LOSS_SHARE: f64 = 0.1;
/// The residual fishtest shows for such a worker (red whatever the thresholds).
pub const FAULTY_RESIDUAL: f64 = 10.0;

/// Why a worker's engines failed too often here (fishtest's rule), or `None`.
#[must_use]
pub fn too_many_faults(games: u64, crashes_and_stalls: u64, time_losses: u64) -> Option<String> {
    if crashes_and_stalls > MAX_CRASHES {
        return Some(format!(
            "{crashes_and_stalls} crashes or stalls in {games} games (more than {MAX_CRASHES})"
        ));
    }
    if games > TIME_LOSS_MIN_GAMES && time_losses as f64 > MAX_TIME_LOSS_SHARE * games as f64 {
        return Some(format!(
            "{time_losses} of {games} games lost on time (more than {:.0}%)",
            MAX_TIME_LOSS_SHARE * 100.0
        ));
    }
    None
}

/// The test over a run's workers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunFit {
    pub chi2: f64,
    pub dof: u32,
    pub p: f64,
    /// A residual above this is yellow; above `z99`, red (Bonferroni over the workers).
    pub z95: f64,
    pub z99: f64,
    /// The workers fishtest's auto-purge marks (p below 0.001 or a residual above 7),
    /// worst first: what `purge --auto` removes.
    pub bad: Vec<String>,
}

/// One worker's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorkerFit {
    /// The first pairing's pairs it played, `[LL, LD, DD+WL, WD, WW]`.
    pub penta: [u64; 5],
    /// Its stored games (the worker's `games` counts what it handed in).
    pub stored_games: u64,
    pub crashes: u64,
    pub stalls: u64,
    pub time_losses: u64,
    pub crashes_per_game: f64,
    pub stalls_per_game: f64,
    pub time_losses_per_game: f64,
    /// fishtest's residual; `None` when it has too few pairs to be tested.
    pub residual: Option<f64>,
    pub fit: Option<Fit>,
    /// Marked by the auto-purge rule.
    pub bad: bool,
    /// fishtest's rule on crashes and time losses, when it trips (the residual is then
    /// shown as 10, red).
    pub too_many_faults: Option<String>,
}

fn per_game(n: u64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        n as f64 / games as f64
    }
}

/// The figures of every worker with stored games, by name, and the run's test (`None`
/// with fewer than two workers of enough pairs).
#[must_use]
pub fn fit(results: &[WorkerResults]) -> (Option<RunFit>, BTreeMap<String, WorkerFit>) {
    let rows: Vec<[u64; 5]> = results.iter().map(|r| r.penta).collect();
    let test = homogeneity(&rows);
    let bad: Vec<String> = bad_workers(&rows)
        .into_iter()
        .filter_map(|i| results.get(i).map(|r| r.name.clone()))
        .collect();
    let mut workers = BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        let residual = test
            .as_ref()
            .and_then(|t| t.residuals.get(i).copied().flatten());
        let faulty = too_many_faults(r.games, r.crashes + r.stalls, r.time_losses);
        let (residual, fit) = match (&faulty, &test, residual) {
            (Some(_), _, _) => (Some(FAULTY_RESIDUAL), Some(Fit::Red)),
            (None, Some(t), Some(z)) => (Some(z), Some(Fit::of(z, t))),
            _ => (None, None),
        };
        workers.insert(
            r.name.clone(),
            WorkerFit {
                penta: r.penta,
                stored_games: r.games,
                crashes: r.crashes,
                stalls: r.stalls,
                time_losses: r.time_losses,
                crashes_per_game: per_game(r.crashes, r.games),
                stalls_per_game: per_game(r.stalls, r.games),
                time_losses_per_game: per_game(r.time_losses, r.games),
                residual,
                fit,
                bad: bad.contains(&r.name),
                too_many_faults: faulty,
            },
        );
    }
    let run = test.map(|t| RunFit {
        chi2: t.chi2,
        dof: t.dof,
        p: t.p,
        z95: t.z95,
        z99: t.z99,
        bad,
    });
    (run, workers)
}

/// The line of the run's test in `status`.
#[must_use]
pub fn run_fit_text(run: &RunFit) -> String {
    let bad = if run.bad.is_empty() {
        "none".to_owned()
    } else {
        run.bad
            .iter()
            .map(|b| crate::output::printable::printable(b).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Residuals: chi2 {:.2}, {} dof, p {:.3e}; yellow above {:.2}, red above {:.2}; bad (p < {BAD_P} or residual > {BAD_RESIDUAL}): {bad}",
        run.chi2, run.dof, run.p, run.z95, run.z99
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker(name: &str, penta: [u64; 5], crashes: u64, time_losses: u64) -> WorkerResults {
        WorkerResults {
            name: name.to_owned(),
            games: 2 * penta.iter().sum::<u64>(),
            penta,
            crashes,
            stalls: 0,
            time_losses,
            illegal: 0,
        }
    }

    #[test]
    fn the_worker_that_does_not_fit_is_marked_bad_and_red() {
        let results = [
            worker("w1", [20, 60, 200, 70, 25], 0, 0),
            worker("w2", [22, 55, 190, 72, 28], 0, 0),
            worker("w3", [18, 62, 205, 66, 24], 0, 0),
            worker("zz", [45, 90, 150, 40, 10], 0, 0),
        ];
        let (run, workers) = fit(&results);
        let run = run.expect("a test");
        assert_eq!(run.bad, vec!["zz".to_owned()]);
        assert_eq!(workers["zz"].fit, Some(Fit::Red));
        assert!(workers["zz"].bad);
        assert_eq!(workers["w2"].fit, Some(Fit::Green));
        assert!(!workers["w1"].bad);
        assert!(run_fit_text(&run).contains("bad (p < 0.001 or residual > 7): zz"));
    }

    #[test]
    fn crashes_and_time_losses_are_shown_as_residual_10() {
        let results = [
            worker("w1", [20, 60, 200, 70, 25], 4, 0),
            worker("w2", [22, 55, 190, 72, 28], 0, 80),
            worker("w3", [18, 62, 205, 66, 24], 3, 75),
        ];
        let (_, workers) = fit(&results);
        assert_eq!(workers["w1"].residual, Some(FAULTY_RESIDUAL));
        assert_eq!(workers["w1"].fit, Some(Fit::Red));
        assert!(workers["w2"].too_many_faults.is_some());
        // 3 crashes, and 75 of 750 games on time (10%, not more): within fishtest's rule.
        assert_eq!(workers["w3"].too_many_faults, None);
        assert!((workers["w3"].time_losses_per_game - 0.1).abs() < 1e-12);
    }

    #[test]
    fn the_fault_rule_is_fishtests() {
        assert_eq!(too_many_faults(10, 3, 0), None);
        assert!(too_many_faults(10, 4, 0).is_some_and(|w| w.contains("4 crashes or stalls")));
        // 20 games are too few for the share of time losses to count.
        assert_eq!(too_many_faults(20, 0, 10), None);
        assert_eq!(too_many_faults(30, 0, 3), None);
        assert!(too_many_faults(30, 0, 4).is_some_and(|w| w.contains("4 of 30 games")));
    }
}
