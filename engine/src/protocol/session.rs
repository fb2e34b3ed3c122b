//! One engine session: the state between commands and the search thread.
//!
//! The protocol thread reads commands; `go` moves the searcher into a new thread, which
//! prints `info` and `bestmove` itself and hands the searcher back when joined. While it
//! thinks, `stop`, `ponderhit`, `isready` and `quit` are answered at once; other commands
//! wait for the answer if a limit ends the search, and are refused while it runs until
//! stopped (`go infinite`, pondering, or a `go` without any limit).

use std::sync::Arc;
use std::thread::JoinHandle;

use super::command::{Command, Dialect, Go};
use super::output::{Output, DEFAULT_HASH_MB, MAX_HASH_MB};
use super::tunables::{set_tunable, Handshake};
use crate::board::{Color, Move, Position};
use crate::eval::nnue::Network;
use crate::eval::{Evaluator, NNUE_LEVEL};
use crate::movegen::is_legal;
use crate::search::{ClockReading, Control, GameSoFar, Limits, SearchParams, Searcher};

/// Accept a draw offer when our score is at most this (a pawn across the river down).
const ACCEPT_DRAW_BELOW: i32 = -100;

/// A searcher with a hash size, an evaluation (and level 7's network) and search
/// parameters.
fn new_searcher(
    hash_mb: usize,
    evaluator: Evaluator,
    network: Option<Arc<Network>>,
    params: SearchParams,
) -> Searcher {
    let mut searcher = Searcher::new(hash_mb, evaluator);
    searcher.set_network(network);
    searcher.set_params(params);
    searcher
}

/// What the loop should do after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

struct Running {
    handle: JoinHandle<Searcher>,
    control: Arc<Control>,
    bounded: bool,
}

/// The engine's state between commands.
pub struct Session {
    out: Output,
    game: GameSoFar,
    banned: Vec<Move>,
    searcher: Option<Searcher>,
    running: Option<Running>,
    millis: bool,
    hash_mb: usize,
    /// The evaluation (level and term weights) and the search parameters set by the
    /// options: a searcher made afresh gets them too.
    evaluator: Evaluator,
    /// The network level 7 evaluates with: the shipped one, or `EvalFile`'s.
    network: Option<Arc<Network>>,
    params: SearchParams,
    handshake: Handshake,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("game", &self.game)
            .field("millis", &self.millis)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session in a dialect, writing to `out`, whose handshake announces the options
    /// of `handshake`.
    #[must_use]
    pub fn new(out: Output, handshake: Handshake) -> Session {
        let network = crate::eval::nnue::embedded::network();
        Session {
            out,
            game: GameSoFar {
                start: Position::startpos(),
                moves: Vec::new(),
            },
            banned: Vec::new(),
            searcher: Some(new_searcher(
                DEFAULT_HASH_MB,
                Evaluator::default(),
                network.clone(),
                SearchParams::default(),
            )),
            running: None,
            millis: false,
            hash_mb: DEFAULT_HASH_MB,
            evaluator: Evaluator::default(),
            network,
            params: SearchParams::default(),
            handshake,
        }
    }

    /// Writes the handshake: identification, options, `ucciok` / `uciok`.
    pub fn hello(&self) {
        self.out.hello(self.handshake);
    }

    /// A searcher with the session's hash size, evaluation and search parameters.
    fn fresh_searcher(&self) -> Searcher {
        new_searcher(
            self.hash_mb,
            self.evaluator,
            self.network.clone(),
            self.params,
        )
    }

    /// Whether UCCI times are in milliseconds.
    #[must_use]
    pub fn millis(&self) -> bool {
        self.millis
    }

