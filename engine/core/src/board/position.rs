//! A position: pieces on squares, side to move, counters, and incrementally kept
//! Zobrist key and sums of the [`PieceValues`] its owner supplied.

use std::fmt;

use super::values::{PieceValues, NO_VALUES};
use super::{zobrist, BitBoard, Color, Move, Piece, PieceKind, Square};

/// What [`Position::make_move`] needs to undo a move exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The piece taken by the move, if any.
    pub captured: Option<Piece>,
    plies_since_capture: u16,
    /// Copied back too: a test of the side to move there would be mispredicted about
    /// as often as not (cachegrind's branch simulation).
    fullmove: u16,
    /// The key and sums before the move: copied back rather than updated again.
    key: u64,
    material: [i32; 2],
    placement: [i32; 2],
}

/// A Xiangqi position.
///
/// Invariants (upheld by [`Position::from_fen`] and by moves): each side has exactly one
/// king inside its palace; the mailbox, the bitboards and the incremental sums describe
/// the same pieces.
#[derive(Clone)]
pub struct Position {
    squares: [Option<Piece>; Square::COUNT],
    by_piece: [BitBoard; Piece::INDEX_COUNT],
    by_color: [BitBoard; 2],
    side: Color,
    key: u64,
    plies_since_capture: u16,
    fullmove: u16,
    material: [i32; 2],
    placement: [i32; 2],
    /// What `material` and `placement` sum (see [`Position::with_values`]).
    values: &'static PieceValues,
    /// Where each king stands, kept as pieces move (asked at every node; finding it in
    /// the bitboard costs a 128-bit bit scan).
    kings: [Square; 2],
    /// How many of each piece are on the board, kept as pieces come and go (the
    /// evaluation asks for all of them at every node; counting bits is a loop per piece,
    /// without a population-count instruction on the default target).
    counts: [u8; Piece::INDEX_COUNT],
}

impl Position {
    /// An empty board with Red to move; only for building positions square by square.
    pub(crate) fn empty() -> Position {
        Position {
            squares: [None; Square::COUNT],
            by_piece: [BitBoard::EMPTY; Piece::INDEX_COUNT],
            by_color: [BitBoard::EMPTY; 2],
            side: Color::Red,
            key: 0,
            plies_since_capture: 0,
            fullmove: 1,
            material: [0; 2],
            placement: [0; 2],
            values: &NO_VALUES,
            kings: [Square::ALL[0]; 2],
            counts: [0; Piece::INDEX_COUNT],
        }
    }

    /// The standard start position.
    #[must_use]
    pub fn startpos() -> Position {
        match Position::from_fen(super::START_FEN) {
            Ok(pos) => pos,
            // The start FEN is a constant checked by the tests.
            Err(err) => unreachable!("start FEN rejected: {err}"),
        }
    }

    /// The piece on a square.
    #[must_use]
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// The side to move.
    #[must_use]
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of the position (pieces and side to move).
    #[must_use]
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (the FEN half-move field).
    #[must_use]
    pub fn plies_since_capture(&self) -> u32 {
        u32::from(self.plies_since_capture)
    }

    /// The FEN full-move number.
    #[must_use]
    pub fn fullmove_number(&self) -> u32 {
        u32::from(self.fullmove)
    }

    /// Squares of one piece (kind and colour).
    #[must_use]
    #[inline]
    pub fn pieces(&self, piece: Piece) -> BitBoard {
        self.by_piece[piece.index()]
    }

    /// How many pieces of one kind one side has.
    #[must_use]
    #[inline]
    pub fn count_of(&self, color: Color, kind: PieceKind) -> i32 {
        i32::from(self.counts[Piece::index_of(color, kind)])
    }

    /// Squares of one kind of one colour.
    #[must_use]
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> BitBoard {
        self.by_piece[Piece::index_of(color, kind)]
    }

    /// Squares occupied by one side.
    #[must_use]
    #[inline]
    pub fn color_bb(&self, color: Color) -> BitBoard {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> BitBoard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king of a side.
    #[must_use]
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        // Every constructed position has both kings (FEN validation); a board still
        // being built without one answers a0.
        self.kings[color.index()]
    }

    /// Sum of the material values of a side's pieces, in the table of
    /// [`Position::values`].
    #[must_use]
    #[inline]
    pub fn material(&self, color: Color) -> i32 {
        self.material[color.index()]
    }

