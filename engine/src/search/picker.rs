//! Move ordering: the hash move first, then the captures whose exchange does not lose
//! much, by victim and capture history, killers, quiet moves by history (butterfly and
//! continuation), and the other captures last.

use super::heuristics::{Continuation, Heuristics};
use super::params::{
    CAPTURE_HISTORY_DIVISOR, CAPTURE_HISTORY_MAX, CAPTURE_VICTIM_SCALE, CONTINUATION_HISTORY_MAX,
    GOOD_CAPTURE_SEE_SHARE, HISTORY_MAX, SORTED_QUIETS,
};
use super::see::see_ge;
use crate::board::{BitBoard, Move, PieceKind, Position, Square};
use crate::eval::psqt::material;
use crate::movegen::{
    capture_keeps_king_safe, generate_captures_unchecked, generate_into, generate_quiet_checks,
    generate_to, generate_with, gives_check, is_legal, GenKind, LegalFilter, MoveList, MoveSink,
    MAX_MOVES,
};

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
/// The ordering scores of the two killers and the counter move, in that order.
const REFUTATION: [i32; 3] = [1_000_100, 1_000_000, 999_900];
const BAD_CAPTURE: i32 = -2_000_000;
/// Bits of a list place in the selection key of `pick_best`, and the largest place.
const PLACE_BITS: u32 = 7;
const MAX_PLACE: i32 = (1 << PLACE_BITS) - 1;
/// The highest ordering score of a capture above [`GOOD_CAPTURE`] (a rook taken, the
/// best capture history).
const MAX_CAPTURE_ORDER: i32 = CAPTURE_VICTIM_SCALE * material(PieceKind::Rook)
    + CAPTURE_HISTORY_MAX / CAPTURE_HISTORY_DIVISOR;
// Every place of a list fits, and every listed score (captures, ordered above
// GOOD_CAPTURE, and history values) keeps its order once shifted up by the place bits.
// Hash moves, killers and losing captures are never in a list that is selected.
const _: () = assert!(MAX_MOVES <= 1 << PLACE_BITS);
const _: () = assert!(GOOD_CAPTURE + MAX_CAPTURE_ORDER < i32::MAX >> PLACE_BITS);
/// The lowest history score of a quiet move: each of its terms at its bound (see
/// `HistoryRows::score`: twice the butterfly and five continuations in all).
const MIN_HISTORY: i32 = -2 * HISTORY_MAX - 5 * CONTINUATION_HISTORY_MAX;
const _: () = assert!(MIN_HISTORY > i32::MIN >> PLACE_BITS);
// A quiet move's history stays below the captures' scores, whatever their history.
const _: () = assert!(-MIN_HISTORY < GOOD_CAPTURE - MAX_CAPTURE_ORDER);

/// The ordering score of a capture: its victim's value and its capture history.
#[inline(always)]
fn capture_order(pos: &Position, heuristics: &Heuristics, m: Move) -> i32 {
    let (Some(mover), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
        return 0;
    };
    CAPTURE_VICTIM_SCALE * material(victim.kind())
        + heuristics.capture_history(mover, m.to(), victim.kind()) / CAPTURE_HISTORY_DIVISOR
}

/// Whether a capture with this ordering score (above [`GOOD_CAPTURE`]) is tried with the
/// good captures: its exchange loses at most a share of the score (see
/// [`GOOD_CAPTURE_SEE_SHARE`]).
#[inline]
fn is_good_capture(pos: &Position, m: Move, order: i32) -> bool {
    see_ge(
        pos,
        m,
        -(order - GOOD_CAPTURE) * GOOD_CAPTURE_SEE_SHARE / 1024,
    )
}

// The generators for nodes in check are instantiated once each, out of line and cold,
// as `generate_captures_unchecked` is out of line: inlined into each caller, the generic
// generator made the search's hot code overflow the instruction cache.

/// Every legal move of a side in check.
#[cold]
#[inline(never)]
fn all_moves_in_check(pos: &Position, list: &mut MoveList) {
    generate_into(pos, GenKind::All, list);
}

/// The legal captures of a side in check.
#[cold]
#[inline(never)]
fn captures_in_check(pos: &Position, filter: &LegalFilter, list: &mut MoveList) {
    generate_with(pos, filter, GenKind::Captures, list);
}

/// The legal quiet moves of a side in check, scored by history.
#[cold]
#[inline(never)]
fn quiets_in_check(pos: &Position, filter: &LegalFilter, sink: &mut HistoryScored<'_>) {
    generate_to(pos, filter, GenKind::Quiets, sink);
}

