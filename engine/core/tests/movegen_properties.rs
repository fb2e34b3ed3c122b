//! Properties of move generation over random games: the generator agrees with a naive
//! rule-by-rule generator written here from scratch, make/unmake restores everything,
//! the incremental key equals one computed from scratch, captures are a subset of all
//! moves, and FEN/move parsing never panics.

use std::collections::BTreeSet;

use proptest::prelude::*;
use xq_core::board::BitBoard;
use xq_core::board::{Color, Move, Piece, PieceKind, Position, Square, START_FEN};
use xq_core::movegen::{
    capture_keeps_king_safe, count_legal, generate_captures_unchecked, generate_quiet_checks,
    generate_with, gives_check, has_legal_move, in_check, is_legal, legal_captures, legal_moves,
    legal_quiets, GenKind, LegalFilter, MoveList,
};
use xq_core::rng::SplitMix64;

/// A board as a plain array, for the naive generator.
type Grid = [[Option<Piece>; 9]; 10];

fn grid(pos: &Position) -> Grid {
    let mut g = [[None; 9]; 10];
    for sq in Square::ALL {
        g[sq.rank().index()][sq.file().index()] = pos.piece_at(sq);
    }
    g
}

fn at(g: &Grid, f: i32, r: i32) -> Option<Option<Piece>> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some(g[r as usize][f as usize])
    } else {
        None
    }
}

fn in_palace(color: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && if color == Color::Red {
            (0..=2).contains(&r)
        } else {
            (7..=9).contains(&r)
        }
}

fn own_half(color: Color, r: i32) -> bool {
    if color == Color::Red {
        r <= 4
    } else {
        r >= 5
    }
}

/// Pseudo-legal moves of `color` by the rules, written directly on coordinates.
fn naive_pseudo(g: &Grid, color: Color) -> Vec<((i32, i32), (i32, i32))> {
    let mut out = Vec::new();
    for r in 0..10 {
        for f in 0..9 {
            let Some(piece) = g[r as usize][f as usize] else {
                continue;
            };
            if piece.color() != color {
                continue;
            }
            let mut add = |tf: i32, tr: i32| match at(g, tf, tr) {
                Some(None) => out.push(((f, r), (tf, tr))),
                Some(Some(p)) if p.color() != color => out.push(((f, r), (tf, tr))),
                _ => {}
            };
            let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
            match piece.kind() {
                PieceKind::King => {
                    for (df, dr) in orth {
                        if in_palace(color, f + df, r + dr) {
                            add(f + df, r + dr);
                        }
                    }
                }
                PieceKind::Advisor => {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        if in_palace(color, f + df, r + dr) {
                            add(f + df, r + dr);
                        }
                    }
                }
                PieceKind::Elephant => {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let (tf, tr) = (f + 2 * df, r + 2 * dr);
                        if at(g, f + df, r + dr) == Some(None) && own_half(color, tr) {
                            add(tf, tr);
                        }
                    }
                }
                PieceKind::Horse => {
                    for (df, dr) in orth {
                        if at(g, f + df, r + dr) != Some(None) {
                            continue;
                        }
                        let (sf, sr) = (dr, df);
                        add(f + 2 * df + sf, r + 2 * dr + sr);
                        add(f + 2 * df - sf, r + 2 * dr - sr);
                    }
                }
                PieceKind::Rook | PieceKind::Cannon => {
                    for (df, dr) in orth {
                        let (mut tf, mut tr) = (f + df, r + dr);
                        let mut screened = false;
                        while let Some(cell) = at(g, tf, tr) {
                            match (piece.kind(), cell, screened) {
                                (_, None, false) => add(tf, tr),
                                (PieceKind::Rook, Some(_), _) => {
                                    add(tf, tr);
                                    break;
                                }
                                (PieceKind::Cannon, Some(_), false) => screened = true,
                                (PieceKind::Cannon, Some(_), true) => {
                                    add(tf, tr);
                                    break;
                                }
                                _ => {}
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
                PieceKind::Pawn => {
                    let fwd = if color == Color::Red { 1 } else { -1 };
                    add(f, r + fwd);
                    if !own_half(color, r) {
                        add(f + 1, r);
                        add(f - 1, r);
                    }
                }
            }
        }
    }
    out
}

/// Whether `color`'s king can be taken by the other side or faces the other king.
fn naive_king_attacked(g: &Grid, color: Color) -> bool {
    let find = |c: Color| -> Option<(i32, i32)> {
        (0..10)
            .flat_map(|r| (0..9).map(move |f| (f, r)))
            .find(|&(f, r)| g[r as usize][f as usize] == Some(Piece::new(c, PieceKind::King)))
    };
    let (Some(k), Some(other)) = (find(color), find(!color)) else {
        return true;
    };
    if k.0 == other.0 {
        let (lo, hi) = (k.1.min(other.1), k.1.max(other.1));
        if (lo + 1..hi).all(|r| g[r as usize][k.0 as usize].is_none()) {
            return true;
        }
    }
    naive_pseudo(g, !color).iter().any(|&(_, to)| to == k)
}

fn naive_legal(pos: &Position) -> BTreeSet<String> {
    let g = grid(pos);
    let color = pos.side_to_move();
    naive_pseudo(&g, color)
        .into_iter()
        .filter(|&((f, r), (tf, tr))| {
            let mut after = g;
            after[tr as usize][tf as usize] = after[r as usize][f as usize].take();
            !naive_king_attacked(&after, color)
        })
        .map(|((f, r), (tf, tr))| {
            format!(
                "{}{}{}{}",
                (b'a' + f as u8) as char,
                r,
                (b'a' + tf as u8) as char,
                tr
            )
        })
        .collect()
}

/// Positions along seeded random games (captures preferred now and then, so material
/// comes off and checks and endgames appear).
fn random_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..max_plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            out.push(pos.clone());
            let captures = legal_captures(&pos);
            let m = if !captures.is_empty() && rng.index(3) == 0 {
                captures[rng.index(captures.len())]
            } else {
                moves[rng.index(moves.len())]
            };
            pos.make_move(m);
        }
        out.push(pos);
    }
    out
}

