//! Output buckets and SCReLU in the trainer: the engine's integer forward pass follows
//! the trainer's float one within the quantisation's error for networks of each
//! activation with buckets, and `--buckets 1` trains exactly as the trainer did before
//! buckets.

mod common;

use common::{random_games, scored_records};
use xq_core::training::{GameResult, Record};
use xq_engine::board::Position;
use xq_engine::eval::nnue::{Activation, Network, QA, QB};
use xq_nnue::dataset::{Active, Dataset};
use xq_nnue::model::Model;
use xq_nnue::quantised::QuantisedNet;
use xq_nnue::train::{train, TrainConfig};

/// A random model whose first-layer sums spread over the activation's whole range
/// (weights 6 times the initial ones, then clipped) and whose buckets differ.
fn spread_model(hidden: usize, activation: Activation, buckets: usize, seed: u64) -> Model {
    let mut model = Model::with(hidden, activation, buckets, seed);
    for w in model.w1.iter_mut().chain(&mut model.b1) {
        *w *= 6.0;
    }
    for w in &mut model.w2 {
        *w *= 3.0;
    }
    for (b, bias) in model.b2.iter_mut().enumerate() {
        *bias = 0.1 * b as f32 - 0.3;
    }
    model.clip();
    model
}

/// The float model of a quantised network's integers: the trainer's float forward pass
/// on exactly the engine's weights.
fn dequantised(net: &QuantisedNet) -> Model {
    let by = |w: &[i16], q: i32| w.iter().map(|&w| f32::from(w) / q as f32).collect();
    Model {
        hidden: net.hidden,
        activation: net.activation,
        buckets: net.buckets,
        w1: by(&net.w1, QA),
        b1: by(&net.b1, QA),
        w2: by(&net.w2, QB),
        b2: net
            .b2
            .iter()
            .map(|&b| b as f32 / (QA * QB) as f32)
            .collect(),
    }
}

/// The standard deviation, in evaluation units, of the error that rounding the weights
/// puts on a position's output: each weight's rounding error is uniform within half a
/// step (variance `1 / (12 q²)`), independent of the others. An output weight's error
/// counts times its activation, a first-layer weight's (and bias's) times the output
/// weight and the activation's slope at its sum.
fn rounding_sigma(model: &Model, active: &Active, scale: f64) -> f64 {
    let step = |q: i32| 1.0 / (12.0 * f64::from(q) * f64::from(q));
    let bucket = model.bucket(active.count);
    let (w_us, w_them) = model.output_weights(bucket);
    let mut variance = step(QA * QB);
    for (features, w2) in [
        (&active.us[..active.count], w_us),
        (&active.them[..active.count], w_them),
    ] {
        let mut sums = vec![0.0; model.hidden];
        model.accumulate(features, &mut sums);
        for (&x, &w) in sums.iter().zip(w2) {
            let a = f64::from(model.activate(x));
            let slope = f64::from(model.slope(x) * w);
            variance += a * a * step(QB) + slope * slope * (features.len() + 1) as f64 * step(QA);
        }
    }
    variance.sqrt() * scale
}

