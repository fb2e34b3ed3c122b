//! Builds that travel with the run, against a real PostgreSQL server started for each
//! test: a worker with an empty cache, in an empty folder, plays a run whose engine, the
//! file beside it and the opening file were deleted after `submit`, and its games are a
//! local run's; the same build is not downloaded twice, and two workers sharing a cache
//! keep one copy; a file changed in the database or built for another platform is
//! refused before anything runs; the worker role cannot write artifacts; bad files are
//! refused at submit with one line; a bench that varies between two runs at once is
//! refused, and each worker's bench speed shows in `status`. A place of the cache
//! changed, planted in or linked elsewhere is made again before anything runs, and a
//! file name from the database that leads out of the cache refuses the run.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::fleet::{finish, fleet, local_games, reported_games, status, submit, text};
use common::pg::Cluster;
use common::{bin, fault_engine, mainlines, path, runner, scratch};

/// What a user submits: a build folder with the engine, a net beside it and the book,
/// and a config naming them. Returns the config.
fn build(dir: &Path, pairs: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let build = dir.join("build");
    std::fs::create_dir_all(&build).expect("build folder");
    let engine = build.join("fault-engine");
    std::fs::copy(fault_engine(), &engine).expect("copy the engine");
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::write(build.join("eval.nnue"), vec![7u8; 3000]).expect("a net");
    std::fs::copy(mainlines(), build.join("book.epd")).expect("copy the book");
    let text = format!(
        r#"[tournament]
pairs = {pairs}
concurrency = 2
seed = 3

[time]
depth = 1

[openings]
file = "{book}"
order = "random"

[output]
dir = "{out}"

[[engine]]
name = "a"
command = ["{engine}"]
files = ["eval.nnue"]

[[engine]]
name = "b"
command = ["{engine}"]
files = ["eval.nnue"]
"#,
        book = build.join("book.epd").display(),
        out = dir.join("out").display(),
        engine = engine.display(),
    );
    let config = dir.join("run.toml");
    std::fs::write(&config, text).expect("config");
    config
}

/// A worker as the worker role, in `cwd`, with its own cache.
fn worker_in(cluster: &Cluster, name: &str, cwd: &Path, cache: &Path, run: &str) -> Child {
    Command::new(bin("xq-runner"))
        .args(["worker", "--db", &cluster.url("xq_worker"), "--name", name])
        .args(["--concurrency", "2", "--run", run, "--cache", path(cache)])
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a worker")
}

fn fetched(output: &str) -> usize {
    output.lines().filter(|l| l.contains(": fetched ")).count()
}

