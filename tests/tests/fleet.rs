//! Runs past one machine, against a real PostgreSQL server started for each test
//! (common/pg.rs): workers on this machine play one run and its games equal a local
//! run's; a worker killed mid-batch, a server that goes away, a late result under a lost
//! lease, an SPRT stop across workers, a wrong bench signature, the worker role's limits,
//! shards and merge, and the bad inputs that must give one line and exit 2.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use common::fleet::{
    finish, fleet, games, local_games, reported_games, status, submit, text, wait_until, worker,
};
use common::pg::Cluster;
use common::{journal, mainlines, match_config, path, runner, runner_with_env, scratch};
use serde_json::Value;

/// A match of two instant fault engines at depth 1 (deterministic, varied games), both
/// started with `engine_args`.
fn fault_config(dir: &Path, pairs: u32, engine_args: &str, extra: &str) -> PathBuf {
    common::fault_config(dir, pairs, &mainlines(), [engine_args, engine_args], extra)
}

/// Slow engines: the same games, each move 5 ms later, so a run is still going when a
/// test interferes.
const SLOW: &str = r#", "--fault", "sleep", "--sleep-ms", "5""#;

fn games_stored(cluster: &Cluster) -> u64 {
    cluster
        .sql("SELECT count(*) FROM xq.games")
        .parse()
        .unwrap_or(0)
}

#[test]
fn three_workers_play_the_games_of_a_local_run() {
    let dir = scratch("fleet-three");
    let config = fault_config(dir.path(), 12, "", "");
    let expected = local_games(&config, &dir.path().join("local"));
    assert_eq!(expected.len(), 24);

    let cluster = fleet();
    let id = submit(&cluster, &config, &["--batch-pairs", "1"]);
    let workers: Vec<Child> = (0..3)
        .map(|i| worker(&cluster, &format!("w{i}"), &["--concurrency", "1"]))
        .collect();
    for w in workers {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let got = reported_games(&cluster, &id, &dir.path().join("report"));
    assert_eq!(got, expected, "the same games, game for game");

    let state = status(&cluster, &id);
    assert_eq!(state["state"], "finished");
    assert_eq!(state["games"], 24);
    assert_eq!(state["pairs"], 12);
    assert_eq!(state["pairs_left"], 0);
    let local: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("local/summary.json")).expect("summary"),
    )
    .expect("JSON");
    let remote: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("report/summary.json")).expect("summary"),
    )
    .expect("JSON");
    assert_eq!(remote["penta"], local["penta"], "same pentanomial counts");
    assert_eq!(state["penta"], local["penta"]);
    let names: Vec<&str> = state["workers"]
        .as_array()
        .expect("workers")
        .iter()
        .filter_map(|w| w["name"].as_str())
        .collect();
    assert!(names.len() >= 2, "several workers played: {names:?}");
}

