//! Level 5: attacks that depend on the shape of the defender's king and advisors
//! (`docs/evaluation.md`, K1..K6; seed 002 on special patterns and king safety): hollow
//! cannon, cannon pinning a palace-centre horse, bottom cannon, central cannon against an
//! advisor wall, the sealed door, and advisors opened toward the weaker wing.
//!
//! Seed 002: 「帅(将)、双仕(士)都在原位，这种情况要判断空头炮、炮镇窝心马和沉底炮；帅(将)在原位，
//! 双仕(士)从一边包围帅(将)…这种情况要判断当头炮、左右沉底炮和车封帅(将)门」.

use super::context::{few, EvalContext, SideMaps};
use super::geometry::{
    advisor_homes, between, first_on_ray, king_home, own_rank_mask, palace_centre, WINGS,
};
use super::psqt::MATERIAL;
use super::weights::{
    ADVISORS_OPEN_TO_WEAK_WING, ATTACK_STATE_MAX, BOTTOM_CANNON, CENTRAL_CANNON_BASE,
    CENTRAL_CANNON_MIN, CENTRAL_CANNON_PER_RANK, CENTRAL_CANNON_TIED_ROOK,
    CENTRAL_CANNON_WALL_DIVISOR, DOOR_ATTACKED, DOOR_SEALED_BY_ROOK, HOLLOW_CANNON_BASE,
    HOLLOW_CANNON_MAX, HOLLOW_CANNON_PER_RANK,
};
use crate::board::{BitBoard, Color, PieceKind, Position, Square};

/// The defender's king-and-advisors shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// King and both advisors at home.
    Centre,
    /// King at home, one advisor on the palace centre, the other at home: the empty
    /// bottom corner is the king's door.
    Wall {
        /// The open bottom corner.
        door: Square,
    },
    /// Anything else (missing advisors are level 2's business).
    Other,
}

/// The shape of a side's king and advisors.
#[must_use]
pub fn shape(pos: &Position, defender: Color) -> Shape {
    if pos.king(defender) != king_home(defender) {
        return Shape::Other;
    }
    let advisors = pos.pieces_of(defender, PieceKind::Advisor);
    let [left, right] = advisor_homes(defender);
    match (advisors.has(left), advisors.has(right)) {
        (true, true) => Shape::Centre,
        (true, false) if advisors.has(palace_centre(defender)) => Shape::Wall { door: right },
        (false, true) if advisors.has(palace_centre(defender)) => Shape::Wall { door: left },
        _ => Shape::Other,
    }
}

/// K1 hollow cannon value at rank distance `d` from the king.
#[must_use]
pub const fn hollow_value(d: i32) -> i32 {
    if d <= 2 {
        0
    } else {
        let v = HOLLOW_CANNON_BASE + HOLLOW_CANNON_PER_RANK * d;
        if v < HOLLOW_CANNON_MAX {
            v
        } else {
            HOLLOW_CANNON_MAX
        }
    }
}

/// K2 value of a cannon pinning the palace-centre horse at rank distance `d >= 3`.
#[must_use]
pub const fn central_value(d: i32) -> i32 {
    let v = CENTRAL_CANNON_BASE - CENTRAL_CANNON_PER_RANK * (d - 3);
    if v > CENTRAL_CANNON_MIN {
        v
    } else {
        CENTRAL_CANNON_MIN
    }
}

/// What the attacker earns from the defender's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShapeScore {
    /// K1..K5 together.
    pub bonus: i32,
    /// The hollow-cannon part of `bonus` (level 6 scales it by phase).
    pub hollow: i32,
}