/// The files in a folder, without the hidden ones.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_worker_with_an_empty_cache_plays_a_run_whose_files_are_gone() {
    let dir = scratch("fleet-artifacts");
    let config = build(dir.path(), 6);
    let expected = local_games(&config, &dir.path().join("local"));
    let cluster = fleet();
    let first = submit(&cluster, &config, &["--batch-pairs", "1"]);
    let second = submit(&cluster, &config, &[]);
    let third = submit(&cluster, &config, &["--batch-pairs", "1"]);
    assert_eq!(
        cluster.sql("SELECT count(*) FROM xq.artifacts"),
        "3",
        "the engine, its net and the book, stored once for three runs"
    );
    std::fs::remove_dir_all(dir.path().join("build")).expect("the build is gone");
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).expect("an empty folder");

    let cache = dir.path().join("cache");
    let out = finish(worker_in(&cluster, "w", &empty, &cache, &first));
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(fetched(&said), 3, "each file once: {said}");
    assert_eq!(
        reported_games(&cluster, &first, &dir.path().join("report")),
        expected,
        "the games of a local run, game for game"
    );
    // The engine ran from a folder of its own, its net beside it.
    let places: Vec<PathBuf> = std::fs::read_dir(cache.join("places"))
        .expect("places")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| listing(p).contains(&"fault-engine".to_owned()))
        .collect();
    assert_eq!(places.len(), 1, "one folder for both engines: {places:?}");
    assert_eq!(listing(&places[0]), ["eval.nnue", "fault-engine"]);
    // status and verify read the run on a machine without its files.
    assert_eq!(status(&cluster, &first)["games"], 12);
    let (code, out_v, err_v) = runner(&["verify", &first, "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out_v}{err_v}");

    // The same build again: nothing downloaded.
    let out = finish(worker_in(&cluster, "w", &empty, &cache, &second));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(fetched(&text(&out)), 0, "{}", text(&out));
    assert_eq!(status(&cluster, &second)["state"], "finished");

    // Two workers filling one empty cache at once: one copy, both play.
    let shared = dir.path().join("shared");
    let both: Vec<Child> = ["x", "y"]
        .iter()
        .map(|n| worker_in(&cluster, n, &empty, &shared, &third))
        .collect();
    for w in both {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    assert_eq!(status(&cluster, &third)["games"], 12);
    let blobs = listing(&shared.join("blobs"));
    assert_eq!(
        blobs.len(),
        3,
        "one copy of each file, no part left: {blobs:?}"
    );
}

#[test]
fn a_stored_file_changed_or_of_another_platform_is_refused_before_anything_runs() {
    let dir = scratch("fleet-artifacts-tampered");
    let config = build(dir.path(), 2);
    let cluster = fleet();
    let id = submit(&cluster, &config, &[]);
    let program =
        cluster.sql("SELECT sha256 FROM xq.run_files WHERE role = 'program' AND engine = 0");
    // The database's owner changes one byte of the engine.
    let flip = |sql_byte: &str| {
        cluster.sql(&format!(
            "UPDATE xq.artifact_chunks SET data = set_byte(data, 100, {sql_byte})
             WHERE sha256 = '{program}' AND seq = 0"
        ))
    };
    let original = cluster.sql(&format!(
        "SELECT get_byte(data, 100) FROM xq.artifact_chunks WHERE sha256 = '{program}' AND seq = 0"
    ));
    flip(&format!("({original} + 1) % 256"));
    let cache = dir.path().join("cache");
    let out = finish(worker_in(&cluster, "w1", dir.path(), &cache, &id));
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    let state = status(&cluster, &id);
    assert_eq!(state["games"], 0, "nothing of the run was played");
    let refused = state["workers"][0]["refused"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        refused.contains("fault-engine: the stored file is not the one the run names")
            && refused.contains(&program),
        "{refused}"
    );
    assert!(
        !listing(&cache.join("blobs")).contains(&program),
        "never kept"
    );
    assert!(
        listing(&cache.join("blobs"))
            .iter()
            .all(|b| !b.contains("part")),
        "no part left"
    );

    // Mended, but marked for another platform: refused again, in one line.
    flip(&original);
    cluster.sql(&format!(
        "UPDATE xq.artifacts SET platform = 'aarch64-linux' WHERE sha256 = '{program}'"
    ));
    let out = finish(worker_in(&cluster, "w2", dir.path(), &cache, &id));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains(
            "fault-engine is a program for aarch64-linux, and this worker is x86_64-linux"
        ),
        "{}",
        text(&out)
    );
    // As it was: a new worker plays the run.
    cluster.sql(&format!(
        "UPDATE xq.artifacts SET platform = 'x86_64-linux' WHERE sha256 = '{program}'"
    ));
    let out = finish(worker_in(&cluster, "w3", dir.path(), &cache, &id));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(status(&cluster, &id)["games"], 4);
}

#[test]
fn the_worker_role_can_read_artifacts_and_nothing_more() {
    let dir = scratch("fleet-artifacts-role");
    let config = build(dir.path(), 1);
    let cluster = fleet();
    submit(&cluster, &config, &[]);
    let sha = cluster.sql("SELECT min(sha256) FROM xq.artifacts");
    assert_eq!(
        cluster.sql_as("xq_worker", "xq", "SELECT count(*) FROM xq.artifact_chunks"),
        cluster.sql("SELECT count(*) FROM xq.artifact_chunks"),
        "it reads them"
    );
    for attack in [
        format!("INSERT INTO xq.artifacts (sha256, size) VALUES ('{}', 1)", "0".repeat(64)),
        format!("UPDATE xq.artifact_chunks SET data = '\\x00' WHERE sha256 = '{sha}'"),
        format!("DELETE FROM xq.artifact_chunks WHERE sha256 = '{sha}'"),
        format!("UPDATE xq.artifacts SET platform = NULL WHERE sha256 = '{sha}'"),
        "DELETE FROM xq.run_files".to_owned(),
        "INSERT INTO xq.run_files (run_id, role, name, sha256) SELECT 1, 'openings', 'x', min(sha256) FROM xq.artifacts".to_owned(),
    ] {
        let out = cluster.psql("xq_worker", "xq", &attack);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success() && err.contains("permission denied"), "{attack}: {err}");
    }
}