#[test]
fn a_worker_claims_its_next_batch_before_the_last_pair_and_holds_two_at_most() {
    let dir = scratch("fleet-prefetch");
    let config = fault_config(dir.path(), 40, "", "");
    let expected = local_games(&config, &dir.path().join("local"));

    let cluster = fleet();
    let id = submit(&cluster, &config, &[]);
    let out = finish(worker(
        &cluster,
        "w",
        &["--concurrency", "2", "--batch-pairs", "2"],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let got = reported_games(&cluster, &id, &dir.path().join("report"));
    assert_eq!(got, expected, "every pair once, the games of a local run");
    assert_eq!(
        cluster.sql("SELECT count(*), max(claims) FROM xq.batches"),
        "20|1",
        "20 batches of 2 pairs, none claimed twice"
    );
    // For each batch, the batches held at the moment it was claimed (itself included).
    let held: Vec<u64> = cluster
        .sql(
            "SELECT (SELECT count(*) FROM xq.batches c \
               WHERE c.claimed_at <= b.claimed_at AND c.done_at > b.claimed_at) \
             FROM xq.batches b ORDER BY b.first_pair",
        )
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    assert_eq!(held.len(), 20);
    assert!(
        held.iter().all(|&n| n <= 2),
        "two batches at most: {held:?}"
    );
    // Each batch after the first was claimed while the one before was still held: the
    // slots did not wait for the database between them.
    assert!(held[1..].iter().all(|&n| n == 2), "claimed ahead: {held:?}");
}

#[test]
fn a_signalled_worker_gives_back_both_its_batches_and_leaves_no_engine() {
    let dir = scratch("fleet-sigterm");
    let config = fault_config(dir.path(), 16, "", "");
    let expected = local_games(&config, &dir.path().join("local"));
    // A sleep no other test uses, to find this test's engines.
    let slow = fault_config(
        dir.path(),
        16,
        r#", "--fault", "sleep", "--sleep-ms", "6""#,
        "",
    );
    let engines_left = || {
        Command::new("pgrep")
            .args(["-f", "sleep-ms 6"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().count())
            .unwrap_or(0)
    };

    let cluster = fleet();
    let id = submit(&cluster, &slow, &["--batch-pairs", "2"]);
    let signalled = worker(
        &cluster,
        "signalled",
        &["--concurrency", "2", "--wait", "--lease", "30s"],
    );
    let held = "SELECT count(*) FROM xq.batches WHERE state = 'claimed' AND lease_until > now()";
    wait_until("two batches held", || cluster.sql(held) == "2");
    assert!(engines_left() > 0, "the worker's engines are found");
    let term = Command::new("kill")
        .args(["-TERM", &signalled.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(term.success());
    let out = finish(signalled);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    assert!(
        text(&out).contains("Interrupted (SIGTERM): dropping the batch in play"),
        "{}",
        text(&out)
    );
    // The shipped unit stops its worker so: a clean stop, not a failed service.
    assert!(
        unit_success_codes().contains(&4),
        "configs/deploy/xq-worker.service: SuccessExitStatus"
    );
    assert_eq!(
        cluster.sql(held),
        "0",
        "both batches given back at once, not left to their 30 s leases"
    );
    wait_until("no engine left", || engines_left() == 0);

    let heir = finish(worker(&cluster, "heir", &["--concurrency", "2"]));
    assert_eq!(heir.status.code(), Some(0), "{}", text(&heir));
    let got = reported_games(&cluster, &id, &dir.path().join("report"));
    assert_eq!(got, expected, "nothing lost, nothing doubled");
}

/// The exit codes the shipped systemd unit counts as a clean end: 0 and its
/// `SuccessExitStatus`.
fn unit_success_codes() -> Vec<i32> {
    let unit =
        std::fs::read_to_string(common::workspace().join("configs/deploy/xq-worker.service"))
            .expect("the shipped unit");
    let mut codes = vec![0];
    for line in unit.lines() {
        if let Some(list) = line.trim().strip_prefix("SuccessExitStatus=") {
            codes.extend(
                list.split_whitespace()
                    .filter_map(|c| c.parse::<i32>().ok()),
            );
        }
    }
    codes
}

#[test]
fn a_waiting_worker_stopped_while_idle_ends_quietly_with_0() {
    let cluster = fleet();
    let idle = worker(&cluster, "idle", &["--wait", "--lease", "2s"]);
    // Connected and looking for work, holding nothing: no run is open.
    wait_until("the worker's connection", || {
        cluster.sql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'xq_worker'") != "0"
    });
    std::thread::sleep(Duration::from_millis(500));
    let term = Command::new("kill")
        .args(["-TERM", &idle.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(term.success());
    let out = finish(idle);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(text(&out), "", "nothing to say: no batch was dropped");
    assert!(unit_success_codes().contains(&0));
}

#[test]
fn a_worker_killed_mid_batch_loses_its_batch_to_another() {
    let dir = scratch("fleet-kill");
    let config = fault_config(dir.path(), 6, "", "");
    let expected = local_games(&config, &dir.path().join("local"));
    let slow = fault_config(dir.path(), 6, SLOW, "");

    let cluster = fleet();
    let id = submit(&cluster, &slow, &["--batch-pairs", "3"]);
    let mut doomed = worker(&cluster, "doomed", &["--concurrency", "1", "--lease", "1s"]);
    wait_until("a claimed batch", || {
        cluster.sql("SELECT count(*) FROM xq.batches WHERE state = 'claimed'") != "0"
    });
    std::thread::sleep(Duration::from_millis(300));
    doomed.kill().expect("kill -9");
    let _ = doomed.wait();
    assert_eq!(games_stored(&cluster), 0, "killed before it submitted");

    let heir = finish(worker(&cluster, "heir", &["--concurrency", "2"]));
    assert_eq!(heir.status.code(), Some(0), "{}", text(&heir));
    let got = reported_games(&cluster, &id, &dir.path().join("report"));
    assert_eq!(
        got, expected,
        "replayed elsewhere: nothing lost, nothing doubled"
    );
    assert_eq!(status(&cluster, &id)["games"], 12);
}

#[test]
fn the_server_may_go_away_and_come_back() {
    let dir = scratch("fleet-restart");
    let config = fault_config(dir.path(), 8, "", "");
    let expected = local_games(&config, &dir.path().join("local"));
    let slow = fault_config(dir.path(), 8, SLOW, "");

    let mut cluster = fleet();
    let id = submit(&cluster, &slow, &["--batch-pairs", "1"]);
    let workers: Vec<Child> = (0..2)
        .map(|i| {
            worker(
                &cluster,
                &format!("w{i}"),
                &["--concurrency", "1", "--lease", "20s"],
            )
        })
        .collect();
    wait_until("a first committed pair", || games_stored(&cluster) >= 2);
    cluster.stop();
    std::thread::sleep(Duration::from_secs(3));
    cluster.launch();
    for w in workers {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let got = reported_games(&cluster, &id, &dir.path().join("report"));
    assert_eq!(got, expected, "nothing lost, nothing doubled");
}

/// The journal entries of a local run of `config`, played into `out`.
fn played_entries(config: &Path, out: &Path) -> Vec<xq_runner::store::journal::JournalEntry> {
    let (code, stdout, err) = runner(&["run", path(config), "--out", path(out)]);
    assert_eq!(code, 0, "{stdout}{err}");
    xq_runner::store::journal::Journal::read_all(&out.join("games.jsonl"))
        .expect("the local journal")
}

#[test]
fn a_result_sent_under_a_lost_lease_is_refused() {
    use xq_runner::store::pg::{connect::parse, connect::Source, Db, DbError};

    let dir = scratch("fleet-fence");
    let config = fault_config(dir.path(), 2, "", "");
    let played = played_entries(&config, &dir.path().join("local"));
    let cluster = fleet();
    let id: i64 = submit(&cluster, &config, &["--batch-pairs", "1"])
        .parse()
        .expect("id");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let target = parse(&cluster.url("xq_worker"), Source::CommandLine).expect("target");
        let late = Db::connect(&target).await.expect("connect");
        let other = Db::connect(&target).await.expect("connect");
        let first = late
            .claim(id, "late", 1, Duration::from_millis(400))
            .await
            .expect("claim")
            .expect("a batch");
        tokio::time::sleep(Duration::from_millis(900)).await;
        let second = other
            .claim(id, "other", 1, Duration::from_secs(30))
            .await
            .expect("claim")
            .expect("the expired batch is handed out again");
        // An expired lease that nobody took over may still be renewed; once another
        // worker holds the batch, it may not.
        assert!(
            !late
                .renew(&first, Duration::from_secs(5))
                .await
                .expect("renew"),
            "the lease is lost"
        );
        assert_eq!(second.first_pair, first.first_pair, "the same pair");
        let pair_games: Vec<_> = played
            .iter()
            .filter(|e| e.pair == first.first_pair)
            .cloned()
            .collect();
        let refused = late.submit_batch(&first, &pair_games, Duration::ZERO).await;
        assert!(matches!(refused, Err(DbError::LeaseLost(_))), "{refused:?}");
        other
            .submit_batch(&second, &pair_games, Duration::ZERO)
            .await
            .expect("the holder's result counts");
        let again = other
            .submit_batch(&second, &pair_games, Duration::ZERO)
            .await;
        assert!(again.is_err(), "a batch counts once: {again:?}");
    });
    assert_eq!(games_stored(&cluster), 2, "one pair stored, once");
}

/// Eight connections claiming and submitting one-pair batches of one run as fast as
/// they can, the submits checking their games side by side: none of them deadlocks
/// (storing a game locks its run for key share, so a submit that then took the run's
/// lock FOR UPDATE waited for every other submit in flight, and they for it) and every
/// pair counts once.
#[test]
fn submits_of_one_run_at_once_neither_deadlock_nor_lose_a_game() {
    use xq_runner::store::pg::{connect::parse, connect::Source, Db};

    let dir = scratch("fleet-concurrent");
    // One opening: every pair starts alike, so the four pairs played here stand for any
    // pair of the run (the server checks that each game starts from its pair's opening).
    let book = std::fs::read_to_string(mainlines()).expect("the shipped openings");
    let first = book
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .expect("an opening");
    let one = dir.path().join("one.epd");
    std::fs::write(&one, format!("{first}\n")).expect("write");
    let config = common::fault_config(dir.path(), 4, &one, ["", ""], "");
    let mut played = played_entries(&config, &dir.path().join("local"));
    played.sort_by_key(|e| (e.pair, e.game));
    let big = common::fault_config(dir.path(), 400, &one, ["", ""], "");
    let cluster = fleet();
    let id: i64 = submit(&cluster, &big, &["--batch-pairs", "1"])
        .parse()
        .expect("id");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let submitted: u64 = runtime.block_on(async {
        let target = parse(&cluster.url("xq_worker"), Source::CommandLine).expect("target");
        let mut tasks = Vec::new();
        for i in 0..8 {
            let db = Db::connect(&target).await.expect("connect");
            let played = played.clone();
            tasks.push(tokio::spawn(async move {
                let mut pairs = 0;
                while let Some(claim) = db
                    .claim(id, &format!("w{i}"), 1, Duration::from_secs(60))
                    .await
                    .expect("claim")
                {
                    let games: Vec<_> = played[(claim.first_pair as usize % 4) * 2..][..2]
                        .iter()
                        .map(|e| {
                            let mut e = e.clone();
                            e.pair = claim.first_pair;
                            e
                        })
                        .collect();
                    db.submit_batch(&claim, &games, Duration::ZERO)
                        .await
                        .expect("a submit among others goes through");
                    pairs += 1;
                }
                pairs
            }));
        }
        let mut pairs = 0;
        for t in tasks {
            pairs += t.await.expect("a connection's loop");
        }
        pairs
    });
    assert_eq!(submitted, 400, "every pair claimed once");
    assert_eq!(games_stored(&cluster), 800, "every game stored once");
    let state = status(&cluster, &id.to_string());
    assert_eq!(state["state"], "finished");
    assert_eq!(state["games"], 800);
}

#[test]
fn an_sprt_stops_the_run_across_workers_as_stats_computes_it() {
    let dir = scratch("fleet-sprt");
    let config = match_config(
        dir.path(),
        300,
        "[sprt]\nelo0 = 0\nelo1 = 150\nalpha = 0.05\nbeta = 0.05\nmodel = \"logistic\"\n",
    );
    let cluster = fleet();
    let id = submit(&cluster, &config, &["--batch-pairs", "2"]);
    let workers: Vec<Child> = (0..2)
        .map(|i| worker(&cluster, &format!("w{i}"), &["--concurrency", "1"]))
        .collect();
    for w in workers {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let state = status(&cluster, &id);
    assert_eq!(state["state"], "finished");
    // The server decided the end; the runner's own SPRT of the same counts agrees.
    let verdict = state["verdict"].as_str().unwrap_or_default();
    assert!(verdict == "H0" || verdict == "H1", "{state}");
    assert_eq!(state["status"], format!("{verdict} accepted"), "{state}");
    let pairs = state["pairs"].as_u64().expect("pairs");
    assert!(pairs < 300, "stopped on its verdict ({pairs} pairs)");
    assert_eq!(state["games"].as_u64(), Some(2 * pairs), "whole pairs only");
    assert_eq!(
        games_stored(&cluster),
        2 * pairs,
        "dropped batches left no games"
    );
    let penta: Vec<String> = state["penta"]
        .as_array()
        .expect("penta")
        .iter()
        .map(|n| n.to_string())
        .collect();
    let (code, out, err) = runner(&[
        "stats",
        "--penta",
        &penta.join(","),
        "--elo0",
        "0",
        "--elo1",
        "150",
        "--model",
        "logistic",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let stats: Value = serde_json::from_str(&out).expect("stats --json");
    let llr = |v: &Value| v.as_f64().expect("an llr");
    assert!(
        (llr(&state["llr"]) - llr(&stats["llr"])).abs() < 1e-9,
        "{state} {stats}"
    );
    assert_eq!(state["verdict"], stats["verdict"]);
    let claimable = cluster.sql(&format!(
        "SELECT count(*) FROM xq.claim_batch({id}, 'late', 1, 10)"
    ));
    assert_eq!(claimable, "0", "no batch after the verdict");
}

#[test]
fn a_wrong_bench_signature_is_refused_visibly() {
    let dir = scratch("fleet-bench");
    let config = match_config(dir.path(), 2, "");
    let text_of = std::fs::read_to_string(&config).expect("config");
    let wrong = text_of.replacen("name = \"level6\"", "name = \"level6\"\nbench = 1", 1);
    std::fs::write(&config, wrong).expect("write");
    let cluster = fleet();
    let id = submit(&cluster, &config, &[]);
    let out = finish(worker(&cluster, "checker", &["--run", &id]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("bench"), "{}", text(&out));
    let state = status(&cluster, &id);
    assert_eq!(state["games"], 0, "nothing played with the wrong build");
    let refusal = state["workers"]
        .as_array()
        .expect("workers")
        .iter()
        .find(|w| w["name"] == "checker")
        .and_then(|w| w["refused"].as_str())
        .unwrap_or_default()
        .to_owned();
    assert!(
        refusal.contains("bench"),
        "status names the refusal: {state}"
    );
}

#[test]
fn the_worker_role_may_claim_and_submit_and_nothing_else() {
    let dir = scratch("fleet-role");
    let config = fault_config(dir.path(), 2, "", "");
    let cluster = fleet();
    let id = submit(&cluster, &config, &[]);
    for sql in [
        format!("UPDATE xq.runs SET total_pairs = 1 WHERE id = {id}"),
        format!("UPDATE xq.runs SET config = '' WHERE id = {id}"),
        "INSERT INTO xq.games (run_id, pair, game, entry) VALUES (1, 0, 0, '{}')".to_owned(),
        "DELETE FROM xq.games".to_owned(),
        "UPDATE xq.batches SET state = 'done'".to_owned(),
        "CREATE TABLE xq.mine (x int)".to_owned(),
    ] {
        let out = cluster.psql("xq_worker", "xq", &sql);
        assert!(!out.status.success(), "the worker role may not: {sql}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("permission denied"), "{sql}: {err}");
    }
    let (code, _, err) = runner(&["cancel", &id, "--db", &cluster.url("xq_worker")]);
    assert_eq!(code, 2, "a worker cannot cancel: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    let (code, _, err) = runner(&["submit", path(&config), "--db", &cluster.url("xq_worker")]);
    assert_eq!(code, 2, "a worker cannot submit: {err}");
    // What it may do, it can: the run gets played.
    let out = finish(worker(&cluster, "w", &[]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(status(&cluster, &id)["state"], "finished");
}

#[test]
fn shards_merged_equal_a_local_run() {
    let dir = scratch("fleet-shards");
    let config = fault_config(dir.path(), 10, "", "");
    let expected = local_games(&config, &dir.path().join("local"));
    let mut folders = Vec::new();
    for i in 1..=3 {
        let out = dir.path().join(format!("shard{i}"));
        let (code, o, e) = runner(&[
            "run",
            path(&config),
            "--shard",
            &format!("{i}/3"),
            "--out",
            path(&out),
        ]);
        assert_eq!(code, 0, "{o}{e}");
        let pairs: Vec<u64> = journal(&out)
            .iter()
            .filter_map(|e| e["pair"].as_u64())
            .collect();
        assert!(
            pairs.iter().all(|p| p % 3 == i - 1),
            "shard {i}/3 played {pairs:?}"
        );
        folders.push(out);
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["merge"];
    args.extend(folders.iter().map(|f| path(f)));
    args.extend(["--out", path(&merged)]);
    let (code, o, e) = runner(&args);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(games(journal(&merged)), expected);
    for file in ["games.pgn", "summary.json", "summary.md", "report.html"] {
        assert!(merged.join(file).is_file(), "merge wrote {file}");
    }

    // A shard missing is named by its pairs; a shard given twice is refused.
    let (code, o, e) = runner(&[
        "merge",
        path(&folders[0]),
        path(&folders[1]),
        "--out",
        path(&dir.path().join("partial")),
    ]);
    assert!(format!("{o}{e}").contains("missing"), "{o}{e} ({code})");
    let (code, o, e) = runner(&[
        "merge",
        path(&folders[0]),
        path(&folders[0]),
        "--out",
        path(&dir.path().join("twice")),
    ]);
    assert_eq!(code, 2, "{o}{e}");
}

#[test]
fn bad_inputs_get_one_line_and_exit_2() {
    let dir = scratch("fleet-bad");
    let config = fault_config(dir.path(), 2, "", "");
    let one_line = |args: &[&str], env: &[(&str, &str)], expected: &str| {
        let (code, _, err) = runner_with_env(args, env, &["XQ_DB"]);
        assert_eq!(code, 2, "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(lines.len(), 1, "{args:?}: one error line: {err}");
        assert!(
            lines[0].to_lowercase().contains(expected),
            "{args:?}: names {expected}: {err}"
        );
    };
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("port");
    let down = format!(
        "host=127.0.0.1 port={} user=x dbname=xq",
        free.local_addr().expect("addr").port()
    );
    drop(free);
    one_line(&["status", "--db", "postgres://[bad"], &[], "address");
    one_line(&["status", "--db", &down], &[], "connect");
    one_line(
        &["status", "--db", "postgres://u:secret@localhost/xq"],
        &[],
        "password",
    );

    let cluster = fleet();
    one_line(
        &["status", "--db", &cluster.tcp_url("xq_worker")],
        &[("PGPASSWORD", "wrong")],
        "password",
    );
    one_line(
        &["status", "999", "--db", &cluster.url("xq_worker")],
        &[],
        "999",
    );
    let id = submit(&cluster, &config, &[]);
    let (code, o, e) = runner(&["cancel", &id, "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{o}{e}");
    one_line(
        &["worker", "--run", &id, "--db", &cluster.url("xq_worker")],
        &[],
        "cancelled",
    );
    cluster.sql("UPDATE xq.meta SET value = '99' WHERE key = 'schema_version'");
    one_line(
        &["status", "--db", &cluster.url("xq_owner")],
        &[],
        "version",
    );
    one_line(
        &["submit", path(&config), "--db", &cluster.url("xq_owner")],
        &[],
        "version",
    );
    // A bad config stores nothing.
    std::fs::write(dir.path().join("bad.toml"), "[tournament]\npairs = -1\n").expect("write");
    let cluster = fleet();
    let (code, _, err) = runner(&[
        "submit",
        path(&dir.path().join("bad.toml")),
        "--db",
        &cluster.url("xq_owner"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(cluster.sql("SELECT count(*) FROM xq.runs"), "0");
}

/// A CA and a server certificate for 127.0.0.1 and localhost, in `dir`.
fn certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl (the CLI) is installed");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec![
        "req",
        "-x509",
        "-days",
        "2",
        "-subj",
        "/CN=xq test CA",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
    ];
    ca.extend(ec);
    openssl(&ca);
    let mut csr = vec![
        "req",
        "-subj",
        "/CN=localhost",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
    ];
    csr.extend(ec);
    openssl(&csr);
    std::fs::write(
        dir.join("san.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\n",
    )
    .expect("write");
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "san.ext",
        "-out",
        "server.crt",
    ]);
    // A second CA that did not sign the server's certificate.
    let mut other = vec![
        "req",
        "-x509",
        "-days",
        "2",
        "-subj",
        "/CN=another CA",
        "-keyout",
        "other.key",
        "-out",
        "other.crt",
    ];
    other.extend(ec);
    openssl(&other);
}

#[test]
fn tls_is_verified_as_libpq_does() {
    let certs = scratch("fleet-tls");
    certificates(certs.path());
    let key = certs.path().join("server.key");
    let _ = Command::new("chmod").args(["0600", path(&key)]).status();
    let _ = Command::new("chmod")
        .args(["0755", path(certs.path())])
        .status();
    let _ = Command::new("chown")
        .args(["postgres", path(&key)])
        .status();
    let cluster = Cluster::start_with(&[
        "listen_addresses = '127.0.0.1,127.0.0.2'",
        "ssl = on",
        &format!(
            "ssl_cert_file = '{}'",
            certs.path().join("server.crt").display()
        ),
        &format!("ssl_key_file = '{}'", key.display()),
    ]);
    let (code, o, e) = runner(&[
        "db",
        "init",
        "--db",
        &cluster.url("xq_owner"),
        "--worker-role",
        "xq_worker",
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let status_over = |words: &str| {
        runner_with_env(
            &[
                "status",
                "--db",
                &format!("{} {words}", cluster.tcp_url("xq_worker")),
            ],
            &[("PGPASSWORD", "worker-secret")],
            &["XQ_DB"],
        )
    };
    let ca = certs.path().join("ca.crt").display().to_string();
    let other = certs.path().join("other.crt").display().to_string();
    for words in [
        "sslmode=require".to_owned(),
        format!("sslmode=verify-ca sslrootcert={ca}"),
        format!("sslmode=verify-full sslrootcert={ca}"),
    ] {
        let (code, out, err) = status_over(&words);
        assert_eq!(code, 0, "{words}: {out}{err}");
    }
    for words in [
        format!("sslmode=verify-full sslrootcert={other}"),
        format!("sslmode=verify-ca sslrootcert={other}"),
        "sslmode=verify-full".to_owned(),
    ] {
        let (code, out, err) = status_over(&words);
        assert_eq!(code, 2, "{words} is refused: {out}{err}");
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error")).count(),
            1,
            "{words}: {err}"
        );
    }
    // verify-full checks the name: the certificate is for 127.0.0.1 and localhost only.
    let (code, out, err) = runner_with_env(
        &[
            "status",
            "--db",
            &format!(
                "host=127.0.0.2 port={} user=xq_worker dbname=xq sslmode=verify-full sslrootcert={ca}",
                cluster.port
            ),
        ],
        &[("PGPASSWORD", "worker-secret")],
        &[],
    );
    assert_eq!(code, 2, "{out}{err}");
}
