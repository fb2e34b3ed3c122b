//! `xq-engine eval [<FEN>]`: prints the breakdown of a position, and rejects a bad FEN
//! with exit code 2 and one clear line.

use std::process::Command;

use xq_engine::eval::{Term, TermWeights};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xq-engine"))
        .args(args)
        .output()
        .expect("run xq-engine");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn start_position_breakdown() {
    let (code, out, _) = run(&["eval"]);
    assert_eq!(code, 0);
    assert!(out.contains("palace control"), "{out}");
    // The tempo is the only term of the start position: the seeds' 50 at its weight.
    let weight = TermWeights::default().get(Term::Tempo);
    let weighted = 50 * weight / 100;
    let line = format!("tempo                6      50       0      50 {weight:>6}% {weighted:>9}");
    assert!(out.contains(&line), "{line}\n{out}");
    assert!(out.trim_end().ends_with(&format!("L6 {weighted}")), "{out}");
}

#[test]
fn fen_given_as_several_words() {
    // Red is a rook up: level 0 says +1000 for Red to move.
    let fen = [
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "w",
        "-",
        "-",
        "0",
        "1",
    ];
    let mut args = vec!["eval"];
    args.extend(fen);
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    assert!(out.contains("L0 1000 "), "{out}");
}

#[test]
fn bad_fen_is_rejected() {
    let (code, out, err) = run(&["eval", "not-a-fen"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with("error: bad FEN"), "{err}");
}