    /// The dialect of the session.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.out.dialect
    }

    /// Answers a line that could not be parsed.
    pub fn error_line(&self, why: &str) {
        self.out.error(why);
    }

    /// Whether `command` has to wait before it is carried out: it is not answered while
    /// thinking, and a search that ends by itself is still running. (Against a search
    /// that runs until stopped, `execute` refuses it instead.)
    #[must_use]
    pub fn must_wait(&self, command: &Command) -> bool {
        let searching = matches!(&self.running, Some(r) if r.bounded && !r.handle.is_finished());
        searching && !command.is_answered_while_thinking()
    }

    /// Carries out one command. One that [`Session::must_wait`] waits here for the search.
    pub fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::IsReady => self.out.line("readyok"),
            Command::Stop => self.stop(),
            Command::PonderHit { draw: _ } => {
                if let Some(running) = &self.running {
                    running.control.ponderhit();
                }
            }
            Command::Quit => {
                self.stop();
                if self.out.dialect == Dialect::Ucci {
                    self.out.line("bye");
                }
                return Flow::Quit;
            }
            other => {
                if !self.wait_for_search() {
                    self.out.error("still thinking (send stop first)");
                    return Flow::Continue;
                }
                self.execute_idle(other);
            }
        }
        Flow::Continue
    }

    /// Stops the search, if any, and waits for it (it prints its `bestmove`).
    pub fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
        self.join();
    }

    /// Joins a search that is over or bounded; refuses (false) an unbounded one.
    fn wait_for_search(&mut self) -> bool {
        match &self.running {
            None => true,
            Some(running) if running.handle.is_finished() || running.bounded => {
                self.join();
                true
            }
            Some(_) => false,
        }
    }

    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.out.error("search thread failed; state reset");
                    self.searcher = Some(self.fresh_searcher());
                }
            }
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        let (hash_mb, evaluator, params) = (self.hash_mb, self.evaluator, self.params);
        let network = self.network.clone();
        self.searcher
            .get_or_insert_with(|| new_searcher(hash_mb, evaluator, network, params))
    }

    fn execute_idle(&mut self, command: Command) {
        match command {
            Command::Hello => self.hello(),
            Command::NewGame => self.searcher().clear(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(*start, moves),
            Command::BanMoves(moves) => self.banned = moves,
            Command::Go(go) => self.go(go),
            Command::Ignored(_) => {}
            Command::IsReady | Command::Stop | Command::Quit | Command::PonderHit { .. } => {}
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let flag = |v: Option<&str>| {
            matches!(
                v.map(str::to_ascii_lowercase).as_deref(),
                Some("true" | "on" | "1")
            )
        };
        match name {
            "usemillisec" => self.millis = flag(value),
            "hashsize" | "hash" => match value.and_then(|v| v.trim().parse::<usize>().ok()) {
                Some(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    self.hash_mb = mb;
                    self.searcher().resize_hash(mb);
                }
                _ => self.out.error(&format!(
                    "{name} needs a size in MiB from 1 to {MAX_HASH_MB}"
                )),
            },
            "evallevel" => match value.and_then(|v| v.trim().parse::<u8>().ok()) {
                Some(NNUE_LEVEL) if self.network.is_none() => self
                    .out
                    .error("evallevel 7 needs a network: set evalfile (UCI: EvalFile) first"),
                Some(level) if level <= NNUE_LEVEL => {
                    self.set_evaluator(Evaluator::new(level).with_weights(self.evaluator.weights()))
                }
                _ => self
                    .out
                    .error(&format!("evallevel needs a number from 0 to {NNUE_LEVEL}")),
            },
            "evalfile" => self.load_network(value),
            // Options GUIs send that this engine accepts without acting on them.
            "ponder" | "usebook" | "bookfiles" | "threads" | "batch" | "debug" | "idle"
            | "promotion" | "knowledge" | "pruning" | "randomness" | "style" | "loadbook"
            | "evalapi" | "multipv" => {}
            other => {
                let (mut params, mut weights) = (self.params, self.evaluator.weights());
                match set_tunable(&mut params, &mut weights, other, value) {
                    Some(Ok(())) => {
                        self.params = params;
                        self.searcher().set_params(params);
                        self.set_evaluator(self.evaluator.with_weights(weights));
                    }
                    Some(Err(why)) => self.out.error(&why.to_string()),
                    None => self.out.error(&format!("unknown option `{other}`")),
                }
            }
        }
    }

    /// Loads the network of `EvalFile`; a wrong file leaves the one in use (if any) and
    /// is answered with one line.
    fn load_network(&mut self, value: Option<&str>) {
        let Some(path) = value.map(str::trim).filter(|p| !p.is_empty()) else {
            return self.out.error("evalfile needs the path of a network file");
        };
        match Network::load(std::path::Path::new(path)) {
            Ok(net) => {
                self.out.line(&format!(
                    "info string network {path} loaded: {} hidden, buckets {}, {}, hash {:016x}",
                    net.hidden(),
                    net.buckets(),
                    net.activation(),
                    net.hash()
                ));
                let net = Arc::new(net);
                self.network = Some(Arc::clone(&net));
                self.searcher().set_network(Some(net));
            }
            Err(e) => self.out.error(&e.to_string()),
        }
    }

    /// Changes the evaluation (the searcher forgets what it learnt if it differs).
    fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
        self.searcher().set_evaluator(evaluator);
    }

    /// Replays the moves; an illegal one rejects the whole command and keeps the old position.
    fn set_position(&mut self, start: Position, moves: Vec<Move>) {
        let mut pos = start.clone();
        for (index, &m) in moves.iter().enumerate() {
            if !is_legal(&pos, m) {
                self.out.error(&format!(
                    "illegal move {m} (move {} of the position command); position unchanged",
                    index + 1
                ));
                return;
            }
            pos.make_move(m);
        }
        self.game = GameSoFar { start, moves };
        self.banned.clear();
    }

    fn current_position(&self) -> Position {
        let mut pos = self.game.start.clone();
        for &m in &self.game.moves {
            pos.make_move(m);
        }
        pos
    }

    fn limits(&self, go: &Go) -> Limits {
        let side = self.current_position().side_to_move();
        let own = match go.uci_clocks {
            Some(c) => {
                let (time, increment) = match side {
                    Color::Red => (c.red_time, c.red_inc),
                    Color::Black => (c.black_time, c.black_inc),
                };
                super::command::SideClock {
                    time,
                    increment,
                    moves_to_go: c.moves_to_go,
                }
            }
            None => go.own,
        };
        Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            clock: own.time.map(|time_left| ClockReading {
                time_left,
                increment: own.increment.unwrap_or_default(),
                moves_to_go: own.moves_to_go,
            }),
            infinite: go.infinite,
            ponder: go.ponder,
        }
    }

    fn go(&mut self, go: Go) {
        let limits = self.limits(&go);
        let bounded = limits.ends_by_itself();
        let control = Arc::new(Control::new(go.ponder));
        let mut searcher = match self.searcher.take() {
            Some(searcher) => searcher,
            None => self.fresh_searcher(),
        };
        let (game, banned, out) = (self.game.clone(), self.banned.clone(), self.out.clone());
        let thread_control = Arc::clone(&control);
        let draw_offered = go.draw_offered;
        let handle = std::thread::Builder::new()
            .name("search".to_owned())
            .stack_size(64 << 20)
            .spawn(move || {
                let report_out = out.clone();
                let result = searcher.think(&game, &limits, &banned, thread_control, &mut |r| {
                    report_out.report(r)
                });
                out.best_move(&result, draw_offered && result.score <= ACCEPT_DRAW_BELOW);
                searcher
            });
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    bounded,
                })
            }
            Err(e) => {
                self.out
                    .error(&format!("cannot start the search thread: {e}"));
                self.searcher = Some(self.fresh_searcher());
            }
        }
    }
}
