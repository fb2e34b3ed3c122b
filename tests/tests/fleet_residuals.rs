//! Bad workers caught, as fishtest catches them (issue 48, section 3), against a real
//! PostgreSQL server: a worker whose engine plays weaker under the same name stands out
//! by its residual in `status`, `purge` takes its games out and hands its pairs out
//! again, honest workers replay them, and the run's verdict becomes the honest
//! engine's. A worker whose engines keep crashing leaves the run by itself, saying why.
//!
//! The engines are not uploaded with the run (`submit --no-upload`): each worker finds
//! `engines/new` in its own working folder, as on machines that each install their own
//! build, and the weak worker's folder holds a build of the same name that plays worse.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::fleet::{finish, fleet, text, wait_until};
use common::pg::Cluster;
use common::{bin, mainlines, path, runner, runner_in, scratch};
use serde_json::Value;

fn tune_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tune-engine"))
}

/// A folder `dir/name` whose `engines/new` runs the tune engine with `best` as its best
/// skill: at the run's skill 70, `--best 70` plays its greedy moves every time, and
/// `--best 0` never does (random moves: a much weaker engine of the same name).
fn machine(dir: &Path, name: &str, program: &Path, args: &str) -> PathBuf {
    let home = dir.join(name);
    std::fs::create_dir_all(home.join("engines")).expect("engines folder");
    let script = home.join("engines/new");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec {} {args} \"$@\"\n", program.display()),
    )
    .expect("write engine script");
    let mut perms = std::fs::metadata(&script).expect("script").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).expect("chmod");
    home
}

/// The tune engine `new` (found at `engines/new` in the working folder) against the
/// tune engine `base` at skill 50, instantly, 300 pairs. The SPRT cannot conclude in so
/// few pairs (its bounds are ±6.9, the LLR of 300 such pairs is below 2), so the gate
/// gives the verdict: a local run of the honest engine is at about +180 Elo, the weak
/// one at about -380.
fn config(dir: &Path, pairs: u32, engine_b: &str, extra: &str) -> PathBuf {
    let text = format!(
        r#"[tournament]
pairs = {pairs}
concurrency = 2
seed = 5

[time]
depth = 1

[openings]
file = "{openings}"
order = "random"

[rules]
move_limit = 60

[adjudication]
max_plies = 150

[output]
dir = "{out}"

{extra}

[[engine]]
name = "new"
command = ["engines/new"]
options = {{ skill = "70" }}

[[engine]]
name = "base"
command = ["{engine_b}"]
options = {{ skill = "50" }}
"#,
        openings = mainlines().display(),
        out = dir.join("out").display(),
    );
    let file = dir.join("run.toml");
    std::fs::write(&file, text).expect("write config");
    file
}

const GATE: &str = "[sprt]\nelo0 = 0\nelo1 = 1\nalpha = 0.001\nbeta = 0.001\nmin_elo = 100\n";

/// A worker as the worker role, in its own working folder.
fn worker_in(cluster: &Cluster, home: &Path, name: &str, extra: &[&str]) -> Child {
    Command::new(bin("xq-runner"))
        .args(["worker", "--db", &cluster.url("xq_worker"), "--name", name])
        .args(["--concurrency", "1"])
        .args(extra)
        .current_dir(home)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a worker")
}

fn number(cluster: &Cluster, sql: &str) -> i64 {
    let got = cluster.sql(sql);
    got.parse()
        .unwrap_or_else(|_| panic!("a number from {sql}: {got}"))
}

