//! Evaluation level 7 through the protocol and the search: `EvalFile` loads a network,
//! each wrong file gets one line and the engine keeps working, and a level-7 search
//! plays legal moves (debug builds check each incremental evaluation against one from
//! scratch, see `Searcher::evaluate`).

mod common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use common::{ucci, Engine};
use xq_engine::board::{Move, Position};
use xq_engine::eval::nnue::{Network, FEATURES};
use xq_engine::eval::Evaluator;
use xq_engine::movegen::is_legal;
use xq_engine::rng::SplitMix64;
use xq_engine::search::{Control, GameSoFar, Limits, Searcher};

const LONG: Duration = Duration::from_secs(60);

/// A network with varied small weights: arithmetic to check, not strength.
fn varied(hidden: usize, seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    let mut small = |range: u64| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
    let weights = (0..FEATURES * hidden).map(|_| small(300)).collect();
    let bias = (0..hidden).map(|_| small(300)).collect();
    let out = (0..2 * hidden).map(|_| small(127)).collect();
    Network::from_parts(hidden, weights, bias, out, 500, 400).expect("in range")
}

struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(name: &str) -> Files {
        let dir = std::env::temp_dir().join(format!("xq-nnue-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Files { dir }
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        path.display().to_string()
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn error_line(engine: &mut Engine, command: &str) -> String {
    engine.send(command);
    let lines = engine.expect("info string", LONG);
    lines.last().cloned().unwrap_or_default()
}

fn assert_plays(engine: &mut Engine) {
    engine.send("position startpos moves h2e2");
    engine.send("go depth 4");
    let lines = engine.expect("bestmove", LONG);
    let best = Engine::best_move(&lines).expect("a move");
    let mut pos = Position::startpos();
    pos.make_move(Move::parse("h2e2").expect("move"));
    assert!(is_legal(&pos, Move::parse(&best).expect("move")), "{best}");
}

#[test]
fn evalfile_loads_a_network_and_refuses_each_wrong_file_in_one_line() {
    let files = Files::new("ucci");
    let good = varied(32, 5).to_bytes();
    let good_path = files.write("good.nnue", &good);
    let mut damaged = good.clone();
    damaged[100] ^= 0x40;
    let mut other_version = good.clone();
    other_version[8] = 3;
    let cases = [
        (
            files.write("data.bin", b"XQNNDATA\x01\0\0\0 \0\0\0"),
            "not a network file",
        ),
        (
            files.write("version.nnue", &other_version),
            "network format version 3",
        ),
        (
            files.write("short.nnue", &good[..good.len() / 2]),
            "network file truncated",
        ),
        (
            files.write("damaged.nnue", &damaged),
            "network weights hash",
        ),
        (
            files.dir.join("missing.nnue").display().to_string(),
            "cannot read network file",
        ),
    ];

    let mut engine = ucci();
    // Before any file is named, level 7 plays with the network the engine ships with.
    engine.send("setoption evallevel 7");
    assert_plays(&mut engine);
    for (path, why) in &cases {
        let line = error_line(&mut engine, &format!("setoption evalfile {path}"));
        assert!(line.starts_with("info string error: "), "{line}");
        assert!(line.contains(why), "{path}: {line}");
    }
    // Still the shipped network, still playing.
    assert_plays(&mut engine);

    let line = error_line(&mut engine, &format!("setoption evalfile {good_path}"));
    assert!(
        line.contains("loaded: 32 hidden, buckets 1, crelu, hash"),
        "{line}"
    );
    engine.send("setoption evallevel 7");
    assert_plays(&mut engine);
    // A wrong file now keeps the loaded network.
    let line = error_line(&mut engine, &format!("setoption evalfile {}", cases[3].0));
    assert!(line.contains("network weights hash"), "{line}");
    assert_plays(&mut engine);
    engine.send("isready");
    engine.expect("readyok", LONG);
}

#[test]
fn uci_names_it_evalfile() {
    let files = Files::new("uci");
    let path = files.write("net.nnue", &varied(16, 9).to_bytes());
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.expect("uciok", LONG);
    assert!(lines
        .iter()
        .any(|l| l == "option name EvalFile type string default <empty>"));
    let line = error_line(
        &mut engine,
        &format!("setoption name EvalFile value {path}"),
    );
    assert!(line.contains("loaded: 16 hidden"), "{line}");
    engine.send("setoption name EvalLevel value 7");
    assert_plays(&mut engine);
}

fn search(level: u8, network: Option<Arc<Network>>, fen: &str, depth: i32) -> (Option<Move>, u64) {
    let mut searcher = Searcher::new(8, Evaluator::new(level));
    searcher.set_network(network);
    let game = GameSoFar {
        start: Position::from_fen(fen).expect("fen"),
        moves: Vec::new(),
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.think(
        &game,
        &limits,
        &[],
        Arc::new(Control::new(false)),
        &mut |_| {},
    );
    (result.best, result.nodes)
}

#[test]
fn a_level_7_search_evaluates_with_its_network_deterministically() {
    let net = Arc::new(varied(32, 21));
    for fen in xq_engine::bench::POSITIONS.iter().take(8) {
        let pos = Position::from_fen(fen).expect("fen");
        let first = search(7, Some(Arc::clone(&net)), fen, 5);
        assert_eq!(first, search(7, Some(Arc::clone(&net)), fen, 5), "{fen}");
        let best = first.0.expect("a move");
        assert!(is_legal(&pos, best));
    }
    // Another network searches other trees; level 7 without one is level 6.
    let fen = xq_engine::bench::POSITIONS[1];
    let other = Arc::new(varied(32, 22));
    assert_ne!(
        search(7, Some(net), fen, 6).1,
        search(7, Some(other), fen, 6).1
    );
    assert_eq!(search(7, None, fen, 6), search(6, None, fen, 6));
}
