//! Lines from the engine to the GUI, in the dialect chosen at the start.

use std::io::Write;
use std::sync::{Arc, Mutex};

use super::command::Dialect;
use super::tunables::{tune_options, Handshake};
use crate::eval::{MAX_LEVEL, NNUE_LEVEL};
use crate::search::score::{ucci_score, uci_score};
use crate::search::{Report, SearchResult};

/// Default and largest hash size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 4096;

/// A shared, line-flushed output (the search thread writes `info` and `bestmove` too).
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    pub dialect: Dialect,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("dialect", &self.dialect)
            .finish_non_exhaustive()
    }
}

impl Output {
    /// An output over any writer.
    pub fn new(sink: Box<dyn Write + Send>, dialect: Dialect) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            dialect,
        }
    }

    /// Writes one line and flushes. A GUI that closed its end is not our problem to
    /// report: the loop ends when stdin closes.
    pub fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }

    /// `info string error: ...`, the answer to every bad line.
    pub fn error(&self, why: &str) {
        self.line(&format!("info string error: {why}"));
    }

    /// The identification and options (with `Handshake::WithTunables` every tunable
    /// parameter too), then `ucciok` / `uciok`.
    pub fn hello(&self, handshake: Handshake) {
        let version = env!("CARGO_PKG_VERSION");
        self.line(&format!("id name xq-engine {version}"));
        self.line("id author the xq-harness authors");
        match self.dialect {
            Dialect::Ucci => {
                self.line("option usemillisec type check default false");
                self.line(&format!(
                    "option hashsize type spin min 1 max {MAX_HASH_MB} default {DEFAULT_HASH_MB}"
                ));
                self.line(&format!(
                    "option evallevel type spin min 0 max {NNUE_LEVEL} default {MAX_LEVEL}"
                ));
                self.line("option evalfile type string default <empty>");
                self.line("option ponder type check default false");
                self.line("option newgame type button");
                self.tunables(handshake);
                self.line("ucciok");
            }
            Dialect::Uci => {
                self.line(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                ));
                self.line(&format!(
                    "option name EvalLevel type spin default {MAX_LEVEL} min 0 max {NNUE_LEVEL}"
                ));
                self.line("option name EvalFile type string default <empty>");
                self.line("option name Ponder type check default false");
                self.line("option name Clear Hash type button");
                self.tunables(handshake);
                self.line("uciok");
            }
        }
    }

    /// The tunable parameters' option lines, if the handshake has them.
    fn tunables(&self, handshake: Handshake) {
        if handshake == Handshake::WithTunables {
            for option in tune_options() {
                self.line(&option.announcement(self.dialect));
            }
        }
    }

    /// One `info` line after an iteration.
    pub fn report(&self, r: &Report) {
        let ms = r.time.as_millis();
        let nps = (r.nodes as u128 * 1000) / ms.max(1);
        let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
        let pv = pv.join(" ");
        match self.dialect {
            Dialect::Ucci => self.line(&format!(
                "info depth {} seldepth {} score {} time {ms} nodes {} nps {nps} pv {pv}",
                r.depth,
                r.sel_depth,
                ucci_score(r.score),
                r.nodes
            )),
            Dialect::Uci => self.line(&format!(
                "info depth {} seldepth {} score {} nodes {} nps {nps} hashfull {} time {ms} pv {pv}",
                r.depth,
                r.sel_depth,
                uci_score(r.score),
                r.nodes,
                r.hashfull
            )),
        }
    }

    /// The answer to `go`: a last `info` with the totals, then the move, or that there is
    /// none.
    pub fn best_move(&self, result: &SearchResult, accept_draw: bool) {
        let ms = result.time.as_millis();
        let nps = (u128::from(result.nodes) * 1000) / ms.max(1);
        match self.dialect {
            Dialect::Ucci => self.line(&format!("info time {ms} nodes {} nps {nps}", result.nodes)),
            Dialect::Uci => self.line(&format!("info nodes {} nps {nps} time {ms}", result.nodes)),
        }
        let Some(best) = result.best else {
            match self.dialect {
                Dialect::Ucci => self.line("nobestmove"),
                Dialect::Uci => self.line("bestmove (none)"),
            }
            return;
        };
        let mut line = format!("bestmove {best}");
        if let Some(ponder) = result.ponder {
            line.push_str(&format!(" ponder {ponder}"));
        }
        if accept_draw && self.dialect == Dialect::Ucci {
            line.push_str(" draw");
        }
        self.line(&line);
    }
}
