//! A run folder edited by hand, or mixed with another run's files, then resumed: a
//! journal line that is not one of the run's games, and a `run.json` value the command
//! line would refuse, stop the resume with one line naming the file and the line or key,
//! before anything is played or written (exit 2); a torn last line (a kill in mid-write)
//! is still dropped without a word. And an opening file holding an opening that is
//! already over is refused when a run starts, as one with an illegal move is.

mod common;

use std::path::{Path, PathBuf};

use common::{journal, mainlines, path, runner, scratch};
use serde_json::Value;

/// A finished 4-pair run of instant fault engines in `dir/out`.
fn finished_run(dir: &Path) -> PathBuf {
    let config = common::fault_config(dir, 4, &mainlines(), ["", ""], "");
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    dir.join("out")
}

/// A copy of a run folder's `run.json` and journal in a new folder `name` beside it.
fn copy_of(out: &Path, name: &str) -> PathBuf {
    let copy = out.with_file_name(name);
    std::fs::create_dir_all(&copy).expect("create the copy");
    for file in ["run.json", "games.jsonl"] {
        std::fs::copy(out.join(file), copy.join(file)).expect("copy");
    }
    copy
}

fn write_journal(dir: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("games.jsonl"), text).expect("write the journal");
}

/// `pair P game G` as the line writes them.
fn game_of(line: &Value) -> String {
    format!("pair {} game {}", line["pair"], line["game"])
}

