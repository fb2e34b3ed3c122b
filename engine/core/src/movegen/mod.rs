//! Legal move generation, attack and check tests, and perft.

mod attacks;
mod check;
mod legal;
mod movelist;
mod perft;
mod quiet_checks;
pub mod tables;

pub use attacks::{
    attackers_to, cannon_control, cannon_moves, checkers, elephant_attacks, horse_attacks,
    in_check, is_attacked_by, is_attacked_king, king_attackers, piece_attacks, rook_attacks,
    Attackers,
};
pub use check::gives_check;
pub use legal::{
    capture_keeps_king_safe, count_legal, generate_captures_unchecked, generate_into, generate_to,
    generate_with, has_legal_move, is_legal, legal_captures, legal_moves, legal_quiets, GenKind,
    LegalFilter, MoveSink,
};
pub use movelist::{MoveList, MAX_MOVES};
pub use perft::{perft, perft_divide};
pub use quiet_checks::generate_quiet_checks;
