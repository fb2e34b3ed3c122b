//! A stored run made ready to play here: its config read with the same validation as a
//! local run, its opening file checked against the fingerprint taken at submit, and, when
//! the config gives them, every engine's bench run twice at once and its signature
//! checked (fishtest's check for a wrong build, OpenBench's for a non-deterministic one),
//! its speed kept for `status`. A run that fails these is refused by this worker,
//! visibly in `status`.

use std::sync::Arc;
use std::time::Duration;

use super::tune_run::TuneRun;
use crate::client::{bench_signature, EngineSession};
use crate::config::{parse, Loaded, Override};
use crate::local_run::tournament::load_openings;
use crate::play::engines::RunContext;
use crate::store::meta::InputFile;
use crate::store::pg::runs::RunRow;

/// How long an engine's bench may take.
const BENCH_TIMEOUT: Duration = Duration::from_secs(300);

/// A run ready to be played on this machine.
#[derive(Debug)]
pub struct ReadyRun {
    pub context: Arc<RunContext>,
    /// A tune run's own settings (`None` for a match).
    pub tune: Option<Arc<TuneRun>>,
    /// Each benched engine's speed here, nodes per second (two benches at once, so a
    /// machine's speed with every core busy, as in play).
    pub bench_nps: Vec<(String, u64)>,
    /// The name each benched engine announced (`id name`), where it gave one.
    pub announced: Vec<(String, String)>,
}

/// Makes a stored run ready to be played on `concurrency` slots, its config pointed at
/// the files it carries by `overrides` (see `cache.rs`), or says why this worker cannot
/// play it.
///
/// # Errors
/// The reason, one line: the config no longer validates here, the opening file is
/// missing or differs, an engine's bench signature differs.
pub async fn prepare(
    run: &RunRow,
    concurrency: usize,
    overrides: &[String],
) -> Result<ReadyRun, String> {
    let (loaded, tune) = if run.is_tune() {
        let tune = TuneRun::of(run, overrides)?;
        let loaded = Loaded {
            plan: tune.tune.plan.clone(),
            hash: run.config_hash.clone(),
            text: run.config.clone(),
        };
        (loaded, Some(Arc::new(tune)))
    } else {
        let overrides: Vec<Override> = overrides.iter().map(|o| Override::set(o)).collect();
        let loaded = parse(
            &format!("run {} (stored config)", run.id),
            &run.config,
            &overrides,
        )
        .map_err(|e| e.to_string())?;
        (loaded, None)
    };
    let plan = &loaded.plan;
    if let (Some(openings), Some(expected)) = (&plan.openings, &run.openings_fingerprint) {
        let here = InputFile::of(&openings.path)
            .map_err(|e| format!("{}: cannot read: {e}", openings.path.display()))?;
        if &here.fingerprint != expected {
            return Err(format!(
                "{}: differs from the file the run was submitted with (fingerprint {} here, {expected} there)",
                openings.path.display(),
                here.fingerprint
            ));
        }
    }
    let mut speeds = Vec::new();
    let mut announced = Vec::new();
    for engine in &plan.engines {
        let Some(&expected) = run.bench.get(&engine.spec.name) else {
            continue;
        };
        // Two at once, as OpenBench does: a build whose count depends on timing or on
        // what runs beside it would make the games of this machine another build's.
        let (one, two) = tokio::join!(
            bench_signature(&engine.spec, BENCH_TIMEOUT),
            bench_signature(&engine.spec, BENCH_TIMEOUT)
        );
        let (one, two) = (one?, two?);
        if one.nodes != two.nodes {
            return Err(format!(
                "engine {}: non-deterministic bench: {} and {} nodes in two runs at once",
                engine.spec.name, one.nodes, two.nodes
            ));
        }
        if one.nodes != expected {
            return Err(format!(
                "engine {}: bench signature {} here, the run expects {expected} (a different build)",
                engine.spec.name, one.nodes
            ));
        }
        if let (Some(a), Some(b)) = (one.nps, two.nps) {
            speeds.push((engine.spec.name.clone(), (a + b) / 2));
        }
        // A build whose bench just checked is started once more for its handshake: the
        // name it announces goes beside its build on the run's page. A handshake that
        // fails costs only that name; the games will say what is wrong.
        if let Ok(session) = EngineSession::start(&engine.spec, plan.timeouts).await {
            // As the server keeps it: no control character, at most 100 characters.
            let name: Option<String> = session
                .id_name
                .as_deref()
                .map(|n| n.chars().filter(|c| !c.is_control()).take(100).collect());
            if let Some(name) = name.filter(|n: &String| !n.trim().is_empty()) {
                announced.push((engine.spec.name.clone(), name));
            }
            session.quit().await;
        }
    }
    let openings = load_openings(plan).map_err(|e| e.to_string())?;
    // The run's concurrency is the local run's; here the worker's own counts.
    let mut plan = plan.clone();
    plan.concurrency = concurrency;
    let context = Arc::new(RunContext {
        plan,
        openings,
        random_plies: None,
    });
    Ok(ReadyRun {
        context,
        tune,
        bench_nps: speeds,
        announced,
    })
}
