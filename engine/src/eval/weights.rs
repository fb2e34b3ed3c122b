//! Every weight of evaluation levels 2..6, named in one place.
//!
//! Unit: seed 002's (an unadvanced pawn = 50, a crossed pawn = 100, a rook = 1000).
//! Each weight names its source: the part of a seed that gives the number, or
//! "(proposed)" when the seed only names the idea; most proposals are ElephantEye's
//! values times 5, marked "EE x5". Material and piece-square tables (levels 0 and 1)
//! live in [`super::psqt`].
//!
//! `docs/evaluation.md` describes the seeds (the design documents the evaluation comes
//! from) and every rule with its formula; the ids (D1, P3, K7, T6, ...) are its names for
//! the rules.

// ---------------------------------------------------------------------------------------
// Shared quantities (`docs/evaluation.md`)
// ---------------------------------------------------------------------------------------

/// Attack state A_S: points per rook or horse across the river (seed 002: 「车马2」).
pub const ATTACK_STATE_MAJOR: i32 = 2;
/// Attack state: points per cannon or pawn across the river (seed 002: 「炮兵1」).
pub const ATTACK_STATE_MINOR: i32 = 1;
/// Attack state: points per unit of "simple material" lead, 2R + H + C (proposed, EE).
pub const ATTACK_STATE_LEAD: i32 = 2;
/// Attack state cap (proposed, EE).
pub const ATTACK_STATE_MAX: i32 = 8;

/// Phase material per rook (seed 002's phase count: rook = 6, horse/cannon = 3, others = 1).
pub const PHASE_ROOK: i32 = 6;
/// Phase material per horse or cannon (seed 002's phase count).
pub const PHASE_MINOR: i32 = 3;
/// Phase material per advisor, elephant or pawn (seed 002's phase count).
pub const PHASE_OTHER: i32 = 1;
/// Phase material at or below which the game is an endgame, t = 0 (proposed).
pub const PHASE_ENDGAME: i32 = 32;
/// Phase material at or above which the game is an opening, t = 1 (proposed).
pub const PHASE_OPENING: i32 = 54;

// ---------------------------------------------------------------------------------------
// Level 2: defensive deficiencies by piece counts (seed 002 on defensive deficiencies),
// all penalties to the defender
// ---------------------------------------------------------------------------------------

/// D1 「缺仕怕双车」: fewer than two advisors against two rooks, base (proposed).
pub const ADVISOR_VS_ROOKS_BASE: i32 = 100;
/// D1: plus this per point of the attacker's attack state (proposed, EE x5 = 50, kept 40).
pub const ADVISOR_VS_ROOKS_PER_ATTACK: i32 = 40;
/// D2 「缺士怕车、马、卒」: per missing advisor, per enemy rook (proposed).
pub const MISSING_ADVISOR_PER_ROOK: i32 = 30;
/// D2: per missing advisor, per enemy horse (proposed).
pub const MISSING_ADVISOR_PER_HORSE: i32 = 20;
/// D2: per missing advisor, per enemy crossed pawn (proposed).
pub const MISSING_ADVISOR_PER_PAWN: i32 = 10;
/// D3 「另外一个士为弱士」: exactly one advisor left (proposed).
pub const WEAK_LONE_ADVISOR: i32 = 40;
/// D4 「单缺象要受到惩罚」: exactly one elephant left (proposed).
pub const LONE_ELEPHANT: i32 = 30;
/// D5 「缺象怕炮」: per missing elephant, per enemy cannon (proposed).
pub const MISSING_ELEPHANT_PER_CANNON: i32 = 40;
/// D6 「无车怕有车」: no rook, per enemy rook (proposed).
pub const NO_ROOK_PER_ENEMY_ROOK: i32 = 100;
/// D7 「兵种配置不佳」: two horses, no cannon, against a cannon before the endgame (proposed).
pub const TWO_HORSES_NO_CANNON: i32 = 40;

// ---------------------------------------------------------------------------------------
// Level 3: patterns and relations (seed 002 on special patterns)
// ---------------------------------------------------------------------------------------

