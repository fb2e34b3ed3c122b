//! One game, end to end with real processes: our engine against itself to the end of
//! the game, the result consistent with the rules judge; every misbehaviour of the
//! fault-injection engine gives exactly its documented result and reason; no engine
//! process is left behind.

mod common;

use std::time::Duration;

use common::{fault_spec, processes_with, tag, xq_engine_spec};
use xq_core::board::{Color, Position, START_FEN};
use xq_core::rules::{GameRecord, GameResult};
use xq_runner::client::{EngineError, EngineSession, EngineSpec, Timeouts};
use xq_runner::game::{
    play_game, EndReason, GameSettings, GameStart, Outcome, PlayedGame, Player, TimeControl,
};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

fn timeouts() -> Timeouts {
    Timeouts {
        startup: Duration::from_secs(5),
        ping: Duration::from_secs(5),
        stop_grace: Duration::from_millis(500),
        quit_grace: Duration::from_millis(300),
        unclocked_move: Duration::from_secs(2),
    }
}

fn start_from(moves: &[&str]) -> GameStart {
    GameStart {
        fen: START_FEN.to_owned(),
        moves: moves
            .iter()
            .map(|m| xq_core::board::Move::parse(m).expect("move"))
            .collect(),
    }
}

/// Plays one game between two specs with time controls; quits both engines after.
fn play(
    red: &EngineSpec,
    black: &EngineSpec,
    tc: [TimeControl; 2],
    settings: &GameSettings,
    start: &GameStart,
) -> PlayedGame {
    runtime().block_on(async {
        let mut r = EngineSession::start(red, timeouts())
            .await
            .expect("red starts");
        let mut b = EngineSession::start(black, timeouts())
            .await
            .expect("black starts");
        let game = play_game(
            start,
            [
                Player {
                    engine: &mut r,
                    time_control: tc[0],
                    depth_cap: None,
                },
                Player {
                    engine: &mut b,
                    time_control: tc[1],
                    depth_cap: None,
                },
            ],
            settings,
        )
        .await
        .expect("the game starts");
        r.quit().await;
        b.quit().await;
        game
    })
}

/// Replays a game through the judge: every move legal, and the judge's final verdict is
/// the game's result when the game ended by the rules.
fn assert_consistent_with_judge(game: &PlayedGame, settings: &GameSettings) {
    let start = Position::from_fen(&game.start_fen).expect("start FEN");
    let mut record = GameRecord::new(start, settings.rules);
    for &m in &game.opening_moves {
        record.push(m).expect("opening move");
    }
    for (i, m) in game.moves.iter().enumerate() {
        assert!(
            !record.verdict().is_final(),
            "the game went on after the judge's verdict at ply {i}"
        );
        record
            .push(m.mv)
            .unwrap_or_else(|e| panic!("move {i} {} illegal: {e}", m.mv));
    }
    let verdict = record.verdict();
    if verdict.is_final() {
        let expected = match verdict.result {
            GameResult::RedWins => Outcome::RedWins,
            GameResult::BlackWins => Outcome::BlackWins,
            _ => Outcome::Draw,
        };
        assert_eq!(game.outcome, expected);
        assert_eq!(game.reason.code(), verdict.reason.code());
    } else {
        assert!(
            matches!(
                game.reason,
                EndReason::MaxPlies | EndReason::AdjudicationDraw | EndReason::AdjudicationResign
            ),
            "ended by {} although the judge says the game goes on",
            game.reason
        );
    }
}

#[test]
fn our_engine_plays_itself_to_the_end() {
    let settings = GameSettings {
        max_plies: Some(400),
        ..GameSettings::default()
    };
    let (a, b) = (xq_engine_spec("a", 6), xq_engine_spec("b", 1));
    for opening in [&["h2e2", "h9g7"][..], &["b2e2", "b9c7", "h0g2"], &["c3c4"]] {
        let game = play(
            &a,
            &b,
            [TimeControl::Depth(2); 2],
            &settings,
            &start_from(opening),
        );
        assert!(
            !game.reason.is_fault(),
            "no fault expected: {:?} {:?}",
            game.reason,
            game.detail
        );
        assert!(game.plies() > 0);
        assert_consistent_with_judge(&game, &settings);
    }
}

