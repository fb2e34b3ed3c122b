//! Training: Adam over shuffled mini-batches, the loss `(sigmoid(o) - t)²` with
//! `t = λ · result + (1 - λ) · sigmoid(score / scale)`, and a held-out set's loss after
//! each epoch.
//!
//! Each batch is cut into [`SHARDS`] fixed parts whose gradients are computed on
//! threads (`std::thread::scope`) and added in part order: the result depends on the
//! seed and the data alone, not on the number of threads or their timing.

use std::time::Instant;

use xq_core::rng::SplitMix64;
use xq_engine::eval::nnue::{Activation, FEATURES};

use crate::dataset::{sigmoid, Dataset};
use crate::model::Model;

/// Parts of a batch, each one thread's work at a time.
pub const SHARDS: usize = 4;

/// What a run trains and how.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Hidden sums per perspective (a multiple of 16).
    pub hidden: usize,
    /// Output buckets by piece count (1: one output).
    pub buckets: usize,
    pub activation: Activation,
    pub epochs: usize,
    pub batch: usize,
    /// Adam's learning rate in the first epoch, times `lr_decay` each epoch after.
    pub lr: f32,
    pub lr_decay: f32,
    /// Weight of the game result in the target (the rest is the score's).
    pub lambda: f32,
    /// Evaluation units of an output of 1.0 (the score's sigmoid scale too).
    pub scale: f32,
    /// Share of the positions held out for the held-out loss.
    pub valid_fraction: f64,
    pub seed: u64,
    pub threads: usize,
    /// Train on each position and on its mirror image (see [`Dataset::active`]).
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 64,
            buckets: 1,
            activation: Activation::CRelu,
            epochs: 10,
            batch: 16_384,
            lr: 0.001,
            lr_decay: 0.85,
            lambda: 0.3,
            scale: 400.0,
            valid_fraction: 0.05,
            seed: 1,
            threads: 2,
            mirror: false,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// From 1; epoch 0 is the untrained model's held-out loss.
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
    pub seconds: f64,
    pub positions: usize,
}

/// The gradient of a batch part, laid out as the model.
#[derive(Clone, Debug)]
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn zeros(hidden: usize, buckets: usize) -> Grad {
        Grad {
            w1: vec![0.0; FEATURES * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
        self.loss = 0.0;
    }

    fn add(&mut self, other: &Grad) {
        let pairs = self
            .w1
            .iter_mut()
            .chain(&mut self.b1)
            .chain(&mut self.w2)
            .chain(&mut self.b2)
            .zip(
                other
                    .w1
                    .iter()
                    .chain(&other.b1)
                    .chain(&other.w2)
                    .chain(&other.b2),
            );
        for (a, b) in pairs {
            *a += b;
        }
        self.loss += other.loss;
    }
}

/// The loss of positions, and with `grad` their gradient added into it.
fn pass(
    model: &Model,
    data: &Dataset,
    indices: &[usize],
    cfg: &TrainConfig,
    mut grad: Option<&mut Grad>,
) -> f64 {
    let n = model.hidden;
    let (mut us, mut them) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (mut d_us, mut d_them) = (vec![0.0f32; n], vec![0.0f32; n]);
    let mut loss = 0.0f64;
    for &index in indices {
        let active = data.active(index);
        let (f_us, f_them) = (&active.us[..active.count], &active.them[..active.count]);
        model.accumulate(f_us, &mut us);
        model.accumulate(f_them, &mut them);
        let bucket = model.bucket(active.count);
        let p = sigmoid(model.output(&us, &them, bucket));
        let t = data.target(index, cfg.lambda, cfg.scale);
        loss += f64::from((p - t) * (p - t));
        let Some(grad) = grad.as_deref_mut() else {
            continue;
        };
        let g = 2.0 * (p - t) * p * (1.0 - p);
        grad.b2[bucket] += g;
        let (w_us, w_them) = model.output_weights(bucket);
        let (g_us, g_them) = grad.w2[bucket * 2 * n..][..2 * n].split_at_mut(n);
        for i in 0..n {
            g_us[i] += g * model.activate(us[i]);
            g_them[i] += g * model.activate(them[i]);
            d_us[i] = g * w_us[i] * model.slope(us[i]);
            d_them[i] = g * w_them[i] * model.slope(them[i]);
            grad.b1[i] += d_us[i] + d_them[i];
        }
        for (features, d) in [(f_us, &d_us), (f_them, &d_them)] {
            for &f in features {
                let row = &mut grad.w1[usize::from(f) * n..][..n];
                for (r, d) in row.iter_mut().zip(d.iter()) {
                    *r += d;
                }
            }
        }
    }
    loss
}

/// One batch part for a thread: its positions, its gradient (if one is wanted) and
/// where its loss goes.
type ShardWork<'a> = (&'a [usize], Option<&'a mut Grad>, &'a mut f64);

