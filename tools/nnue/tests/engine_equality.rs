//! The engine's evaluation of a network equals the trainer's quantised forward pass
//! (the same integers, computed without the engine's accumulators), from scratch and
//! incrementally along random games with every move taken back.

mod common;

use std::sync::Arc;

use common::{random_games, scored_records};
use xq_core::training::{GameResult, Record};
use xq_engine::board::Position;
use xq_engine::eval::nnue::{Activation, Incremental, Network};
use xq_engine::movegen::legal_moves;
use xq_engine::rng::SplitMix64;
use xq_nnue::dataset::Dataset;
use xq_nnue::model::Model;
use xq_nnue::quantised::QuantisedNet;
use xq_nnue::train::{train, TrainConfig};

fn trainer_eval(net: &QuantisedNet, pos: &Position) -> i32 {
    let data = Dataset::from_records(&[Record::new(pos, 0, GameResult::Draw)]);
    net.evaluate(&data.active(0))
}

/// Trained networks and untrained ones with larger weights (their sums reach the
/// activation's clip more often), of each activation, with and without buckets.
fn networks() -> Vec<(Network, QuantisedNet)> {
    let data = Dataset::from_records(&scored_records(20, 60, 2));
    let cfg = TrainConfig {
        hidden: 32,
        epochs: 2,
        batch: 128,
        lr: 0.01,
        ..TrainConfig::default()
    };
    let trained = train(&data, &cfg, &mut |_| {});
    let bucketed = TrainConfig {
        buckets: 8,
        activation: Activation::SCRelu,
        ..cfg
    };
    let trained_screlu = train(&data, &bucketed, &mut |_| {});
    let wide = |activation, buckets| {
        let mut wide = Model::with(48, activation, buckets, 77);
        for w in wide.w1.iter_mut().chain(&mut wide.b1) {
            *w *= 6.0;
        }
        wide.clip();
        wide
    };
    [
        (trained, 400),
        (wide(Activation::CRelu, 1), 250),
        (trained_screlu, 400),
        (wide(Activation::SCRelu, 8), 250),
        (wide(Activation::CRelu, 5), 300),
    ]
    .into_iter()
    .map(|(model, scale)| {
        let bytes = model.quantise(scale).expect("in range").to_bytes();
        let engine = Network::from_bytes(&bytes).expect("engine reads it");
        let trainer = QuantisedNet::from_file_bytes(&bytes).expect("trainer reads it");
        (engine, trainer)
    })
    .collect()
}

#[test]
fn the_engine_evaluates_as_the_trainer_on_hundreds_of_positions() {
    let positions: Vec<Position> = random_games(12, 40, 99).into_iter().flatten().collect();
    assert!(positions.len() > 400);
    for (engine, trainer) in networks() {
        let mut nonzero = 0;
        for pos in &positions {
            let score = engine.evaluate(pos);
            assert_eq!(score, trainer_eval(&trainer, pos), "{}", pos.to_fen());
            nonzero += usize::from(score != 0);
        }
        assert!(
            nonzero > positions.len() / 2,
            "a network that says something"
        );
    }
}

#[test]
fn incremental_evaluation_equals_the_trainer_along_random_games_with_unmakes() {
    let mut rng = SplitMix64::new(5);
    for (engine, trainer) in networks() {
        let engine = Arc::new(engine);
        for _ in 0..10 {
            let mut pos = Position::startpos();
            let mut inc = Incremental::new(Arc::clone(&engine), &pos);
            let mut line = Vec::new();
            for _ in 0..60 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.index(moves.len())];
                let undo = pos.make_move(m);
                inc.make(&pos, m, undo.captured);
                line.push((m, undo));
                assert_eq!(
                    inc.evaluate(pos.side_to_move()),
                    trainer_eval(&trainer, &pos)
                );
                // Now and then a move and its take-back, as the search does.
                if rng.below(3) == 0 {
                    let replies = legal_moves(&pos);
                    if let Some(&r) = replies.first() {
                        let u = pos.make_move(r);
                        inc.make(&pos, r, u.captured);
                        assert_eq!(
                            inc.evaluate(pos.side_to_move()),
                            trainer_eval(&trainer, &pos)
                        );
                        pos.unmake_move(r, u);
                        inc.unmake();
                    }
                }
            }
            while let Some((m, undo)) = line.pop() {
                pos.unmake_move(m, undo);
                inc.unmake();
                assert_eq!(
                    inc.evaluate(pos.side_to_move()),
                    trainer_eval(&trainer, &pos)
                );
            }
        }
    }
}
