//! Level 4: obstruction (`docs/evaluation.md`, M2..M7; seed 002 「马处边陲，车处僻地」 and
//! its mobility part; seed 001): cramped rooks, rooks behind their own pawn, trapped and
//! edge horses, a blocked palace centre. All penalties to the side that owns the piece.

use super::context::{at_most, EvalContext, SideMaps};
use super::geometry::{enemy_half, first_on_ray, forward_dir, palace_centre, EDGES};
use super::weights::{
    EDGE_HORSE, EDGE_HORSE_BLOCKED, HORSE_ONE_EXIT, HORSE_TRAPPED, PALACE_CENTRE_BLOCKED,
    PALACE_CENTRE_KING, ROOK_BEHIND_PAWN, ROOK_CRAMPED, ROOK_CRAMPED_MOVES,
};
use crate::board::{BitBoard, Color, PieceKind};
use crate::movegen::tables::HORSE_STEPS;

/// Points a horse's good move must avoid (M4): the edge lines and both palace centres.
const POOR_HORSE_TARGETS: BitBoard = BitBoard(
    EDGES.0
        | 1u128 << palace_centre(Color::Red).index()
        | 1u128 << palace_centre(Color::Black).index(),
);

/// The obstruction score of side `color` (zero or negative).
#[must_use]
pub fn score(ctx: &EvalContext, own: &SideMaps, enemy: &SideMaps, color: Color) -> i32 {
    let pos = ctx.pos;
    let ours = pos.color_bb(color);
    let occ = pos.occupied();
    let enemy_blockers =
        pos.pieces_of(!color, PieceKind::Rook) | pos.pieces_of(!color, PieceKind::Pawn);
    let own_home_pawns = pos.pieces_of(color, PieceKind::Pawn) & !enemy_half(color);
    let mut penalty = 0;
    for major in own.majors() {
        match major.kind {
            PieceKind::Rook => {
                // M2 车的纵横自由度: at most three moves.
                if at_most(major.moves & !ours, ROOK_CRAMPED_MOVES) {
                    penalty += ROOK_CRAMPED;
                }
                // M3: the first piece ahead on the file is an own pawn not yet across.
                if first_on_ray(forward_dir(color), major.sq, occ)
                    .is_some_and(|sq| own_home_pawns.has(sq))
                {
                    penalty += ROOK_BEHIND_PAWN;
                }
            }
            PieceKind::Horse => {
                // M4 马的灵活性: good moves avoid own pieces, edges, palace centres and
                // points the enemy attacks.
                let good = major.moves & !ours & !POOR_HORSE_TARGETS & !enemy.all;
                penalty += match (good.any(), good.has_several()) {
                    (false, _) => HORSE_TRAPPED,
                    (true, false) => HORSE_ONE_EXIT,
                    (true, true) => 0,
                };
                if EDGES.has(major.sq) {
                    // M6 马处边陲.
                    penalty += EDGE_HORSE;
                    // M5: an enemy rook or pawn on a leg of the edge horse.
                    if HORSE_STEPS[major.sq.index()]
                        .iter()
                        .any(|step| !step.targets.is_empty() && enemy_blockers.has(step.block))
                    {
                        penalty += EDGE_HORSE_BLOCKED;
                    }
                }
            }
            _ => {}
        }
    }
    // M7 花心被占: both advisors alive, the palace centre held by another own piece.
    if ctx.count(color, PieceKind::Advisor) == 2 {
        if let Some(piece) = pos.piece_at(palace_centre(color)) {
            if piece.color() == color {
                penalty += match piece.kind() {
                    PieceKind::King => PALACE_CENTRE_KING,
                    PieceKind::Advisor => 0,
                    _ => PALACE_CENTRE_BLOCKED,
                };
            }
        }
    }
    -penalty
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::context::both_maps;

    fn obstruction(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        let maps = both_maps(&pos);
        let ctx = EvalContext::new(&pos);
        score(&ctx, &maps[color.index()], &maps[(!color).index()], color)
    }

    #[test]
    fn start_position() {
        // Rooks a0/i0: 2 moves each (cramped, -30) and behind the a3/i3 pawns (-20).
        // Horses b0/h0 on the edge rank (-20) with one good move each (c2; a2 is on the
        // edge, the leg toward d1 is blocked): -25.
        assert_eq!(
            obstruction(crate::board::START_FEN, Color::Red),
            -2 * (30 + 20) - 2 * (20 + 25)
        );
    }

    #[test]
    fn trapped_edge_horse_blocked_by_a_rook() {
        // Red horse a5 with the Black rook on its leg a6: edge (-20) and blocked by a rook
        // (-100). It keeps two good moves (c4, b3; c6 is attacked by the rook).
        let fen = "3k5/9/9/r8/N8/9/9/9/9/4K4 w";
        assert_eq!(obstruction(fen, Color::Red), -(20 + 100));
    }

    #[test]
    fn blocked_palace_centre() {
        // Both advisors at home, the king on e1: -50.
        assert_eq!(
            obstruction("3k5/9/9/9/9/9/9/9/4K4/3A1A3 w", Color::Red),
            -50
        );
        // A horse there instead (king on e0): -30; the horse has four good moves.
        let fen = "3k5/9/9/9/9/9/9/9/4N4/3AKA3 w";
        assert_eq!(obstruction(fen, Color::Red), -30);
    }
}