/// P1 霸王车: two rooks seeing each other on a line (proposed).
pub const ROOK_PAIR: i32 = 30;
/// P2 连环马: horses protecting each other (proposed).
pub const CONNECTED_HORSES_MUTUAL: i32 = 30;
/// P2: one horse protects the other but not back (proposed).
pub const CONNECTED_HORSES_ONE_WAY: i32 = 15;
/// P3 担子炮: cannons on one line with one piece between (proposed).
pub const CANNON_PAIR: i32 = 20;
/// P4 兄弟兵: per pair of crossed pawns side by side (proposed).
pub const LINKED_PAWNS: i32 = 20;
/// P5: per protected rook, horse, cannon or crossed pawn (proposed).
pub const PROTECTED_PIECE: i32 = 5;
/// P6: an attacked piece of the side to move costs (value or value lost) / this (proposed).
pub const THREAT_DIVISOR: i32 = 10;
/// S1..S3 and K11, K12: a pin on a rook or king is worth `PIN_BASE - PIN_PER_STEP * d`,
/// d = steps from the pinned piece to the target (proposed, EE 44 - 4d, x5).
pub const PIN_BASE: i32 = 220;
/// See [`PIN_BASE`].
pub const PIN_PER_STEP: i32 = 20;
/// S4 马象弱牵制: an enemy piece on our horse's leg or elephant's eye guards its rook
/// (proposed, "weak").
pub const LEG_PIN_ON_ROOK: i32 = 60;
/// S5 车对炮兵、马兵: our rook pins a pawn to a cannon or horse (proposed, "weak").
pub const ROOK_PIN_PAWN: i32 = 40;

// ---------------------------------------------------------------------------------------
// Level 4: mobility and obstruction (seed 002 on mobility; seed 001)
// ---------------------------------------------------------------------------------------

/// M1 per pseudo-legal rook move (seed 002's mobility table, coefficient 3).
pub const MOBILITY_ROOK: i32 = 3;
/// M1 per horse move (seed 002's mobility table, coefficient 4).
pub const MOBILITY_HORSE: i32 = 4;
/// M1 per cannon move (seed 002's mobility table, coefficient 2).
pub const MOBILITY_CANNON: i32 = 2;
/// M2: a rook with at most this many moves is penalised (seed 002 「大于3，则比较灵活」).
pub const ROOK_CRAMPED_MOVES: u32 = 3;
/// M2: penalty for a cramped rook (proposed).
pub const ROOK_CRAMPED: i32 = 30;
/// M3: rook whose file is closed ahead by an own uncrossed pawn (proposed).
pub const ROOK_BEHIND_PAWN: i32 = 20;
/// M4: horse with no good move (proposed, EE KnightTrap 10 x5).
pub const HORSE_TRAPPED: i32 = 50;
/// M4: horse with exactly one good move (proposed, EE 5 x5).
pub const HORSE_ONE_EXIT: i32 = 25;
/// M5: edge horse whose leg is blocked by an enemy rook or pawn (proposed, 「严重扣分」).
pub const EDGE_HORSE_BLOCKED: i32 = 100;
/// M6: horse on one of the four edge lines (proposed; seed 001 「應該減分」).
pub const EDGE_HORSE: i32 = 20;
/// M7: palace centre taken by an own piece other than an advisor (proposed).
pub const PALACE_CENTRE_BLOCKED: i32 = 30;
/// M7: the same when the piece is the king (proposed).
pub const PALACE_CENTRE_KING: i32 = 50;

// ---------------------------------------------------------------------------------------
// Level 5: king safety (seed 002 on king safety and special patterns), bonuses to the
// attacker
// ---------------------------------------------------------------------------------------

