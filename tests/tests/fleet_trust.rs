//! The fleet's trust boundary, tried by a hostile worker: connected as the worker role
//! that `db init --worker-role` creates, against a real PostgreSQL server (common/pg.rs),
//! it tries what the worker role could do before schema version 3 (read the claim tokens,
//! hand in counts and a verdict, store damaged or foreign games, claim every pair for
//! decades, print escape sequences on the owner's terminal) and is refused each time;
//! games it forges in a well-formed batch are stored, and `verify` names them and it.
//! Then honest workers finish the run, and `status --json`, `report --db` and the stored
//! games agree. The server's SPRT, fault limits and gate give a local run's answers.

mod common;
#[path = "common/trust.rs"]
mod trust;

use std::path::Path;

use common::fleet::{finish, fleet, status, submit, text, worker};
use common::pg::Cluster;
use common::{journal, mainlines, path, runner, scratch};
use serde_json::{json, Value};
use trust::{batch_games, claim, entry, submit_as_worker, submit_with_token, Starts};

/// A match of two instant fault engines at depth 1, `pairs` pairs, with `extra` TOML.
fn config(dir: &Path, pairs: u32, args_a: &str, extra: &str) -> std::path::PathBuf {
    common::fault_config(dir, pairs, &mainlines(), [args_a, ""], extra)
}

fn games_stored(cluster: &Cluster) -> u64 {
    cluster
        .sql("SELECT count(*) FROM xq.games")
        .parse()
        .expect("a count")
}