    /// Sum of the placement values of a side's pieces, from its own view, in the table
    /// of [`Position::values`].
    #[must_use]
    #[inline]
    pub fn placement(&self, color: Color) -> i32 {
        self.placement[color.index()]
    }

    /// The table the position sums ([`NO_VALUES`] unless one was supplied).
    #[must_use]
    #[inline]
    pub fn values(&self) -> &'static PieceValues {
        self.values
    }

    /// The same position summing `values`: its sums computed once here, then kept by
    /// every move (and by the positions made from this one).
    #[must_use]
    pub fn with_values(&self, values: &'static PieceValues) -> Position {
        let mut out = self.clone();
        out.values = values;
        out.material = [0; 2];
        out.placement = [0; 2];
        for sq in Square::ALL {
            if let Some(piece) = self.piece_at(sq) {
                out.material[piece.color().index()] += values.material_of(piece.kind());
                out.placement[piece.color().index()] += values.placement_of(piece, sq);
            }
        }
        out
    }

    /// Places a piece on an empty square, updating every view.
    #[inline]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        self.place(piece, sq);
        self.key ^= zobrist::piece_key(piece, sq);
        self.material[piece.color().index()] += self.values.material_of(piece.kind());
        self.placement[piece.color().index()] += self.values.placement_of(piece, sq);
    }

    /// Places a piece on an empty square on the board views only (mailbox, bitboards,
    /// kings): the key and sums are the caller's.
    #[inline]
    fn place(&mut self, piece: Piece, sq: Square) {
        let bit = BitBoard::from_square(sq);
        self.squares[sq.index()] = Some(piece);
        self.by_piece[piece.index()] |= bit;
        self.by_color[piece.color().index()] |= bit;
        self.counts[piece.index()] += 1;
        self.note_king(piece, sq);
    }

    /// Moves a piece from `from` to the empty square `to` on the board views only
    /// (mailbox, bitboards, kings): the key and sums are the caller's.
    #[inline]
    fn relocate(&mut self, piece: Piece, from: Square, to: Square) {
        let bits = BitBoard::from_square(from) | BitBoard::from_square(to);
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        self.by_piece[piece.index()] ^= bits;
        self.by_color[piece.color().index()] ^= bits;
        self.note_king(piece, to);
    }

    /// Records where a king now stands.
    #[inline]
    fn note_king(&mut self, piece: Piece, sq: Square) {
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = sq;
        }
    }

    /// Removes the piece on a square (which must hold `piece`).
    #[inline]
    fn take(&mut self, piece: Piece, sq: Square) {
        let bit = BitBoard::from_square(sq);
        self.squares[sq.index()] = None;
        self.by_piece[piece.index()] ^= bit;
        self.by_color[piece.color().index()] ^= bit;
        self.counts[piece.index()] -= 1;
        self.key ^= zobrist::piece_key(piece, sq);
        self.material[piece.color().index()] -= self.values.material_of(piece.kind());
        self.placement[piece.color().index()] -= self.values.placement_of(piece, sq);
    }

    /// Moves a piece (which must stand on `from`) to the empty square `to`: the same
    /// as taking it and putting it back, with one update of each view instead of two.
    #[inline]
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        self.relocate(piece, from, to);
        self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        self.placement[piece.color().index()] +=
            self.values.placement_of(piece, to) - self.values.placement_of(piece, from);
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        self.key ^= zobrist::side_key(self.side) ^ zobrist::side_key(side);
        self.side = side;
    }

    pub(crate) fn set_counters(&mut self, plies_since_capture: u16, fullmove: u16) {
        self.plies_since_capture = plies_since_capture;
        self.fullmove = fullmove.max(1);
    }

    /// Plays a move. The move must be pseudo-legal here (a piece of the side to move on
    /// `from`, not capturing its own piece); use the move generator or
    /// [`crate::movegen::is_legal`] for anything that comes from outside.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from(), m.to());
        let undo = Undo {
            captured: self.squares[to.index()],
            plies_since_capture: self.plies_since_capture,
            fullmove: self.fullmove,
            key: self.key,
            material: self.material,
            placement: self.placement,
        };
        if let Some(mover) = self.squares[from.index()] {
            if let Some(victim) = undo.captured {
                self.take(victim, to);
                self.plies_since_capture = 0;
            } else {
                self.plies_since_capture = self.plies_since_capture.saturating_add(1);
            }
            self.shift(mover, from, to);
        }
        // Black's move completes a move pair (no branch: see `Undo::fullmove`).
        self.fullmove = self
            .fullmove
            .saturating_add(u16::from(self.side == Color::Black));
        self.side = !self.side;
        self.key ^= zobrist::side_key(Color::Black);
        undo
    }

    /// Takes back a move played by [`Position::make_move`] with its [`Undo`].
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from(), m.to());
        self.side = !self.side;
        self.fullmove = undo.fullmove;
        if let Some(mover) = self.squares[to.index()] {
            self.relocate(mover, to, from);
        }
        if let Some(victim) = undo.captured {
            self.place(victim, to);
        }
        self.plies_since_capture = undo.plies_since_capture;
        self.key = undo.key;
        self.material = undo.material;
        self.placement = undo.placement;
    }

    /// Passes the turn (for null-move pruning). Undo with [`Position::unmake_null`].
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: None,
            plies_since_capture: self.plies_since_capture,
            fullmove: self.fullmove,
            key: self.key,
            material: self.material,
            placement: self.placement,
        };
        self.side = !self.side;
        self.key ^= zobrist::side_key(Color::Black);
        undo
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = !self.side;
        self.key ^= zobrist::side_key(Color::Black);
        self.plies_since_capture = undo.plies_since_capture;
    }

    /// The key the position will have after `m`, without playing it (for prefetching and
    /// repetition checks). `m` must be pseudo-legal.
    #[must_use]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::side_key(Color::Black);
        if let Some(mover) = self.squares[from.index()] {
            key ^= zobrist::piece_key(mover, from) ^ zobrist::piece_key(mover, to);
        }
        if let Some(victim) = self.squares[to.index()] {
            key ^= zobrist::piece_key(victim, to);
        }
        key
    }

    /// The Zobrist key computed from scratch (to check the incremental one).
    #[must_use]
    pub fn compute_key(&self) -> u64 {
        let pieces = Square::ALL
            .iter()
            .filter_map(|&sq| Some((self.piece_at(sq)?, sq)));
        pieces.fold(zobrist::side_key(self.side), |key, (p, sq)| {
            key ^ zobrist::piece_key(p, sq)
        })
    }

    /// The position with colours swapped and the board turned top-bottom: Red's pieces
    /// become Black's on the mirrored ranks and the other side moves. Evaluation must
    /// be exactly antisymmetric under this.
    #[must_use]
    pub fn color_flipped(&self) -> Position {
        let mut out = Position::empty();
        out.values = self.values;
        for sq in Square::ALL {
            if let Some(p) = self.piece_at(sq) {
                out.put(p.flip_color(), sq.flip());
            }
        }
        out.set_side(!self.side);
        out.set_counters(self.plies_since_capture, self.fullmove);
        out
    }

    /// The position reflected left-right (files a <-> i), same side to move.
    #[must_use]
    pub fn mirrored(&self) -> Position {
        let mut out = Position::empty();
        out.values = self.values;
        for sq in Square::ALL {
            if let Some(p) = self.piece_at(sq) {
                out.put(p, sq.mirror());
            }
        }
        out.set_side(self.side);
        out.set_counters(self.plies_since_capture, self.fullmove);
        out
    }

    /// Whether a side still has any piece that can cross the river and attack
    /// (rook, horse, cannon or pawn).
    #[must_use]
    pub fn has_attackers(&self, color: Color) -> bool {
        [
            PieceKind::Rook,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Pawn,
        ]
        .iter()
        .any(|&kind| self.pieces_of(color, kind).any())
    }
}

/// Positions are equal when their pieces, side, counters and sums are, and they sum the
/// same table (compared by address: tables are statics).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.squares == other.squares
            && self.by_piece == other.by_piece
            && self.by_color == other.by_color
            && self.side == other.side
            && self.key == other.key
            && self.plies_since_capture == other.plies_since_capture
            && self.fullmove == other.fullmove
            && self.material == other.material
            && self.placement == other.placement
            && std::ptr::eq(self.values, other.values)
            && self.kings == other.kings
            && self.counts == other.counts
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    /// The FEN and a picture of the board with rank 9 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.to_fen())?;
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let piece = Square::try_from_xy(file, rank).and_then(|sq| self.piece_at(sq));
                write!(f, "{}", piece.map_or('.', Piece::fen_char))?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  abcdefghi")
    }
}