/// K1..K5 for `attacker` against the other side.
#[must_use]
pub fn attack(ctx: &EvalContext, attacker_maps: &SideMaps, attacker: Color) -> ShapeScore {
    let pos = ctx.pos;
    let defender = !attacker;
    let shape = shape(pos, defender);
    if shape == Shape::Other {
        return ShapeScore::default();
    }
    let king = pos.king(defender);
    let cannons = pos.pieces_of(attacker, PieceKind::Cannon);
    let mut out = ShapeScore::default();
    for cannon in cannons & super::geometry::FILES[king.file().index()] {
        let screens = between(cannon, king) & ctx.occ;
        let d = (cannon.rank().index() as i32 - king.rank().index() as i32).abs();
        match (shape, few(screens)) {
            // K1 空头炮
            (Shape::Centre, 0) => {
                let mut v = hollow_value(d);
                if pos.pieces_of(attacker, PieceKind::Rook).is_empty() {
                    v /= 2;
                }
                out.hollow += v;
            }
            // K2 炮镇窝心马
            (Shape::Centre, 2) => {
                let centre = palace_centre(defender);
                if screens.has(centre) && pos.pieces_of(defender, PieceKind::Horse).has(centre) {
                    out.bonus += central_value(d);
                }
            }
            // K4 当头炮 against the advisor wall
            (Shape::Wall { .. }, 2) => {
                out.bonus += central_value(d) / CENTRAL_CANNON_WALL_DIVISOR;
                let rooks = pos.pieces_of(defender, PieceKind::Rook);
                let tied = [1, 3]
                    .iter()
                    .any(|&dir| first_on_ray(dir, king, ctx.occ).is_some_and(|s| rooks.has(s)));
                if tied {
                    out.bonus += CENTRAL_CANNON_TIED_ROOK;
                }
            }
            _ => {}
        }
    }
    // K3 沉底炮 (both shapes)
    for cannon in cannons & own_rank_mask(defender, 0) {
        out.bonus +=
            bottom_cannon(ctx, cannon) * ctx.attack_state[attacker.index()] / ATTACK_STATE_MAX;
    }
    // K5 车封帅门
    if let Shape::Wall { door } = shape {
        if attacker_maps.by_kind[PieceKind::Rook.index()].has(door) {
            out.bonus += DOOR_SEALED_BY_ROOK;
        } else if attacker_maps.all.has(door) {
            out.bonus += DOOR_ATTACKED;
        }
    }
    out.bonus += out.hollow;
    out
}

/// Where a cannon on the defender's back rank makes a bottom cannon: outside the
/// palace files with nothing between it and them. Returns its distance from the board
/// edge (0 for files a/i, 1 for b/h, 2 for c/g).
#[must_use]
pub fn bottom_cannon_geometry(ctx: &EvalContext, cannon: Square) -> Option<usize> {
    let file = cannon.file().index();
    let (edge_distance, palace_file) = match file {
        0..=2 => (file, 3),
        6..=8 => (8 - file, 5),
        _ => return None,
    };
    let gate = Square::ALL[palace_file + 9 * cannon.rank().index()];
    (between(cannon, gate) & ctx.occ)
        .is_empty()
        .then_some(edge_distance)
}

/// The K3 base value of a cannon on the defender's back rank (see
/// [`bottom_cannon_geometry`]), before scaling by the attack state.
#[must_use]
pub fn bottom_cannon(ctx: &EvalContext, cannon: Square) -> i32 {
    bottom_cannon_geometry(ctx, cannon).map_or(0, |edge| BOTTOM_CANNON[edge])
}

