//! The `xq-engine` binary: a UCCI/UCI engine on stdin/stdout, plus `perft`, `bench` and
//! `eval`.

use std::process::ExitCode;
use std::time::Instant;

use xq_engine::board::{Position, START_FEN};
use xq_engine::eval::Evaluator;
use xq_engine::movegen::{perft, perft_divide};

const USAGE: &str = "usage: xq-engine                      (UCCI or UCI on stdin/stdout)
       xq-engine --tune               (the same, announcing the tunable parameters)
       xq-engine perft <depth> [--fen <FEN>] [--divide]
       xq-engine bench [--depth <D>] [--level <0-7>] [--evalfile <net>]  (level 7: the shipped net unless --evalfile)
       xq-engine eval [<FEN>]                (per-term evaluation breakdown)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            xq_engine::protocol::run(
                std::io::BufReader::new(std::io::stdin()),
                Box::new(std::io::stdout()),
            );
            Ok(())
        }
        Some("--tune") if args.len() == 1 => {
            xq_engine::protocol::run_with(
                std::io::BufReader::new(std::io::stdin()),
                Box::new(std::io::stdout()),
                xq_engine::protocol::Handshake::WithTunables,
            );
            Ok(())
        }
        Some("--tune") => Err(format!("unexpected `{}` after --tune", args[1])),
        Some("perft") => run_perft(&args[1..]),
        Some("bench") => run_bench(&args[1..]),
        Some("eval") => run_eval(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run_bench(args: &[String]) -> Result<(), String> {
    let mut depth = xq_engine::bench::DEFAULT_DEPTH;
    let mut level = xq_engine::eval::MAX_LEVEL;
    let mut network = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| -> Result<String, String> {
            rest.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--depth" => {
                let text = value("--depth")?;
                depth = text
                    .parse()
                    .map_err(|_| format!("depth `{text}` is not a number"))?;
                if !(1..=64).contains(&depth) {
                    return Err(format!("depth {depth} is outside 1..64"));
                }
            }
            "--level" => {
                let text = value("--level")?;
                level = text
                    .parse()
                    .map_err(|_| format!("level `{text}` is not a number"))?;
                if level > xq_engine::eval::NNUE_LEVEL {
                    return Err(format!(
                        "level {level} is outside 0..{}",
                        xq_engine::eval::NNUE_LEVEL
                    ));
                }
            }
            "--evalfile" => {
                let path = value("--evalfile")?;
                let net = xq_engine::eval::nnue::Network::load(std::path::Path::new(&path))
                    .map_err(|e| e.to_string())?;
                network = Some(std::sync::Arc::new(net));
            }
            other => return Err(format!("unknown bench argument `{other}`")),
        }
    }
    if level == xq_engine::eval::NNUE_LEVEL && network.is_none() {
        network = xq_engine::eval::nnue::embedded::network();
    }
    let result =
        xq_engine::bench::run_with_network(depth, level, network, &mut |index, fen, nodes| {
            eprintln!("position {index:2} {nodes:10} nodes  {fen}");
        });
    eprintln!(
        "depth {depth}, eval level {level}, {:.3} s",
        result.time.as_secs_f64()
    );
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

/// `xq-engine eval [<FEN>]`: the evaluation of a position (the start position without a
/// FEN; the FEN may be given as one argument or as several words) split by term.
fn run_eval(args: &[String]) -> Result<(), String> {
    let fen = if args.is_empty() {
        START_FEN.to_owned()
    } else {
        args.join(" ")
    };
    let pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    println!("{}", pos.to_fen());
    println!("{}", Evaluator::breakdown(&pos));
    Ok(())
}

fn run_perft(args: &[String]) -> Result<(), String> {
    let mut depth = None;
    let mut fen = START_FEN.to_owned();
    let mut divide = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--fen" => fen = rest.next().ok_or("--fen needs a FEN")?.clone(),
            "--divide" => divide = true,
            text => {
                let d: u32 = text
                    .parse()
                    .map_err(|_| format!("depth `{text}` is not a number"))?;
                depth = Some(d);
            }
        }
    }
    let depth = depth.ok_or("perft needs a depth")?;
    let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    let start = Instant::now();
    let nodes = if divide {
        let split = perft_divide(&mut pos, depth);
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    println!("nodes {nodes}");
    Ok(())
}
