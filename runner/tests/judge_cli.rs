//! End-to-end tests of `xq-runner judge`: JSON and text output, moves as one string or
//! as separate arguments, rulesets, and exit code 2 with a message naming a bad move.

use std::process::{Command, Output};

fn judge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .arg("judge")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xq-runner: {e}"))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim().to_owned()
}

const CHECKS: &str = "4k4/R8/9/9/9/9/9/9/9/5K3 w";
const LOOP: &str = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";

#[test]
fn checkmate_as_json() {
    let out = judge(&[
        "--fen",
        "4k4/R8/9/9/9/9/9/9/1R7/3K5 w",
        "--moves",
        "b1b9",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        r#"{"result":"1-0","reason":"checkmate","ply":1}"#
    );
    let value: serde_json::Value =
        serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(value["ply"], 1);
}

#[test]
fn perpetual_check_with_moves_as_one_string_and_as_separate_arguments() {
    let one = judge(&["--fen", CHECKS, "--moves", LOOP, "--json"]);
    let mut args = vec!["--fen", CHECKS, "--json", "--moves"];
    args.extend(LOOP.split_whitespace());
    let many = judge(&args);
    for out in [&one, &many] {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        assert_eq!(
            stdout(out),
            r#"{"result":"0-1","reason":"perpetual_check","ply":8}"#
        );
    }
}

#[test]
fn rulesets_are_selected_by_name() {
    let computer = judge(&[
        "--fen",
        CHECKS,
        "--moves",
        LOOP,
        "--ruleset",
        "computer",
        "--json",
    ]);
    assert_eq!(
        stdout(&computer),
        r#"{"result":"*","reason":"ongoing","ply":8}"#
    );
    let unknown = judge(&["--fen", CHECKS, "--ruleset", "chinese"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("chinese"), "{}", stderr(&unknown));
}

#[test]
fn text_output_is_one_readable_line() {
    let out = judge(&["--fen", CHECKS, "--moves", LOOP]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "0-1 perpetual_check at ply 8 (ruleset asian)");
}

#[test]
fn start_position_is_the_default_and_an_empty_game_is_ongoing() {
    let out = judge(&["--json"]);
    assert_eq!(stdout(&out), r#"{"result":"*","reason":"ongoing","ply":0}"#);
    let out = judge(&["--moves", "h2e2 h9g7", "--json"]);
    assert_eq!(stdout(&out), r#"{"result":"*","reason":"ongoing","ply":2}"#);
}

#[test]
fn an_illegal_move_exits_2_naming_the_move_and_its_index() {
    let out = judge(&["--moves", "h2e2", "h9g7", "a0a5", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    let message = stderr(&out);
    assert!(
        message.contains("a0a5") && message.contains("index 2"),
        "{message}"
    );
    let garbled = judge(&["--moves", "h2e2 h9x7"]);
    assert_eq!(garbled.status.code(), Some(2));
    let message = stderr(&garbled);
    assert!(
        message.contains("h9x7") && message.contains("move 1"),
        "{message}"
    );
}

#[test]
fn a_bad_fen_exits_2() {
    let out = judge(&["--fen", "9/9/9 w", "--moves", "a0a1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("FEN"), "{}", stderr(&out));
}

#[test]
fn move_limit_and_its_counting_are_options() {
    let fen = "4k4/R8/9/9/9/9/9/9/9/5K3 w - - 118 1";
    let all = judge(&["--fen", fen, "--moves", LOOP, "--json"]);
    assert_eq!(
        stdout(&all),
        r#"{"result":"1/2-1/2","reason":"move_limit","ply":2}"#
    );
    let league = judge(&[
        "--fen",
        fen,
        "--moves",
        LOOP,
        "--limit-counting",
        "league",
        "--json",
    ]);
    assert_eq!(
        stdout(&league),
        r#"{"result":"0-1","reason":"perpetual_check","ply":8}"#
    );
    let off = judge(&["--moves", "h2e2 h9g7", "--move-limit", "2", "--json"]);
    assert_eq!(
        stdout(&off),
        r#"{"result":"1/2-1/2","reason":"move_limit","ply":2}"#
    );
    let bad = judge(&["--limit-counting", "fifty"]);
    assert_eq!(bad.status.code(), Some(2));
}
