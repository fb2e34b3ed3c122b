//! Hostile engines (issue 31), one habit each, played in-process against a correct
//! engine: GBK on stderr, an endless stdout line, a child that keeps stdout open after
//! the engine exits, a child in a session of its own, doubled and stale `bestmove`s,
//! and the handshake of the wrong protocol.

mod common;

use std::time::{Duration, Instant};

use common::{eventually, fault_spec, kill_all_with, processes_with, tag};
use xq_core::board::{Color, START_FEN};
use xq_runner::client::{EngineError, EngineSession, EngineSpec, Protocol, Timeouts};
use xq_runner::game::{
    play_game, EndReason, GameSettings, GameStart, Outcome, PlayedGame, Player, TimeControl,
};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

fn timeouts() -> Timeouts {
    Timeouts {
        startup: Duration::from_secs(20),
        ping: Duration::from_secs(20),
        stop_grace: Duration::from_millis(500),
        quit_grace: Duration::from_millis(300),
        unclocked_move: Duration::from_secs(20),
    }
}

/// One game of the fault engine `bad` (Red) against a correct one; both quit after.
/// Fails the test if anything with the test's tag is left afterwards.
fn game(test: &str, fault: &str, extra: &[&str], tc: TimeControl) -> PlayedGame {
    let t = tag(test);
    let bad = fault_spec("bad", &t, fault, extra);
    let good = fault_spec("good", &t, "none", &[]);
    let settings = GameSettings {
        max_plies: Some(60),
        ..GameSettings::default()
    };
    let game = runtime().block_on(async {
        let mut r = EngineSession::start(&bad, timeouts())
            .await
            .expect("bad starts");
        let mut b = EngineSession::start(&good, timeouts())
            .await
            .expect("good starts");
        let start = GameStart {
            fen: START_FEN.to_owned(),
            moves: Vec::new(),
        };
        let players = [
            Player {
                engine: &mut r,
                time_control: tc,
                depth_cap: None,
            },
            Player {
                engine: &mut b,
                time_control: tc,
                depth_cap: None,
            },
        ];
        let game = play_game(&start, players, &settings)
            .await
            .expect("the game starts");
        if game.faulted == Some(Color::Red) {
            r.kill().await;
        } else {
            r.quit().await;
        }
        b.quit().await;
        game
    });
    let gone = eventually(Duration::from_secs(10), || processes_with(&t).is_empty());
    let left = processes_with(&t);
    kill_all_with(&t);
    assert!(gone, "{test}: processes left behind: {left:?}");
    game
}

#[test]
fn gbk_on_stderr_does_not_kill_the_engine() {
    let g = game("gbk", "gbk-stderr", &[], TimeControl::Depth(1));
    assert!(!g.reason.is_fault(), "{:?} {:?}", g.reason, g.detail);
    assert_eq!(g.plies(), 60, "the game was played to its end");
}

#[test]
fn an_endless_stdout_line_loses_the_game_as_a_protocol_error() {
    let g = game("long-line", "long-line", &[], TimeControl::Depth(1));
    assert_eq!(g.reason, EndReason::IllegalMove, "{:?}", g.detail);
    assert_eq!(g.outcome, Outcome::loss_for(Color::Red));
    let detail = g.detail.unwrap_or_default();
    assert!(
        detail.contains("protocol error") && detail.contains("65536"),
        "{detail}"
    );
}

