//! The runner's clock: with an engine that sleeps a known time before answering, the
//! measured thinking time and the time-forfeit decision are right within 5 ms.
//! (One test in its own binary, so no other test competes for the CPU meanwhile.)

mod common;

use std::time::Duration;

use common::{fault_spec, tag};
use xq_core::board::START_FEN;
use xq_runner::client::{EngineSession, GoLimit, Timeouts};
use xq_runner::game::{play_game, EndReason, GameSettings, GameStart, Player, TimeControl};

const TOLERANCE: Duration = Duration::from_millis(5);

#[test]
fn measured_times_and_forfeits_are_right_within_5ms() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        for sleep_ms in [40u64, 120, 250] {
            let spec = fault_spec(
                "sleeper",
                &tag("clock"),
                "sleep",
                &["--sleep-ms", &sleep_ms.to_string()],
            );
            let mut engine = EngineSession::start(&spec, Timeouts::default())
                .await
                .expect("starts");
            let mut samples = Vec::new();
            for _ in 0..5 {
                let thought = engine
                    .think(START_FEN, &[], &[], GoLimit::Depth(1), None)
                    .await
                    .expect("answer");
                samples.push(thought.elapsed);
            }
            samples.sort();
            let median = samples[2];
            let sleep = Duration::from_millis(sleep_ms);
            assert!(median >= sleep, "measured {median:?} for a {sleep:?} sleep");
            assert!(
                median - sleep <= TOLERANCE,
                "measured {median:?} for a {sleep:?} sleep: off by more than 5 ms"
            );
            engine.quit().await;
        }

        // 200 ms per move and no margin: 194 ms is in time, 206 ms loses on time.
        let settings = GameSettings {
            time_margin: Duration::ZERO,
            max_plies: Some(6),
            ..GameSettings::default()
        };
        let start = GameStart {
            fen: START_FEN.to_owned(),
            moves: Vec::new(),
        };
        let tc = TimeControl::MoveTime(Duration::from_millis(200));
        for (sleep_ms, forfeit) in [(194u64, false), (206, true)] {
            let t = tag("forfeit");
            let sleeper = fault_spec(
                "sleeper",
                &t,
                "sleep",
                &["--sleep-ms", &sleep_ms.to_string()],
            );
            let quick = fault_spec("quick", &t, "none", &[]);
            let mut red = EngineSession::start(&sleeper, Timeouts::default())
                .await
                .expect("starts");
            let mut black = EngineSession::start(&quick, Timeouts::default())
                .await
                .expect("starts");
            let game = play_game(
                &start,
                [
                    Player {
                        engine: &mut red,
                        time_control: tc,
                        depth_cap: None,
                    },
                    Player {
                        engine: &mut black,
                        time_control: tc,
                        depth_cap: None,
                    },
                ],
                &settings,
            )
            .await
            .expect("game");
            let lost_on_time = game.reason == EndReason::TimeForfeit;
            assert_eq!(
                lost_on_time, forfeit,
                "sleep {sleep_ms} ms against 200 ms per move: {:?} {:?}",
                game.reason, game.detail
            );
            red.quit().await;
            black.quit().await;
        }
    });
}