/// One fault engine (the loser) against a correct instant engine.
fn fault_game(
    test: &str,
    fault: &str,
    extra: &[&str],
    loser: Color,
    tc: TimeControl,
) -> PlayedGame {
    let t = tag(test);
    let bad = fault_spec("bad", &t, fault, extra);
    let good = fault_spec("good", &t, "none", &[]);
    let settings = GameSettings {
        max_plies: Some(300),
        time_margin: Duration::from_millis(30),
        ..GameSettings::default()
    };
    let (red, black) = if loser == Color::Red {
        (&bad, &good)
    } else {
        (&good, &bad)
    };
    let game = play(red, black, [tc; 2], &settings, &start_from(&[]));
    // Give the OS a moment to reap, then check nothing of this test is left.
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        processes_with(&t).is_empty(),
        "processes left behind: {:?}",
        processes_with(&t)
    );
    game
}

#[test]
fn faults_give_their_documented_results() {
    let depth = TimeControl::Depth(1);
    let clock = TimeControl::parse("0.3+0").expect("tc");
    // (test, fault, extra arguments, losing side, time control, expected reason)
    type Case<'a> = (
        &'a str,
        &'a str,
        &'a [&'a str],
        Color,
        TimeControl,
        EndReason,
    );
    let cases: [Case<'_>; 7] = [
        (
            "crash",
            "crash",
            &["--at-ply", "6"],
            Color::Red,
            depth,
            EndReason::Crash,
        ),
        (
            "silent-clock",
            "silent",
            &[],
            Color::Black,
            clock,
            EndReason::TimeForfeit,
        ),
        (
            "silent-depth",
            "silent",
            &[],
            Color::Red,
            depth,
            EndReason::Stall,
        ),
        (
            "late",
            "sleep",
            &["--sleep-ms", "600"],
            Color::Black,
            clock,
            EndReason::TimeForfeit,
        ),
        (
            "illegal",
            "illegal",
            &[],
            Color::Red,
            depth,
            EndReason::IllegalMove,
        ),
        (
            "unparseable",
            "unparseable",
            &[],
            Color::Black,
            depth,
            EndReason::IllegalMove,
        ),
        (
            "nomove",
            "nomove",
            &[],
            Color::Red,
            depth,
            EndReason::NoMove,
        ),
    ];
    for (test, fault, extra, loser, tc, reason) in cases {
        let game = fault_game(test, fault, extra, loser, tc);
        assert_eq!(game.reason, reason, "{test}: {:?}", game.detail);
        assert_eq!(game.outcome, Outcome::loss_for(loser), "{test}");
        assert_eq!(game.faulted, Some(loser), "{test}");
    }
}

#[test]
fn garbage_and_floods_around_valid_moves_are_survived() {
    for fault in ["garbage", "flood"] {
        let game = fault_game(fault, fault, &[], Color::Red, TimeControl::Depth(1));
        assert!(
            !game.reason.is_fault(),
            "{fault}: {:?} {:?}",
            game.reason,
            game.detail
        );
        assert!(game.plies() > 10, "{fault}: the game was played");
    }
}

#[test]
fn engines_that_never_get_ready_fail_to_start_and_are_killed() {
    let rt = runtime();
    for (fault, expect_exit) in [("no-hello", false), ("exit-on-isready", true)] {
        let t = tag(fault);
        let spec = fault_spec("bad", &t, fault, &[]);
        let quick = Timeouts {
            startup: Duration::from_millis(500),
            ..timeouts()
        };
        let error = rt
            .block_on(EngineSession::start(&spec, quick))
            .expect_err("must not start");
        match error {
            EngineError::Exited { .. } => assert!(expect_exit, "{fault}: {error}"),
            EngineError::Timeout { .. } => assert!(!expect_exit, "{fault}: {error}"),
            other => panic!("{fault}: unexpected {other}"),
        }
        std::thread::sleep(Duration::from_millis(100));
        assert!(processes_with(&t).is_empty(), "{fault}: left behind");
    }
    let missing = EngineSpec {
        command: vec!["/nonexistent/engine".to_owned()],
        ..fault_spec("x", "x", "none", &[])
    };
    let error = rt
        .block_on(EngineSession::start(&missing, timeouts()))
        .expect_err("missing program");
    assert!(error.to_string().contains("/nonexistent/engine"), "{error}");
}