/// `status --json` as the owner.
fn status(cluster: &Cluster, id: &str) -> Value {
    let (code, out, err) = runner(&["status", "--db", &cluster.url("xq_owner"), id, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    serde_json::from_str(&out).expect("status --json is JSON")
}

fn worker_named<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["workers"]
        .as_array()
        .and_then(|w| w.iter().find(|w| w["name"] == name))
        .unwrap_or_else(|| panic!("worker {name} in {state:#}"))
}

fn penta(v: &Value) -> [u64; 5] {
    let mut out = [0; 5];
    for (slot, n) in out.iter_mut().zip(v.as_array().expect("a count").iter()) {
        *slot = n.as_u64().expect("a count");
    }
    out
}

fn add(a: [u64; 5], b: [u64; 5]) -> [u64; 5] {
    [
        a[0] + b[0],
        a[1] + b[1],
        a[2] + b[2],
        a[3] + b[3],
        a[4] + b[4],
    ]
}

/// The three honest workers, started together on run `id` and played to its end.
fn honest_workers_finish(cluster: &Cluster, homes: &[PathBuf], id: &str) {
    let workers: Vec<Child> = homes
        .iter()
        .zip(["honest-1", "honest-2", "honest-3"])
        .map(|(home, name)| worker_in(cluster, home, name, &["--run", id]))
        .collect();
    for w in workers {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
}

#[test]
fn a_weaker_worker_is_flagged_purged_and_its_pairs_replayed() {
    let dir = scratch("fleet-residuals");
    let te = tune_engine();
    let honest: Vec<PathBuf> = (1..=3)
        .map(|i| machine(dir.path(), &format!("honest-{i}"), &te, "--best 70"))
        .collect();
    let weak = machine(dir.path(), "weak", &te, "--best 0");
    let cfg = config(dir.path(), 300, path(&te), GATE);
    let cluster = fleet();
    let (code, out, err) = runner_in(
        &honest[0],
        &[
            "submit",
            path(&cfg),
            "--db",
            &cluster.url("xq_owner"),
            "--no-upload",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let id = out.lines().last().expect("an id").trim().to_owned();

    // 1. The weak worker plays a third of the run or more, then stops (a signal gives
    //    back the batch it holds); the honest workers play the rest.
    let mut weakling = worker_in(
        &cluster,
        &weak,
        "weak",
        &["--run", &id, "--batch-pairs", "10"],
    );
    wait_until("the weak worker's 100 pairs", || {
        number(
            &cluster,
            &format!("SELECT pairs_done FROM xq.runs WHERE id = {id}"),
        ) >= 100
    });
    let term = Command::new("kill")
        .args(["-TERM", &weakling.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(term.success());
    let out = weakling.wait().expect("the weak worker ends");
    assert_eq!(out.code(), Some(4), "a signalled worker exits 4");
    honest_workers_finish(&cluster, &honest, &id);

    // 2. The weak worker's games took the run below the gate; `status` flags it.
    let before = status(&cluster, &id);
    assert_eq!(before["state"], "finished", "{before:#}");
    assert_eq!(before["status"], "gate failed: Elo below the minimum");
    assert_eq!(before["pairs"], 300);
    let w = worker_named(&before, "weak");
    assert_eq!(w["fit"], "red", "{before:#}");
    assert_eq!(w["bad"], true, "{before:#}");
    let residual = w["residual"].as_f64().expect("a residual");
    let z99 = before["residuals"]["z99"].as_f64().expect("z99");
    assert!(residual > z99, "{residual} vs {z99}");
    assert_eq!(before["residuals"]["bad"], serde_json::json!(["weak"]));
    let mut honest_penta = [0; 5];
    for name in ["honest-1", "honest-2", "honest-3"] {
        let h = worker_named(&before, name);
        assert_eq!(h["bad"], false, "{before:#}");
        honest_penta = add(honest_penta, penta(&h["penta"]));
    }
    let weak_penta = penta(&w["penta"]);
    assert_eq!(add(honest_penta, weak_penta), penta(&before["penta"]));
    let weak_pairs: u64 = weak_penta.iter().sum();
    assert!(weak_pairs >= 100, "{weak_pairs}");
    // The text says the same.
    let (code, out, err) = runner_in(
        &honest[0],
        &["status", "--db", &cluster.url("xq_owner"), &id],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.contains("residual") && l.contains("(red)") && l.contains("BAD")),
        "{out}"
    );
    assert!(
        out.contains("bad (p < 0.001 or residual > 7): weak"),
        "{out}"
    );
    let weak_batches = cluster.sql(&format!(
        "SELECT string_agg(first_pair || '+' || pairs, ',' ORDER BY first_pair)
         FROM xq.batches WHERE run_id = {id} AND worker = 'weak' AND state = 'done'"
    ));

    // 3. Only the owner may purge: the worker role is denied the function.
    let out = cluster.psql(
        "xq_worker",
        "xq",
        &format!("SELECT * FROM xq.purge_workers({id}, ARRAY['weak'])"),
    );
    assert!(!out.status.success(), "the worker role purged");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("permission denied"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, out, err) = runner(&["purge", "--db", &cluster.url("xq_worker"), &id, "--auto"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("permission denied"), "{err}");
    let (code, out, err) = runner(&[
        "purge",
        "--db",
        &cluster.url("xq_owner"),
        &id,
        "--worker",
        "nobody",
    ]);
    // A name that never worked on the run is a typing error: bad input (issue 60).
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("no worker named nobody ever worked on run"),
        "{err}"
    );

    // 4. `purge --auto` takes the weak worker's games out and opens the run again.
    let (code, out, err) = runner(&["purge", "--db", &cluster.url("xq_owner"), &id, "--auto"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "purged weak from run {id}: {} batches, {weak_pairs} pairs, {} games",
            weak_batches.split(',').count(),
            2 * weak_pairs
        )),
        "{out}"
    );
    assert!(out.contains("open, was finished (gate failed"), "{out}");
    let purged = status(&cluster, &id);
    assert_eq!(purged["state"], "open");
    assert_eq!(purged["penta"], serde_json::json!(honest_penta));
    assert_eq!(purged["pairs"], 300 - weak_pairs);
    assert_eq!(purged["pairs_expired"], weak_pairs, "{purged:#}");
    assert_eq!(
        number(
            &cluster,
            &format!("SELECT pairs_done FROM xq.runs WHERE id = {id}")
        ),
        i64::try_from(300 - weak_pairs).unwrap_or(-1)
    );
    assert_eq!(
        number(
            &cluster,
            &format!("SELECT games_done FROM xq.runs WHERE id = {id}")
        ),
        i64::try_from(600 - 2 * weak_pairs).unwrap_or(-1)
    );
    let w = worker_named(&purged, "weak");
    assert_eq!(w["purged"], 2 * weak_pairs);
    assert_eq!(w["games"], 0);
    assert!(w.get("penta").is_none(), "no stored games left: {w:#}");

    // 5. The honest workers replay exactly those pairs; the verdict is the honest
    //    engine's.
    honest_workers_finish(&cluster, &honest, &id);
    let after = status(&cluster, &id);
    assert_eq!(after["state"], "finished", "{after:#}");
    assert_eq!(after["status"], "gate passed", "{after:#}");
    assert_eq!(after["exit_code"], 0);
    assert_eq!(after["pairs"], 300);
    assert_eq!(after["games"], 600);
    let mut total = [0; 5];
    for name in ["honest-1", "honest-2", "honest-3"] {
        let now = penta(&worker_named(&after, name)["penta"]);
        let then = penta(&worker_named(&before, name)["penta"]);
        total = add(total, now);
        assert!(now.iter().zip(then).all(|(n, t)| *n >= t));
    }
    let replay: u64 = total.iter().sum::<u64>() - honest_penta.iter().sum::<u64>();
    assert_eq!(replay, weak_pairs, "the replay is the purged pairs");
    assert_eq!(
        penta(&after["penta"]),
        total,
        "honest games plus the replay"
    );
    assert_eq!(
        cluster.sql(&format!(
            "SELECT string_agg(first_pair || '+' || pairs, ',' ORDER BY first_pair)
             FROM xq.batches WHERE run_id = {id} AND first_pair || '+' || pairs = ANY(
                 string_to_array('{weak_batches}', ',')) AND state = 'done' AND worker <> 'weak'"
        )),
        weak_batches,
        "the same batches, played by honest workers"
    );
    assert_eq!(
        number(
            &cluster,
            &format!("SELECT count(*) FROM xq.games g JOIN xq.batches b ON b.id = g.batch_id WHERE g.run_id = {id} AND b.worker = 'weak'")
        ),
        0
    );
    // Every worker now fits the rest: nothing for --auto.
    let (code, out, err) = runner(&["purge", "--db", &cluster.url("xq_owner"), &id, "--auto"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("every worker of run"), "{out}");
}

#[test]
fn a_worker_whose_engines_keep_crashing_leaves_the_run_and_says_why() {
    let dir = scratch("fleet-crashing");
    let fe = common::fault_engine();
    let steady = machine(dir.path(), "steady", &fe, "");
    // Its `new` exits when asked for its second move: every game it plays is a crash.
    let flaky = machine(dir.path(), "flaky", &fe, "--fault crash --at-ply 2");
    // The run's own limit is far away: the worker's limit is what stops it here.
    let cfg = config(dir.path(), 20, path(&fe), "[faults]\nmax_crashes = 1000\n");
    let cluster = fleet();
    let (code, out, err) = runner_in(
        &steady,
        &[
            "submit",
            path(&cfg),
            "--db",
            &cluster.url("xq_owner"),
            "--no-upload",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let id = out.lines().last().expect("an id").trim().to_owned();

    // Batches of 2 pairs, one game at a time: its first batch has 4 crashes, more than
    // fishtest's 3, and the worker stops asking for the run's batches.
    let out = finish(worker_in(
        &cluster,
        &flaky,
        "flaky",
        &["--run", &id, "--batch-pairs", "2"],
    ));
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("its engines failed on this worker: 4 crashes or stalls in 4 games (more than 3); this worker leaves the run"),
        "{said}"
    );
    assert_eq!(
        number(
            &cluster,
            &format!("SELECT count(*) FROM xq.games WHERE run_id = {id}")
        ),
        4,
        "one batch counted, the one it held besides given back"
    );
    assert_eq!(
        number(
            &cluster,
            &format!("SELECT count(*) FROM xq.batches WHERE run_id = {id} AND worker = 'flaky' AND state = 'claimed' AND lease_until > now()")
        ),
        0,
        "no batch left under its lease"
    );

    // Another worker plays the rest; `status` shows why the flaky one left, and its
    // residual as fishtest shows a task of too many crashes.
    let out = finish(worker_in(&cluster, &steady, "steady", &["--run", &id]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let state = status(&cluster, &id);
    assert_eq!(state["state"], "finished", "{state:#}");
    let f = worker_named(&state, "flaky");
    assert!(
        f["refused"]
            .as_str()
            .is_some_and(|r| r.contains("4 crashes or stalls in 4 games")),
        "{state:#}"
    );
    assert_eq!(f["crashes"], 4);
    assert_eq!(f["crashes_per_game"], 1.0);
    assert_eq!(f["residual"], 10.0);
    assert_eq!(f["fit"], "red");
    let s = worker_named(&state, "steady");
    assert_eq!(s["crashes"], 0);
    assert_eq!(s["refused"], Value::Null);
    let (code, out, err) = runner(&["status", "--db", &cluster.url("xq_owner"), &id]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("REFUSED the run: its engines failed on this worker: 4 crashes or stalls"),
        "{out}"
    );
}