/// K1 空头炮 at rank distance d > 2: `min(HOLLOW_CANNON_MAX, HOLLOW_CANNON_BASE +
/// HOLLOW_CANNON_PER_RANK * d)` (proposed, EE cvlHollowThreat x5).
pub const HOLLOW_CANNON_BASE: i32 = 225;
/// See [`HOLLOW_CANNON_BASE`].
pub const HOLLOW_CANNON_PER_RANK: i32 = 25;
/// See [`HOLLOW_CANNON_BASE`].
pub const HOLLOW_CANNON_MAX: i32 = 400;
/// K2 炮镇窝心马 at rank distance d >= 3: `max(CENTRAL_CANNON_MIN, CENTRAL_CANNON_BASE -
/// CENTRAL_CANNON_PER_RANK * (d - 3))` (proposed, EE cvlCentralThreat x5).
pub const CENTRAL_CANNON_BASE: i32 = 250;
/// See [`CENTRAL_CANNON_BASE`].
pub const CENTRAL_CANNON_PER_RANK: i32 = 25;
/// See [`CENTRAL_CANNON_BASE`].
pub const CENTRAL_CANNON_MIN: i32 = 150;
/// K4 当头炮 against an advisor wall: the K2 value divided by this (proposed, EE).
pub const CENTRAL_CANNON_WALL_DIVISOR: i32 = 4;
/// K4: plus this when a defending rook guards the king along the back rank (proposed).
pub const CENTRAL_CANNON_TIED_ROOK: i32 = 200;
/// K3 沉底炮 by the cannon's file from the edge (a/i, b/h, c/g), times A_X / 8
/// (proposed, EE cvlBottomThreat 40/30 x5).
pub const BOTTOM_CANNON: [i32; 3] = [200, 150, 0];
/// K5 车封帅门: the door square attacked by an enemy rook (proposed, EE 20 x5).
pub const DOOR_SEALED_BY_ROOK: i32 = 100;
/// K5: the door square attacked by another enemy piece (proposed).
pub const DOOR_ATTACKED: i32 = 50;
/// K6 士要向自己相对势力较强的一边开口: advisors open toward the weaker wing (proposed).
pub const ADVISORS_OPEN_TO_WEAK_WING: i32 = 30;
/// K7 palace control weights x10, by square class: king home, the other two bottom
/// palace points and the centre, the rest of the palace, the ring c..g x ranks 0..4
/// (seed 002's table 「放大10倍后」). The ring's 1 is set to 0: every advanced piece
/// attacks it, already paid by the piece-square tables, so only attacks on the palace
/// itself count (measured: `docs/engine-log.md`).
pub const PALACE_CONTROL_WEIGHTS: [i32; 4] = [10, 5, 2, 0];
/// K7: the weighted count is multiplied by this (proposed; 2 lost strength, 1 did not:
/// `docs/engine-log.md`) ...
pub const PALACE_CONTROL_SCALE: i32 = 1;
/// ... and capped here (seed 002 「最高分值 200」).
pub const PALACE_CONTROL_MAX: i32 = 200;
/// K9 两子攻势: two attackers near the defender's palace on one wing (proposed: seed 002's
/// "medium threat" 200, on top of level 2's missing-advisor penalties, lost strength;
/// `docs/engine-log.md`).
pub const TWO_PIECE_ATTACK: i32 = 50;
/// K10 三子归边 levels: bottom cannon; + rook; + horse (proposed: half seed 002's
/// light/medium/severe threats 100/200/400, which measured neutral: `docs/engine-log.md`).
pub const THREE_PIECE_ATTACK: [i32; 3] = [50, 100, 200];
/// K13 horse pin on the king (proposed).
pub const HORSE_PIN_ON_KING: i32 = 60;
/// K14 kings facing: penalty to the owner of a rook, horse or cannon that is the only
/// piece between the kings (proposed).
pub const KINGS_FACING_PIN: i32 = 40;

// ---------------------------------------------------------------------------------------
// Level 6: phase, tempo, pawns (seed 002 on the game phase, piece values, other knowledge
// and the endgame)
// ---------------------------------------------------------------------------------------

/// T1 horse value in the opening and in the endgame (seed 002): 400 .. 500. The level-0
/// table holds the middlegame value 450; level 6 adds the difference.
pub const HORSE_OPENING: i32 = 400;
/// See [`HORSE_OPENING`].
pub const HORSE_ENDGAME: i32 = 500;
/// T1 cannon value in the opening and in the endgame (seed 002): 500 .. 400.
pub const CANNON_OPENING: i32 = 500;
/// See [`CANNON_OPENING`].
pub const CANNON_ENDGAME: i32 = 400;
/// T3 「开局注重占据有利位置」: the placement term grows by t / this in the opening
/// (proposed: x1.25 at t = 1).
pub const PLACEMENT_OPENING_DIVISOR: i32 = 4;
/// T5 tempo for the side to move (seed 002 「先手分：约等于一个开局原位兵」).
pub const TEMPO: i32 = 50;
/// T6 bonus of a crossed pawn by its own rank 5..9, on top of material 50 and the
/// seed-000 table. Seed 002 gives the pawn's whole value 100, 150, 200, 200 (stop at the
/// "life line", proposed) and 100 on the last rank (proposed); the level-1 table already
/// adds 30, 60, 90, 150, 45 on the central file, so the bonus is about the rest
/// (proposed; not exactly: `docs/evaluation.md`, T6).
pub const CROSSED_PAWN_BONUS: [i32; 5] = [30, 50, 70, 50, 10];
/// T6 the document's whole value of a crossed pawn by own rank 5..9, used by T9 and T10.
pub const CROSSED_PAWN_VALUE: [i32; 5] = [100, 150, 200, 200, 100];
/// T7 「未过河通路兵80分」: uncrossed pawn with an open path (seed 002): 80 - 50.
pub const OPEN_PATH_PAWN: i32 = 30;
/// T8 「过河的兵，如果有保护，那么给予奖分」 (proposed).
pub const PROTECTED_CROSSED_PAWN: i32 = 20;
/// T9 「双兵过河在中心三条纵线联手400分」: a central pair is worth at least this (seed 002).
pub const CENTRAL_PAWN_PAIR: i32 = 400;
/// T10 crossed pawns gain value x (1 + (4 - E) / 8) when the enemy has E = 2R + H + C < 4
/// (proposed, seed 002 on the endgame).
pub const FEW_MAJORS_FULL: i32 = 4;
/// See [`FEW_MAJORS_FULL`].
pub const FEW_MAJORS_DIVISOR: i32 = 8;
/// T11 known drawish endings: the score is divided by this (proposed).
pub const DRAWISH_DIVISOR: i32 = 4;