/// K6: the penalty (zero or negative) to `defender` whose advisors open toward the wing
/// where it is weaker (its rooks, horses and cannons there minus the enemy's).
#[must_use]
pub fn advisor_opening(pos: &Position, defender: Color) -> i32 {
    let Shape::Wall { door } = shape(pos, defender) else {
        return 0;
    };
    let strength = |wing: BitBoard| {
        let side_value = |color: Color| -> i32 {
            [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
                .iter()
                .map(|&k| MATERIAL[k.index()] * few(pos.pieces_of(color, k) & wing))
                .sum()
        };
        side_value(defender) - side_value(!defender)
    };
    let (door_wing, other_wing) = if door.file().index() < 4 {
        (WINGS[0], WINGS[1])
    } else {
        (WINGS[1], WINGS[0])
    };
    if strength(door_wing) < strength(other_wing) {
        -ADVISORS_OPEN_TO_WEAK_WING
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::context::both_maps;

    fn attack_of(fen: &str, attacker: Color) -> ShapeScore {
        let pos = Position::from_fen(fen).expect("fen");
        let ctx = EvalContext::new(&pos);
        let maps = both_maps(&pos);
        attack(&ctx, &maps[attacker.index()], attacker)
    }

    #[test]
    fn shapes() {
        let pos = Position::startpos();
        assert_eq!(shape(&pos, Color::Red), Shape::Centre);
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/4KA3 w").expect("fen");
        let d0 = Square::parse("d0").expect("d0");
        assert_eq!(shape(&pos, Color::Red), Shape::Wall { door: d0 });
    }

    #[test]
    fn hollow_cannon_against_the_same_position_with_a_screen() {
        // Red cannon e4, Black king e9 with both advisors at home, nothing between:
        // d = 5, 225 + 125 = 350 (Red has a rook).
        let hollow = "3aka3/9/9/9/9/4C4/9/9/9/R2K5 w";
        assert_eq!(
            attack_of(hollow, Color::Red),
            ShapeScore {
                bonus: 350,
                hollow: 350
            }
        );
        // A Black pawn on e6 as a screen (Black to move, in check): no hollow cannon.
        let screened = "3aka3/9/9/4p4/9/4C4/9/9/9/R2K5 b";
        assert_eq!(attack_of(screened, Color::Red), ShapeScore::default());
        // Without a rook the hollow cannon is worth half.
        let no_rook = "3aka3/9/9/9/9/4C4/9/9/9/3K5 w";
        assert_eq!(attack_of(no_rook, Color::Red).bonus, 175);
    }

    #[test]
    fn cannon_pins_the_palace_centre_horse() {
        // Red cannon e3, Black pawn e6 and horse e8 between it and the king e9: d = 6,
        // 250 - 75 = 175.
        let fen = "3aka3/4n4/9/4p4/9/9/4C4/9/9/3K5 w";
        assert_eq!(attack_of(fen, Color::Red).bonus, 175);
    }

    #[test]
    fn central_cannon_against_a_wall_and_the_door() {
        // Black advisors e8 and f9 (door d9), Red cannon e4 with the advisor e8 and a pawn
        // e6 between: d = 5, central_value 200 / 4 = 50. A Red rook on d5 attacks the
        // door d9 along the d-file: +100.
        let fen = "4ka3/4a4/9/4p4/3R5/4C4/9/9/9/3K5 w";
        assert_eq!(attack_of(fen, Color::Red).bonus, 50 + 100);
        // Black rook on c9 guards the king along the back rank (through the door): +200.
        let fen = "2r1ka3/4a4/9/4p4/3R5/4C4/9/9/9/3K5 w";
        assert_eq!(attack_of(fen, Color::Red).bonus, 50 + 200 + 100);
    }

    #[test]
    fn bottom_cannon_scales_with_the_attack_state() {
        // Black's advisors e8 and f9 leave the door d9 open; Red cannon a9 with b9..d9
        // empty (no screen, so no check). Red's attack state: rook and cannon across
        // (2 + 1) plus 2 * the simple-material lead (3 - 2): 5, so 200 * 5 / 8 = 125.
        // The Red rook d5 also seals the door: +100.
        let fen = "C3ka2r/4a4/9/9/3R5/9/9/9/9/3K5 w";
        assert_eq!(attack_of(fen, Color::Red).bonus, 125 + 100);
    }

    #[test]
    fn advisors_open_to_the_weaker_wing() {
        // Red door on d0 (left); Red has a rook on the right wing, Black a horse on the left.
        let pos = Position::from_fen("3k5/9/9/9/9/9/2n6/8R/4A4/4KA3 w").expect("fen");
        assert_eq!(advisor_opening(&pos, Color::Red), -30);
        assert_eq!(advisor_opening(&pos, Color::Black), 0);
    }
}
