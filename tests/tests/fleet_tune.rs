//! Tune runs on the workers, against a real PostgreSQL server started for each test
//! (common/pg.rs): two workers tune the tune engine's `skill` from far away close to its
//! best value, every iteration recorded once; a worker killed mid-batch loses no
//! iteration and doubles none; `report --db` writes a local tune's files; a bad tune is
//! refused at submit; a version-1 database is upgraded and its runs keep working. The
//! server makes the SPSA update itself: its draws and its arithmetic are the local
//! tuner's, a worker hands in only the games of each iteration, and a version-3 tune in
//! progress is upgraded and finished.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use common::fleet::{finish, fleet, status, submit, text, wait_until, worker};
use common::pg::Cluster;
use common::{fault_engine, mainlines, runner, scratch, tune_config, TUNE_BEST};
use serde_json::Value;
use xq_runner::fleet::tune_run::TuneState;
use xq_runner::tune::iteration::{assign, update};
use xq_runner::tune::journal::Record;
use xq_runner::tune::spsa::IterationRng;

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn number(cluster: &Cluster, sql: &str) -> i64 {
    cluster.sql(sql).parse().unwrap_or(-1)
}

/// The stored iterations: every one of 1..=n exactly once, in records and in the order
/// they were applied.
fn assert_each_iteration_once(cluster: &Cluster, n: i64) {
    let counts = cluster.sql(
        "SELECT count(*), count(DISTINCT iteration), min(iteration), max(iteration),
                count(DISTINCT applied), min(applied), max(applied) FROM xq.tune_records",
    );
    assert_eq!(
        counts,
        format!("{n}|{n}|1|{n}|{n}|1|{n}"),
        "each iteration once, applied once"
    );
}

/// The shape of a JSON value: the keys of objects, the shape of an array's first item,
/// the type of anything else.
fn shape(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), shape(v))).collect())
        }
        Value::Array(items) => Value::Array(items.first().map(shape).into_iter().collect()),
        Value::Number(_) => Value::String("number".into()),
        Value::String(_) => Value::String("string".into()),
        Value::Bool(_) => Value::String("bool".into()),
        Value::Null => Value::Null,
    }
}