/// Quiet moves with their history scores, scored as they are generated: the piece is
/// looked up once for all its moves.
struct HistoryScored<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut [i32; MAX_MOVES],
    pos: &'a Position,
    heuristics: &'a Heuristics,
    cont: Continuation,
}

impl MoveSink for HistoryScored<'_> {
    #[inline]
    fn add(&mut self, from: Square, to: Square) {
        self.add_all(from, BitBoard::from_square(to));
    }

    #[inline(always)]
    fn add_all(&mut self, from: Square, targets: BitBoard) {
        let Some(piece) = self.pos.piece_at(from) else {
            return;
        };
        let rows = self.heuristics.rows(self.cont, piece);
        for to in targets {
            let index = self.moves.len();
            if index < MAX_MOVES {
                self.scores[index] = rows.score(to);
                self.moves.push(Move::new(from, to));
            }
        }
    }
}

/// The lists a picker fills, kept by the searcher per ply so no node pays for
/// initialising them.
#[derive(Clone, Debug)]
pub struct PickerBuffers {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    bad: MoveList,
}

impl PickerBuffers {
    /// Fresh buffers (only when a ply has none yet).
    #[must_use]
    pub fn boxed() -> Box<PickerBuffers> {
        Box::new(PickerBuffers {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            bad: MoveList::new(),
        })
    }
}

/// Where a picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Yields the moves of a node best first, generating them in stages: the hash move
/// before anything is generated, then captures (winning and even ones), killers, quiet
/// moves by history, and losing captures last. A cutoff early in the list saves the
/// generation of the rest.
#[derive(Debug)]
pub struct MovePicker {
    stage: Stage,
    hash_move: Option<Move>,
    /// The killers of the ply, then the counter move of the previous move: tried after
    /// the good captures, before the other quiet moves.
    refutations: [Option<Move>; 3],
    /// The node's previous moves, whose continuation history scores the quiet moves.
    cont: Continuation,
    killer_index: usize,
    buffers: Box<PickerBuffers>,
    next: usize,
    bad_next: usize,
    /// A quiescence picker: it only selects from its one generated list (see
    /// `next_move`); the stages are for the main search.
    single_list: bool,
    /// Made with the captures, reused for the quiet moves.
    filter: Option<LegalFilter>,
    /// Only quiet moves that give check are wanted (futility prunes the others).
    checks_only: bool,
    /// The side to move is in check: moves are generated legal (as evasions).
    /// Otherwise captures and quiet moves are generated untested and each is tested
    /// when it comes up: most are never reached.
    in_check: bool,
    /// The quiet moves were generated as checks only: legal, and each gives check.
    /// Otherwise, out of check, they were generated untested (see `wanted_quiet`).
    quiets_are_checks: bool,
    /// How many legal quiet moves other than the hash move and killers came up: the
    /// first [`SORTED_QUIETS`] of them are picked by history.
    quiets_listed: usize,
}

impl MovePicker {
    /// The moves of a node of the main search; `hash_move` is checked for legality, and
    /// `cont` names the node's previous moves for the quiet moves' history.
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn main(
        pos: &Position,
        in_check: bool,
        hash_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
        cont: Continuation,
        counter_move: Option<Move>,
        mut buffers: Box<PickerBuffers>,
    ) -> MovePicker {
        buffers.moves.clear();
        buffers.bad.clear();
        MovePicker {
            stage: Stage::HashMove,
            hash_move: hash_move.filter(|&m| is_legal(pos, m)),
            refutations: {
                let [first, second] = heuristics.killers(ply);
                let counter = counter_move.filter(|&m| Some(m) != first && Some(m) != second);
                [first, second, counter]
            },
            cont,
            killer_index: 0,
            buffers,
            next: 0,
            bad_next: 0,
            single_list: false,
            filter: None,
            checks_only: false,
            in_check,
            quiets_are_checks: false,
            quiets_listed: 0,
        }
    }