#[test]
fn bad_files_are_refused_at_submit_with_one_line() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("fleet-artifacts-bad");
    let config = build(dir.path(), 1);
    let cluster = fleet();
    let url = cluster.url("xq_owner");
    let cfg = path(&config);
    // An ELF program for another machine.
    let foreign = dir.path().join("build/arm-engine");
    let mut header = vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 0];
    header.resize(18, 0);
    header.extend_from_slice(&[0xb7, 0]);
    header.resize(64, 0);
    std::fs::write(&foreign, header).expect("write");
    std::fs::set_permissions(&foreign, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let foreign_set = format!("engine.a.command=[\"{}\"]", foreign.display());
    let folder_set = format!("engine.a.command=[\"{}\"]", dir.path().display());
    for (args, says) in [
        (
            vec!["--max-artifact", "1KB"],
            "is over the largest file a run may carry, 1.0 KB (--max-artifact)",
        ),
        (
            vec!["--set", &foreign_set],
            "a program for aarch64-linux, and this machine is x86_64-linux",
        ),
        (
            vec!["--set", "engine.a.files=[\"missing.nnue\"]"],
            "engine.0.files: `missing.nnue` not found in",
        ),
        (
            vec!["--set", "engine.a.files=[\"../eval.nnue\"]"],
            "a relative path inside its folder",
        ),
        (vec!["--set", &folder_set], "not found"),
    ] {
        let mut all = vec!["submit", cfg, "--db", &url];
        all.extend(args.iter().copied());
        let (code, out, err) = runner(&all);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
    assert_eq!(
        cluster.sql("SELECT count(*) FROM xq.runs"),
        "0",
        "nothing stored"
    );
    assert_eq!(cluster.sql("SELECT count(*) FROM xq.artifacts"), "0");
    // Engines installed on every worker: nothing carried.
    let (code, out, err) = runner(&["submit", cfg, "--db", &url, "--no-upload"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("no files carried (the workers have them)"),
        "{err}"
    );
    assert_eq!(cluster.sql("SELECT count(*) FROM xq.run_files"), "0");
}

#[test]
fn a_build_whose_bench_varies_is_refused_and_speeds_show_in_status() {
    let dir = scratch("fleet-artifacts-bench");
    let config = build(dir.path(), 1);
    let engine = dir.path().join("build/fault-engine");
    let cluster = fleet();
    let steady = submit(
        &cluster,
        &config,
        &[
            "--set",
            "engine.a.bench=4242",
            "--set",
            "engine.b.bench=4242",
        ],
    );
    let varies = format!(
        "engine.a.command=[\"{}\", \"--bench-nodes\", \"varies\"]",
        engine.display()
    );
    let unsteady = submit(
        &cluster,
        &config,
        &["--set", &varies, "--set", "engine.a.bench=1"],
    );
    let cache = dir.path().join("cache");
    let out = finish(worker_in(&cluster, "w", dir.path(), &cache, &steady));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let state = status(&cluster, &steady);
    assert_eq!(state["workers"][0]["bench_nps"]["a"], 42420, "{state}");
    let (code, out_text, err) = runner(&["status", "--db", &cluster.url("xq_owner"), &steady]);
    assert_eq!(code, 0, "{out_text}{err}");
    assert!(
        out_text.contains("a bench 0.04 Mnodes/s, b bench 0.04 Mnodes/s"),
        "{out_text}"
    );

    let out = finish(worker_in(&cluster, "w", dir.path(), &cache, &unsteady));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let state = status(&cluster, &unsteady);
    assert_eq!(state["games"], 0);
    let refused = state["workers"][0]["refused"].as_str().unwrap_or_default();
    assert!(
        refused.contains("engine a: non-deterministic bench:")
            && refused.contains("in two runs at once"),
        "{refused}"
    );
}

/// The place (`places/KEY`) of the cache that holds the engines.
fn engine_place(cache: &Path) -> PathBuf {
    let places: Vec<PathBuf> = std::fs::read_dir(cache.join("places"))
        .expect("places")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("fault-engine").exists())
        .collect();
    assert_eq!(places.len(), 1, "{places:?}");
    places.into_iter().next().expect("a place")
}

/// A program that notes in `marker` that it ran, then is the fault engine.
fn impostor(at: &Path, marker: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::write(
        at,
        format!(
            "#!/bin/sh\necho ran >> '{}'\nexec '{}' \"$@\"\n",
            marker.display(),
            fault_engine().display()
        ),
    )
    .expect("write the impostor");
    std::fs::set_permissions(at, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn a_place_changed_planted_or_linked_elsewhere_is_made_again_before_anything_runs() {
    let dir = scratch("fleet-artifacts-places");
    let config = build(dir.path(), 1);
    let cluster = fleet();
    let runs: Vec<String> = (0..5).map(|_| submit(&cluster, &config, &[])).collect();
    let cache = dir.path().join("cache");
    let marker = dir.path().join("impostor-ran");
    let play = |run: &str| {
        let out = finish(worker_in(&cluster, "w", dir.path(), &cache, run));
        let said = text(&out);
        assert_eq!(out.status.code(), Some(0), "{said}");
        assert_eq!(status(&cluster, run)["games"], 2, "{said}");
        said
    };
    let said = play(&runs[0]);
    assert!(!said.contains("made again"), "{said}");
    let place = engine_place(&cache);
    let key = place.file_name().expect("key").to_owned();

    // The engine's file written over where it is (the blob is the same file): the blob
    // is fetched again, the place made again from it.
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    impostor(&outside.join("impostor"), &marker);
    std::fs::copy(outside.join("impostor"), place.join("fault-engine")).expect("overwrite");
    let said = play(&runs[1]);
    assert!(!marker.exists(), "the impostor ran: {said}");
    assert!(
        said.contains("does not verify (`fault-engine` is not the file the run names")
            && said.contains("made again"),
        "{said}"
    );

    // A new file renamed over the engine's (another inode, the blob intact).
    let place = engine_place(&cache);
    impostor(&place.join(".new"), &marker);
    std::fs::rename(place.join(".new"), place.join("fault-engine")).expect("rename over");
    let said = play(&runs[2]);
    assert!(!marker.exists(), "the impostor ran: {said}");
    assert!(said.contains("made again"), "{said}");

    // A file planted beside the run's.
    std::fs::write(engine_place(&cache).join("engine.cfg"), "evil").expect("plant");
    let said = play(&runs[3]);
    assert!(
        said.contains("`engine.cfg` is not one of the run's files"),
        "{said}"
    );
    assert!(!engine_place(&cache).join("engine.cfg").exists());

    // The place a link to a folder elsewhere, made to pass: the manifest, the net and
    // an impostor for the engine.
    let place = engine_place(&cache);
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    for file in [".manifest", "eval.nnue"] {
        std::fs::copy(place.join(file), elsewhere.join(file)).expect("copy");
    }
    impostor(&elsewhere.join("fault-engine"), &marker);
    std::fs::remove_dir_all(&place).expect("remove the place");
    std::os::unix::fs::symlink(&elsewhere, cache.join("places").join(&key)).expect("symlink");
    let said = play(&runs[4]);
    assert!(!marker.exists(), "the impostor ran: {said}");
    assert!(
        said.contains("a symbolic link, not a folder of the cache"),
        "{said}"
    );
    let place = engine_place(&cache);
    assert!(
        !std::fs::symlink_metadata(&place)
            .expect("place")
            .file_type()
            .is_symlink(),
        "a folder of its own again"
    );
    assert!(
        elsewhere.join("fault-engine").exists(),
        "the folder elsewhere left alone"
    );
}

#[test]
fn a_file_name_that_leaves_the_cache_refuses_the_run_and_writes_nothing_outside() {
    let dir = scratch("fleet-artifacts-names");
    let config = build(dir.path(), 1);
    let cluster = fleet();
    let cache = dir.path().join("cache");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me").expect("a file outside the cache");
    // A place is made in `cache/places/.KEY-PID`: three levels up is beside the cache.
    let escape = dir.path().join("escaped");
    for (n, name) in [
        victim.display().to_string(),
        "../../../escaped".to_owned(),
        "nets/../../../../escaped".to_owned(),
    ]
    .iter()
    .enumerate()
    {
        let id = submit(&cluster, &config, &[]);
        // The database's owner (or whoever holds it) names the net so.
        cluster.sql(&format!(
            "UPDATE xq.run_files SET name = '{name}' WHERE run_id = {id} AND role = 'file' AND engine = 0"
        ));
        let out = finish(worker_in(
            &cluster,
            &format!("w{n}"),
            dir.path(),
            &cache,
            &id,
        ));
        let said = text(&out);
        assert_eq!(
            std::fs::read_to_string(&victim).expect("victim"),
            "keep me",
            "{name}: the file outside the cache was written over: {said}"
        );
        assert!(!escape.exists(), "{name}: wrote {}", escape.display());
        assert_eq!(out.status.code(), Some(2), "{name}: {said}");
        assert!(
            said.contains(&format!(
                "`{name}`: a run's file is named by a relative path inside its engine's folder"
            )),
            "{name}: {said}"
        );
        assert_eq!(status(&cluster, &id)["games"], 0);
    }
}