#[test]
fn an_exit_while_a_child_holds_stdout_is_a_crash_not_a_time_loss() {
    // A long clock: read without watching the exit, the game would end on time.
    let tc = TimeControl::parse("60+0").expect("tc");
    let started = Instant::now();
    let g = game(
        "exit-child",
        "exit-child-holds-stdout",
        &["--at-ply", "4"],
        tc,
    );
    assert_eq!(g.reason, EndReason::Crash, "{:?}", g.detail);
    let detail = g.detail.unwrap_or_default();
    assert!(detail.contains("exit status: 3"), "{detail}");
    // Far less than the 60 s clock: the exit was seen, not the flag.
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_child_in_its_own_session_dies_with_its_engine() {
    let t = tag("setsid");
    let spec = fault_spec("bad", &t, "setsid-child", &[]);
    runtime().block_on(async {
        let session = EngineSession::start(&spec, timeouts())
            .await
            .expect("starts");
        let orphan = format!("orphan --tag {t}");
        assert!(
            eventually(Duration::from_secs(10), || !processes_with(&orphan)
                .is_empty()),
            "the engine started its child"
        );
        session.quit().await;
    });
    let gone = eventually(Duration::from_secs(10), || processes_with(&t).is_empty());
    let left = processes_with(&t);
    kill_all_with(&t);
    assert!(gone, "left behind: {left:?}");
}

#[test]
fn a_doubled_bestmove_is_not_taken_as_the_next_answer() {
    let g = game("double", "double-bestmove", &[], TimeControl::Depth(1));
    assert!(!g.reason.is_fault(), "{:?} {:?}", g.reason, g.detail);
    assert_eq!(g.plies(), 60);
    let detail = g.detail.unwrap_or_default();
    assert!(detail.contains("stale or doubled bestmove"), "{detail}");
}

#[test]
fn a_stale_bestmove_taken_as_the_answer_is_named_in_the_detail() {
    let g = game("stale", "stale-bestmove", &[], TimeControl::Depth(1));
    assert_eq!(g.reason, EndReason::IllegalMove, "{:?}", g.detail);
    let detail = g.detail.unwrap_or_default();
    assert!(detail.contains("previous answer"), "{detail}");
}

/// Starts `spec` and returns the error and how long it took.
fn failed_start(spec: &EngineSpec, timeouts: Timeouts) -> (String, Duration) {
    let started = Instant::now();
    let error = runtime()
        .block_on(EngineSession::start(spec, timeouts))
        .expect_err("must not start");
    (error.to_string(), started.elapsed())
}

#[test]
fn a_uci_engine_started_as_ucci_fails_at_once_with_a_hint() {
    let t = tag("uci-only");
    let spec = fault_spec("uci-engine", &t, "uci-only", &["--protocol", "uci"]);
    let long = Timeouts {
        startup: Duration::from_secs(60),
        ..timeouts()
    };
    let (error, took) = failed_start(&spec, long);
    assert!(error.contains("protocol = \"uci\""), "{error}");
    assert!(
        error.contains("Unknown command"),
        "says what it printed: {error}"
    );
    assert!(
        took < Duration::from_secs(30),
        "it did not wait for the timeout: {took:?}"
    );
    // Started as UCI it works.
    let uci = EngineSpec {
        protocol: Protocol::Uci,
        ..spec
    };
    let started = runtime().block_on(async {
        let session = EngineSession::start(&uci, timeouts()).await;
        let ok = session.as_ref().map(|_| ()).map_err(ToString::to_string);
        if let Ok(s) = session {
            s.quit().await;
        }
        ok
    });
    kill_all_with(&t);
    assert_eq!(started, Ok(()));
}

#[test]
fn a_ucci_engine_started_as_uci_gets_the_hint_and_the_timeout_key() {
    let t = tag("ucci-only");
    let spec = EngineSpec {
        protocol: Protocol::Uci,
        ..fault_spec("ucci-engine", &t, "ucci-only", &[])
    };
    let short = Timeouts {
        startup: Duration::from_millis(500),
        ..timeouts()
    };
    let (error, _) = failed_start(&spec, short);
    assert!(error.contains("faults.startup_timeout"), "{error}");
    assert!(error.contains("protocol = \"ucci\""), "{error}");
    assert!(error.contains("printed nothing"), "{error}");
    kill_all_with(&t);
}

#[test]
fn a_missing_handshake_answer_names_its_timeout_key() {
    let t = tag("no-hello-key");
    let spec = fault_spec("bad", &t, "no-hello", &[]);
    let short = Timeouts {
        startup: Duration::from_millis(300),
        ..timeouts()
    };
    let error = runtime()
        .block_on(EngineSession::start(&spec, short))
        .expect_err("must not start");
    assert!(matches!(error, EngineError::Timeout { .. }), "{error}");
    assert!(
        error.to_string().contains("faults.startup_timeout"),
        "{error}"
    );
    kill_all_with(&t);
}
