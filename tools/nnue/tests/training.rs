//! The trainer on synthetic data: it lowers the held-out loss, one seed gives one
//! network (whatever the thread count), and the command line refuses bad input in one
//! line with exit code 2.

mod common;

use std::process::Command;

use common::{scored_records, write_data, TempDir};
use xq_core::training::Record;
use xq_engine::eval::nnue::{Activation, Network};
use xq_nnue::dataset::Dataset;
use xq_nnue::train::{train, EpochReport, TrainConfig};

fn config() -> TrainConfig {
    TrainConfig {
        hidden: 32,
        buckets: 1,
        activation: Activation::CRelu,
        epochs: 5,
        batch: 256,
        lr: 0.005,
        lr_decay: 0.8,
        lambda: 0.1,
        scale: 400.0,
        valid_fraction: 0.1,
        seed: 3,
        threads: 2,
        mirror: false,
    }
}

fn run(data: &Dataset, cfg: &TrainConfig) -> (Vec<EpochReport>, u64) {
    let mut reports = Vec::new();
    let model = train(data, cfg, &mut |r| reports.push(r.clone()));
    let net = model.quantise(cfg.scale as i32).expect("in range");
    (reports, net.hash())
}

#[test]
fn training_lowers_the_held_out_loss_and_a_seed_fixes_the_weights() {
    let dir = TempDir::new("train");
    let path = dir.path("positions.bin");
    write_data(&path, &scored_records(60, 80, 17));
    let data = Dataset::load(&[&path]).expect("loads");
    assert!(data.len() > 4000, "{}", data.len());

    let cfg = config();
    let (reports, hash) = run(&data, &cfg);
    assert_eq!(reports.len(), cfg.epochs + 1);
    let (untrained, trained) = (reports[0].valid_loss, reports[cfg.epochs].valid_loss);
    assert!(
        trained < 0.6 * untrained,
        "held-out loss {untrained} -> {trained}"
    );
    assert!(reports[cfg.epochs].train_loss < reports[1].train_loss);

    // One seed, one network: again, and on one thread.
    assert_eq!(run(&data, &cfg).1, hash);
    let one_thread = TrainConfig {
        threads: 1,
        ..cfg.clone()
    };
    assert_eq!(run(&data, &one_thread).1, hash);
    let other_seed = TrainConfig { seed: 4, ..cfg };
    assert_ne!(run(&data, &other_seed).1, hash);
}

#[test]
fn a_mirrored_index_has_the_features_of_the_mirrored_position() {
    let records = scored_records(4, 30, 11);
    let data = Dataset::from_records(&records);
    let sorted = |f: &[u16]| {
        let mut f = f.to_vec();
        f.sort_unstable();
        f
    };
    let mut asymmetric = 0;
    for (index, record) in records.iter().enumerate() {
        let position = record.position().expect("a legal position");
        let mirrored = Record::new(&position.mirrored(), record.score, record.result);
        let expected = Dataset::from_records(&[mirrored]).active(0);
        let got = data.active(records.len() + index);
        let plain = data.active(index);
        assert_eq!(got.count, expected.count);
        assert_eq!(
            sorted(&got.us[..got.count]),
            sorted(&expected.us[..expected.count])
        );
        assert_eq!(
            sorted(&got.them[..got.count]),
            sorted(&expected.them[..expected.count])
        );
        asymmetric += usize::from(sorted(&plain.us[..plain.count]) != sorted(&got.us[..got.count]));
        assert_eq!(
            data.target(records.len() + index, 0.3, 400.0),
            data.target(index, 0.3, 400.0)
        );
    }
    // Random games leave the board lopsided, so mirroring must change most of them.
    assert!(
        asymmetric * 2 > records.len(),
        "{asymmetric} of {}",
        records.len()
    );
}

#[test]
fn mirroring_trains_on_twice_the_positions_and_still_learns() {
    let data = Dataset::from_records(&scored_records(40, 40, 5));
    let cfg = TrainConfig {
        mirror: true,
        ..config()
    };
    let (reports, _) = run(&data, &cfg);
    let (plain, _) = run(&data, &config());
    assert_eq!(reports[1].positions, 2 * plain[1].positions);
    let last = reports.last().expect("epochs");
    assert!(last.valid_loss < reports[0].valid_loss, "{reports:?}");
}

