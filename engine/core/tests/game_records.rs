//! Game records (`xq_core::training`): random games survive a chunk unchanged; a cut,
//! damaged or foreign chunk is refused with the reason; the reader's filters keep
//! exactly the quiet, scored positions, with the result from the side to move's view.

use xq_core::board::{Color, Position, START_FEN};
use xq_core::movegen::{in_check, legal_moves};
use xq_core::rng::SplitMix64;
use xq_core::training::chunk::{read_header, CHUNK_HEADER_BYTES};
use xq_core::training::{
    read_chunk, training_positions, write_chunk, ChunkError, FilterCounts, Filters, GameMove,
    GameResult, SearchScore, SelfPlayGame,
};

/// A random score: mostly units, some mates, some missing, now and then an extreme.
fn random_score(rng: &mut SplitMix64) -> Option<SearchScore> {
    match rng.below(20) {
        0 => None,
        1 => Some(SearchScore::Mate(rng.below(41) as i32 - 20)),
        2 => Some(SearchScore::Units(
            [i32::MIN, i32::MAX, -30_000, 9_800][rng.index(4)],
        )),
        _ => Some(SearchScore::Units(rng.below(6001) as i32 - 3000)),
    }
}

/// A random game from the start position: `opening` unscored plies, then scored ones.
fn random_game(index: u64, rng: &mut SplitMix64) -> SelfPlayGame {
    let mut position = Position::startpos();
    let plies = rng.below(200) as usize;
    let opening = rng.below(12) as usize;
    let mut moves = Vec::new();
    for ply in 0..plies {
        let legal = legal_moves(&position);
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.index(legal.len())];
        let score = if ply < opening {
            None
        } else {
            random_score(rng)
        };
        moves.push(GameMove { mv, score });
        position.make_move(mv);
    }
    SelfPlayGame {
        index,
        start_fen: START_FEN.to_owned(),
        moves,
        red_result: [GameResult::Win, GameResult::Draw, GameResult::Loss][rng.index(3)],
        ending: [
            "checkmate",
            "adjudication_resign",
            "max_plies",
            "repetition",
        ][rng.index(4)]
        .to_owned(),
    }
}

fn games(count: u64, seed: u64) -> Vec<SelfPlayGame> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|i| random_game(i * 3 + 1, &mut rng))
        .collect()
}

#[test]
fn random_games_survive_a_chunk_unchanged() {
    for seed in 1..=4 {
        let games = games(60, seed);
        let bytes = write_chunk(&games).expect("writes");
        let (header, back) = read_chunk(&bytes).expect("reads");
        assert_eq!(back, games);
        assert_eq!(header.games, 60);
        let searched: usize = games.iter().map(SelfPlayGame::searched).sum();
        assert_eq!(header.positions, searched as u64);
        // The same games make the same bytes: a chunk packed twice is known by its hash.
        assert_eq!(write_chunk(&games).expect("writes"), bytes);
    }
    let (header, none) = read_chunk(&write_chunk(&[]).expect("writes")).expect("reads");
    assert!(none.is_empty());
    assert_eq!(header.positions, 0);
}

#[test]
fn a_game_that_does_not_replay_is_not_written() {
    let mut game = games(1, 9).remove(0);
    game.moves.push(game.moves[0]);
    let err = write_chunk(&[game]).expect_err("refused");
    assert!(err.to_string().contains("is not legal"), "{err}");
}

#[test]
fn cut_damaged_and_foreign_chunks_are_refused_with_the_reason() {
    let bytes = write_chunk(&games(30, 5)).expect("writes");
    let err = |b: &[u8]| read_chunk(b).expect_err("refused").to_string();
    // Cut: in the header, in the payload.
    assert_eq!(
        err(&bytes[..40]),
        format!("truncated: 40 bytes, its header announces {CHUNK_HEADER_BYTES}")
    );
    let cut = bytes.len() - 100;
    assert_eq!(
        err(&bytes[..cut]),
        format!(
            "truncated: {cut} bytes, its header announces {}",
            bytes.len()
        )
    );
    let mut longer = bytes.clone();
    longer.extend_from_slice(b"tail");
    assert_eq!(
        err(&longer),
        "4 bytes after the payload its header announces"
    );
    // Damaged: one bit of the payload, or a count of the header.
    let mut flipped = bytes.clone();
    flipped[CHUNK_HEADER_BYTES + 10] ^= 0x10;
    assert!(matches!(
        read_chunk(&flipped),
        Err(ChunkError::HashMismatch)
    ));
    let mut counted = bytes.clone();
    counted[16] ^= 1;
    assert!(
        err(&counted).starts_with("damaged: its header counts"),
        "{}",
        err(&counted)
    );
    // Foreign: another file, another version.
    assert_eq!(
        err(b"XQNNDATA\x01\0\0\0 \0\0\0"),
        "not a game-record chunk (no XQGAMES header)"
    );
    assert_eq!(err(b""), "not a game-record chunk (no XQGAMES header)");
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        err(&version),
        "chunk format version 9, this build reads version 1"
    );
    assert_eq!(read_header(&bytes).expect("header").games, 30);
}

#[test]
fn the_reader_keeps_the_quiet_scored_positions_with_the_side_to_moves_result() {
    let games = games(40, 11);
    let filters = Filters { score_limit: 1500 };
    let mut counts = FilterCounts::default();
    let mut records = Vec::new();
    for game in &games {
        training_positions(game, &filters, &mut records, &mut counts).expect("replays");
    }
    // The same choice made here by hand, position by position.
    let mut expected = Vec::new();
    for game in &games {
        let mut position = Position::from_fen(&game.start_fen).expect("fen");
        for m in &game.moves {
            if let Some(SearchScore::Units(u)) = m.score {
                let quiet = !in_check(&position) && position.piece_at(m.mv.to()).is_none();
                if quiet && i64::from(u).abs() <= 1500 {
                    let result = if position.side_to_move() == Color::Red {
                        game.red_result
                    } else {
                        game.red_result.flipped()
                    };
                    expected.push((position.key(), u as i16, result));
                }
            }
            position.make_move(m.mv);
        }
    }
    let got: Vec<_> = records
        .iter()
        .map(|r| (r.position().expect("legal").key(), r.score, r.result))
        .collect();
    assert_eq!(got.len(), expected.len());
    assert!(got == expected, "the kept positions differ from a replay's");
    assert!(expected.len() > 500, "{}", expected.len());
    assert_eq!(counts.kept, expected.len() as u64);
    let total: usize = games.iter().map(|g| g.moves.len()).sum();
    assert_eq!(counts.positions, total as u64);
    assert_eq!(
        counts.unscored
            + counts.in_check
            + counts.mate
            + counts.beyond_limit
            + counts.capture
            + counts.kept,
        counts.positions
    );
    assert!(
        counts.capture > 0 && counts.mate > 0 && counts.beyond_limit > 0 && counts.unscored > 0
    );

    // A game an engine fault ended gives nothing.
    let mut faulted = games[0].clone();
    faulted.ending = "crash".to_owned();
    let mut none = Vec::new();
    let mut counts = FilterCounts::default();
    training_positions(&faulted, &filters, &mut none, &mut counts).expect("replays");
    assert!(none.is_empty());
    assert_eq!(counts.fault_games, faulted.moves.len() as u64);
}
