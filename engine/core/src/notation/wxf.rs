//! WXF move names (`C2.5`, `H8+7`, `R+.3`, `P-.4`, `++.4`, `3+.4`), as published by the
//! World Xiangqi Federation.
//!
//! - Letters: K A E H R C P (`B` and `N` are read as E and H).
//! - Files are numbered 1-9 from each player's right: Red's 1 is file `i`, Black's 1 is
//!   file `a`.
//! - `+` forward, `-` backward, `.` sideways (`=` is read as `.`), from the mover's view.
//! - The last digit is the destination file for sideways moves and for the diagonal
//!   movers (advisor, elephant, horse); otherwise the number of points moved.
//! - Two rooks, horses or cannons on one file: the file digit becomes `+` (front) or `-`
//!   (rear): `R+.3`. Pawns: three on a file are `P+`, `P<file>` (middle), `P-`; four or five
//!   add `++` and `--` for the foremost and rearmost; when two files hold tandem pawns the
//!   letter is replaced by the file digit: `3+.4`, `33.4`, `3-.4`.
//!   Advisors and elephants keep the file digit (their moves are never ambiguous).

use thiserror::Error;

use crate::board::{Color, Move, PieceKind, Position, Square};
use crate::movegen::legal_moves;

/// Why a WXF move name was not understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WxfError {
    #[error("`{0}` is not a WXF move name like C2.5 or H8+7")]
    Syntax(String),
    #[error("`{0}` names no legal move in this position")]
    NoSuchMove(String),
    #[error("`{0}` fits more than one legal move in this position")]
    Ambiguous(String),
}

fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// The file number 1-9 of a square from the side's own right.
fn file_number(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => 9 - sq.file().index(),
        Color::Black => sq.file().index() + 1,
    }
}

/// How far forward a square is for a side (0 = own back rank).
fn advance(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    }
}

/// The first two characters naming the moving piece, e.g. `C2`, `R+`, `++`, `3-`.
fn piece_part(pos: &Position, from: Square, color: Color, kind: PieceKind) -> String {
    let file_no = file_number(color, from);
    let on_file = |sq: Square| sq.file() == from.file();
    let same: Vec<Square> = pos
        .pieces_of(color, kind)
        .iter()
        .filter(|&sq| on_file(sq))
        .collect();
    let letter = letter(kind);
    if same.len() < 2
        || matches!(
            kind,
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::King
        )
    {
        return format!("{letter}{file_no}");
    }
    // Order front to rear from the mover's view.
    let mut order = same.clone();
    order.sort_by_key(|&sq| std::cmp::Reverse(advance(color, sq)));
    let index = order.iter().position(|&sq| sq == from).unwrap_or(0);
    let n = order.len();
    let tag = match (n, index) {
        (_, 0) if n <= 3 => "+",
        (_, i) if i + 1 == n && n <= 3 => "-",
        (3, 1) | (5, 2) => "",
        (_, 0) => "++",
        (_, 1) => "+",
        (_, i) if i + 1 == n => "--",
        _ => "-",
    };
    if kind != PieceKind::Pawn {
        return format!("{letter}{tag}");
    }
    let tandem_files = (0..9)
        .filter(|&f| {
            let pawns = pos.pieces_of(color, PieceKind::Pawn);
            pawns.iter().filter(|sq| sq.file().index() == f).count() >= 2
        })
        .count();
    match (tandem_files >= 2, tag) {
        (true, "") => format!("{file_no}{file_no}"),
        (true, tag) => format!("{file_no}{}", &tag[..1]),
        (false, "") => format!("{letter}{file_no}"),
        (false, "++") => "++".to_owned(),
        (false, "--") => "--".to_owned(),
        (false, tag) => format!("{letter}{tag}"),
    }
}

/// The WXF name of a legal move.
#[must_use]
pub fn format_wxf(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return m.to_string();
    };
    let (color, kind) = (piece.color(), piece.kind());
    let head = piece_part(pos, from, color, kind);
    let (a_from, a_to) = (advance(color, from), advance(color, to));
    let dir = match a_to.cmp(&a_from) {
        std::cmp::Ordering::Greater => '+',
        std::cmp::Ordering::Less => '-',
        std::cmp::Ordering::Equal => '.',
    };
    let diagonal = matches!(
        kind,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
    );
    let last = if dir == '.' || diagonal {
        file_number(color, to)
    } else {
        a_from.abs_diff(a_to)
    };
    format!("{head}{dir}{last}")
}

/// Reads a WXF move name in a position: finds the legal move with that name. Accepts
/// `=` for `.`, `B`/`N` for E/H, lower case, and the prefix form `+C.5` for `C+.5`.
///
/// # Errors
/// [`WxfError`] when the text is malformed, names no legal move, or fits several.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, WxfError> {
    let mut norm: Vec<char> = text
        .trim()
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            '=' => '.',
            'B' => 'E',
            'N' => 'H',
            other => other,
        })
        .collect();
    if norm.len() != 4 {
        return Err(WxfError::Syntax(text.to_owned()));
    }
    // Prefix form: "+C.5" -> "C+.5".
    if matches!(norm[0], '+' | '-') && norm[1].is_ascii_alphabetic() {
        norm.swap(0, 1);
    }
    let valid_last = norm[3].is_ascii_digit() && norm[3] != '0';
    if !matches!(norm[2], '+' | '-' | '.') || !valid_last {
        return Err(WxfError::Syntax(text.to_owned()));
    }
    let wanted: String = norm.into_iter().collect();
    let moves = legal_moves(pos);
    let mut found = moves.iter().filter(|&&m| format_wxf(pos, m) == wanted);
    let first = found.next().copied();
    match (first, found.next()) {
        (Some(m), None) => Ok(m),
        (Some(_), Some(_)) => Err(WxfError::Ambiguous(text.to_owned())),
        (None, _) => match loose_match(pos, &wanted) {
            Some(m) => Ok(m),
            None => Err(WxfError::NoSuchMove(text.to_owned())),
        },
    }
}