/// For each activation, with one bucket and with 8: the engine's integer evaluation is
/// (a) the float forward pass of the same (dequantised) weights but for its two
/// truncations toward zero, under 1.04 units; (b) the float network it was quantised from
/// within the rounding of its weights: 6 standard deviations of that error (and one
/// unit of truncation) on every position.
#[test]
fn the_engine_follows_the_float_network_within_the_quantisation_error() {
    let positions: Vec<Position> = random_games(10, 250, 31).into_iter().flatten().collect();
    assert!(positions.len() > 2000, "{}", positions.len());
    let scale = 400;
    for activation in Activation::ALL {
        for (buckets, hidden) in [(1, 32), (8, 128)] {
            let model = spread_model(hidden, activation, buckets, 40 + buckets as u64);
            let bytes = model.quantise(scale).expect("in range").to_bytes();
            let net = Network::from_bytes(&bytes).expect("the engine reads it");
            assert_eq!((net.buckets(), net.activation()), (buckets, activation));
            let same = dequantised(&QuantisedNet::from_file_bytes(&bytes).expect("reads"));
            let (mut worst, mut total, mut spread, mut sigmas) = (0f64, 0f64, 0f64, 0f64);
            let mut used = vec![false; buckets];
            for pos in &positions {
                let data = Dataset::from_records(&[Record::new(pos, 0, GameResult::Draw)]);
                let active = data.active(0);
                used[model.bucket(active.count)] = true;
                let engine = f64::from(net.evaluate(pos));
                let exact = f64::from(same.evaluate(&active)) * f64::from(scale);
                // The final truncation loses under one unit, SCReLU's division by QA
                // under one QA · QB unit more (scale / (QA · QB) = 0.025 units), the
                // float sums a hundredth at most.
                let truncations = 1.0 + f64::from(scale) / f64::from(QA * QB) + 0.01;
                assert!(
                    (engine - exact).abs() < truncations,
                    "{activation}, {buckets} buckets: {engine} against {exact:.3}, {}",
                    pos.to_fen()
                );
                let float = f64::from(model.evaluate(&active)) * f64::from(scale);
                let error = (engine - float).abs();
                let sigma = rounding_sigma(&model, &active, f64::from(scale));
                assert!(
                    error < 6.0 * sigma + 1.0,
                    "{activation}, {buckets} buckets: {engine} against {float:.1}, sigma {sigma:.2}"
                );
                sigmas += sigma;
                worst = worst.max(error);
                total += error;
                spread += float.abs();
            }
            let count = positions.len() as f64;
            let (mean, size, sigma) = (total / count, spread / count, sigmas / count);
            println!(
                "{activation}, {buckets} buckets, {hidden} hidden: error worst {worst:.1}, mean {mean:.2}, mean sigma {sigma:.2}; mean |eval| {size:.0}"
            );
            assert!(size > 100.0, "a network that says something: {size}");
            // The errors are as large as the rounding makes them: a mean absolute error
            // near sigma · sqrt(2 / pi) (0.8 sigma), not one that hides a systematic one.
            assert!(mean < 1.2 * sigma, "mean error {mean:.2}, sigma {sigma:.2}");
            if buckets > 1 {
                assert!(used.iter().filter(|&&u| u).count() >= 4, "{used:?}");
            }
        }
    }
}

/// The losses (as bits) and the network hash that this run gave before output buckets
/// and SCReLU came (commit 2325bae): one bucket is the old network, step for step.
#[test]
fn one_bucket_trains_exactly_as_before_buckets() {
    let data = Dataset::from_records(&scored_records(8, 40, 21));
    assert_eq!(data.len(), 328);
    let cfg = TrainConfig {
        hidden: 32,
        epochs: 3,
        batch: 64,
        lr: 0.01,
        valid_fraction: 0.2,
        seed: 9,
        threads: 2,
        mirror: true,
        ..TrainConfig::default()
    };
    assert_eq!((cfg.buckets, cfg.activation), (1, Activation::CRelu));
    let mut losses = Vec::new();
    let model = train(&data, &cfg, &mut |r| {
        losses.push((r.train_loss.to_bits(), r.valid_loss.to_bits()));
    });
    let before: [(u64, u64); 4] = [
        (9_221_120_237_041_090_560, 4_589_160_823_437_822_883),
        (4_587_156_145_586_182_934, 4_581_870_198_524_150_753),
        (4_578_009_730_231_826_948, 4_577_866_808_706_460_827),
        (4_574_581_910_698_127_962, 4_576_117_866_835_955_836),
    ];
    assert_eq!(losses, before);
    let hash = model.quantise(400).expect("in range").hash();
    assert_eq!(format!("{hash:016x}"), "a309a38d91e47dbd");
}

#[test]
fn buckets_and_screlu_train_and_lower_the_held_out_loss() {
    let data = Dataset::from_records(&scored_records(30, 60, 8));
    for activation in Activation::ALL {
        let cfg = TrainConfig {
            hidden: 32,
            buckets: 8,
            activation,
            epochs: 4,
            batch: 128,
            lr: 0.01,
            valid_fraction: 0.1,
            seed: 5,
            ..TrainConfig::default()
        };
        let mut reports = Vec::new();
        let model = train(&data, &cfg, &mut |r| reports.push(r.valid_loss));
        let (first, last) = (reports[0], reports[cfg.epochs]);
        assert!(last < 0.6 * first, "{activation}: {reports:?}");
        // Buckets that saw positions moved away from their start.
        let fresh = Model::with(32, activation, 8, 5);
        let moved = (0..8)
            .filter(|&b| model.output_weights(b) != fresh.output_weights(b))
            .count();
        assert!(moved >= 3, "{moved} buckets trained");
        assert!(model.quantise(400).is_ok());
    }
}

#[test]
fn wide_screlu_networks_are_clipped_to_what_the_engine_accepts() {
    let mut model = Model::with(256, Activation::SCRelu, 2, 1);
    model.w2.fill(1.9);
    model.clip();
    assert!((model.output_clip() - 1.0).abs() < 1e-6);
    assert!(
        model.quantise(400).is_ok(),
        "256 · 64 · 65,025 fits 32 bits"
    );
    let narrow = Model::with(128, Activation::SCRelu, 2, 1);
    assert!((narrow.output_clip() - 1.98).abs() < 1e-6);
}
