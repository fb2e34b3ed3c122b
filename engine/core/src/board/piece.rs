//! Colours, piece kinds and coloured pieces.

use std::ops::Not;

/// The two sides. Red moves first and starts on ranks 0..4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank step that moves forward for this side (+1 rank for Red).
    #[must_use]
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// The FEN letter of the side to move (`w` for Red, as in the standard).
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

/// The seven kinds of Xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceKind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceKind {
    /// Number of kinds.
    pub const COUNT: usize = 7;

    /// Every kind, in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Index 0..7.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter (Red's); Black's is the lower-case one.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `E` is accepted for the elephant and `H` for the horse.
    #[must_use]
    pub const fn from_fen_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::King),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Rook),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    /// How many pieces of this kind one side starts with (the most it can ever have).
    #[must_use]
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece of one colour. Red pieces are `0..7`, Black pieces `8..15`, so the colour is
/// bit 3 and the kind the low three bits; `Option<Piece>` stays one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Piece {
    RedKing = 0,
    RedAdvisor = 1,
    RedElephant = 2,
    RedHorse = 3,
    RedRook = 4,
    RedCannon = 5,
    RedPawn = 6,
    BlackKing = 8,
    BlackAdvisor = 9,
    BlackElephant = 10,
    BlackHorse = 11,
    BlackRook = 12,
    BlackCannon = 13,
    BlackPawn = 14,
}

impl Piece {
    /// Number of distinct values of [`Piece::index`] (with two unused slots).
    pub const INDEX_COUNT: usize = 16;

    /// Every piece, Red's first.
    pub const ALL: [Piece; 14] = [
        Piece::RedKing,
        Piece::RedAdvisor,
        Piece::RedElephant,
        Piece::RedHorse,
        Piece::RedRook,
        Piece::RedCannon,
        Piece::RedPawn,
        Piece::BlackKing,
        Piece::BlackAdvisor,
        Piece::BlackElephant,
        Piece::BlackHorse,
        Piece::BlackRook,
        Piece::BlackCannon,
        Piece::BlackPawn,
    ];

    /// The piece of a colour and kind.
    #[must_use]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece::ALL[color as usize * 7 + kind as usize]
    }

    /// The colour of the piece.
    #[must_use]
    pub const fn color(self) -> Color {
        if (self as u8) & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The kind of the piece.
    #[must_use]
    pub const fn kind(self) -> PieceKind {
        // The kind is the low three bits. `PieceKind::ALL` padded to all eight values of
        // those bits needs no bounds check; a `match` would, after inlining, become jump
        // tables in the callers' own matches on the kind (indirect branches the CPU often
        // mispredicts).
        const KINDS: [PieceKind; 8] = {
            let mut kinds = [PieceKind::Pawn; 8];
            let mut i = 0;
            while i < PieceKind::ALL.len() {
                kinds[i] = PieceKind::ALL[i];
                i += 1;
            }
            kinds
        };
        KINDS[(self as u8 & 7) as usize]
    }

    /// Index `0..16` for tables (colour in bit 3).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `Piece::new(color, kind).index()`, computed rather than looked up: the move
    /// generator asks for it for every kind of piece at every node.
    #[must_use]
    #[inline]
    pub const fn index_of(color: Color, kind: PieceKind) -> usize {
        (color as usize) << 3 | kind as usize
    }

    /// The same kind in the other colour.
    #[must_use]
    pub const fn flip_color(self) -> Piece {
        Piece::new(
            match self.color() {
                Color::Red => Color::Black,
                Color::Black => Color::Red,
            },
            self.kind(),
        )
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    #[must_use]
    pub const fn fen_char(self) -> char {
        let c = self.kind().fen_char();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter; case gives the colour.
    #[must_use]
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match PieceKind::from_fen_char(c) {
            Some(kind) if c.is_ascii_uppercase() => Some(Piece::new(Color::Red, kind)),
            Some(kind) => Some(Piece::new(Color::Black, kind)),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_parts_round_trip() {
        for piece in Piece::ALL {
            assert_eq!(Piece::new(piece.color(), piece.kind()), piece);
            assert_eq!(Piece::index_of(piece.color(), piece.kind()), piece.index());
            assert_eq!(Piece::from_fen_char(piece.fen_char()), Some(piece));
            assert_eq!(piece.flip_color().flip_color(), piece);
        }
        assert_eq!(size_of::<Option<Piece>>(), 1);
        assert_eq!(Piece::from_fen_char('h'), Some(Piece::BlackHorse));
        assert_eq!(Piece::from_fen_char('E'), Some(Piece::RedElephant));
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
