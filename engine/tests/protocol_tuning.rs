//! The tunable parameters as options: announced by `xq-engine --tune` only, settable in
//! both dialects with or without it, refused when out of range, and felt by the search.

mod common;

use std::time::Duration;

use common::Engine;
use xq_engine::eval::{Term, TermWeights};
use xq_engine::protocol::tunables::{tune_options, TuneOption};

const LONG: Duration = Duration::from_secs(60);

/// The handshake of an engine started with `args` in a dialect (`ucci` or `uci`).
fn handshake(args: &[&str], hello: &str) -> (Engine, Vec<String>) {
    let mut engine = Engine::start_with(args);
    engine.send(hello);
    let lines = engine.expect(&format!("{hello}ok"), LONG);
    (engine, lines)
}

fn option_lines(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("option "))
        .collect()
}

/// The total node count of a `go depth 8` from the start position.
fn nodes_at_depth_8(engine: &mut Engine) -> u64 {
    engine.send("position startpos");
    engine.send("go depth 8");
    let lines = engine.expect("bestmove", LONG);
    let totals = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && l.contains(" nps ") && !l.contains(" pv "))
        .expect("totals line");
    let mut words = totals.split_whitespace();
    words
        .by_ref()
        .find(|&w| w == "nodes")
        .expect("nodes in the totals");
    words.next().and_then(|n| n.parse().ok()).expect("a count")
}

#[test]
fn without_tune_the_handshake_is_the_standard_one() {
    let (_, ucci) = handshake(&[], "ucci");
    assert_eq!(
        option_lines(&ucci),
        [
            "option usemillisec type check default false",
            "option hashsize type spin min 1 max 4096 default 16",
            "option evallevel type spin min 0 max 7 default 6",
            "option evalfile type string default <empty>",
            "option ponder type check default false",
            "option newgame type button",
        ]
    );
    let (_, uci) = handshake(&[], "uci");
    assert_eq!(
        option_lines(&uci),
        [
            "option name Hash type spin default 16 min 1 max 4096",
            "option name EvalLevel type spin default 6 min 0 max 7",
            "option name EvalFile type string default <empty>",
            "option name Ponder type check default false",
            "option name Clear Hash type button",
        ]
    );
    for option in tune_options() {
        let lower = option.name.to_ascii_lowercase();
        assert!(
            !ucci
                .iter()
                .chain(&uci)
                .any(|l| l.to_ascii_lowercase().contains(&lower)),
            "{} announced without --tune",
            option.name
        );
    }
}

/// `min`, `max` and `default` of an option line (`option ... type spin ...`).
fn spin_bounds(line: &str) -> (i32, i32, i32) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |key: &str| -> i32 {
        let at = words.iter().position(|&w| w == key).expect(key);
        words[at + 1].parse().expect("a number")
    };
    assert!(line.contains(" type spin "), "{line}");
    (value("min"), value("max"), value("default"))
}

#[test]
fn with_tune_the_handshake_lists_every_tunable_with_its_bounds() {
    let options = tune_options();
    assert!(options.len() >= 30, "{} tunables", options.len());
    let expect = |o: &TuneOption| (o.min, o.max, o.default);
    let (_, ucci) = handshake(&["--tune"], "ucci");
    let (_, uci) = handshake(&["--tune"], "uci");
    for option in &options {
        let ucci_name = format!("option {} ", option.name.to_ascii_lowercase());
        let line = ucci
            .iter()
            .find(|l| l.starts_with(&ucci_name))
            .unwrap_or_else(|| panic!("{ucci_name} missing: {ucci:?}"));
        assert_eq!(spin_bounds(line), expect(option), "{line}");
        let uci_name = format!("option name {} ", option.name);
        let line = uci
            .iter()
            .find(|l| l.starts_with(&uci_name))
            .unwrap_or_else(|| panic!("{uci_name} missing: {uci:?}"));
        assert_eq!(spin_bounds(line), expect(option), "{line}");
    }
    // The standard options are still there, and the handshake still ends as it should.
    assert!(ucci.iter().any(|l| l.starts_with("option evallevel ")));
    assert!(uci.iter().any(|l| l.starts_with("option name Hash ")));
    // Some real knobs, with today's constants as defaults.
    for (name, default) in [
        ("FutilityMargin", 130),
        ("RfpMargin", 110),
        ("LmrBase", 1237),
        ("NullMoveBase", 3),
        ("DeltaMargin", 200),
        ("EvalMobility", TermWeights::default().get(Term::Mobility)),
    ] {
        let option = options.iter().find(|o| o.name == name).expect(name);
        assert_eq!(option.default, default, "{name}");
    }
}

#[test]
fn a_set_parameter_changes_the_search_and_a_bad_value_changes_nothing() {
    let default_nodes = {
        let (mut engine, _) = handshake(&[], "ucci");
        nodes_at_depth_8(&mut engine)
    };

    // UCCI, without --tune: refused values first, then a good one.
    let (mut engine, _) = handshake(&[], "ucci");
    for bad in [
        "setoption futilitymargin 401",
        "setoption futilitymargin -1",
        "setoption futilitymargin 12.5",
        "setoption futilitymargin many",
        "setoption futilitymargin",
    ] {
        engine.send(bad);
        let lines = engine.expect("info string error", LONG);
        assert!(
            lines.last().is_some_and(|l| l.contains("FutilityMargin")),
            "{bad}: {lines:?}"
        );
    }
    engine.send("isready");
    engine.expect("readyok", LONG);
    assert_eq!(nodes_at_depth_8(&mut engine), default_nodes);
    engine.send("setoption futilitymargin 30");
    engine.send("setoption newgame");
    let changed = nodes_at_depth_8(&mut engine);
    assert_ne!(
        changed, default_nodes,
        "FutilityMargin 30 searched the same tree"
    );
    // Back to the default value: the default tree again (after a new game).
    engine.send("setoption FutilityMargin 130");
    engine.send("setoption newgame");
    assert_eq!(nodes_at_depth_8(&mut engine), default_nodes);

    // UCI with --tune: a search parameter and an evaluation weight, each felt.
    let (mut engine, _) = handshake(&["--tune"], "uci");
    engine.send("setoption name RfpMargin value 1000");
    engine.expect("info string error", LONG);
    assert_eq!(nodes_at_depth_8(&mut engine), default_nodes);
    engine.send("setoption name LmrBase value 200");
    engine.send("ucinewgame");
    let reduced = nodes_at_depth_8(&mut engine);
    assert_ne!(reduced, default_nodes, "LmrBase 200 searched the same tree");
    engine.send("setoption name LmrBase value 1237");
    engine.send("setoption name EvalMobility value 250");
    engine.send("ucinewgame");
    let weighted = nodes_at_depth_8(&mut engine);
    assert_ne!(
        weighted, default_nodes,
        "EvalMobility 250 searched the same tree"
    );
    // The weight survives a change of level.
    engine.send("setoption name EvalLevel value 6");
    engine.send("ucinewgame");
    assert_eq!(nodes_at_depth_8(&mut engine), weighted);
    engine.send("setoption name Nonsense value 3");
    engine.expect("info string error: unknown option", LONG);
    engine.send("quit");
    assert!(engine.close_and_wait(Duration::from_secs(5)));
}

#[test]
fn tune_takes_no_other_argument() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_xq-engine"))
        .args(["--tune", "now"])
        .output()
        .expect("run xq-engine");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unexpected `now`"));
}
