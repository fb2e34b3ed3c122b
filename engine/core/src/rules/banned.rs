//! Banned moves: the moves that would complete a forbidden perpetual for the side to
//! move (UCCI `banmoves`).

use crate::board::{Move, Position};
use crate::movegen::legal_moves;

use super::repetition::judge_cycle;
use super::GameRecord;

impl GameRecord {
    /// The legal moves after which the repetition rules make the side to move lose
    /// (perpetual check or perpetual chase at the threshold occurrence). Empty in
    /// almost every position: only moves that bring back a position already seen
    /// `threshold - 1` times since the last capture are played out and judged.
    #[must_use]
    pub fn banned_moves(&self) -> Vec<Move> {
        let pos: &Position = self.position();
        let us = pos.side_to_move();
        let threshold = self.rules().ruleset.repetition_threshold();
        let history = self.history();
        let n = history.len() - 1;
        // After a non-capturing move the window reaches back to n - plies_since_capture;
        // positions with the opponent to move sit at n - 1, n - 3, ...
        let reach = usize::from(history[n].plies_since_capture).min(n);
        let seen: Vec<u64> = (n - reach..n)
            .rev()
            .step_by(2)
            .map(|j| history[j].key)
            .collect();
        if seen.is_empty() {
            return Vec::new();
        }
        let mut banned = Vec::new();
        let mut trial: Option<GameRecord> = None;
        for &m in legal_moves(pos).iter() {
            if pos.piece_at(m.to()).is_some() {
                continue;
            }
            let key = pos.key_after(m);
            let earlier = seen.iter().filter(|&&k| k == key).count();
            if earlier + 1 < threshold as usize {
                continue;
            }
            let record = trial.get_or_insert_with(|| self.clone());
            if record.push(m).is_err() {
                continue;
            }
            let verdict = judge_cycle(record.history(), !us, threshold);
            record.pop();
            if verdict.is_some_and(|v| v.loser == Some(us)) {
                banned.push(m);
            }
        }
        banned
    }
}
