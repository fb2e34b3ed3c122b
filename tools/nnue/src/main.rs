//! `xq-nnue`: trains evaluation level 7's network from training data files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xq_nnue::dataset::Dataset;
use xq_nnue::model::Model;
use xq_nnue::train::{train, TrainConfig};

const USAGE: &str = "usage: xq-nnue train --data <file> [--data <file>...] --out <net>
           [--hidden N] [--epochs E] [--batch B] [--lr X] [--lr-decay X]
           [--lambda X] [--scale S] [--valid X] [--seed S] [--threads T]
           [--mirror]  (also train on each position mirrored left to right)
       xq-nnue random --out <net> [--hidden N] [--seed S] [--scale S]
                   (an untrained network, for speed measurements)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("train") => run_train(&args[1..]),
        Some("random") => run_random(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`")),
        None => Err("a command is needed".to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// The options of a command line: `--name value` pairs.
struct Options {
    data: Vec<PathBuf>,
    out: Option<PathBuf>,
    config: TrainConfig,
}

fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{name} `{text}` is not a valid number"))
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        data: Vec::new(),
        out: None,
        config: TrainConfig::default(),
    };
    let c = &mut options.config;
    let mut rest = args.iter();
    while let Some(name) = rest.next() {
        if name == "--mirror" {
            c.mirror = true;
            continue;
        }
        let value = rest.next().ok_or_else(|| format!("{name} needs a value"))?;
        match name.as_str() {
            "--data" => options.data.push(PathBuf::from(value)),
            "--out" => options.out = Some(PathBuf::from(value)),
            "--hidden" => c.hidden = number(name, value)?,
            "--epochs" => c.epochs = number(name, value)?,
            "--batch" => c.batch = number(name, value)?,
            "--lr" => c.lr = number(name, value)?,
            "--lr-decay" => c.lr_decay = number(name, value)?,
            "--lambda" => c.lambda = number(name, value)?,
            "--scale" => c.scale = number(name, value)?,
            "--valid" => c.valid_fraction = number(name, value)?,
            "--seed" => c.seed = number(name, value)?,
            "--threads" => c.threads = number(name, value)?,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let c = &options.config;
    if c.hidden == 0 || !c.hidden.is_multiple_of(16) || c.hidden > 2048 {
        return Err(format!(
            "--hidden {} must be a multiple of 16 up to 2048",
            c.hidden
        ));
    }
    if c.batch == 0 || c.threads == 0 {
        return Err("--batch and --threads must be at least 1".to_owned());
    }
    if !(0.0..=1.0).contains(&c.lambda) || !(0.0..1.0).contains(&c.valid_fraction) {
        return Err("--lambda must be in 0..=1 and --valid in 0..1".to_owned());
    }
    // Written as ranges so that a NaN fails them too.
    if !(1.0..=100_000.0).contains(&c.scale) || !(f32::MIN_POSITIVE..=10.0).contains(&c.lr) {
        return Err("--scale must be in 1..=100000 and --lr in (0, 10]".to_owned());
    }
    Ok(options)
}

fn write_net(model: &Model, scale: f32, out: &Path) -> Result<(), String> {
    let net = model
        .quantise(scale.round() as i32)
        .map_err(|e| format!("cannot quantise: {e}"))?;
    std::fs::write(out, net.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {}: hidden {}, scale {}, hash {:016x}",
        out.display(),
        net.hidden(),
        net.scale(),
        net.hash()
    );
    Ok(())
}

fn run_train(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let out = options.out.ok_or("--out is needed")?;
    if options.data.is_empty() {
        return Err("--data is needed".to_owned());
    }
    let data = Dataset::load(&options.data).map_err(|e| e.to_string())?;
    for (path, bytes) in &data.trailing {
        eprintln!("note: {path} ends in a record cut short ({bytes} bytes left unread)");
    }
    let cfg = options.config;
    println!(
        "{} positions, hidden {}, {} epochs of batches of {}, lambda {}, scale {}, seed {}",
        data.len(),
        cfg.hidden,
        cfg.epochs,
        cfg.batch,
        cfg.lambda,
        cfg.scale,
        cfg.seed
    );
    let model = train(&data, &cfg, &mut |r| {
        if r.epoch == 0 {
            println!("epoch 0: held-out loss {:.6}", r.valid_loss);
        } else {
            println!(
                "epoch {}: train loss {:.6}, held-out loss {:.6} ({:.1} s, {:.0} positions/s)",
                r.epoch,
                r.train_loss,
                r.valid_loss,
                r.seconds,
                r.positions as f64 / r.seconds.max(1e-9)
            );
        }
    });
    write_net(&model, cfg.scale, &out)
}

fn run_random(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let out = options.out.ok_or("--out is needed")?;
    let cfg = options.config;
    write_net(&Model::new(cfg.hidden, cfg.seed), cfg.scale, &out)
}