#[test]
fn generator_agrees_with_naive_rules() {
    for pos in random_positions(1, 60, 160) {
        let ours: BTreeSet<String> = legal_moves(&pos).iter().map(Move::to_string).collect();
        assert_eq!(ours, naive_legal(&pos), "legal moves of {}", pos.to_fen());
        assert_eq!(count_legal(&pos), ours.len());
        assert_eq!(has_legal_move(&pos), !ours.is_empty(), "{}", pos.to_fen());
    }
}

#[test]
fn is_legal_and_the_filter_agree_with_the_generator_on_every_square_pair() {
    for pos in random_positions(2, 20, 120).iter().step_by(7) {
        let legal: BTreeSet<Move> = legal_moves(pos).iter().copied().collect();
        let filter = LegalFilter::new(pos);
        for from in Square::ALL {
            for to in Square::ALL {
                if let Some(m) = Move::try_new(from, to) {
                    assert_eq!(
                        is_legal(pos, m),
                        legal.contains(&m),
                        "{m} in {}",
                        pos.to_fen()
                    );
                    assert_eq!(
                        filter.allows(pos, m),
                        legal.contains(&m),
                        "filter, {m} in {}",
                        pos.to_fen()
                    );
                }
            }
        }
    }
}

#[test]
fn make_unmake_key_captures_and_checks() {
    for pos in random_positions(3, 40, 160) {
        assert_eq!(pos.key(), pos.compute_key());
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let on_board = pos.pieces_of(color, kind).count() as i32;
                assert_eq!(pos.count_of(color, kind), on_board, "{color:?} {kind:?}");
            }
        }
        assert_eq!(
            Position::from_fen(&pos.to_fen()).as_ref(),
            Ok(&pos),
            "FEN round trip"
        );
        let all = legal_moves(&pos);
        let captures = legal_captures(&pos);
        for m in captures.iter() {
            assert!(all.contains(m), "capture {m} not among all moves");
            assert!(pos.piece_at(m.to()).is_some());
        }
        let capture_count = all
            .iter()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .count();
        assert_eq!(captures.len(), capture_count);
        for &m in all.iter() {
            let mut after = pos.clone();
            let undo = after.make_move(m);
            assert_eq!(after.key(), after.compute_key(), "key after {m}");
            assert_eq!(
                gives_check(&pos, m),
                in_check(&after),
                "gives_check {m} in {}",
                pos.to_fen()
            );
            after.unmake_move(m, undo);
            assert_eq!(after, pos, "unmake {m}");
        }
    }
}

