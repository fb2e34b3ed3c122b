//! The fleet's trust boundary, second pass (issue 60, schema version 6), tried by a
//! hostile worker connected as the worker role with psql, against a real PostgreSQL
//! server (common/pg.rs): a NULL token, then NULL, another worker's batch and hostile
//! text in every argument of every function the worker and reader roles may call (read
//! from the catalogue, so that a function granted later is tried too); another worker's
//! name; and entries that the server stored but the runner cannot read.

mod common;
#[path = "common/trust.rs"]
mod trust;

use std::collections::BTreeMap;
use std::path::Path;

use common::fleet::{fleet, submit};
use common::pg::Cluster;
use common::{fault_config, mainlines, path, runner, scratch, tune_config};
use serde_json::Value;
use trust::{batch_games, claim, sql_texts, stored_state, submit_as_worker, Held, Session, Starts};
use xq_runner::store::journal::JournalEntry;

/// A match of two instant fault engines at depth 1 over the shipped openings.
fn match_run(dir: &Path, pairs: u32) -> std::path::PathBuf {
    fault_config(dir, pairs, &mainlines(), ["", ""], "")
}

/// One function the role may execute: its name, its arguments' names and types.
struct Function {
    name: String,
    args: Vec<(String, String)>,
}

/// Every function of schema xq that `role` may execute, from the catalogue.
fn executable_by(cluster: &Cluster, role: &str) -> Vec<Function> {
    let rows = cluster.sql(&format!(
        "SELECT p.proname,
                (SELECT string_agg(coalesce(p.proargnames[a.i], '?') || ':' || format_type(a.t, NULL),
                                   ';' ORDER BY a.i)
                 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, i))
         FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
         WHERE n.nspname = 'xq' AND has_function_privilege('{role}', p.oid, 'EXECUTE')
         ORDER BY 1"
    ));
    rows.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (name, args) = l.split_once('|').unwrap_or((l, ""));
            Function {
                name: name.to_owned(),
                args: args
                    .split(';')
                    .filter(|a| !a.is_empty())
                    .map(|a| {
                        let (n, t) = a.split_once(':').expect("name:type");
                        (n.to_owned(), t.to_owned())
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Calls `xq.name(args)` as `role`; whether the server refused it.
fn call(cluster: &Cluster, role: &str, name: &str, args: &[String]) -> bool {
    let sql = format!("SELECT * FROM xq.{name}({})", args.join(", "));
    !cluster.psql(role, "xq", &sql).status.success()
}

#[test]
fn every_function_of_the_worker_and_reader_roles_refuses_a_null_another_batch_and_hostile_text() {
    let dir = scratch("fleet-nulls");
    let cluster = fleet();
    cluster.sql_as(
        "xqsuper",
        "postgres",
        "CREATE ROLE xq_reader LOGIN PASSWORD 'reader-secret'",
    );
    let owner = cluster.url("xq_owner");
    let (code, out, err) = runner(&["db", "init", "--db", &owner, "--reader-role", "xq_reader"]);
    assert_eq!(code, 0, "{out}{err}");
    let config = match_run(dir.path(), 12);
    let id = submit(&cluster, &config, &["--batch-pairs", "2"]);
    let tune_dir = dir.path().join("tune");
    std::fs::create_dir_all(&tune_dir).expect("folder");
    let tune = submit(
        &cluster,
        &tune_config(&tune_dir, 20, 50.0, "", "", None),
        &["--batch-pairs", "2"],
    );
    let starts = Starts::played(&config, dir.path());

    // The victim holds a batch of each run, and stays connected under its name.
    let victim = claim(&cluster, &id, "victim", 2, "600");
    let victim_tune = claim(&cluster, &tune, "victim", 2, "600");
    let mut session = Session::open(&cluster, "xq_worker", "victim-session");
    session.send(&format!("SELECT xq.heartbeat('victim', {id}, 1, 'v');"));
    session.wait_for_state(&cluster, "idle");
    // The hostile worker holds its own, and is heard of.
    let own = claim(&cluster, &id, "mallory", 2, "600");
    let own_tune = claim(&cluster, &tune, "mallory", 2, "600");
    cluster.sql_as(
        "xq_worker",
        "xq",
        &format!("SELECT xq.heartbeat('mallory', {id}, 1, 'v')"),
    );

    // The attack as the issue found it: the victim's batch submitted with a NULL token.
    let before = stored_state(&cluster);
    let forged = batch_games(&starts, &victim, |_| {});
    for sql in [
        format!(
            "SELECT * FROM xq.submit_batch({}, NULL, {}, 1.0)",
            victim.batch,
            sql_texts(&forged)
        ),
        format!(
            "SELECT * FROM xq.submit_tune_batch({}, NULL, ARRAY['WW', 'WW'], 0, 1.0)",
            victim_tune.batch
        ),
    ] {
        let out = cluster.psql("xq_worker", "xq", &sql);
        assert!(!out.status.success(), "stored with a NULL token: {sql}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("a batch and its token are needed"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(stored_state(&cluster), before, "nothing stored");

    // Every function either role may call, each argument in turn NULL, another
    // worker's batch, or hostile text: refused, or nothing stored changes.
    let games = sql_texts(&batch_games(&starts, &own, |_| {}));
    let victims_games = sql_texts(&forged);
    let valid: BTreeMap<&str, Vec<String>> = BTreeMap::from([
        (
            "claim_batch",
            vec![id.clone(), "'mallory'".into(), "2".into(), "60".into()],
        ),
        (
            "renew_batch",
            vec![own.batch.clone(), format!("'{}'", own.token), "60".into()],
        ),
        (
            "release_batch",
            vec![own.batch.clone(), format!("'{}'", own.token)],
        ),
        (
            "submit_batch",
            vec![
                own.batch.clone(),
                format!("'{}'", own.token),
                games,
                "1.0".into(),
            ],
        ),
        (
            "submit_tune_batch",
            vec![
                own_tune.batch.clone(),
                format!("'{}'", own_tune.token),
                "ARRAY['WL', 'DD']".into(),
                "0".into(),
                "1.0".into(),
            ],
        ),
        (
            "report_bench",
            vec![id.clone(), "'mallory'".into(), "'{\"a\": 1000}'".into()],
        ),
        (
            "heartbeat",
            vec!["'mallory'".into(), id.clone(), "1".into(), "'v'".into()],
        ),
        (
            "refuse_run",
            vec![id.clone(), "'mallory'".into(), "'why'".into()],
        ),
        (
            "report_announced",
            vec![id.clone(), "'mallory'".into(), "'{\"a\": \"x\"}'".into()],
        ),
        (
            "report_machine",
            vec![
                "'mallory'".into(),
                "'box'".into(),
                "'linux'".into(),
                "'x86_64'".into(),
                "8".into(),
            ],
        ),
    ]);
    let long = format!("'{}'", "x".repeat(101));
    let hostile: BTreeMap<&str, Vec<String>> = BTreeMap::from([
        (
            "p_worker",
            vec!["'victim'".into(), "''".into(), long.clone()],
        ),
        ("p_version", vec![long]),
        ("p_reason", vec!["''".into()]),
        ("p_entries", vec![victims_games, "'{}'::text[]".into()]),
        (
            "p_games",
            vec![
                "ARRAY['WLW', 'DD']".into(),
                "ARRAY[NULL, 'DD']::text[]".into(),
            ],
        ),
        ("p_bench", vec!["'[1]'".into(), "'{\"a\": -1}'".into()]),
        // Announced names that are no names, too long, empty or with a control character.
        (
            "p_names",
            vec![
                "'[1]'".into(),
                "'{\"a\": 1}'".into(),
                format!("'{{\"a\": \"{}\"}}'", "x".repeat(101)),
                "'{\"a\": \"\"}'".into(),
                "'{\"a\": \"x\\u0007\"}'".into(),
            ],
        ),
        // A machine's texts out of bounds or with a control character.
        (
            "p_host",
            vec![
                "''".into(),
                format!("'{}'", "h".repeat(101)),
                "E'a\\nb'".into(),
            ],
        ),
        ("p_os", vec!["''".into(), format!("'{}'", "o".repeat(41))]),
        ("p_arch", vec!["''".into(), "E'x\\tb'".into()]),
    ]);
    let mut tried = 0;
    for role in ["xq_worker", "xq_reader"] {
        for f in executable_by(&cluster, role) {
            let args = valid.get(f.name.as_str()).unwrap_or_else(|| {
                panic!(
                    "{role} may call xq.{}: give this test its valid arguments",
                    f.name
                )
            });
            assert_eq!(args.len(), f.args.len(), "xq.{}'s arguments", f.name);
            let mut attempts: Vec<(String, Vec<String>)> = Vec::new();
            for (i, (arg, kind)) in f.args.iter().enumerate() {
                let mut with = args.clone();
                with[i] = format!("NULL::{kind}");
                attempts.push((format!("{arg} NULL"), with));
                if arg == "p_batch" {
                    // Another worker's batch, with this worker's token.
                    let mut with = args.clone();
                    with[i] = if f.name == "submit_tune_batch" {
                        victim_tune.batch.clone()
                    } else {
                        victim.batch.clone()
                    };
                    attempts.push(("another worker's batch".into(), with));
                }
                if kind == "text" || kind == "text[]" || kind == "jsonb" {
                    let texts = hostile.get(arg.as_str()).unwrap_or_else(|| {
                        panic!(
                            "xq.{}'s {arg}: give this test hostile values for it",
                            f.name
                        )
                    });
                    for text in texts {
                        let mut with = args.clone();
                        with[i] = text.clone();
                        attempts.push((format!("{arg} = {text:.40}"), with));
                    }
                }
            }
            for (what, with) in attempts {
                let before = stored_state(&cluster);
                let refused = call(&cluster, role, &f.name, &with);
                assert_eq!(
                    stored_state(&cluster),
                    before,
                    "xq.{} as {role} with {what} (refused: {refused}) changed what is stored",
                    f.name
                );
                tried += 1;
            }
        }
    }
    assert!(tried >= 40, "every function was tried: {tried} calls");

    // The victim's batches are still its own: its real submits count.
    let victims = batch_games(&starts, &victim, |_| {});
    assert_eq!(submit_as_worker(&cluster, &victim, &victims), "");
    assert_eq!(
        trust::number(
            &cluster,
            &format!(
                "SELECT count(*) FROM xq.games WHERE batch_id = {}",
                victim.batch
            )
        ),
        4
    );
    drop(session);
}

#[test]
fn a_workers_name_belongs_to_its_connection_and_db_user_is_the_connecting_role() {
    let dir = scratch("fleet-names");
    let cluster = fleet();
    let id = submit(&cluster, &match_run(dir.path(), 4), &["--batch-pairs", "1"]);
    let mut session = Session::open(&cluster, "xq_worker", "victim-session");
    session.send(&format!(
        "SELECT xq.heartbeat('victim', {id}, 1, 'v'); SELECT xq.refuse_run({id}, 'victim', 'its bench differs');"
    ));
    session.wait_for_state(&cluster, "idle");
    assert_eq!(
        cluster.sql("SELECT db_user FROM xq.workers WHERE name = 'victim'"),
        "xq_worker",
        "the role that connected, not the functions' owner"
    );
    let before = stored_state(&cluster);
    for (sql, why) in [
        (
            format!("SELECT xq.refuse_run({id}, 'victim', 'forged')"),
            "in use by another connection",
        ),
        (
            format!("SELECT xq.refuse_run({id}, 'victim', NULL)"),
            "a refusal needs its reason",
        ),
        (
            format!("SELECT xq.refuse_run({id}, NULL, 'forged')"),
            "a worker's name must have 1 to 100 characters",
        ),
        (
            format!("SELECT xq.heartbeat('victim', {id}, 1, 'v')"),
            "in use by another connection",
        ),
        (
            format!("SELECT * FROM xq.claim_batch({id}, 'victim', 1, 60)"),
            "in use by another connection",
        ),
    ] {
        let out = cluster.psql("xq_worker", "xq", &sql);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{sql}: {err}");
    }
    assert_eq!(
        stored_state(&cluster),
        before,
        "the victim's refusal stands"
    );
    assert_eq!(
        cluster.sql(&format!(
            "SELECT refused FROM xq.run_workers WHERE run_id = {id} AND worker = 'victim'"
        )),
        "its bench differs"
    );
    // Its connection gone, the name is free for the next one.
    drop(session);
    let freed = common::eventually(std::time::Duration::from_secs(10), || {
        cluster
            .psql(
                "xq_worker",
                "xq",
                &format!("SELECT xq.heartbeat('victim', {id}, 1, 'v')"),
            )
            .status
            .success()
    });
    assert!(freed, "a name whose connection ended is free");
}

/// A real game of a local run of the same config, as its journal wrote it.
fn real_entries(dir: &Path, config: &Path) -> Vec<String> {
    let out = dir.join("local");
    let (code, o, e) = runner(&["run", path(config), "--out", path(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let journal = std::fs::read_to_string(out.join("games.jsonl")).expect("the journal");
    let mut lines: Vec<(u64, u64, String)> = journal
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("JSON");
            (
                v["pair"].as_u64().expect("pair"),
                v["game"].as_u64().expect("game"),
                l.to_owned(),
            )
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, _, l)| l).collect()
}

/// `text` with the first `from` replaced by `to`.
fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from} in {text}");
    text.replacen(from, to, 1)
}

/// `text` with the number of top-level key `key` written as `raw`.
fn number_as(text: &str, key: &str, raw: &str) -> String {
    let label = format!("\"{key}\":");
    let at = text.find(&label).expect("the key") + label.len();
    let end = at
        + text[at..]
            .find(|c: char| !c.is_ascii_digit())
            .expect("the number's end");
    format!("{}{raw}{}", &text[..at], &text[end..])
}

#[test]
fn the_server_stores_exactly_the_entries_the_runner_reads() {
    let dir = scratch("fleet-entries");
    let cfg = match_run(dir.path(), 2);
    let real = real_entries(dir.path(), &cfg);
    let cluster = fleet();
    let id = submit(&cluster, &cfg, &["--batch-pairs", "1"]);
    let held = claim(&cluster, &id, "mallory", 1, "600");
    assert_eq!((held.first, held.pairs), (0, 1));
    let pair: Vec<String> = real[..2].to_vec();
    let first = &pair[0];
    let depths = first
        .find("\"depths\":[")
        .map(|at| &first[at..])
        .expect("depths");
    let padding = "x".repeat(600 * 1024);
    // Each defect as the attacker wrote it, and the server's word for it.
    let defects: Vec<(&str, String, &str)> = vec![
        (
            "game 0.0",
            edited(first, "\"game\":0", "\"game\":0.0"),
            "game is 0.0",
        ),
        (
            "pair 0.0",
            edited(first, "\"pair\":0", "\"pair\":0.0"),
            "pair is 0.0",
        ),
        (
            "an exponent",
            number_as(first, "duration_ms", "1e0"),
            "duration_ms is 1e0",
        ),
        (
            "1e30 ms",
            number_as(first, "duration_ms", "1e30"),
            "duration_ms",
        ),
        (
            "a depth over u32",
            edited(first, depths, &depths.replacen("[", "[4294967296,", 1)),
            "depths at most 4294967295",
        ),
        (
            "a key twice",
            edited(first, "{\"pair\":0,", "{\"pair\":0,\"pair\":0,"),
            "pair is given twice",
        ),
        (
            "a raw line break",
            edited(first, "\"game\":0,", "\"game\":0,\n"),
            "an entry is one line",
        ),
        (
            "a field the runner does not know",
            // (The runner would skip it; it never writes one: refused so that what is
            // stored is a journal line as the runner writes them.)
            edited(first, "{\"pair\":0,", "{\"pair\":0,\"bonus\":[1],"),
            "bonus is not a field of a journal entry",
        ),
        (
            "no times",
            {
                let v: Value = serde_json::from_str(first).expect("JSON");
                let mut v = v.as_object().expect("object").clone();
                v.remove("times_ms");
                Value::Object(v).to_string()
            },
            "times_ms and depths",
        ),
        (
            "over 512 KiB",
            edited(
                first,
                "\"pair\":0,",
                &format!("\"pair\":0,\"detail\":\"{padding}\","),
            ),
            "over the 524288 an entry may have",
        ),
    ];
    for (what, text, why) in &defects {
        // The premise: the runner cannot read it back as a journal line.
        let line_reads =
            text.lines().count() == 1 && serde_json::from_str::<JournalEntry>(text).is_ok();
        assert!(
            !line_reads || what.contains("512") || what.contains("does not know"),
            "{what}: the runner reads it, the test proves nothing"
        );
        let err = submit_as_worker(&cluster, &held, &[text.clone(), pair[1].clone()]);
        assert!(
            err.contains("refused") || err.contains("ERROR"),
            "{what}: stored"
        );
        assert!(err.contains(why), "{what}: {err}");
    }
    assert_eq!(trust::number(&cluster, "SELECT count(*) FROM xq.games"), 0);
    // The same games as the runner wrote them are stored, and read back whole.
    assert_eq!(submit_as_worker(&cluster, &held, &pair), "");
    let report = dir.path().join("report");
    let owner = cluster.url("xq_owner");
    let (code, out, err) = runner(&["report", &id, "--db", &owner, "--out", path(&report)]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(common::journal(&report).len(), 2, "{out}{err}");
}

#[test]
fn report_fails_loudly_when_its_counts_and_the_games_it_writes_disagree() {
    let dir = scratch("fleet-report-counts");
    let cfg = match_run(dir.path(), 2);
    let real = real_entries(dir.path(), &cfg);
    let cluster = fleet();
    let id = submit(&cluster, &cfg, &["--batch-pairs", "1"]);
    let held: Held = claim(&cluster, &id, "w", 1, "600");
    assert_eq!(submit_as_worker(&cluster, &held, &real[..2]), "");
    // A game stored by an older version, before the server read entries as the runner
    // does: its facts counted, its text no journal line.
    cluster.sql(&format!(
        "UPDATE xq.games SET entry = replace(entry, '\"game\":1', '\"game\":1.0')
         WHERE run_id = {id} AND game = 1"
    ));
    let report = dir.path().join("report");
    let owner = cluster.url("xq_owner");
    let (code, out, err) = runner(&["report", &id, "--db", &owner, "--out", path(&report)]);
    assert_ne!(
        code, 0,
        "a report whose counts are not its games: {out}{err}"
    );
    assert!(
        err.contains("its counts hold 2 games, but 1 of them could be written"),
        "{out}{err}"
    );
    assert!(
        !report.join("summary.json").exists(),
        "no summary says what the journal does not hold"
    );
}
