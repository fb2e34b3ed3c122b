//! Where a stored game starts and how it may end (issue 60, item 2), tried by a hostile
//! worker as the worker role through psql against a real PostgreSQL server: games from
//! a position that is not their pair's opening (a mate in one), and endings the run's
//! config cannot produce (adjudication it does not make, a time loss without a clock,
//! `max_plies` it does not set, moves over a clock it does not have) are refused at
//! submit, accepted where the config makes them, and named by `verify` when they were
//! stored by an older version; a run of version 5 keeps working, its openings filled
//! from the file stored with it.

mod common;
#[path = "common/trust.rs"]
mod trust;

use std::path::{Path, PathBuf};

use common::fleet::{finish, fleet, status, submit, text, worker};
use common::pg::Cluster;
use common::{fault_config, fault_engine, mainlines, runner, scratch};
use serde_json::{json, Value};
use trust::{claim, entry, number, sql_file, submit_as_worker, Held, Starts};

/// Black's king on d9, Red's rook on a8 holding rank 8: the other rook's b0b9 mates.
const MATE_IN_ONE: &str = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1";

/// A match of the fault engines on a clock, with every adjudication and `max_plies`.
fn clocked_config(dir: &Path) -> PathBuf {
    let engine = fault_engine().display().to_string();
    let text = format!(
        r#"[tournament]
pairs = 8
seed = 3

[time]
tc = "60+1"

[openings]
file = "{openings}"

[adjudication]
max_plies = 300
draw = {{ move_number = 40, move_count = 8, score = 10 }}
resign = {{ move_count = 4, score = 1500 }}

[output]
dir = "{out}"

[[engine]]
name = "a"
command = ["{engine}"]

[[engine]]
name = "b"
command = ["{engine}"]
"#,
        openings = mainlines().display(),
        out = dir.join("out").display(),
    );
    let path = dir.join("clocked.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// A change made to a game.
type Edit = Box<dyn FnOnce(&mut Value)>;

/// The pair's two games as draws by repetition, game 0 edited by `edit`, as texts.
fn pair_with(starts: &Starts, held: &Held, edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut first = entry(starts, held.first, 0, "1/2-1/2", "repetition");
    edit(&mut first);
    let second = entry(starts, held.first, 1, "1/2-1/2", "repetition");
    vec![first.to_string(), second.to_string()]
}

/// Game 0 of a pair (`a` Red) ended by `reason` with `result`, `faulted` its loser.
fn ended(
    reason: &'static str,
    result: &'static str,
    faulted: Option<&'static str>,
) -> impl FnOnce(&mut Value) {
    move |g: &mut Value| {
        g["reason"] = json!(reason);
        g["result"] = json!(result);
        if let Some(f) = faulted {
            g["faulted"] = json!(f);
            g["detail"] = json!("answered after 70000 ms with 60000 ms left");
        }
    }
}

#[test]
fn games_from_elsewhere_and_endings_the_config_cannot_produce_are_refused() {
    let dir = scratch("fleet-starts");
    let cluster = fleet();
    let config = fault_config(dir.path(), 6, &mainlines(), ["", ""], "");
    let id = submit(&cluster, &config, &["--batch-pairs", "1"]);
    let starts = Starts::played(&config, dir.path());
    let held = claim(&cluster, &id, "mallory", 1, "600");
    let (opening, _, moves) = starts.of_pair(held.first).clone();
    let forgeries: Vec<(&str, Vec<String>)> = vec![
        (
            "starts from `3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1` after ``",
            pair_with(&starts, &held, |g| {
                g["start_fen"] = json!(MATE_IN_ONE);
                g["opening_moves"] = json!("");
                g["moves"] = json!("b0b9");
                g["plies"] = json!(1);
                g["times_ms"] = json!([1]);
                g["scores"] = json!([null]);
                g["depths"] = json!([1]);
                g["result"] = json!("1-0");
                g["reason"] = json!("checkmate");
            }),
        ),
        (
            "not from its pair's opening",
            pair_with(&starts, &held, |g| {
                g["opening"] = json!(opening.as_u64().unwrap_or(0) + 1);
            }),
        ),
        (
            "not from its pair's opening",
            pair_with(&starts, &held, |g| {
                g["opening_moves"] = json!(moves.split(' ').next().unwrap_or("h2e2"));
            }),
        ),
        (
            "a loss by adjudication, which the run's config does not make",
            pair_with(&starts, &held, ended("adjudication_resign", "1-0", None)),
        ),
        (
            "a draw by adjudication, which the run's config does not make",
            pair_with(&starts, &held, ended("adjudication_draw", "1/2-1/2", None)),
        ),
        (
            "a loss on time by a, which plays without a clock",
            pair_with(&starts, &held, ended("time_forfeit", "0-1", Some("a"))),
        ),
        (
            "no adjudication.max_plies",
            pair_with(&starts, &held, ended("max_plies", "1/2-1/2", None)),
        ),
        (
            "moves over the clock of a, which plays without a clock",
            pair_with(&starts, &held, |g| {
                g["over_clock"] = json!([{"moves": 1, "ms": 30}, {"moves": 0, "ms": 0}]);
            }),
        ),
    ];
    for (why, games) in &forgeries {
        let err = submit_as_worker(&cluster, &held, games);
        assert!(err.contains(why), "refused with `{why}`: {err}");
    }
    assert_eq!(number(&cluster, "SELECT count(*) FROM xq.games"), 0);

    // Where the config makes them, the same endings are stored.
    let clocked_config = clocked_config(dir.path());
    let clocked = submit(&cluster, &clocked_config, &["--batch-pairs", "1"]);
    let clocked_starts = Starts::played(&clocked_config, &dir.path().join("clocked"));
    let made: Vec<Edit> = vec![
        Box::new(ended("adjudication_resign", "1-0", None)),
        Box::new(ended("adjudication_draw", "1/2-1/2", None)),
        Box::new(ended("time_forfeit", "0-1", Some("a"))),
        Box::new(|g: &mut Value| {
            g["reason"] = json!("max_plies");
            g["plies"] = json!(300);
        }),
        Box::new(|g: &mut Value| {
            g["over_clock"] = json!([{"moves": 1, "ms": 30}, {"moves": 0, "ms": 0}]);
        }),
    ];
    for edit in made {
        let held = claim(&cluster, &clocked, "mallory", 1, "600");
        let games = pair_with(&clocked_starts, &held, edit);
        assert_eq!(submit_as_worker(&cluster, &held, &games), "", "{games:?}");
    }

    // Games an older version stored are checked again by `verify`.
    let older = claim(&cluster, &id, "old", 1, "600");
    let stored: Vec<Edit> = vec![
        Box::new(|g: &mut Value| {
            g["start_fen"] = json!(MATE_IN_ONE);
            g["opening_moves"] = json!("");
            g["moves"] = json!("b0b9");
            g["plies"] = json!(1);
            g["result"] = json!("1-0");
            g["reason"] = json!("checkmate");
        }),
        // Game 1: `b` is Red, `a` Black wins.
        Box::new(ended("adjudication_resign", "0-1", None)),
    ];
    for (game, edit) in (0u8..).zip(stored) {
        let mut e = entry(&starts, older.first, game, "1/2-1/2", "repetition");
        edit(&mut e);
        let field = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
        cluster.sql(&format!(
            "INSERT INTO xq.games (run_id, pair, game, batch_id, entry, red, black, result, reason)
             VALUES ({id}, {}, {game}, {}, $e${e}$e$, '{}', '{}', '{}', '{}')",
            older.first,
            older.batch,
            field("red"),
            field("black"),
            field("result"),
            field("reason"),
        ));
    }
    cluster.sql(&format!(
        "UPDATE xq.batches SET state = 'done', done_at = now() WHERE id = {}",
        older.batch
    ));
    let owner = cluster.url("xq_owner");
    let (code, out, err) = runner(&["verify", &id, "--db", &owner]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "pair {} game 0 (worker old): starts from `{MATE_IN_ONE}`",
            older.first
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "pair {} game 1 (worker old): a loss by adjudication, which the run's config does not make",
            older.first
        )),
        "{out}"
    );
}

