//! The run folders that `report ID --db --out DIR` and `run --db` write, against a real
//! PostgreSQL server (common/pg.rs), as a new user met them: a report never writes over a
//! folder that holds another run (a local run with the same config, or another stored
//! run), and `resume` of a folder that `run --db` wrote refuses an opening file changed
//! since, as it does for a local run's folder.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::fleet::{finish, fleet, submit, text, worker};
use common::{journal, mainlines, path, runner, scratch};

/// `report ID --db --out DIR` as the owner.
fn report(cluster: &common::pg::Cluster, id: &str, dir: &Path) -> (i32, String, String) {
    runner(&[
        "report",
        id,
        "--db",
        &cluster.url("xq_owner"),
        "--out",
        path(dir),
    ])
}

/// Slow engines: the same games, each move 5 ms later, so a run can be stopped midway.
const SLOW: &str = r#", "--fault", "sleep", "--sleep-ms", "5""#;

#[test]
fn report_of_a_stored_run_refuses_a_folder_that_holds_another_run() {
    let dir = scratch("fleet-folders-report");
    let config = common::fault_config(dir.path(), 6, &mainlines(), [SLOW, SLOW], "");
    // A local run of the config, stopped midway, in the folder the user then gave to
    // `report --out`.
    let local = dir.path().join("mine");
    let mut child = Command::new(common::bin("xq-runner"))
        .args(["run", path(&config), "--out", path(&local)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the local run");
    assert!(
        common::eventually(Duration::from_secs(60), || {
            common::journal_games_so_far(&local) >= 2
        }),
        "the local run played no games"
    );
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(term.success());
    assert_eq!(
        common::wait_for(&mut child, Duration::from_secs(60)),
        Some(4)
    );
    let played = std::fs::read(local.join("games.jsonl")).expect("the local journal");
    let games = journal(&local).len();
    assert!(games < 12, "stopped midway ({games} games)");
    let summary = std::fs::read(local.join("summary.json")).expect("the local summary");

    // The same config stored and played to its end.
    let cluster = fleet();
    let id = submit(&cluster, &config, &[]);
    let w = finish(worker(&cluster, "w", &[]));
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));

    let (code, out, err) = report(&cluster, &id, &local);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: holds a local run, not run {id}: give another --out",
            local.display()
        )
    );
    assert_eq!(
        std::fs::read(local.join("games.jsonl")).expect("journal"),
        played,
        "the local journal kept, byte for byte"
    );
    assert_eq!(
        std::fs::read(local.join("summary.json")).expect("summary"),
        summary
    );
    // The local run goes on from its own games.
    let (code, out, err) = runner(&["resume", path(&local)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("Resuming {}: {games} games", local.display())),
        "{out}"
    );

    // A folder of one stored run is rewritten by its own report, refused to another
    // stored run of the same config.
    let first = dir.path().join("first");
    let (code, out, err) = report(&cluster, &id, &first);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = report(&cluster, &id, &first);
    assert_eq!(code, 0, "the same run's folder is rewritten: {out}{err}");
    assert_eq!(journal(&first).len(), 12);
    // Its journal replaced by a link to a file elsewhere: not written through.
    let precious = dir.path().join("precious.txt");
    std::fs::write(&precious, "keep me\n").expect("write");
    std::fs::remove_file(first.join("games.jsonl")).expect("unlink the journal");
    std::os::unix::fs::symlink(&precious, first.join("games.jsonl")).expect("plant a link");
    let (code, out, err) = report(&cluster, &id, &first);
    assert_ne!(code, 0, "{out}{err}");
    assert!(err.contains("a symbolic link, not followed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&precious).expect("target"),
        "keep me\n"
    );
    std::fs::remove_file(first.join("games.jsonl")).expect("unplant");
    let other = submit(&cluster, &config, &[]);
    let (code, out, err) = report(&cluster, &other, &first);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: holds stored run {id}, not run {other}: give another --out",
            first.display()
        )
    );
}

#[test]
fn resume_of_a_run_db_folder_refuses_an_opening_file_changed_since() {
    let dir = scratch("fleet-folders-openings");
    // An opening file of the user's own, which the run's folder must remember.
    let openings = dir.path().join("book.epd");
    std::fs::copy(mainlines(), &openings).expect("copy the openings");
    let config = common::fault_config(dir.path(), 4, &openings, ["", ""], "");
    let cluster = fleet();
    let (code, out, err) = runner(&["run", path(&config), "--db", &cluster.url("xq_owner")]);
    assert_eq!(code, 0, "{out}{err}");
    let folder = dir.path().join("out");
    assert_eq!(journal(&folder).len(), 8);

    // The same file resumes; a comment added to it is a changed file, as for a local run.
    let (code, out, err) = runner(&["resume", path(&folder)]);
    assert_eq!(code, 0, "{out}{err}");
    let mut text = std::fs::read_to_string(&openings).expect("openings");
    text.push_str("# a comment added later\n");
    std::fs::write(&openings, text).expect("write");
    let (code, out, err) = runner(&["resume", path(&folder), "--pairs", "6"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.starts_with(&format!(
            "error: {}: the opening file changed since the run started",
            openings.display()
        )) && err.trim_end().lines().count() == 1,
        "{err}"
    );
    assert_eq!(journal(&folder).len(), 8, "nothing played");
    // The fingerprint it compared, that of the file the run was submitted with.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("run.json")).expect("run.json"))
            .expect("JSON");
    assert!(meta["openings"]["fingerprint"].is_string(), "{meta}");
}