fn read_json(file: &Path) -> Value {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn two_workers_tune_a_far_start_close_to_the_best_value() {
    let dir = scratch("fleet-tune");
    let pairs = 200;
    let cfg = tune_config(dir.path(), pairs, 15.0, "", "", None);
    let cluster = fleet();
    let id = submit(&cluster, &cfg, &["--batch-pairs", "2"]);
    let workers: Vec<Child> = (0..2)
        .map(|i| worker(&cluster, &format!("w{i}"), &["--concurrency", "1"]))
        .collect();
    for w in workers {
        let out = finish(w);
        assert!(out.status.success(), "{}", text(&out));
    }
    let state = status(&cluster, &id);
    assert_eq!(state["kind"], "tune");
    assert_eq!(state["state"], "finished", "{state}");
    assert_eq!(state["pairs"], u64::from(pairs));
    assert_each_iteration_once(&cluster, i64::from(pairs));
    let both: Vec<&str> = state["workers"]
        .as_array()
        .expect("workers")
        .iter()
        .filter(|w| w["batches"].as_u64().unwrap_or(0) > 0)
        .filter_map(|w| w["name"].as_str())
        .collect();
    assert_eq!(both, ["w0", "w1"], "both workers played");
    let skill = state["params"][0]["value"].as_f64().expect("theta");
    // Measured: 9 such runs ended at 67.5 to 73.3 (docs/tuning.md).
    assert!(
        (skill - TUNE_BEST).abs() < 10.0,
        "{pairs} pairs from 15 on two workers should end near {TUNE_BEST}, ended at {skill}"
    );
    let (code, out, err) = runner(&["status", "--db", &cluster.url("xq_worker"), &id]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Tune: 200 of 200 iterations applied"), "{out}");
    assert!(out.contains("options = { skill = "), "{out}");

    // report --db writes the files of a local tune, in their formats.
    let reported = dir.path().join("reported");
    let (code, out, err) = runner(&[
        "report",
        &id,
        "--db",
        &cluster.url("xq_owner"),
        "--out",
        path(&reported),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let local = scratch("fleet-tune-local");
    let local_cfg = tune_config(local.path(), 6, 15.0, "", "", None);
    let (code, out, err) = runner(&["tune", path(&local_cfg)]);
    assert_eq!(code, 0, "{out}{err}");
    let summary = read_json(&reported.join("tune.json"));
    let local_summary = read_json(&local.path().join("out/tune.json"));
    assert_eq!(
        shape(&summary),
        shape(&local_summary),
        "tune.json as a local tune's"
    );
    assert_eq!(summary["played"], u64::from(pairs));
    assert!((summary["params"][0]["value"].as_f64().unwrap_or(-1.0) - skill).abs() < 1e-9);
    let journal = std::fs::read_to_string(reported.join("tune.jsonl")).expect("tune.jsonl");
    let lines: Vec<Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    let local_line: Value = serde_json::from_str(
        std::fs::read_to_string(local.path().join("out/tune.jsonl"))
            .expect("local journal")
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("a record");
    assert_eq!(lines.len(), pairs as usize);
    assert_eq!(
        shape(&lines[0]),
        shape(&local_line),
        "tune.jsonl as a local tune's"
    );
    let last = lines[lines.len() - 1]["theta"]["skill"]
        .as_f64()
        .expect("theta");
    assert!(
        (last - skill).abs() < 1e-9,
        "the journal ends at the final theta"
    );
    let page = std::fs::read_to_string(reported.join("report.html")).expect("report.html");
    assert!(page.contains("<svg") && page.contains("skill"));
    // Written again over itself, as a report of a run in progress would be.
    let (code, out, err) = runner(&[
        "report",
        &id,
        "--db",
        &cluster.url("xq_owner"),
        "--out",
        path(&reported),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_worker_killed_mid_batch_loses_no_iteration_and_doubles_none() {
    let dir = scratch("fleet-tune-kill");
    let pairs = 16;
    // Slow moves, so that the kill comes in the middle of a batch.
    let cfg = tune_config(dir.path(), pairs, 15.0, r#", "--move-ms", "3""#, "", None);
    let cluster = fleet();
    let id = submit(&cluster, &cfg, &["--batch-pairs", "4"]);
    let mut doomed = worker(&cluster, "doomed", &["--concurrency", "1", "--lease", "1s"]);
    // One batch in, the next one claimed and in play.
    wait_until("a batch submitted and another claimed", || {
        number(&cluster, "SELECT count(*) FROM xq.tune_records") >= 4
            && number(
                &cluster,
                "SELECT count(*) FROM xq.batches WHERE state = 'claimed'",
            ) == 1
    });
    doomed.kill().expect("kill -9");
    let _ = doomed.wait();
    let kept = number(&cluster, "SELECT count(*) FROM xq.tune_records");
    assert!(kept < i64::from(pairs), "killed midway: {kept} iterations");
    let lost = cluster.sql("SELECT id FROM xq.batches WHERE state = 'claimed'");
    assert!(
        !lost.is_empty(),
        "the killed worker's batch is still claimed"
    );

    let rescuer = finish(worker(
        &cluster,
        "rescuer",
        &["--concurrency", "2", "--lease", "5s"],
    ));
    assert!(rescuer.status.success(), "{}", text(&rescuer));
    let state = status(&cluster, &id);
    assert_eq!(state["state"], "finished", "{state}");
    assert_each_iteration_once(&cluster, i64::from(pairs));
    assert_eq!(
        cluster.sql(&format!(
            "SELECT claims, worker, state FROM xq.batches WHERE id = {lost}"
        )),
        "2|rescuer|done",
        "the lost batch was handed out again"
    );
    assert_eq!(
        number(&cluster, "SELECT games_done FROM xq.runs"),
        2 * i64::from(pairs)
    );
}

#[test]
fn a_bad_tune_is_refused_at_submit_with_one_line() {
    let dir = scratch("fleet-tune-bad");
    let cluster = fleet();
    let param = |name: &str, min: &str| {
        format!("[[tune.param]]\nname = \"{name}\"\nstart = 5\nmin = {min}\nmax = 10\nc_end = 1\nr_end = 0.05\n")
    };
    // The [[tune.param]] table starts on line 24 of the config.
    for (body, message) in [
        (
            param("colour", "0"),
            "tune.toml:24: tune.param.0: colour is not a spin option of the engine; its spin options: skill",
        ),
        (
            param("skill", "10"),
            "tune.toml:24: tune.param.0: skill: min 10 must be below max 10",
        ),
    ] {
        let cfg = tune_config(dir.path(), 10, 5.0, "", "", Some(&body));
        let (code, out, err) = runner(&["submit", path(&cfg), "--db", &cluster.url("xq_owner")]);
        assert_eq!(code, 2, "{out}{err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {err}");
        assert!(
            lines[0].starts_with("error: ") && lines[0].ends_with(message),
            "{err}"
        );
    }
    assert_eq!(
        number(&cluster, "SELECT count(*) FROM xq.runs"),
        0,
        "nothing stored"
    );
    // `run` sends a tune config to `tune`.
    let cfg = tune_config(dir.path(), 10, 5.0, "", "", None);
    let (code, out, err) = runner(&["run", path(&cfg)]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("tune.toml:21: tune: a tune config is played by `xq-runner tune "),
        "{err}"
    );
}

#[test]
fn a_version_1_database_is_upgraded_and_its_runs_keep_working() {
    let dir = scratch("fleet-tune-upgrade");
    let cluster = Cluster::start();
    // Version 1 as its runner created it, and its worker role's grants.
    let v1 = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../runner/src/store/pg/schema.sql");
    let out = Command::new("psql")
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-1", "-f", path(&v1)])
        .args([
            "-h",
            path(&cluster.socket_dir()),
            "-p",
            &cluster.port.to_string(),
        ])
        .args(["-U", "xq_owner", "-d", "xq"])
        .output()
        .expect("psql");
    assert!(out.status.success(), "{}", text(&out));
    cluster.sql_as(
        "xq_owner",
        "xq",
        "GRANT USAGE ON SCHEMA xq TO xq_worker;
         GRANT SELECT ON xq.meta, xq.runs, xq.batches, xq.workers, xq.run_workers TO xq_worker;
         GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
             xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
             xq.begin_submit(bigint, uuid),
             xq.finish_submit(bigint, uuid, bigint[], smallint[], text[], jsonb, bigint,
                              double precision, text, text, integer),
             xq.heartbeat(text, bigint, integer, text), xq.refuse_run(bigint, text, text)
             TO xq_worker;",
    );
    // A match run stored by version 1.
    let engine = fault_engine().display().to_string();
    let match_config = format!(
        "[tournament]\npairs = 3\nseed = 3\n\n[time]\ndepth = 1\n\n[openings]\nfile = \"{}\"\n\n[output]\ndir = \"{}\"\n\n[[engine]]\nname = \"a\"\ncommand = [\"{engine}\"]\n\n[[engine]]\nname = \"b\"\ncommand = [\"{engine}\"]\n",
        mainlines().display(),
        dir.path().join("out").display()
    );
    // Version 1's counts were the runner's own JSON; versions 3 on count the stored games.
    let counts = "{}";
    cluster.sql_as(
        "xq_owner",
        "xq",
        &format!(
            "INSERT INTO xq.runs (title, config, config_hash, total_pairs, batch_pairs, counts)
             VALUES ('a vs b', $cfg${match_config}$cfg$, 'v1', 3, 1, '{counts}')"
        ),
    );
    let out = finish(worker(&cluster, "w", &["--concurrency", "1"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains(
            "schema version 1, this runner speaks version 8: upgrade it with `xq-runner db init"
        ),
        "{}",
        text(&out)
    );
    let (code, out, err) = runner(&["db", "init", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("upgraded the xq-runner schema from version 1 to 8"),
        "{out}"
    );
    // The version-1 run plays, and a tune runs with the worker role's version-1 grants.
    let cfg = tune_config(dir.path(), 6, 15.0, "", "", None);
    let id = submit(&cluster, &cfg, &[]);
    let out = finish(worker(&cluster, "w", &["--concurrency", "2"]));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        cluster.sql("SELECT kind, state, games_done FROM xq.runs ORDER BY id"),
        "match|finished|6\ntune|finished|12"
    );
    assert_eq!(status(&cluster, &id)["pairs"], 6);
    let (code, out, err) = runner(&["db", "init", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("up to date"), "{out}");
    let seen: BTreeSet<String> = cluster
        .sql("SELECT DISTINCT kind FROM xq.runs")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        seen,
        BTreeSet::from(["match".to_owned(), "tune".to_owned()])
    );
}

#[test]
fn the_servers_draws_are_the_local_tuners() {
    let cluster = fleet();
    for seed in [0u64, 5, 0x8000_0000_0000_0000, u64::MAX] {
        for k in [1u64, 2, 977, 1 << 40] {
            for n in [1usize, 3] {
                let row = cluster.sql(&format!(
                    "SELECT array_to_string(flips, ' ') || ' ' || array_to_string(uniforms, ' ')
                     FROM xq.spsa_draws({seed}, {k}, {n})"
                ));
                let got: Vec<f64> = row
                    .split(' ')
                    .map(|v| v.parse().expect("a number"))
                    .collect();
                let mut rng = IterationRng::new(seed, k);
                let mut want: Vec<f64> = (0..n).map(|_| rng.flip()).collect();
                want.extend((0..2 * n).map(|_| rng.uniform()));
                assert_eq!(got, want, "seed {seed}, k {k}, {n} parameters");
            }
        }
    }
}

/// A claim made as the worker role: the batch, its token, its first pair and pairs.
fn claim_as_worker(cluster: &Cluster, id: &str, pairs: u32) -> (String, String, u64, u64) {
    let row = cluster.sql_as(
        "xq_worker",
        "xq",
        &format!(
            "SELECT batch_id, token, first_pair, pairs FROM xq.claim_batch({id}, 'w', {pairs}, 60)"
        ),
    );
    let f: Vec<&str> = row.split('|').collect();
    assert_eq!(f.len(), 4, "a claim: {row}");
    (
        f[0].to_owned(),
        f[1].to_owned(),
        f[2].parse().expect("first pair"),
        f[3].parse().expect("pairs"),
    )
}

/// The theta+ side's scores of an iteration's two games (`"WL"`).
fn scores(games: &str) -> [f64; 2] {
    let mut it = games.chars().map(|c| match c {
        'W' => 1.0,
        'L' => 0.0,
        _ => 0.5,
    });
    [it.next().unwrap_or(0.5), it.next().unwrap_or(0.5)]
}

#[test]
fn the_server_moves_theta_by_the_games_alone_as_the_local_tuner() {
    let dir = scratch("fleet-tune-server-update");
    let cluster = fleet();
    let id = submit(
        &cluster,
        &tune_config(dir.path(), 12, 15.0, "", "", None),
        &[],
    );
    let stored =
        TuneState::parse(&cluster.sql(&format!("SELECT tune FROM xq.runs WHERE id = {id}")))
            .expect("the stored state");
    assert_eq!(stored.seed, Some(5), "the config's seed");
    let (gains, names) = (stored.gains(), vec!["skill".to_owned()]);
    // Two batches claimed before either is submitted: both play theta at the start.
    let first = claim_as_worker(&cluster, &id, 5);
    let second = claim_as_worker(&cluster, &id, 7);
    assert_eq!((first.2, first.3, second.2, second.3), (0, 5, 5, 7));
    assert_eq!(
        cluster.sql_as(
            "xq_worker",
            "xq",
            &format!("SELECT theta FROM xq.batches WHERE id = {}", second.0)
        ),
        "{15}"
    );
    // What a hostile worker tries: to set theta, or to hand in other than two games an
    // iteration. Refused, nothing stored.
    let submit_sql = |b: &(String, String, u64, u64), games: &str| {
        format!(
            "SELECT * FROM xq.submit_tune_batch({}, '{}', ARRAY[{games}]::text[], 0, 1.0)",
            b.0, b.1
        )
    };
    for (attack, says) in [
        (
            format!(
                "UPDATE xq.runs SET tune = jsonb_set(tune, '{{theta}}', '[99]') WHERE id = {id}"
            ),
            "permission denied",
        ),
        (
            format!(
                "UPDATE xq.batches SET theta = '{{99}}' WHERE id = {}",
                first.0
            ),
            "permission denied",
        ),
        (
            submit_sql(&first, "'WW','WW','WW','WW'"),
            "need two games each",
        ),
        (
            submit_sql(&first, "'WW','WW','WW','WW','WX'"),
            "need two games each",
        ),
        (
            submit_sql(&first, "'WW','WW','WW','WW','WWW'"),
            "need two games each",
        ),
        (
            submit_sql(&first, "'WW','WW','WW','WW',NULL"),
            "need two games each",
        ),
    ] {
        let out = cluster.psql("xq_worker", "xq", &attack);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !out.status.success() && err.contains(says),
            "{attack}: {err}"
        );
    }
    assert_eq!(number(&cluster, "SELECT count(*) FROM xq.tune_records"), 0);
    let games = [
        ["WW", "WL", "LL", "DD", "WD"].as_slice(),
        ["LD", "DW", "WW", "LL", "DL", "WL", "WW"].as_slice(),
    ];
    for (batch, played) in [&first, &second].into_iter().zip(games) {
        let list: Vec<String> = played.iter().map(|g| format!("'{g}'")).collect();
        let out = cluster.sql_as("xq_worker", "xq", &submit_sql(batch, &list.join(",")));
        assert!(
            out.starts_with(if batch == &second {
                "finished|finished|0"
            } else {
                "open|open|"
            }),
            "{out}"
        );
    }
    // The same arithmetic in Rust: values from theta at the claim (15), each update from
    // theta as it was when its result arrived.
    let records: Vec<Record> = cluster
        .sql("SELECT record FROM xq.tune_records ORDER BY applied")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    let mut theta = vec![15.0];
    for (i, g) in games.concat().iter().enumerate() {
        let k = i as u64 + 1;
        let a = assign(5, &stored.schedule, &gains, &[15.0], k);
        let (after, want) = update(&a, &names, &gains, &theta, scores(g)).expect("finite");
        let got = &records[i];
        assert_eq!(
            (
                got.iteration,
                &got.plus,
                &got.minus,
                &got.flip,
                got.games,
                got.result
            ),
            (
                want.iteration,
                &want.plus,
                &want.minus,
                &want.flip,
                want.games,
                want.result
            ),
            "iteration {k}"
        );
        let (server, local) = (got.theta["skill"], after[0]);
        assert!(
            (server - local).abs() <= 1e-12 * local.abs(),
            "iteration {k}: theta {server} != {local}"
        );
        theta = after;
    }
    let now = TuneState::parse(&cluster.sql(&format!("SELECT tune FROM xq.runs WHERE id = {id}")))
        .expect("the state");
    assert_eq!(
        now.theta,
        vec![records[11].theta["skill"]],
        "the run's theta is the last record's"
    );
    assert!((now.theta[0] - theta[0]).abs() <= 1e-12 * theta[0].abs());
}

#[test]
fn a_version_3_tune_in_progress_is_upgraded_and_finished() {
    let dir = scratch("fleet-tune-v3");
    let cluster = Cluster::start();
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/src/store/pg");
    for file in ["schema.sql", "schema_v2.sql", "schema_v3.sql"] {
        let sql = std::fs::read_to_string(schema.join(file)).expect("schema file");
        cluster.sql_as("xq_owner", "xq", &sql);
    }
    cluster.sql_as(
        "xq_owner",
        "xq",
        "GRANT USAGE ON SCHEMA xq TO xq_worker;
         GRANT SELECT ON xq.meta, xq.runs, xq.workers, xq.run_workers, xq.tune_records TO xq_worker;
         GRANT SELECT (id, run_id, first_pair, pairs, state, worker, claims, claimed_at,
             lease_until, done_at) ON xq.batches TO xq_worker;
         GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
             xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
             xq.submit_batch(bigint, uuid, text[], double precision),
             xq.begin_tune_submit(bigint, uuid),
             xq.submit_tune_batch(bigint, uuid, bigint[], text[], jsonb, bigint, double precision),
             xq.heartbeat(text, bigint, integer, text), xq.refuse_run(bigint, text, text)
             TO xq_worker;",
    );
    // A tune of 6 iterations stored by version 3, its first two applied (theta moved),
    // a batch of the next two claimed by a worker that is gone: no seed in its state.
    let cfg =
        std::fs::read_to_string(tune_config(dir.path(), 6, 15.0, "", "", None)).expect("config");
    cluster.sql_as(
        "xq_owner",
        "xq",
        &format!(
            r#"INSERT INTO xq.runs (title, config, config_hash, total_pairs, batch_pairs, kind, tune, next_pair, pairs_done, games_done)
               VALUES ('tune of te', $cfg${cfg}$cfg$, 'v3', 6, 2, 'tune',
                 '{{"params":[{{"name":"skill","start":15.0,"min":0.0,"max":100.0,"c_end":8.0,"r_end":0.05,"origin":null}}],
                   "schedule":{{"iterations":6,"alpha":0.602,"gamma":0.101,"big_a":0.0}},"theta":[17.5]}}',
                 4, 2, 4);
               INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until)
                 VALUES (1, 0, 2, 'done', 'old', gen_random_uuid(), now()),
                        (1, 2, 2, 'claimed', 'gone', gen_random_uuid(), now() - interval '1 hour');"#
        ),
    );
    let (code, out, err) = runner(&["db", "init", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("upgraded the xq-runner schema from version 3 to 8"),
        "{out}"
    );
    assert_eq!(
        cluster.sql("SELECT tune->>'seed' FROM xq.runs"),
        "5",
        "the config's seed"
    );
    assert_eq!(
        cluster.sql("SELECT theta FROM xq.batches WHERE state = 'claimed'"),
        "{17.5}"
    );
    let w = finish(worker(&cluster, "w", &["--concurrency", "2"]));
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));
    assert_eq!(
        cluster.sql("SELECT state, pairs_done FROM xq.runs"),
        "finished|6"
    );
    assert_eq!(
        cluster
            .sql("SELECT string_agg(iteration::text, ' ' ORDER BY applied) FROM xq.tune_records"),
        "3 4 5 6",
        "the iterations version 3 had not applied, each once"
    );
    assert_eq!(status(&cluster, "1")["pairs"], 6);
}