/// Resumes `dir` with more pairs and checks that it is refused with one line that
/// contains `want`, the journal as it was and nothing written.
fn refused(dir: &Path, want: &str) {
    let before = std::fs::read(dir.join("games.jsonl")).expect("journal");
    let (code, stdout, stderr) = runner(&["resume", path(dir), "--pairs", "6"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(want), "want `{want}` in: {stderr}");
    assert_eq!(
        std::fs::read(dir.join("games.jsonl")).expect("journal"),
        before,
        "the journal is left as it was"
    );
    assert!(!dir.join("summary.json").exists(), "nothing written");
}

#[test]
fn journal_lines_that_are_not_the_runs_games_refuse_the_resume_naming_the_line() {
    let folder = scratch("edited-journal");
    let out = finished_run(folder.path());
    let lines = journal(&out);
    assert_eq!(lines.len(), 8);
    let name = |copy: &Path, line: usize| {
        format!(
            "{}:{line}: not a game of this run: ",
            copy.join("games.jsonl").display()
        )
    };

    // A game number of 2 would stand in for the next pair's game 0.
    let copy = copy_of(&out, "game-2");
    let mut edited = lines.clone();
    edited[2]["game"] = Value::from(2);
    write_journal(&copy, &edited);
    let want = format!(
        "{}game 2 of pair {}: a pair has games 0 and 1 only",
        name(&copy, 3),
        lines[2]["pair"]
    );
    refused(&copy, &want);
    // A dry run checks the journal as the resume does.
    let (code, stdout, stderr) = runner(&["resume", path(&copy), "--dry-run"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains(&want), "want `{want}` in: {stderr}");

    // Another run's engines.
    let copy = copy_of(&out, "stranger");
    let mut edited = lines.clone();
    edited[1]["red"] = Value::from("stranger");
    write_journal(&copy, &edited);
    let want = format!(
        "{}{} is `stranger` against",
        name(&copy, 2),
        game_of(&lines[1])
    );
    refused(&copy, &want);

    // This run's engines on the wrong colours.
    let copy = copy_of(&out, "swapped");
    let mut edited = lines.clone();
    edited[0]["red"] = lines[0]["black"].clone();
    edited[0]["black"] = lines[0]["red"].clone();
    write_journal(&copy, &edited);
    refused(
        &copy,
        &format!("{}{} is `", name(&copy, 1), game_of(&lines[0])),
    );

    // A pair number that would overflow past the "already played" check.
    let copy = copy_of(&out, "overflow");
    let mut edited = lines.clone();
    edited[4]["pair"] = Value::from(u64::MAX);
    write_journal(&copy, &edited);
    let want = format!(
        "{}pair 18446744073709551615 is beyond the run's 6 pairs",
        name(&copy, 5)
    );
    refused(&copy, &want);

    // Another opening than the run plays for the pair.
    let copy = copy_of(&out, "opening");
    let mut edited = lines.clone();
    let opening = lines[3]["opening"].as_u64().expect("an opening index");
    edited[3]["opening"] = Value::from(opening + 1);
    write_journal(&copy, &edited);
    let want = format!(
        "{}{} played opening {}; this run plays opening {opening} there",
        name(&copy, 4),
        game_of(&lines[3]),
        opening + 1
    );
    refused(&copy, &want);

    // A doubled line: counted once in the summary, written twice in the PGN, before.
    let copy = copy_of(&out, "doubled");
    let mut edited = lines.clone();
    edited.push(lines[1].clone());
    write_journal(&copy, &edited);
    let want = format!(
        "{}{} is on an earlier line too",
        name(&copy, 9),
        game_of(&lines[1])
    );
    refused(&copy, &want);

    // The folder as the run left it resumes, and so does one with a torn last line.
    let copy = copy_of(&out, "honest");
    let (code, stdout, stderr) = runner(&["resume", path(&copy), "--pairs", "5"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(journal(&copy).len(), 10);
    let torn = copy_of(&out, "torn");
    let mut bytes = std::fs::read(torn.join("games.jsonl")).expect("journal");
    let half = format!("{}", lines[0]);
    bytes.extend_from_slice(&half.as_bytes()[..half.len() / 2]);
    std::fs::write(torn.join("games.jsonl"), bytes).expect("tear");
    let (code, stdout, stderr) = runner(&["resume", path(&torn), "--pairs", "5"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stderr.contains("games.jsonl"), "{stderr}");
    assert_eq!(journal(&torn).len(), 10, "the torn line cut, 2 games added");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(torn.join("summary.json")).expect("summary"))
            .expect("JSON");
    assert_eq!(summary["games"], 10);
}

#[test]
fn report_refuses_a_journal_that_resume_refuses_with_the_same_line() {
    let folder = scratch("edited-report");
    let out = finished_run(folder.path());
    let lines = journal(&out);
    let mut doubled = lines.clone();
    doubled.push(lines[1].clone());
    let mut stranger = lines.clone();
    stranger[1]["red"] = Value::from("stranger");
    for (name, edited) in [("doubled", doubled), ("stranger", stranger)] {
        let copy = copy_of(&out, name);
        write_journal(&copy, &edited);
        let (code, stdout, resumed) = runner(&["resume", path(&copy), "--dry-run"]);
        assert_eq!(code, 2, "{stdout}{resumed}");
        // Before, `report` counted the lines as games and wrote a PASS without a word.
        let (code, stdout, reported) = runner(&["report", path(&copy)]);
        assert_eq!(code, 2, "{name}: {stdout}{reported}");
        assert_eq!(reported.lines().count(), 1, "one line: {reported}");
        assert!(
            reported.contains(&format!(
                "{}:{}: not a game of this run: ",
                copy.join("games.jsonl").display(),
                if name == "doubled" { 9 } else { 2 }
            )),
            "{reported}"
        );
        assert_eq!(
            reported.lines().next(),
            resumed
                .lines()
                .find(|l| l.contains("not a game of this run")),
            "resume and report say the same"
        );
        assert!(!copy.join("report.html").exists(), "no report written");
        assert!(!copy.join("summary.md").exists(), "no summary written");
    }
    // The folder as the run left it is reported on, without a word on stderr.
    let (code, stdout, stderr) = runner(&["report", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_shard_resumes_its_own_pairs_and_refuses_another_shards() {
    let folder = scratch("edited-shard");
    let config = common::fault_config(folder.path(), 6, &mainlines(), ["", ""], "");
    let (code, stdout, stderr) = runner(&["run", path(&config), "--shard", "2/3"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = folder.path().join("out/shard-2-of-3");
    let lines = journal(&out);
    let pairs: Vec<u64> = lines.iter().filter_map(|l| l["pair"].as_u64()).collect();
    assert_eq!(pairs.len(), 4, "pairs 1 and 4, two games each: {pairs:?}");
    let copy = copy_of(&out, "foreign-shard");
    let mut edited = lines.clone();
    edited[0]["pair"] = Value::from(2);
    write_journal(&copy, &edited);
    let want = format!(
        "{}:1: not a game of this run: pair 2 is not in shard 2/3, which this folder plays",
        copy.join("games.jsonl").display()
    );
    refused(&copy, &want);
    let (code, stdout, stderr) = runner(&["resume", path(&out), "--pairs", "8"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(journal(&out).len(), 6, "pair 7 added");
}

#[test]
fn a_hand_edited_run_json_is_refused_naming_the_key() {
    let folder = scratch("edited-meta");
    let out = finished_run(folder.path());
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("JSON");
    for (name, key, value, want) in [
        (
            "shard-0-0",
            "shard",
            "[0, 0]",
            "shard: index 0 of 0: expected I of N",
        ),
        (
            "shard-4-3",
            "shard",
            "[4, 3]",
            "shard: index 4 of 3: expected I of N",
        ),
        (
            "played",
            "played_s",
            "-1e308",
            "played_s: -1e308: expected the seconds played",
        ),
    ] {
        let copy = copy_of(&out, name);
        let mut edited = meta.clone();
        edited[key] = serde_json::from_str(value).expect("a JSON value");
        std::fs::write(copy.join("run.json"), edited.to_string()).expect("write");
        let want = format!("{}: {want}", copy.join("run.json").display());
        refused(&copy, &want);
    }
}

#[test]
fn an_opening_already_over_is_refused_at_the_start_as_an_illegal_move_is() {
    let folder = scratch("over-openings");
    let dir = folder.path();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let horses = "b0c2 b9c7 c2b0 c7b9";
    for (body, line, want) in [
        (
            format!("{start} moves h2e2\n{start} moves {horses} {horses}\n"),
            2,
            "the game is already over: its moves repeat a position (repetition: 1/2-1/2)",
        ),
        (
            format!("{start} moves h2e2\n\n3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n"),
            3,
            "the game is already over: neither side has a rook, horse, cannon or pawn left",
        ),
        (
            format!("{start} moves h2e2\n{start} moves h2e2 h9g7 h2h8\n"),
            2,
            "move 3 `h2h8` is illegal",
        ),
    ] {
        let book = dir.join("book.epd");
        std::fs::write(&book, body).expect("write the book");
        let config = common::fault_config(dir, 2, &book, ["", ""], "");
        let (code, stdout, stderr) = runner(&["run", path(&config)]);
        assert_eq!(code, 2, "{stdout}{stderr}");
        let want = format!("error: {}:{line}: {want}", book.display());
        assert!(stderr.starts_with(&want), "want `{want}` in: {stderr}");
        assert!(!dir.join("out").exists(), "nothing written");
    }
}