/// A name with a plain file digit where WXF asks for `+`/`-` (`C3.5` for `C-.5`):
/// accepted when exactly one legal move fits it.
fn loose_match(pos: &Position, wanted: &str) -> Option<Move> {
    let moves = legal_moves(pos);
    let mut fits = moves.iter().filter(|&&m| {
        let Some(piece) = pos.piece_at(m.from()) else {
            return false;
        };
        let plain = format!(
            "{}{}",
            letter(piece.kind()),
            file_number(piece.color(), m.from())
        );
        let name = format_wxf(pos, m);
        format!("{plain}{}", &name[2..]) == wanted
    });
    let first = fits.next().copied();
    if fits.next().is_some() {
        None
    } else {
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse(s).expect("move")
    }

    #[test]
    fn opening_moves() {
        let pos = Position::startpos();
        assert_eq!(format_wxf(&pos, mv("h2e2")), "C2.5");
        assert_eq!(format_wxf(&pos, mv("h0g2")), "H2+3");
        assert_eq!(format_wxf(&pos, mv("c0e2")), "E7+5");
        assert_eq!(format_wxf(&pos, mv("f0e1")), "A4+5");
        assert_eq!(format_wxf(&pos, mv("g3g4")), "P3+1");
        assert_eq!(format_wxf(&pos, mv("h2h9")), "C2+7");
        assert_eq!(format_wxf(&pos, mv("a0a1")), "R9+1");
        let mut black = pos.clone();
        black.make_move(mv("h2e2"));
        assert_eq!(format_wxf(&black, mv("h9g7")), "H8+7");
        assert_eq!(format_wxf(&black, mv("b7e7")), "C2.5");
        assert_eq!(format_wxf(&black, mv("e9e8")), "K5+1");
    }

    #[test]
    fn tandem_pieces() {
        // Red rooks on e3 and e5: front rook is the one on e5.
        let pos = Position::from_fen("5k3/9/9/9/4R4/9/4R4/9/9/3K5 w").expect("fen");
        assert_eq!(format_wxf(&pos, mv("e5c5")), "R+.7");
        assert_eq!(format_wxf(&pos, mv("e3e2")), "R--1");
        assert_eq!(parse_wxf(&pos, "R+.7"), Ok(mv("e5c5")));
        assert_eq!(parse_wxf(&pos, "+R.7"), Ok(mv("e5c5")));
        // Black cannons on b7 and b4: Black's front one is lower on the board.
        let pos = Position::from_fen("4k4/9/1c7/9/9/1c7/9/9/9/3K5 b").expect("fen");
        assert_eq!(format_wxf(&pos, mv("b4d4")), "C+.4");
        assert_eq!(format_wxf(&pos, mv("b7b8")), "C--1");
    }

    #[test]
    fn tandem_pawns() {
        // Three Red pawns on file c (Red's 7): front, middle, rear.
        let pos = Position::from_fen("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w").expect("fen");
        assert_eq!(format_wxf(&pos, mv("c7d7")), "P+.6");
        assert_eq!(format_wxf(&pos, mv("c6d6")), "P7.6");
        assert_eq!(format_wxf(&pos, mv("c5d5")), "P-.6");
        // Tandems on two files: file digit replaces the letter.
        let pos = Position::from_fen("4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w").expect("fen");
        assert_eq!(format_wxf(&pos, mv("c7d7")), "7+.6");
        assert_eq!(format_wxf(&pos, mv("c6d6")), "77.6");
        assert_eq!(format_wxf(&pos, mv("g6f6")), "3-.4");
        // Five pawns on one file.
        let pos = Position::from_fen("4k4/2P6/2P6/2P6/2P6/2P6/9/9/9/3K5 w").expect("fen");
        assert_eq!(format_wxf(&pos, mv("c8d8")), "++.6");
        assert_eq!(format_wxf(&pos, mv("c7d7")), "P+.6");
        assert_eq!(format_wxf(&pos, mv("c6d6")), "P7.6");
        assert_eq!(format_wxf(&pos, mv("c5d5")), "P-.6");
        assert_eq!(format_wxf(&pos, mv("c4d4")), "--.6");
    }

    #[test]
    fn parse_round_trips_every_legal_move() {
        let mut pos = Position::startpos();
        for text in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"] {
            pos.make_move(mv(text));
        }
        for &m in legal_moves(&pos).iter() {
            let name = format_wxf(&pos, m);
            assert_eq!(parse_wxf(&pos, &name), Ok(m), "{name}");
        }
        assert!(matches!(
            parse_wxf(&pos, "C2=9"),
            Err(WxfError::NoSuchMove(_))
        ));
        assert!(matches!(
            parse_wxf(&pos, "X2.5"),
            Err(WxfError::NoSuchMove(_))
        ));
        assert!(matches!(parse_wxf(&pos, "C2.0"), Err(WxfError::Syntax(_))));
        assert!(matches!(parse_wxf(&pos, "éé"), Err(WxfError::Syntax(_))));
    }
}