#[test]
fn unchecked_captures_kept_by_the_safety_test_are_the_legal_captures() {
    let mut list = MoveList::new();
    let mut tested = 0;
    for pos in random_positions(5, 60, 160) {
        if in_check(&pos) {
            continue;
        }
        let them = !pos.side_to_move();
        let legal: BTreeSet<Move> = legal_captures(&pos).iter().copied().collect();
        generate_captures_unchecked(&pos, pos.color_bb(them), &mut list);
        let kept: BTreeSet<Move> = list
            .iter()
            .copied()
            .filter(|&m| capture_keeps_king_safe(&pos, m))
            .collect();
        assert_eq!(kept, legal, "captures of {}", pos.to_fen());
        tested += list.len() - kept.len();
        // Restricted to some victims: exactly the captures of those.
        let rooks = pos.pieces_of(them, PieceKind::Rook);
        generate_captures_unchecked(
            &pos,
            rooks | BitBoard::FULL.without(pos.king(them)),
            &mut list,
        );
        assert!(list
            .iter()
            .all(|m| pos.piece_at(m.to()).is_some_and(|p| p.color() == them)));
        generate_captures_unchecked(&pos, rooks, &mut list);
        let of_rooks: BTreeSet<Move> = list
            .iter()
            .copied()
            .filter(|&m| capture_keeps_king_safe(&pos, m))
            .collect();
        let expected: BTreeSet<Move> = legal
            .iter()
            .copied()
            .filter(|m| rooks.has(m.to()))
            .collect();
        assert_eq!(of_rooks, expected, "rook captures of {}", pos.to_fen());
    }
    // The random games do produce captures that expose the king (pinned pieces).
    assert!(
        tested > 0,
        "no illegal capture was generated, so none was tested"
    );
}

/// Moves generated with the filter that tests nothing, then kept by `admits` of the full
/// filter, are exactly the legal moves, in check or not, for every kind of generation.
#[test]
fn untested_moves_kept_by_admits_are_the_legal_moves() {
    let mut list = MoveList::new();
    let (mut rejected, mut in_check_positions) = (0, 0);
    for pos in random_positions(7, 60, 160) {
        in_check_positions += usize::from(in_check(&pos));
        let filter = LegalFilter::new(&pos);
        for (kind, legal) in [
            (GenKind::All, legal_moves(&pos)),
            (GenKind::Captures, legal_captures(&pos)),
            (GenKind::Quiets, legal_quiets(&pos)),
        ] {
            let legal: BTreeSet<Move> = legal.iter().copied().collect();
            generate_with(&pos, &LegalFilter::untested(&pos), kind, &mut list);
            let kept: BTreeSet<Move> = list.iter().copied().filter(|&m| filter.admits(m)).collect();
            assert_eq!(kept, legal, "{kind:?} moves of {}", pos.to_fen());
            assert!(list.iter().all(|&m| pos
                .piece_at(m.from())
                .is_some_and(|p| p.color() == pos.side_to_move())));
            rejected += list.len() - kept.len();
        }
    }
    assert!(
        rejected > 0,
        "no illegal move was generated, so none was tested"
    );
    assert!(in_check_positions > 0, "no position in check in the sample");
}

