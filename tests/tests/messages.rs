//! Messages a user reads, end to end: what `merge` says of pairs played twice and of
//! one folder (and the counts its summary names), what `worker` says of a lease it
//! cannot take, of a run cancelled under it and of a role that may not; what a run
//! stopped by its SPRT says of a game whose partner was never played; a server that is
//! not there; and `status`'s list and pairs (those against a real PostgreSQL server,
//! common/pg.rs).

mod common;

use common::fleet::{finish, fleet, status, submit, text, wait_until, worker};
use common::{mainlines, path, runner, scratch};

#[test]
fn merge_names_doubled_pairs_once_in_order_and_counts_one_folder_as_one() {
    let folder = scratch("merge-messages");
    let config = common::fault_config(folder.path(), 6, &mainlines(), ["", ""], "");
    let (code, stdout, stderr) = runner(&["run", path(&config), "--shard", "1/2"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let shard = folder.path().join("out/shard-1-of-2");

    // The same shard twice: its pairs 1, 3 and 5, each named once, in order.
    let (code, _, stderr) = runner(&[
        "merge",
        path(&shard),
        path(&shard),
        "--out",
        path(&folder.path().join("twice")),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: pairs played in more than one folder: 1, 3, 5 (is a shard given twice?)"
    );

    let (code, stdout, stderr) = runner(&[
        "merge",
        path(&shard),
        "--out",
        path(&folder.path().join("one")),
    ]);
    assert_eq!(code, 3, "half the pairs are missing: {stdout}{stderr}");
    assert!(stdout.contains("Merged 1 folder: 6 games"), "{stdout}");

    // summary.json names each pairing's counts, as the top level does.
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(folder.path().join("one/summary.json")).expect("summary"),
    )
    .expect("JSON");
    let wdl = &summary["pairings"][0]["wdl"];
    for key in ["wins", "draws", "losses"] {
        assert_eq!(wdl[key], summary[key], "{key}: {wdl}");
    }
    let games: u64 = ["wins", "draws", "losses"]
        .iter()
        .filter_map(|k| wdl[k].as_u64())
        .sum();
    assert_eq!(games, 6, "{wdl}");
}

#[test]
fn a_lease_out_of_range_is_called_a_lease_not_a_time_control() {
    // The lease is read before any connection is tried: no server is needed.
    for lease in ["99999999s", "soon"] {
        let (code, _, stderr) = runner(&["worker", "--db", "host=/nonexistent", "--lease", lease]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!(
                "error: --lease {lease}: expected a duration such as 60s or 500ms, under 10000000 s"
            )
        );
    }
}

/// A match of our engine at depth 1 against the fault engine (legal moves from a hash of
/// the position): the engine wins nearly every game, so an SPRT ends in a few pairs. One
/// game at a time, deterministic. `extra` is more TOML.
fn lopsided_config(dir: &std::path::Path, name: &str, extra: &str) -> std::path::PathBuf {
    let text = format!(
        r#"[tournament]
pairs = 200
concurrency = 1
seed = 11

[time]
depth = 1

[openings]
file = "{openings}"
order = "random"

[output]
dir = "{out}"

{extra}

[[engine]]
name = "engine"
command = ["{engine}"]
options = {{ hashsize = "4" }}

[[engine]]
name = "mover"
command = ["{mover}"]
"#,
        openings = mainlines().display(),
        out = dir.join(name).display(),
        engine = common::bin("xq-engine").display(),
        mover = common::fault_engine().display(),
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).expect("write config");
    path
}

#[test]
fn after_an_sprt_verdict_a_lone_game_is_not_promised_a_partner() {
    let folder = scratch("verdict-unpaired");
    let dir = folder.path();
    let sprt = "[sprt]\nelo0 = 0\nelo1 = 400\nmodel = \"logistic\"";
    let config = lopsided_config(dir, "sprt", sprt);
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "H1: {stdout}{stderr}");
    let out = dir.join("sprt");
    let pairs = common::journal(&out).len() / 2;
    assert!(pairs < 200, "stopped at its verdict ({pairs} pairs)");

    // The first game of the next pair, as a run in flight at the verdict leaves it (with
    // two slots, the other slot's pair is often half played): the same config without the
    // SPRT plays it.
    let plain = lopsided_config(dir, "plain", "");
    let (code, stdout, stderr) =
        runner(&["run", path(&plain), "--pairs", &(pairs + 1).to_string()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lone = std::fs::read_to_string(dir.join("plain/games.jsonl"))
        .expect("journal")
        .lines()
        .find(|l| {
            let e: serde_json::Value = serde_json::from_str(l).expect("JSON");
            e["pair"] == pairs as u64 && e["game"] == 0
        })
        .expect("the next pair's first game")
        .to_owned();
    let mut journal = std::fs::read_to_string(out.join("games.jsonl")).expect("journal");
    journal.push_str(&lone);
    journal.push('\n');
    std::fs::write(out.join("games.jsonl"), &journal).expect("write");

    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("Finished: {} games", 2 * pairs))
            && last.ends_with(
                "(1 game of unfinished pairs not counted: the run ended (H1 accepted) before its partner was played)"
            ),
        "{stdout}"
    );
    // And indeed a resume plays nothing.
    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        std::fs::read_to_string(out.join("games.jsonl")).expect("journal"),
        journal
    );
}

#[test]
fn a_server_that_is_not_there_is_named_with_the_cause() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let db = format!("host=127.0.0.1 port={port} user=xq dbname=xq");
    for command in [
        &["status", "--db", db.as_str()][..],
        &["worker", "--db", db.as_str()],
    ] {
        let (code, _, stderr) = runner(command);
        assert_eq!(code, 2, "{command:?}: {stderr}");
        let line = stderr.trim_end();
        assert!(
            line.starts_with(&format!(
                "error: cannot connect to xq@127.0.0.1:{port}/xq: "
            )) && line.contains("Connection refused")
                && line.ends_with("(is a PostgreSQL server running at that host and port?)")
                && !line.contains('\n'),
            "{command:?}: {stderr}"
        );
    }
}

