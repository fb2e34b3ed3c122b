//! Chinese move names (`炮二平五`, `马８进７`), derived from the WXF name: Red writes
//! file numbers in Chinese numerals, Black in full-width digits.

use super::format_wxf;
use crate::board::{Color, Move, PieceKind, Position};

const RED_NUMBERS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMBERS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn name(color: Color, kind: PieceKind) -> char {
    let (red, black) = match kind {
        PieceKind::King => ('帅', '将'),
        PieceKind::Advisor => ('仕', '士'),
        PieceKind::Elephant => ('相', '象'),
        PieceKind::Horse => ('马', '马'),
        PieceKind::Rook => ('车', '车'),
        PieceKind::Cannon => ('炮', '炮'),
        PieceKind::Pawn => ('兵', '卒'),
    };
    if color == Color::Red {
        red
    } else {
        black
    }
}

/// The Chinese name of a legal move.
#[must_use]
pub fn format_chinese(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    let (color, kind) = (piece.color(), piece.kind());
    let numbers = if color == Color::Red {
        RED_NUMBERS
    } else {
        BLACK_NUMBERS
    };
    let digit = |c: char| {
        c.to_digit(10)
            .and_then(|d| numbers.get(d as usize - 1).copied())
            .unwrap_or(c)
    };
    let wxf: Vec<char> = format_wxf(pos, m).chars().collect();
    let piece_name = name(color, kind);
    let mut out = String::new();
    match (wxf[0], wxf[1]) {
        ('+', '+') => out.push_str(&format!("一{piece_name}")),
        ('-', '-') => out.push_str(&format!("五{piece_name}")),
        (f, '+') if f.is_ascii_digit() => out.push_str(&format!("前{}", digit(f))),
        (f, '-') if f.is_ascii_digit() => out.push_str(&format!("后{}", digit(f))),
        (f, g) if f.is_ascii_digit() && g == f => out.push_str(&format!("中{}", digit(f))),
        (_, '+') => out.push_str(&format!("前{piece_name}")),
        (_, '-') => out.push_str(&format!("后{piece_name}")),
        (_, f) => {
            out.push(piece_name);
            out.push(digit(f));
        }
    }
    out.push(match wxf[2] {
        '+' => '进',
        '-' => '退',
        _ => '平',
    });
    out.push(digit(wxf[3]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_opening_names() {
        let mut pos = Position::startpos();
        let m = Move::parse("h2e2").expect("move");
        assert_eq!(format_chinese(&pos, m), "炮二平五");
        pos.make_move(m);
        assert_eq!(
            format_chinese(&pos, Move::parse("h9g7").expect("move")),
            "马８进７"
        );
    }
}