    /// Every legal evasion when in check; otherwise the captures of `victims`, not tested
    /// for legality (see [`generate_captures_unchecked`]: test each move before playing
    /// it with [`capture_keeps_king_safe`](crate::movegen::capture_keeps_king_safe)).
    #[must_use]
    pub fn quiescence(
        pos: &Position,
        in_check: bool,
        victims: BitBoard,
        heuristics: &Heuristics,
        mut buffers: Box<PickerBuffers>,
    ) -> MovePicker {
        if in_check {
            all_moves_in_check(pos, &mut buffers.moves);
        } else {
            generate_captures_unchecked(pos, victims, &mut buffers.moves);
        }
        buffers.bad.clear();
        let PickerBuffers { moves, scores, .. } = &mut *buffers;
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if pos.piece_at(m.to()).is_some() {
                GOOD_CAPTURE + capture_order(pos, heuristics, m)
            } else {
                0
            };
        }
        MovePicker {
            stage: Stage::GoodCaptures,
            hash_move: None,
            refutations: [None; 3],
            cont: Continuation::NONE,
            killer_index: 3,
            buffers,
            next: 0,
            bad_next: 0,
            single_list: true,
            filter: None,
            checks_only: false,
            in_check,
            quiets_are_checks: false,
            quiets_listed: 0,
        }
    }

    /// Gives the lists back for the next node of the same ply.
    #[must_use]
    pub fn into_buffers(self) -> Box<PickerBuffers> {
        self.buffers
    }

    /// Whether the node has no legal move (only meaningful for quiescence pickers,
    /// which generate at once).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.buffers.moves.is_empty()
    }

    /// Selection of the best remaining scored move.
    #[inline(always)]
    fn pick_best(&mut self) -> Option<(Move, i32)> {
        let PickerBuffers { moves, scores, .. } = &mut *self.buffers;
        let n = moves.len();
        if self.next >= n {
            return None;
        }
        // One maximum over the scores, each with its place in the low seven bits (the
        // first place ranks highest among equal scores): a maximum has no branch to
        // mispredict.
        let rest = &scores[self.next..n];
        let key = rest
            .iter()
            .enumerate()
            .map(|(i, &s)| (s << PLACE_BITS) | (MAX_PLACE - i as i32))
            .fold(i32::MIN, i32::max);
        let best = self.next + (MAX_PLACE - (key & MAX_PLACE)) as usize;
        moves.as_mut_slice().swap(self.next, best);
        scores.swap(self.next, best);
        let picked = (moves[self.next], scores[self.next]);
        self.next += 1;
        Some(picked)
    }

    // The generators are kept out of line: inlined, they made `next_move`, called once
    // per move, set up a large stack frame on every call.
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, heuristics: &Heuristics) {
        let PickerBuffers { moves, scores, .. } = &mut *self.buffers;
        if self.in_check {
            let filter = self.filter.insert(LegalFilter::new(pos));
            captures_in_check(pos, filter, moves);
        } else {
            generate_captures_unchecked(pos, pos.color_bb(!pos.side_to_move()), moves);
        }
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            if Some(m) == self.hash_move {
                continue;
            }
            moves.as_mut_slice()[kept] = m;
            scores[kept] = GOOD_CAPTURE + capture_order(pos, heuristics, m);
            kept += 1;
        }
        moves.truncate(kept);
        self.next = 0;
    }

    /// Generates the quiet moves, with their history scores. The hash move and killers
    /// among them are skipped when they come up (see `next_staged`).
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Position, heuristics: &Heuristics) {
        let PickerBuffers { moves, scores, .. } = &mut *self.buffers;
        moves.clear();
        if self.checks_only {
            // Few moves: generated legal, scored after.
            let filter = self.filter.get_or_insert_with(|| LegalFilter::new(pos));
            generate_quiet_checks(pos, filter, moves);
            for (score, &m) in scores.iter_mut().zip(moves.iter()) {
                *score = pos
                    .piece_at(m.from())
                    .map_or(0, |p| heuristics.history(self.cont, p, m.to()));
            }
        } else {
            let mut sink = HistoryScored {
                moves,
                scores,
                pos,
                heuristics,
                cont: self.cont,
            };
            if self.in_check {
                let filter = self.filter.get_or_insert_with(|| LegalFilter::new(pos));
                quiets_in_check(pos, filter, &mut sink);
            } else {
                generate_to(pos, &LegalFilter::untested(pos), GenKind::Quiets, &mut sink);
            }
        }
        self.quiets_are_checks = self.checks_only;
        self.next = 0;
    }

    /// Whether a quiet move that came up is to be returned: not the hash move or a killer
    /// (returned before), legal, and a check if only checks are wanted.
    #[inline]
    fn wanted_quiet(&mut self, pos: &Position, m: Move) -> bool {
        let [first, second, counter] = self.refutations;
        if [self.hash_move, first, second, counter].contains(&Some(m)) {
            return false;
        }
        if self.quiets_are_checks {
            self.quiets_listed += 1;
            return true;
        }
        if !self.in_check {
            let filter = self.filter.get_or_insert_with(|| LegalFilter::new(pos));
            if !filter.admits(m) {
                return false;
            }
        }
        self.quiets_listed += 1;
        // Checks only since the quiet moves were generated (futility): test each.
        !self.checks_only || gives_check(pos, m)
    }

    /// The next move and its ordering score, best first. `pos` must be the node's position.
    #[inline(always)]
    pub fn next_move(&mut self, pos: &Position, heuristics: &Heuristics) -> Option<(Move, i32)> {
        // A quiescence picker only walks its one list, best first: the stages below, with
        // the large frame they need, are for the main search.
        if self.single_list {
            return self.pick_best();
        }
        self.next_staged(pos, heuristics, true)
    }

    /// The next move if it can be had without generating moves (a selection from a list
    /// already generated, or a killer); `None` when a generation comes first, or when no
    /// move is left. After a `None`, `next_move` goes on from there: it generates, or it
    /// too answers `None`.
    #[inline(always)]
    pub fn next_listed(&mut self, pos: &Position, heuristics: &Heuristics) -> Option<(Move, i32)> {
        if self.single_list {
            return self.pick_best();
        }
        self.next_staged(pos, heuristics, false)
    }

    /// [`Self::next_move`] of a main-search picker, stage by stage.
    #[inline(never)]
    fn next_staged(
        &mut self,
        pos: &Position,
        heuristics: &Heuristics,
        may_generate: bool,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.hash_move {
                        return Some((m, HASH_MOVE));
                    }
                }
                Stage::GenerateCaptures => {
                    if !may_generate {
                        return None;
                    }
                    self.stage = Stage::GoodCaptures;
                    self.generate_captures(pos, heuristics);
                }
                Stage::GoodCaptures => match self.pick_best() {
                    // Legality and exchanges are judged only when a capture comes up: a
                    // cutoff before saves the tests of the others.
                    Some((m, _)) if !self.in_check && !capture_keeps_king_safe(pos, m) => {}
                    Some((m, order)) if !is_good_capture(pos, m, order) => {
                        self.buffers.bad.push(m);
                    }
                    Some(picked) => return Some(picked),
                    None => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    if self.killer_index >= 3 {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let index = self.killer_index;
                    self.killer_index += 1;
                    if let Some(m) = self.refutations[index] {
                        let fresh = Some(m) != self.hash_move && pos.piece_at(m.to()).is_none();
                        let mut legal = || {
                            let filter = self.filter.get_or_insert_with(|| LegalFilter::new(pos));
                            filter.allows(pos, m)
                        };
                        if fresh && legal() && (!self.checks_only || gives_check(pos, m)) {
                            return Some((m, REFUTATION[index]));
                        }
                    }
                }
                Stage::GenerateQuiets => {
                    if !may_generate {
                        return None;
                    }
                    self.stage = Stage::Quiets;
                    self.generate_quiets(pos, heuristics);
                }
                Stage::Quiets => {
                    // The best few by selection; most nodes stop (or prune) before the
                    // rest, whose order matters little.
                    let picked = if self.quiets_listed < SORTED_QUIETS {
                        self.pick_best()
                    } else {
                        let PickerBuffers { moves, scores, .. } = &*self.buffers;
                        let picked = moves.get(self.next).map(|&m| (m, scores[self.next]));
                        self.next += 1;
                        picked
                    };
                    match picked {
                        Some((m, _)) if !self.wanted_quiet(pos, m) => {}
                        Some(picked) => return Some(picked),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.buffers.bad.len() {
                        let m = self.buffers.bad[self.bad_next];
                        self.bad_next += 1;
                        return Some((m, BAD_CAPTURE + capture_order(pos, heuristics, m)));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Skips the quiet moves not yet returned (late move pruning): killers and quiet
    /// moves are not generated; losing captures still come.
    pub fn skip_quiets(&mut self) {
        if matches!(
            self.stage,
            Stage::Killers | Stage::GenerateQuiets | Stage::Quiets
        ) {
            self.stage = Stage::BadCaptures;
        }
    }

    /// From now on, quiet moves (killers included) are returned only when they give
    /// check: at a node where futility prunes every other quiet move, they are not
    /// looked at, and, when the quiet moves are still to be generated, not even kept.
    pub fn only_checking_quiets(&mut self) {
        self.checks_only = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::heuristics::{stat_bonus, BestMove};

    /// Selection as first written: the first of the highest remaining scores, swapped
    /// to the front.
    fn plain_selection(mut items: Vec<(Move, i32)>) -> Vec<(Move, i32)> {
        for next in 0..items.len() {
            let mut best = next;
            for i in next + 1..items.len() {
                if items[i].1 > items[best].1 {
                    best = i;
                }
            }
            items.swap(next, best);
        }
        items
    }

    /// The previous moves of the tests' main-search nodes: a black pawn's to the middle of
    /// the board, and a red horse's before it.
    fn cont() -> Continuation {
        Continuation::new([
            Some((crate::board::Piece::BlackPawn, Square::ALL[40])),
            Some((crate::board::Piece::RedHorse, Square::ALL[20])),
            None,
            None,
        ])
    }

    /// A main-search picker at ply 0 with a legal move of the middle of the list as its
    /// hash move, and that move.
    fn main_picker(pos: &Position, heuristics: &Heuristics) -> (MovePicker, Option<Move>) {
        let legal = crate::movegen::legal_moves(pos);
        let hash_move = legal.get(legal.len() / 2).copied();
        let in_check = crate::movegen::in_check(pos);
        let buffers = PickerBuffers::boxed();
        let picker = MovePicker::main(
            pos,
            in_check,
            hash_move,
            heuristics,
            0,
            cont(),
            None,
            buffers,
        );
        (picker, hash_move)
    }

    /// The moves of a main-search picker, each taken with `next_move`, or, when `ahead`,
    /// with `next_listed` first as the search does.
    fn main_moves(pos: &Position, heuristics: &Heuristics, ahead: bool) -> Vec<(Move, i32)> {
        let (mut picker, _) = main_picker(pos, heuristics);
        let mut moves = Vec::new();
        loop {
            let listed = if ahead {
                picker.next_listed(pos, heuristics)
            } else {
                None
            };
            match listed.or_else(|| picker.next_move(pos, heuristics)) {
                Some(picked) => moves.push(picked),
                None => return moves,
            }
        }
    }

    #[test]
    fn picking_ahead_yields_the_same_moves_and_waits_at_each_generation() {
        for fen in crate::bench::POSITIONS {
            let Ok(pos) = Position::from_fen(fen) else {
                panic!("bench position {fen}");
            };
            // Killers and history as a search leaves them: a quiet move of the list.
            let mut heuristics = Heuristics::default();
            let legal = crate::movegen::legal_moves(&pos);
            let quiets: Vec<(Move, crate::board::Piece)> = legal
                .iter()
                .filter(|m| pos.piece_at(m.to()).is_none())
                .filter_map(|&m| Some((m, pos.piece_at(m.from())?)))
                .collect();
            if let Some(&best) = quiets.get(quiets.len() / 2) {
                heuristics.record_best(
                    0,
                    cont(),
                    None,
                    BestMove::Quiet(best.0, best.1),
                    &quiets[..quiets.len() / 2],
                    &[],
                    stat_bonus(6),
                    stat_bonus(7),
                    false,
                );
            }
            let plain = main_moves(&pos, &heuristics, false);
            assert_eq!(main_moves(&pos, &heuristics, true), plain, "{fen}");
            assert_eq!(plain.len(), legal.len(), "{fen}");

            // After the hash move, the captures are still to be generated.
            let (mut picker, hash_move) = main_picker(&pos, &heuristics);
            assert_eq!(picker.next_move(&pos, &heuristics).map(|p| p.0), hash_move);
            assert_eq!(picker.next_listed(&pos, &heuristics), None, "{fen}");
            assert_eq!(picker.stage, Stage::GenerateCaptures, "{fen}");
        }
    }

    #[test]
    fn pick_best_picks_what_a_plain_selection_picks_ties_and_extremes_included() {
        let extremes = [
            MIN_HISTORY,
            -MIN_HISTORY,
            -HISTORY_MAX,
            -1,
            0,
            0,
            5,
            HISTORY_MAX,
            GOOD_CAPTURE - 625,
            GOOD_CAPTURE + MAX_CAPTURE_ORDER,
        ];
        let mut seed = 12_345u64;
        for len in [1, 2, 3, 7, 12, 40, MAX_MOVES] {
            let items: Vec<(Move, i32)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let score = extremes[(seed >> 33) as usize % extremes.len()];
                    let m = Move::new(Square::ALL[i % 90], Square::ALL[(i / 90 + 1 + i) % 90]);
                    (m, score)
                })
                .collect();
            let pos = Position::startpos();
            let mut picker = MovePicker::quiescence(
                &pos,
                false,
                BitBoard::EMPTY,
                &Heuristics::default(),
                PickerBuffers::boxed(),
            );
            picker.buffers.moves.clear();
            for (i, &(m, score)) in items.iter().enumerate() {
                picker.buffers.moves.push(m);
                picker.buffers.scores[i] = score;
            }
            let picked: Vec<(Move, i32)> = std::iter::from_fn(|| picker.pick_best()).collect();
            assert_eq!(picked, plain_selection(items), "{len} moves");
        }
    }
}