/// Runs `pass` over [`SHARDS`] parts of `indices` on threads; returns the parts'
/// gradients (when `grads` is given) and the summed loss, both in part order.
fn sharded(
    model: &Model,
    data: &Dataset,
    indices: &[usize],
    cfg: &TrainConfig,
    grads: Option<&mut [Grad]>,
) -> f64 {
    let part = indices.len().div_ceil(SHARDS).max(1);
    let chunks: Vec<&[usize]> = indices.chunks(part).collect();
    let threads = cfg.threads.clamp(1, SHARDS);
    let mut losses = vec![0.0f64; chunks.len()];
    let mut grad_slots: Vec<Option<&mut Grad>> = match grads {
        Some(grads) => grads.iter_mut().map(Some).collect(),
        None => (0..SHARDS).map(|_| None).collect(),
    };
    std::thread::scope(|scope| {
        // Thread t takes parts t, t + threads, ...: each part's own sum is sequential.
        let mut work: Vec<Vec<ShardWork>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, ((chunk, slot), loss)) in chunks
            .iter()
            .zip(grad_slots.iter_mut())
            .zip(losses.iter_mut())
            .enumerate()
        {
            work[i % threads].push((chunk, slot.take(), loss));
        }
        for items in work {
            scope.spawn(move || {
                for (chunk, grad, loss) in items {
                    *loss = pass(model, data, chunk, cfg, grad);
                }
            });
        }
    });
    losses.iter().sum()
}

/// Adam's moments, one pair per weight (every update is per weight, so their order
/// does not matter).
#[derive(Clone, Debug)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(params: usize) -> Adam {
        Adam {
            m: vec![0.0; params],
            v: vec![0.0; params],
            steps: 0,
        }
    }

    /// One step on the model with the gradient `grad` of `count` positions.
    fn step(&mut self, model: &mut Model, grad: &Grad, count: usize, lr: f32) {
        self.steps += 1;
        let scale = 1.0 / count.max(1) as f32;
        let c1 = 1.0 - Self::BETA1.powi(self.steps);
        let c2 = 1.0 - Self::BETA2.powi(self.steps);
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * scale;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        };
        let params = model
            .w1
            .iter_mut()
            .chain(&mut model.b1)
            .chain(&mut model.w2)
            .chain(&mut model.b2);
        let grads = grad
            .w1
            .iter()
            .chain(&grad.b1)
            .chain(&grad.w2)
            .chain(&grad.b2);
        for (((w, &g), m), v) in params.zip(grads).zip(&mut self.m).zip(&mut self.v) {
            update(w, g, m, v);
        }
        model.clip();
    }
}

/// The positions for training and those held out, split by the seed.
#[must_use]
pub fn split(len: usize, valid_fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut all: Vec<usize> = (0..len).collect();
    SplitMix64::new(seed ^ 0x5eed_5b17).shuffle(&mut all);
    let held = ((len as f64 * valid_fraction).round() as usize)
        .clamp(usize::from(len > 1), len.saturating_sub(1));
    let train = all.split_off(held);
    (train, all)
}

/// Trains a model on `data`; `report` hears the untrained model's held-out loss
/// (epoch 0) and each epoch's figures.
#[must_use]
pub fn train(data: &Dataset, cfg: &TrainConfig, report: &mut dyn FnMut(&EpochReport)) -> Model {
    let mut model = Model::with(cfg.hidden, cfg.activation, cfg.buckets, cfg.seed);
    let (mut train_set, valid_set) = split(data.len(), cfg.valid_fraction, cfg.seed);
    if cfg.mirror {
        // The held-out positions stay out in both orientations.
        let mirrored: Vec<usize> = train_set.iter().map(|i| i + data.len()).collect();
        train_set.extend(mirrored);
    }
    let mean = |loss: f64, n: usize| loss / n.max(1) as f64;
    let valid_loss =
        |model: &Model| mean(sharded(model, data, &valid_set, cfg, None), valid_set.len());
    report(&EpochReport {
        epoch: 0,
        train_loss: f64::NAN,
        valid_loss: valid_loss(&model),
        seconds: 0.0,
        positions: 0,
    });
    let mut grads: Vec<Grad> = (0..SHARDS)
        .map(|_| Grad::zeros(cfg.hidden, cfg.buckets))
        .collect();
    let mut adam = Adam::new(model.w1.len() + model.b1.len() + model.w2.len() + model.b2.len());
    let mut rng = SplitMix64::new(cfg.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut lr = cfg.lr;
    for epoch in 1..=cfg.epochs {
        let start = Instant::now();
        rng.shuffle(&mut train_set);
        let mut train_loss = 0.0;
        for batch in train_set.chunks(cfg.batch.max(1)) {
            for grad in &mut grads {
                grad.clear();
            }
            train_loss += sharded(&model, data, batch, cfg, Some(&mut grads));
            let (first, rest) = grads.split_at_mut(1);
            for other in rest.iter() {
                first[0].add(other);
            }
            adam.step(&mut model, &first[0], batch.len(), lr);
        }
        report(&EpochReport {
            epoch,
            train_loss: mean(train_loss, train_set.len()),
            valid_loss: valid_loss(&model),
            seconds: start.elapsed().as_secs_f64(),
            positions: train_set.len(),
        });
        lr *= cfg.lr_decay;
    }
    model
}