/// The worker grants of version 5 (`db init --worker-role` of that version).
const V5_WORKER_GRANTS: &str = "GRANT USAGE ON SCHEMA xq TO xq_worker;
     GRANT SELECT ON xq.meta, xq.runs, xq.workers, xq.run_workers,
         xq.tune_records, xq.artifacts, xq.artifact_chunks, xq.run_files TO xq_worker;
     GRANT SELECT (run_id, pair, game, batch_id, red, black, result, reason, faulted,
         over_clock) ON xq.games TO xq_worker;
     GRANT SELECT (id, run_id, first_pair, pairs, state, worker, claims, claimed_at,
         lease_until, done_at, theta) ON xq.batches TO xq_worker;
     GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
         xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
         xq.submit_batch(bigint, uuid, text[], double precision),
         xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision),
         xq.report_bench(bigint, text, jsonb),
         xq.heartbeat(text, bigint, integer, text), xq.refuse_run(bigint, text, text)
         TO xq_worker;";

#[test]
fn a_version_5_run_keeps_working_its_openings_filled_from_the_file_stored_with_it() {
    let dir = scratch("fleet-v5");
    // The run's opening file, stored with it and then gone from the owner's machine:
    // `db init` reads the stored copy.
    let book = dir.path().join("book.epd");
    std::fs::copy(mainlines(), &book).expect("copy the openings");
    let cfg = fault_config(dir.path(), 10, &book, ["", ""], "");
    let config = std::fs::read_to_string(&cfg).expect("config");
    let bytes = std::fs::read(&book).expect("openings");
    std::fs::remove_file(&book).expect("remove");
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();

    let cluster = Cluster::start();
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/src/store/pg");
    for file in [
        "schema.sql",
        "schema_v2.sql",
        "schema_v3.sql",
        "schema_v4.sql",
        "schema_v5.sql",
    ] {
        let sql = std::fs::read_to_string(schema.join(file)).expect("schema file");
        cluster.sql_as("xq_owner", "xq", &sql);
    }
    cluster.sql_as("xq_owner", "xq", V5_WORKER_GRANTS);
    let err = sql_file(
        &cluster,
        "xq_owner",
        &format!(
            "INSERT INTO xq.runs (title, config, config_hash, total_pairs, batch_pairs, engines,
                 pairings, fault_limits)
             VALUES ('a vs b', $cfg${config}$cfg$, 'v5', 10, 2, '{{a,b}}', '{{0,1}}', '{{5,20,5}}');
             INSERT INTO xq.artifacts (sha256, size, platform)
                 VALUES (encode(sha256(decode('{hex}', 'hex')), 'hex'), {}, NULL);
             INSERT INTO xq.artifact_chunks (sha256, seq, data)
                 VALUES (encode(sha256(decode('{hex}', 'hex')), 'hex'), 0, decode('{hex}', 'hex'));
             INSERT INTO xq.run_files (run_id, engine, role, name, sha256)
                 VALUES (1, NULL, 'openings', 'book.epd', encode(sha256(decode('{hex}', 'hex')), 'hex'));",
            bytes.len()
        ),
    );
    assert_eq!(err, "", "the run of version 5 stored");
    let (code, out, err) = runner(&["db", "init", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("upgraded the xq-runner schema from version 5 to 8"),
        "{out}"
    );
    assert_eq!(
        cluster.sql(
            "SELECT opening_cycle, (SELECT count(*) FROM xq.run_openings), clocked FROM xq.runs"
        ),
        "84|10|{f,f}",
        "one start per round, from the 84 openings of the stored file"
    );
    let w = finish(worker(&cluster, "w", &["--concurrency", "1"]));
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));
    let state = status(&cluster, "1");
    assert_eq!(
        (state["state"].as_str(), state["games"].as_u64()),
        (Some("finished"), Some(20)),
        "{state}"
    );
    let (code, out, err) = runner(&["verify", "1", "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("note:"), "its starts were checked: {out}");
}