#[test]
fn a_hostile_worker_is_refused_and_honest_workers_finish_the_run() {
    let dir = scratch("fleet-trust");
    let cfg = config(dir.path(), 12, "", "");
    let cluster = fleet();
    let id = submit(&cluster, &cfg, &["--batch-pairs", "2"]);
    let starts = Starts::played(&cfg, dir.path());

    // 1. Claim tokens: nobody but the owner reads them; the rest of a batch is visible.
    let mallory = claim(&cluster, &id, "mallory", 2, "60");
    assert_eq!((mallory.first, mallory.pairs), (0, 2));
    let out = cluster.psql("xq_worker", "xq", "SELECT token FROM xq.batches");
    assert!(!out.status.success(), "a worker read the tokens");
    assert!(String::from_utf8_lossy(&out.stderr).contains("permission denied"));
    let seen = cluster.sql_as(
        "xq_worker",
        "xq",
        "SELECT id, worker, pairs FROM xq.batches",
    );
    assert_eq!(seen, format!("{}|mallory|2", mallory.batch));
    let out = cluster.psql("xq_worker", "xq", "SELECT entry FROM xq.games");
    assert!(!out.status.success(), "a worker read the stored games");

    // 2. No count, state, verdict or exit code can be handed in: the functions that took
    //    them are gone.
    for sql in [
        format!("SELECT * FROM xq.begin_submit({}, '{}')", mallory.batch, mallory.token),
        format!(
            "SELECT xq.finish_submit({}, '{}', '{{}}', '{{}}', '{{}}', '{{\"tallies\":[]}}', 0, 1, 'finished', 'H1 accepted', 0)",
            mallory.batch, mallory.token
        ),
        format!("UPDATE xq.runs SET state = 'finished' WHERE id = {id}"),
        format!("UPDATE xq.runs SET penta = '{{0,0,0,0,500}}' WHERE id = {id}"),
    ] {
        let out = cluster.psql("xq_worker", "xq", &sql);
        assert!(!out.status.success(), "the worker role may not: {sql}");
    }

    // 3. A batch's games are checked whole: each forgery is refused, nothing is stored.
    let forgeries: Vec<(&str, Vec<String>)> = vec![
        ("0 games sent, the batch holds 4", Vec::new()),
        (
            "game 2: not a JSON object",
            batch_games(&starts, &mallory, |_| {})
                .into_iter()
                .enumerate()
                .map(|(i, g)| if i == 1 { "{not json".to_owned() } else { g })
                .collect(),
        ),
        (
            "pair 10 game 0 is not one of pairs 0..1",
            batch_games(&starts, &mallory, |g| g[0]["pair"] = json!(10)),
        ),
        (
            "pair 18446744073709551615 game 0 is not one of pairs 0..1",
            batch_games(&starts, &mallory, |g| g[0]["pair"] = json!(u64::MAX)),
        ),
        (
            "Red \"b\" and Black \"a\", the schedule says a and b",
            batch_games(&starts, &mallory, |g| {
                g[0]["red"] = json!("b");
                g[0]["black"] = json!("a");
            }),
        ),
        (
            "1/2-1/2 by checkmate (faulted none) do not agree",
            batch_games(&starts, &mallory, |g| g[1]["reason"] = json!("checkmate")),
        ),
        (
            "0-1 by crash (faulted b) do not agree",
            batch_games(&starts, &mallory, |g| {
                g[0] = entry(&starts, 0, 0, "0-1", "crash");
                g[0]["faulted"] = json!("b");
            }),
        ),
        (
            "result \"1-1\" by \"resigned\" is not known",
            batch_games(&starts, &mallory, |g| {
                g[2]["result"] = json!("1-1");
                g[2]["reason"] = json!("resigned");
            }),
        ),
        (
            "pair 0 game 0: sent twice",
            batch_games(&starts, &mallory, |g| g[1] = g[0].clone()),
        ),
        (
            "plies, duration_ms and opening must be whole numbers",
            batch_games(&starts, &mallory, |g| g[3]["plies"] = json!(-1)),
        ),
        (
            "over_clock must be Red's and Black's",
            batch_games(&starts, &mallory, |g| g[2]["over_clock"] = json!("a lot")),
        ),
    ];
    for (why, entries) in &forgeries {
        let err = submit_as_worker(&cluster, &mallory, entries);
        assert!(err.contains(why), "refused with `{why}`: {err}");
        assert_eq!(
            err.lines().next().map(|l| l.contains("ERROR:  batch ")),
            Some(true),
            "{err}"
        );
    }
    let honest_looking = batch_games(&starts, &mallory, |_| {});
    let err = submit_with_token(
        &cluster,
        &mallory,
        "00000000-0000-0000-0000-000000000000",
        &honest_looking,
    );
    assert!(
        err.contains("is no longer this worker's"),
        "another token: {err}"
    );
    assert_eq!(games_stored(&cluster), 0, "no forgery stored a game");
    let open = status(&cluster, &id);
    assert_eq!(open["state"], "open");
    // No pair yet: no estimate is made up (issue 47, 2.2).
    assert!(
        open["elo"].is_null() && open["elo_ci95"].is_null(),
        "{open}"
    );

    // 4. Claims are bounded in SQL, whatever the worker asks.
    let out = cluster.psql(
        "xq_worker",
        "xq",
        &format!("SELECT * FROM xq.claim_batch({id}, 'squatter', 2147483647, 1e9)"),
    );
    assert!(!out.status.success(), "a lease of 31 years");
    assert!(String::from_utf8_lossy(&out.stderr).contains("it must be 0.3 s to 3600 s"));
    let long_name = "x".repeat(101);
    let out = cluster.psql(
        "xq_worker",
        "xq",
        &format!("SELECT xq.heartbeat('{long_name}', NULL, 1, 'v')"),
    );
    assert!(!out.status.success(), "a name of 101 characters");

    // 5. What a worker writes reaches the owner's terminal escaped.
    cluster.sql_as(
        "xq_worker",
        "xq",
        &format!(
            "SELECT xq.heartbeat(E'evil\\x1b[2J\\nWorkers: forged', {id}, 1, 'v');
             SELECT xq.refuse_run({id}, E'evil\\x1b[2J\\nWorkers: forged', E'bad\\nFaults of a: 99\\x1b[31m')"
        ),
    );
    let (code, shown, err) = runner(&["status", &id, "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !shown.contains('\u{1b}'),
        "an escape reached the terminal: {shown:?}"
    );
    assert!(
        shown.contains("evil\\u{1b}[2J\\nWorkers: forged"),
        "{shown}"
    );
    assert!(
        !shown
            .lines()
            .any(|l| l.starts_with("Workers: forged") || l.starts_with("Faults of a: 99")),
        "a forged line: {shown}"
    );

    // 6. A well-formed forgery is stored (the server cannot see a game's moves), and
    //    `verify` names it and its worker: four "checkmates" with no move played.
    let forged = batch_games(&starts, &mallory, |g| {
        for (i, game) in g.iter_mut().enumerate() {
            let (p, n) = ((i / 2) as u64, (i % 2) as u8);
            *game = entry(
                &starts,
                p,
                n,
                if n == 0 { "1-0" } else { "0-1" },
                "checkmate",
            );
        }
    });
    let err = submit_as_worker(&cluster, &mallory, &forged);
    assert_eq!(err, "", "a well-formed batch is stored");
    assert_eq!(games_stored(&cluster), 4);

    // 7. Honest workers finish the run.
    for w in [
        worker(&cluster, "w1", &["--concurrency", "1"]),
        worker(&cluster, "w2", &["--concurrency", "1"]),
    ] {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let state = status(&cluster, &id);
    assert_eq!(state["state"], "finished", "{state}");
    assert_eq!(state["status"], "finished");
    assert_eq!(state["games"], 24);
    assert_eq!(games_stored(&cluster), 24);

    let (code, out, err) = runner(&["verify", &id, "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 1, "forged games found: {out}{err}");
    let findings: Vec<&str> = out.lines().filter(|l| l.starts_with("pair ")).collect();
    assert_eq!(findings.len(), 4, "{out}");
    assert!(
        findings
            .iter()
            .all(|l| l.contains("(worker mallory): recorded")
                && l.contains("by checkmate, but the game is not over after its moves")),
        "{out}"
    );
    assert!(
        out.contains("  mallory: 4 games, 4 do not follow from their moves"),
        "{out}"
    );
    assert!(
        out.contains("  w1: ") && out.contains("all follow from their moves"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("Verified 24 games of run 1: 4 do not follow from their moves"),
        "{out}"
    );

    // 8. status, report --db and the stored games agree.
    let report = dir.path().join("report");
    let (code, out, err) = runner(&[
        "report",
        &id,
        "--db",
        &cluster.url("xq_owner"),
        "--out",
        path(&report),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let games = journal(&report);
    assert_eq!(games.len(), 24);
    let mut penta = [0u64; 5];
    for pair in 0..12u64 {
        let score = |g: u64| -> u64 {
            let e = games
                .iter()
                .find(|e| e["pair"] == pair && e["game"] == g)
                .expect("game");
            match (e["result"].as_str(), g) {
                (Some("1/2-1/2"), _) => 1,
                (Some("1-0"), 0) | (Some("0-1"), 1) => 2,
                _ => 0,
            }
        };
        penta[usize::try_from(score(0) + score(1)).expect("index")] += 1;
    }
    assert_eq!(state["penta"], json!(penta), "{state}");
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(report.join("summary.json")).expect("summary.json"),
    )
    .expect("JSON");
    assert_eq!(summary["penta"], state["penta"], "{summary}");
    assert_eq!(
        cluster.sql(&format!("SELECT penta FROM xq.runs WHERE id = {id}")),
        format!("{{{}}}", penta.map(|n| n.to_string()).join(",")),
        "the server's own count"
    );
}

#[test]
fn the_servers_sprt_is_the_runners() {
    let cluster = fleet();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut worst: f64 = 0.0;
    for case in 0..60 {
        let penta = [0; 5].map(|_: u64| match next(4) {
            0 => 0,
            1 => next(10),
            _ => next(3000),
        });
        let (elo0, elo1) = match case % 3 {
            0 => (0.0, 2.0),
            1 => (-3.0, 1.0),
            _ => (0.0, 10.0),
        };
        let model = if case % 2 == 0 {
            "normalized"
        } else {
            "logistic"
        };
        let sprt =
            xq_runner::stats::Sprt::new(elo0, elo1, 0.05, 0.05, model.parse().expect("model"))
                .expect("a design");
        let theirs = cluster.sql_as(
            "xq_owner",
            "xq",
            &format!(
                "SELECT xq.llr(ARRAY{penta:?}::bigint[], '{{\"elo0\": {elo0}, \"elo1\": {elo1}, \"model\": \"{model}\"}}')"
            ),
        );
        let ours = sprt
            .llr(&xq_runner::stats::Penta::new(penta))
            .expect("an LLR");
        let theirs: f64 = theirs.parse().expect("an LLR");
        let err = (theirs - ours).abs() / ours.abs().max(1.0);
        worst = worst.max(err);
        assert!(
            err < 1e-8,
            "{penta:?} {model} [{elo0}, {elo1}]: server {theirs}, runner {ours}"
        );
    }
    assert!(worst < 1e-8);
}

#[test]
fn the_server_aborts_on_the_fault_limit_and_judges_the_gate_as_a_local_run() {
    let dir = scratch("fleet-judge");
    let cluster = fleet();
    // A local run aborts at its first crash, the server at the batch that holds it (a
    // pair: both games crash), in the same words.
    for (name, args_a, extra, local_want, fleet_want) in [
        (
            "crash",
            r#", "--fault", "crash", "--at-ply", "3""#,
            "[faults]\nmax_crashes = 0\n",
            "aborted: a crashed or stalled once (faults.max_crashes = 0)",
            "aborted: a crashed or stalled twice (faults.max_crashes = 0)",
        ),
        (
            "gate",
            "",
            "[sprt]\nelo0 = 0\nelo1 = 0.5\nmin_elo = 1000\n",
            "gate failed: Elo below the minimum",
            "gate failed: Elo below the minimum",
        ),
    ] {
        let here = dir.path().join(name);
        std::fs::create_dir_all(&here).expect("folder");
        let cfg = config(&here, 6, args_a, extra);
        let (code, out, err) = runner(&["run", path(&cfg), "--out", path(&here.join("local"))]);
        let local: Value = serde_json::from_str(
            &std::fs::read_to_string(here.join("local/summary.json")).expect("summary"),
        )
        .expect("JSON");
        assert_eq!(local["status"], local_want, "{out}{err}");
        let id = submit(&cluster, &cfg, &["--batch-pairs", "1"]);
        let w = finish(worker(
            &cluster,
            &format!("w-{name}"),
            &["--concurrency", "1"],
        ));
        assert!(w.status.code().is_some(), "{}", text(&w));
        let state = status(&cluster, &id);
        assert_eq!(state["status"], fleet_want, "{state}");
        assert_eq!(state["exit_code"], json!(code), "the local run's exit code");
    }
}

#[test]
fn a_version_2_database_with_games_is_upgraded_in_place() {
    let dir = scratch("fleet-v2");
    let cfg = config(dir.path(), 4, "", "");
    let (code, out, err) = runner(&["run", path(&cfg), "--out", path(&dir.path().join("local"))]);
    assert_eq!(code, 0, "{out}{err}");
    let local = journal(&dir.path().join("local"));
    let cluster = Cluster::start();
    // Versions 1 and 2 as their runner created them, with version 2's worker grants.
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/src/store/pg");
    for file in ["schema.sql", "schema_v2.sql"] {
        let sql = std::fs::read_to_string(schema.join(file)).expect("schema file");
        cluster.sql_as("xq_owner", "xq", &sql);
    }
    cluster.sql_as(
        "xq_owner",
        "xq",
        "GRANT USAGE ON SCHEMA xq TO xq_worker;
         GRANT SELECT ON xq.meta, xq.runs, xq.batches, xq.workers, xq.run_workers,
             xq.tune_records TO xq_worker;
         GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
             xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
             xq.begin_submit(bigint, uuid),
             xq.finish_submit(bigint, uuid, bigint[], smallint[], text[], jsonb, bigint,
                              double precision, text, text, integer),
             xq.finish_tune_submit(bigint, uuid, bigint[], text[], jsonb, bigint,
                                   double precision, text, text, integer),
             xq.heartbeat(text, bigint, integer, text), xq.refuse_run(bigint, text, text)
             TO xq_worker;",
    );
    // Its run, with its first pair played and stored by a version-2 worker.
    let text_of = std::fs::read_to_string(&cfg).expect("config");
    cluster.sql_as(
        "xq_owner",
        "xq",
        &format!(
            "INSERT INTO xq.runs (title, config, config_hash, total_pairs, batch_pairs, counts, next_pair, pairs_done, games_done)
             VALUES ('a vs b', $cfg${text_of}$cfg$, 'v2', 4, 1, '{{}}', 1, 1, 2);
             INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until)
             VALUES (1, 0, 1, 'done', 'old', gen_random_uuid(), now());"
        ),
    );
    for e in local.iter().filter(|e| e["pair"] == 0) {
        cluster.sql_as(
            "xq_owner",
            "xq",
            &format!(
                "INSERT INTO xq.games (run_id, pair, game, batch_id, entry) VALUES (1, 0, {}, 1, $e${e}$e$)",
                e["game"]
            ),
        );
    }
    let (code, out, err) = runner(&["db", "init", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("upgraded the xq-runner schema from version 2 to 8"),
        "{out}"
    );
    let out = cluster.psql("xq_worker", "xq", "SELECT token FROM xq.batches");
    assert!(
        !out.status.success(),
        "the upgrade took the tokens from the worker role"
    );
    assert_eq!(status(&cluster, "1")["games"], 2, "the stored pair counts");
    let w = finish(worker(&cluster, "w", &["--concurrency", "1"]));
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));
    let state = status(&cluster, "1");
    assert_eq!(
        (state["state"].as_str(), state["games"].as_u64()),
        (Some("finished"), Some(8))
    );
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("local/summary.json")).expect("summary"),
    )
    .expect("JSON");
    assert_eq!(
        state["penta"], summary["penta"],
        "the games of a local run, counted alike"
    );
    let (code, out, err) = runner(&["verify", "1", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("  old: 2 games, all follow from their moves"),
        "{out}"
    );
}