#[test]
fn quiet_checks_are_the_quiet_moves_that_give_check() {
    let mut list = MoveList::new();
    let mut checks = 0;
    let crafted = DISCOVERED_CHECKS.map(|fen| Position::from_fen(fen).expect("fen"));
    for pos in random_positions(6, 80, 160).into_iter().chain(crafted) {
        let expected: BTreeSet<Move> = legal_quiets(&pos)
            .iter()
            .copied()
            .filter(|&m| gives_check(&pos, m))
            .collect();
        generate_quiet_checks(&pos, &LegalFilter::new(&pos), &mut list);
        let ours: BTreeSet<Move> = list.iter().copied().collect();
        assert_eq!(ours.len(), list.len(), "a move twice in {}", pos.to_fen());
        assert_eq!(ours, expected, "quiet checks of {}", pos.to_fen());
        checks += ours.len();
    }
    assert!(checks > 100, "only {checks} quiet checks in the sample");
}

/// Every legal move of `fen` gives check exactly when the opponent is in check after it;
/// returns how many do.
fn checks_agree(fen: &str) -> usize {
    let pos = Position::from_fen(fen).expect("fen");
    let mut checks = 0;
    for &m in legal_moves(&pos).iter() {
        let mut after = pos.clone();
        after.make_move(m);
        assert_eq!(gives_check(&pos, m), in_check(&after), "{m} in {fen}");
        checks += usize::from(in_check(&after));
    }
    checks
}

/// Lines of the black king with red pieces in front of a red rook or cannon.
const DISCOVERED_CHECKS: [&str; 4] = [
    // The horse on e4 is one of two screens of the cannon on e2.
    "4k4/9/9/4p4/9/4N4/9/4C4/9/3K5 w",
    // The horse on e5 is the only piece in front of the rook on e1.
    "4k4/9/9/9/4N4/9/9/9/4R4/3K5 w",
    // Behind two pieces (e7, e5), the rook on e1.
    "4k4/9/4n4/9/4N4/9/9/9/4R4/3K5 w",
    // The king on e1 is one of two screens of the cannon on e0: stepping aside checks.
    "4k4/9/9/9/4p4/9/9/9/4K4/4C4 w",
];

#[test]
fn discovered_checks_along_the_kings_file() {
    // Each of the horse's eight moves leaves the file and checks.
    assert!(checks_agree(DISCOVERED_CHECKS[0]) >= 8);
    assert!(checks_agree(DISCOVERED_CHECKS[1]) >= 8);
    // The rook discovers nothing; the horse checks directly from d7 and f7.
    assert_eq!(checks_agree(DISCOVERED_CHECKS[2]), 2);
}

#[test]
fn flipped_and_mirrored_positions_have_mirrored_moves() {
    for pos in random_positions(4, 10, 100).iter().step_by(5) {
        let flipped: BTreeSet<Move> = legal_moves(&pos.color_flipped()).iter().copied().collect();
        let expected: BTreeSet<Move> = legal_moves(pos).iter().map(|m| m.flip()).collect();
        assert_eq!(flipped, expected);
        let mirrored: BTreeSet<Move> = legal_moves(&pos.mirrored()).iter().copied().collect();
        let expected: BTreeSet<Move> = legal_moves(pos).iter().map(|m| m.mirror()).collect();
        assert_eq!(mirrored, expected);
    }
}

/// A valid FEN with one random edit: replaced, inserted or deleted character.
fn mutated_fen() -> impl Strategy<Value = String> {
    let chars: Vec<char> = "rnbakcpRNBAKCPhHeE0123456789/ -wbx".chars().collect();
    (0usize..START_FEN.len(), 0usize..chars.len(), 0u8..3).prop_map(move |(at, c, op)| {
        let mut s: Vec<char> = START_FEN.chars().collect();
        match op {
            0 => s[at] = chars[c],
            1 => s.insert(at, chars[c]),
            _ => {
                s.remove(at);
            }
        }
        s.into_iter().collect()
    })
}

proptest! {
    #[test]
    fn fen_parser_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn fen_parser_never_panics_on_mutations(fen in mutated_fen()) {
        if let Ok(pos) = Position::from_fen(&fen) {
            // Whatever it accepts is a consistent position that writes back to itself.
            prop_assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos.clone()));
            prop_assert_eq!(pos.key(), pos.compute_key());
        }
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC{0,8}") {
        if let Ok(m) = Move::parse(&text) {
            prop_assert_eq!(Move::parse(&m.to_string()), Ok(m));
        }
    }
}
