//! What a run does when its outputs cannot be written as asked: a full disk (a file
//! size limit stands for it) keeps the previous outputs whole and exits 4 with one line;
//! an `output.pgnout` naming one of the run's own files is refused before anything is
//! written; a reader of stdout that leaves (`| head -3`) stops a run as a signal would.

mod common;

use std::collections::BTreeMap;
use std::io::BufRead as _;
use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{bin, mainlines, path, runner, scratch, wait_for};

/// The files a run writes at its end, with their bytes.
fn outputs(dir: &Path) -> BTreeMap<&'static str, Vec<u8>> {
    ["games.pgn", "summary.json", "report.html", "summary.md"]
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
            (f, bytes)
        })
        .collect()
}

/// The names in a folder that start with a dot (temporary files).
fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

#[test]
fn a_full_disk_keeps_the_previous_outputs_whole_and_exits_4() {
    let folder = scratch("full-disk");
    let config = common::fault_config(folder.path(), 10, &mainlines(), ["", ""], "");
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = folder.path().join("out");
    let before = outputs(&out);
    // The limit below is 8 blocks: 4 KiB where a block is 512 bytes (dash), 8 KiB
    // where it is 1 KiB (bash). The journal, the PGN and the page are all larger, so
    // the next game and every output fail to be written, whichever shell runs.
    let journal_len = std::fs::metadata(out.join("games.jsonl"))
        .expect("journal")
        .len();
    assert!(journal_len > 8192, "journal of {journal_len} bytes");
    for file in ["games.pgn", "report.html"] {
        assert!(
            before[file].len() > 8192,
            "{file}: {} bytes",
            before[file].len()
        );
    }

    // Extended under a file size limit: the runner gets EFBIG (it catches SIGXFSZ).
    let limited = Command::new("sh")
        .args(["-c", "ulimit -f 8 && exec \"$0\" \"$@\""])
        .arg(bin("xq-runner"))
        .args(["resume", path(&out), "--pairs", "20"])
        .output()
        .expect("run the runner under a limit");
    let stdout = String::from_utf8_lossy(&limited.stdout);
    let stderr = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(
        limited.status.code(),
        Some(4),
        "writing the outputs failed: exit 4\n{stdout}{stderr}"
    );
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "one error line: {stderr}");
    assert!(
        errors[0].contains("cannot write") && errors[0].contains("File too large"),
        "{}",
        errors[0]
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        outputs(&out) == before,
        "the previous outputs are whole and unchanged"
    );
    assert_eq!(hidden(&out), Vec::<String>::new(), "no temporary file left");

    // With room again, a resume plays the rest and writes everything.
    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("Finished: 40 games"), "{stdout}");
    let summary: serde_json::Value =
        serde_json::from_slice(&outputs(&out)["summary.json"]).expect("summary");
    assert_eq!(summary["games"], 40);
}

#[test]
fn a_pgnout_naming_the_run_s_own_files_is_refused_before_anything_is_written() {
    let folder = scratch("pgnout-own");
    let config = common::fault_config(folder.path(), 2, &mainlines(), ["", ""], "");
    let config_text = std::fs::read_to_string(&config).expect("config");
    let out = folder.path().join("out");
    let own = [
        (out.join("games.jsonl"), "the run's journal"),
        (out.join("run.json"), "the run's config and state"),
        (out.join("summary.json"), "the run's summary"),
        (config.clone(), "the run's config file"),
    ];
    for (file, what) in &own {
        let set = format!("output.pgnout={}", path(file));
        for dry in [false, true] {
            let mut args = vec!["run", path(&config), "--set", &set];
            if dry {
                args.push("--dry-run");
            }
            let (code, stdout, stderr) = runner(&args);
            assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
            assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
            assert!(
                stderr.starts_with(&format!("error: output.pgnout: `{}` is {what}", path(file))),
                "{stderr}"
            );
            assert!(!out.exists(), "nothing written: {args:?}");
        }
    }
    assert_eq!(
        std::fs::read_to_string(&config).expect("config"),
        config_text,
        "the config is untouched"
    );

    // A resume checks the folder it is given: a finished run whose run.json names its
    // own journal (an older runner let it through) is refused, the journal kept.
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let journal = std::fs::read(out.join("games.jsonl")).expect("journal");
    let meta = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    let damaged = meta.replace(
        "[output]",
        &format!(
            "[output]\\npgnout = \\\"{}\\\"",
            path(&out.join("games.jsonl"))
        ),
    );
    assert_ne!(meta, damaged, "run.json holds the config's [output]");
    std::fs::write(out.join("run.json"), damaged).expect("run.json");
    let (code, _, stderr) = runner(&["resume", path(&out), "--pairs", "3"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with("error: output.pgnout: `") && stderr.contains("is the run's journal"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(out.join("games.jsonl")).expect("journal"),
        journal
    );
}

#[test]
fn a_reader_of_stdout_that_leaves_stops_the_run_with_its_outputs_written() {
    let folder = scratch("broken-pipe");
    let slow = r#", "--fault", "sleep", "--sleep-ms", "5""#;
    let config = common::fault_config(folder.path(), 20, &mainlines(), [slow, slow], "");
    let mut child = Command::new(bin("xq-runner"))
        .args(["run", path(&config)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the runner");
    // `| head -3`: three lines read, then the pipe closed.
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = std::io::BufReader::new(stdout).lines();
    for _ in 0..3 {
        lines.next().expect("a line").expect("text");
    }
    drop(lines);
    let code = wait_for(&mut child, Duration::from_secs(120));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert_eq!(code, Some(4), "stopped as by a signal: exit 4\n{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    assert!(stderr.contains("Interrupted (stdout closed)"), "{stderr}");
    let out = folder.path().join("out");
    let summary: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("summary.json")).expect("summary.json written"),
    )
    .expect("summary");
    assert_eq!(summary["status"], "interrupted");
    let games = summary["games"].as_u64().expect("games");
    assert!(games < 40, "stopped early: {games} games");
    assert!(out.join("report.html").is_file() && out.join("games.pgn").is_file());
}

#[test]
fn commands_printing_into_a_closed_pipe_end_quietly() {
    let folder = scratch("closed-pipe");
    let config = common::fault_config(folder.path(), 2, &mainlines(), ["", ""], "");
    for args in [
        vec!["stats", "--penta", "1,2,3,4,5"],
        vec!["run", path(&config), "--dry-run"],
        vec!["judge", "--moves", "h2e2", "h9g7"],
    ] {
        // A pipe whose reader is gone before the first write: every write meets EPIPE.
        let (reader, writer) = nix::unistd::pipe().expect("pipe");
        drop(reader);
        let out = Command::new(bin("xq-runner"))
            .args(&args)
            .stdout(Stdio::from(writer))
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