/// A match of two fault engines that move `sleep_ms` milliseconds a move, over the
/// shipped openings.
fn slow_match(dir: &std::path::Path, pairs: u32, sleep_ms: u32) -> std::path::PathBuf {
    let slow = format!(r#", "--fault", "sleep", "--sleep-ms", "{sleep_ms}""#);
    common::fault_config(dir, pairs, &mainlines(), [&slow, &slow], "")
}

#[test]
fn a_worker_says_that_the_run_it_plays_was_cancelled() {
    let dir = scratch("messages-cancelled");
    let config = slow_match(dir.path(), 20, 20);
    let cluster = fleet();
    let id = submit(&cluster, &config, &["--batch-pairs", "2"]);
    let w = worker(&cluster, "w", &["--concurrency", "1", "--lease", "1s"]);
    wait_until("a claimed batch", || {
        cluster.sql("SELECT count(*) FROM xq.batches WHERE state = 'claimed'") != "0"
    });
    let (code, out, err) = runner(&["cancel", &id, "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    let batch = cluster.sql("SELECT min(id) FROM xq.batches");
    let out = finish(w);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "no open run is left: {said}");
    assert!(
        said.contains(&format!("run {id} was cancelled: dropping batch {batch}")),
        "{said}"
    );
    assert!(!said.contains("is lost"), "{said}");
}

#[test]
fn a_role_that_may_not_is_told_which_role_may() {
    let dir = scratch("messages-roles");
    let config = common::fault_config(dir.path(), 2, &mainlines(), ["", ""], "");
    let cluster = fleet();
    cluster.sql("CREATE ROLE xq_reader LOGIN");
    let (code, out, err) = runner(&[
        "db",
        "init",
        "--db",
        &cluster.url("xq_owner"),
        "--reader-role",
        "xq_reader",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let id = submit(&cluster, &config, &[]);
    let owner = "connect as the database's owner role (the role `xq-runner db init` ran as)";
    for (role, args, says) in [
        (
            "xq_worker",
            vec!["submit", path(&config)],
            format!("error: role xq_worker may not submit runs (permission denied for table runs): {owner}"),
        ),
        (
            "xq_reader",
            vec!["cancel", &id],
            format!("error: role xq_reader may not cancel runs (permission denied for table runs): {owner}"),
        ),
        (
            "xq_reader",
            vec!["worker"],
            "error: role xq_reader may not play batches (permission denied for function heartbeat): connect as the worker role (`xq-runner db init --worker-role NAME` grants one)".to_owned(),
        ),
    ] {
        let url = cluster.url(role);
        let mut command = args.clone();
        command.extend(["--db", url.as_str()]);
        let (code, out, err) = runner(&command);
        assert_eq!(code, 2, "{command:?}: {out}{err}");
        assert_eq!(err.trim_end(), says, "{command:?}");
    }
    assert_eq!(status(&cluster, &id)["state"], "open", "nothing changed");
}

#[test]
fn status_lists_runs_under_a_header_and_a_closed_run_waits_for_no_worker() {
    let dir = scratch("messages-status");
    // The verdict comes in a few pairs, while a batch that a worker took stays claimed
    // and its lease runs out.
    let config = lopsided_config(
        dir.path(),
        "sprt",
        "[sprt]\nelo0 = 0\nelo1 = 400\nmodel = \"logistic\"",
    );
    let cluster = fleet();
    let open = submit(&cluster, &slow_match(dir.path(), 4, 0), &[]);
    let id = submit(&cluster, &config, &["--batch-pairs", "2"]);
    let ghost = cluster.sql_as(
        "xq_worker",
        "xq",
        &format!("SELECT count(*) FROM xq.claim_batch({id}, 'gone', 2, 4)"),
    );
    assert_eq!(
        ghost, "1",
        "a batch claimed by a worker that then went away"
    );
    let out = finish(worker(&cluster, "w", &["--run", &id]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let state = status(&cluster, &id);
    assert_eq!(state["status"], "H1 accepted", "{state}");
    wait_until("the lease of the batch left behind runs out", || {
        cluster
            .sql("SELECT count(*) FROM xq.batches WHERE state = 'claimed' AND lease_until < now()")
            == "1"
    });
    let done = state["pairs"].as_u64().expect("pairs");

    let (code, out, err) = runner(&["status", &id, "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    let pairs_line = out
        .lines()
        .find(|l| l.starts_with("Pairs:"))
        .unwrap_or_default();
    assert_eq!(
        pairs_line,
        format!(
            "Pairs: {done} done, {} not played: the run is finished (of 200)",
            200 - done
        ),
        "{out}"
    );
    let state = status(&cluster, &id);
    assert_eq!(
        (
            state["pairs_claimed"].as_u64(),
            state["pairs_expired"].as_u64()
        ),
        (Some(0), Some(0)),
        "{state}"
    );

    let (code, out, err) = runner(&["status", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines
            .first()
            .map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec![
            "id", "state", "pairs", "done", "title", "(how", "it", "ended)"
        ]),
        "{out}"
    );
    let line_of = |id: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(id))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    assert_eq!(line_of(&open), format!("{open} open 0/4 a vs b"), "{out}");
    assert_eq!(
        line_of(&id),
        format!("{id} finished {done}/200 engine vs mover (H1 accepted)"),
        "{out}"
    );
}