#[test]
fn bad_data_files_are_one_line_each() {
    let dir = TempDir::new("bad-data");
    let good = dir.path("good.bin");
    write_data(&good, &scored_records(2, 10, 1));
    let bytes = std::fs::read(&good).expect("read");
    let not_data = dir.path("not.bin");
    std::fs::write(
        &not_data,
        b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    )
    .expect("write");
    let mut bad_record = bytes.clone();
    bad_record[16 + 32 + 31] = 9;
    let bad = dir.path("bad.bin");
    std::fs::write(&bad, &bad_record).expect("write");
    let empty = dir.path("empty.bin");
    std::fs::write(&empty, &bytes[..16 + 10]).expect("write");
    let message = |path: &std::path::Path| Dataset::load(&[path]).expect_err("refused").to_string();
    assert!(message(&not_data).ends_with("not a training data file (no XQNNDATA header)"));
    assert!(
        message(&bad).ends_with("record 1: result byte 9 (0 loss, 1 draw, 2 win)"),
        "{}",
        message(&bad)
    );
    assert_eq!(message(&empty), "no positions in the data files");
    assert!(message(&dir.path("missing.bin")).contains("missing.bin"));
    for path in [&not_data, &bad, &empty] {
        assert_eq!(message(path).lines().count(), 1);
    }
    // A file cut short is read to its last whole record.
    let cut = dir.path("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).expect("write");
    let data = Dataset::load(&[&cut]).expect("loads");
    assert_eq!(data.len(), (bytes.len() - 16) / 32 - 1);
    assert_eq!(data.trailing.len(), 1);
}

#[test]
fn the_command_line_trains_a_net_the_engine_loads_and_refuses_bad_input() {
    let dir = TempDir::new("cli");
    let data = dir.path("positions.bin");
    write_data(&data, &scored_records(10, 40, 5));
    let net = dir.path("net.nnue");
    let exe = env!("CARGO_BIN_EXE_xq-nnue");
    let output = Command::new(exe)
        .args(["train", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&net)
        .args([
            "--hidden", "16", "--epochs", "2", "--batch", "64", "--seed", "9",
        ])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("epoch 2: train loss"), "{stdout}");
    let loaded = Network::load(&net).expect("the engine loads it");
    assert!(
        stdout.contains(&format!("hash {:016x}", loaded.hash())),
        "{stdout}"
    );

    let refuse = |args: &[&str]| {
        let output = Command::new(exe).args(args).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let out = net.display().to_string();
    let not_data = net.display().to_string();
    assert!(refuse(&["train", "--data", &not_data, "--out", &out])
        .contains("not a game-record chunk nor a training data file: skipped"));
    // No data named: the repository's folder, which the tests' folder does not hold.
    assert!(refuse(&["train", "--out", &out]).contains("engine/data/selfplay/manifest.tsv"));
    assert!(
        refuse(&["train", "--data", "x", "--out", &out, "--hidden", "10"])
            .contains("multiple of 16")
    );
    assert!(
        refuse(&["train", "--data", "x", "--out", &out, "--epochs", "many"])
            .contains("not a valid number")
    );
    assert!(refuse(&["random", "--out", &out, "--buckets", "0"])
        .contains("--buckets 0 must be in 1..=16"));
    assert!(refuse(&["random", "--out", &out, "--buckets", "17"]).contains("--buckets 17"));
    assert!(refuse(&["random", "--out", &out, "--activation", "relu"])
        .contains("--activation `relu` is not crelu or screlu"));
    assert!(refuse(&["fly"]).contains("unknown command"));

    // `random` with buckets and SCReLU: a file the engine reads as such.
    let wide = dir.path("wide.nnue");
    let output = Command::new(exe)
        .args([
            "random",
            "--hidden",
            "128",
            "--buckets",
            "8",
            "--activation",
            "screlu",
        ])
        .arg("--out")
        .arg(&wide)
        .output()
        .expect("runs");
    assert!(output.status.success());
    let loaded = Network::load(&wide).expect("the engine loads it");
    assert_eq!(
        (loaded.hidden(), loaded.buckets(), loaded.activation()),
        (128, 8, Activation::SCRelu)
    );
}
