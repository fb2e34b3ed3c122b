//! One engine, from start to quit: handshake, options, readiness, and searches with the
//! runner's own measurement of the time each one took.

use std::time::{Duration, Instant};

use xq_core::board::Move;

use super::from_engine::{FromEngine, Info};
use super::hint::{self, Recent};
use super::io::{Incoming, Line, LineIo, MAX_LINE};
use super::process::Process;
use super::spec::{EngineSpec, Timeouts};
use super::to_engine::{GoLimit, ToEngine};
use super::traffic::{self, Direction};
use super::{EngineError, Protocol};

/// After the engine's exit is seen, how long lines it wrote just before are still read
/// (a child of the engine may hold its output open, so no end of file comes).
const EXIT_DRAIN: Duration = Duration::from_millis(50);

/// At most this many lines already waiting before a search are looked at for stale
/// answers (an engine flooding between searches must not hold the game up).
const STALE_SCAN: usize = 1000;

/// How an engine answered a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move as the engine wrote it (its coordinates), with its offers.
    Move {
        text: String,
        ponder: Option<String>,
        draw_offer: bool,
        resign: bool,
    },
    /// `nobestmove` or `bestmove (none)`.
    NoMove,
}

/// The result of one search, as measured by the runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    pub answer: Answer,
    /// From the moment `go` was written and flushed to the moment the answer was read.
    pub elapsed: Duration,
    /// The answer came only after the runner sent `stop` at the deadline.
    pub after_stop: bool,
    /// The last `info` line that had a score (for adjudication and the PGN).
    pub last_scored: Option<Info>,
    /// How many lines the engine wrote during the search.
    pub lines: u64,
    /// `bestmove` lines that were already waiting when the search began (before
    /// `position` was sent: a doubled answer to an earlier search), not taken as its
    /// answer.
    pub stale: Vec<String>,
}

/// A running engine with its protocol state.
#[derive(Debug)]
pub struct EngineSession {
    spec: EngineSpec,
    timeouts: Timeouts,
    process: Option<Process>,
    io: LineIo,
    /// The engine's own name (`id name`).
    pub id_name: Option<String>,
    /// The `option ...` lines of the handshake, as the engine wrote them.
    pub announced: Vec<String>,
    /// When the engine's exit was seen while its output was still open.
    exited_at: Option<Instant>,
    /// `name#pid` for the logs.
    label: String,
}

impl EngineSession {
    /// Starts the engine process, does the handshake, sets the options and waits until
    /// it is ready.
    ///
    /// # Errors
    /// [`EngineError`]: it cannot be started, exits, or does not answer in time.
    pub async fn start(
        spec: &EngineSpec,
        timeouts: Timeouts,
    ) -> Result<EngineSession, EngineError> {
        EngineSession::start_pinned(spec, timeouts, None).await
    }

    /// [`EngineSession::start`] with the engine pinned to core `cpu` (Linux; see
    /// [`super::affinity`]).
    ///
    /// # Errors
    /// See [`EngineSession::start`].
    pub async fn start_pinned(
        spec: &EngineSpec,
        timeouts: Timeouts,
        cpu: Option<usize>,
    ) -> Result<EngineSession, EngineError> {
        let (process, io) = Process::spawn(spec, cpu).await?;
        let mut session = EngineSession {
            spec: spec.clone(),
            timeouts,
            label: process.label().to_owned(),
            process: Some(process),
            io,
            id_name: None,
            announced: Vec::new(),
            exited_at: None,
        };
        match session.handshake().await {
            Ok(()) => Ok(session),
            Err(e) => {
                session.kill().await;
                Err(e)
            }
        }
    }

    /// A session over given streams (tests drive it without a process).
    #[must_use]
    pub fn over(io: LineIo, spec: &EngineSpec, timeouts: Timeouts) -> EngineSession {
        EngineSession {
            spec: spec.clone(),
            timeouts,
            process: None,
            io,
            id_name: None,
            announced: Vec::new(),
            exited_at: None,
            label: spec.name.clone(),
        }
    }

    /// How the engine numbers ranks.
    #[must_use]
    pub fn coordinates(&self) -> super::Coordinates {
        self.spec.coordinates
    }

    /// The engine's configured name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The options of the config that the engine did not announce in its handshake
    /// (sent all the same: an engine may take options it does not list).
    #[must_use]
    pub fn unknown_options(&self) -> Vec<String> {
        super::options::unannounced(
            &self.announced,
            self.spec.options.iter().map(|(name, _)| name.as_str()),
        )
    }

    /// The hello exchange, options and the first `isready`.
    ///
    /// # Errors
    /// See [`EngineSession::start`]. A handshake that fails says what the engine
    /// printed and suggests the other protocol; an engine that plainly speaks the other
    /// protocol (`Unknown command: 'ucci'`, or the other hello answer) fails at once,
    /// without waiting for the timeout.
    pub async fn handshake(&mut self) -> Result<(), EngineError> {
        let protocol = self.spec.protocol;
        let (hello, answer) = protocol.hello();
        self.send(&ToEngine::Hello).await?;
        let deadline = Instant::now() + self.timeouts.startup;
        let waiting_for = format!("the handshake answer `{answer}`");
        let mut recent = Recent::default();
        loop {
            let line = match self.next_line(deadline).await {
                Ok(Got::Line(line)) => line,
                Ok(Got::TooLong) => return Err(too_long()),
                Ok(Got::End) => {
                    let context = format!(
                        "; {}; {}",
                        recent.describe(),
                        hint::advice(protocol, &recent)
                    );
                    let when = format!("while the runner waited for `{answer}`");
                    return Err(self.exited(&when, context).await);
                }
                Err(Timeout) => {
                    return Err(EngineError::Timeout {
                        waiting_for,
                        key: "faults.startup_timeout",
                        after: self.timeouts.startup,
                        context: format!(
                            "; {}; {}",
                            recent.describe(),
                            hint::advice(protocol, &recent)
                        ),
                    })
                }
            };
            recent.push(&line.text);
            if hint::refuses(protocol, &line.text) {
                return Err(EngineError::Protocol(format!(
                    "the engine does not answer `{hello}` with `{answer}`: {}; {}",
                    recent.describe(),
                    hint::advice(protocol, &recent)
                )));
            }
            match FromEngine::parse(&line.text, protocol) {
                FromEngine::HelloOk => break,
                FromEngine::Option(line) => self.announced.push(line),
                FromEngine::IdName(name) => {
                    tracing::debug!(engine = %self.label, "id name {name}");
                    self.id_name = Some(name);
                }
                _ => {}
            }
        }
        if protocol == Protocol::Ucci {
            self.send(&ToEngine::SetOption {
                name: "usemillisec".to_owned(),
                value: "true".to_owned(),
            })
            .await?;
        }
        for (name, value) in self.spec.options.clone() {
            self.send(&ToEngine::SetOption { name, value }).await?;
        }
        self.ready(self.timeouts.startup, "faults.startup_timeout")
            .await
    }

    /// Tells the engine a new game starts and waits until it is ready.
    ///
    /// # Errors
    /// The engine exited or missed the ping timeout.
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(&ToEngine::NewGame).await?;
        self.ready(self.timeouts.ping, "faults.ping_timeout").await
    }

    /// `isready` until `readyok`, within `timeout` (set by the config key `key`).
    async fn ready(&mut self, timeout: Duration, key: &'static str) -> Result<(), EngineError> {
        self.send(&ToEngine::IsReady).await?;
        let deadline = Instant::now() + timeout;
        let mut recent = Recent::default();
        loop {
            match self.next_line(deadline).await {
                Ok(Got::Line(line)) => {
                    if FromEngine::parse(&line.text, self.spec.protocol) == FromEngine::ReadyOk {
                        return Ok(());
                    }
                    recent.push(&line.text);
                }
                Ok(Got::TooLong) => return Err(too_long()),
                Ok(Got::End) => {
                    return Err(self
                        .exited("while the runner waited for `readyok`", String::new())
                        .await)
                }
                Err(Timeout) => {
                    return Err(EngineError::Timeout {
                        waiting_for: "`readyok`".to_owned(),
                        key,
                        after: timeout,
                        context: format!("; {}", recent.describe()),
                    })
                }
            }
        }
    }

    /// Sends the position and `go`, and waits for the answer. At `deadline` (measured
    /// from the `go`) the runner sends `stop` and waits `stop_grace` more; an answer then
    /// is returned with `after_stop` set, no answer is an error.
    ///
    /// # Errors
    /// The engine exited, or did not answer even after `stop`.
    pub async fn think(
        &mut self,
        fen: &str,
        moves: &[Move],
        banned: &[Move],
        limit: GoLimit,
        deadline: Option<Duration>,
    ) -> Result<Thought, EngineError> {
        // Before `position`: what answers `position` itself cannot be told from the answer.
        let stale = self.take_stale().await?;
        self.send(&ToEngine::Position {
            fen: fen.to_owned(),
            moves: moves.to_vec(),
        })
        .await?;
        if !banned.is_empty() && self.spec.protocol == Protocol::Ucci {
            self.send(&ToEngine::BanMoves(banned.to_vec())).await?;
        }
        let line = ToEngine::Go(limit).render(self.spec.protocol, self.spec.coordinates);
        let started = self.write(&line).await?;
        let budget = deadline.unwrap_or(self.timeouts.unclocked_move);
        let mut thought = Thought {
            answer: Answer::NoMove,
            elapsed: Duration::ZERO,
            after_stop: false,
            last_scored: None,
            lines: 0,
            stale,
        };
        let mut limit_at = started + budget;
        loop {
            let message = match self.next_line(limit_at).await {
                Ok(Got::Line(line)) => {
                    thought.lines += 1;
                    (FromEngine::parse(&line.text, self.spec.protocol), line.at)
                }
                Ok(Got::TooLong) => return Err(too_long()),
                Ok(Got::End) => return Err(self.exited("during a search", String::new()).await),
                Err(Timeout) if !thought.after_stop => {
                    thought.after_stop = true;
                    self.send(&ToEngine::Stop).await?;
                    limit_at = Instant::now() + self.timeouts.stop_grace;
                    continue;
                }
                Err(Timeout) => {
                    return Err(EngineError::NoAnswer {
                        waited: started.elapsed(),
                    });
                }
            };
            match message {
                (FromEngine::Info(info), _) if info.score.is_some() => {
                    thought.last_scored = Some(info)
                }
                (
                    FromEngine::BestMove {
                        mv,
                        ponder,
                        draw,
                        resign,
                    },
                    at,
                ) => {
                    thought.answer = Answer::Move {
                        text: mv,
                        ponder,
                        draw_offer: draw,
                        resign,
                    };
                    thought.elapsed = at.saturating_duration_since(started);
                    return Ok(thought);
                }
                (FromEngine::NoMove, at) => {
                    thought.answer = Answer::NoMove;
                    thought.elapsed = at.saturating_duration_since(started);
                    return Ok(thought);
                }
                _ => {}
            }
        }
    }

    /// Ends the engine politely (`quit`), killing it after the grace period.
    pub async fn quit(mut self) {
        // An engine that cannot read `quit` is killed after the grace period below.
        let _ = self.send(&ToEngine::Quit).await;
        if let Some(process) = self.process.take() {
            process.end(self.timeouts.quit_grace).await;
        }
    }

    /// Kills the engine at once (after a fault).
    pub async fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill().await;
        }
    }

    /// Reads the lines that are already waiting before a search starts: a `bestmove`
    /// among them answers an earlier search (an engine that answered twice, or after
    /// `stop` when it had already answered) and must not be taken as the answer to the
    /// coming `go`. cutechess ignores a move that comes when the engine was not asked.
    async fn take_stale(&mut self) -> Result<Vec<String>, EngineError> {
        let mut stale = Vec::new();
        for _ in 0..STALE_SCAN {
            match self.io.ready_line().await {
                Ok(Some(Incoming::Line(line))) => {
                    self.log_line(&line);
                    if matches!(
                        FromEngine::parse(&line.text, self.spec.protocol),
                        FromEngine::BestMove { .. } | FromEngine::NoMove
                    ) {
                        tracing::warn!(engine = %self.label, "ignored `{}`: it came before the engine was asked to move", line.text);
                        stale.push(line.text);
                    }
                }
                Ok(Some(Incoming::TooLong)) => return Err(too_long()),
                // End of output or nothing waiting: the search will see which.
                Ok(Some(Incoming::End) | None) | Err(_) => break,
            }
        }
        Ok(stale)
    }

    async fn send(&mut self, message: &ToEngine) -> Result<Instant, EngineError> {
        let line = message.render(self.spec.protocol, self.spec.coordinates);
        self.write(&line).await
    }

    async fn write(&mut self, line: &str) -> Result<Instant, EngineError> {
        tracing::trace!(engine = %self.label, "> {line}");
        traffic::record(&self.label, Direction::ToEngine, line);
        match self.io.write_line(line).await {
            Ok(at) => Ok(at),
            Err(_) => Err(self
                .exited("while the runner was writing to it", String::new())
                .await),
        }
    }

    fn log_line(&self, line: &Line) {
        tracing::trace!(engine = %self.label, "< {}", line.text);
        traffic::record(&self.label, Direction::FromEngine, &line.text);
    }

    /// The next line before `deadline`, or the end of output, or `Err` on timeout.
    ///
    /// The read races the process's exit: an engine that exits while a child of it
    /// still holds its stdout gives no end of file, and would otherwise be taken for
    /// an engine that thinks too long. Lines it wrote before exiting are still read
    /// (for [`EXIT_DRAIN`]), then it counts as ended.
    async fn next_line(&mut self, deadline: Instant) -> Result<Got, Timeout> {
        let io = &mut self.io;
        let process = &mut self.process;
        let exited_at = &mut self.exited_at;
        let read = async move {
            if exited_at.is_none() {
                let first = tokio::select! {
                    biased;
                    read = io.read_line() => Some(read),
                    () = exit_of(process) => None,
                };
                if let Some(read) = first {
                    return read;
                }
                *exited_at = Some(Instant::now());
            }
            let drain_until = exited_at.map_or_else(Instant::now, |at| at + EXIT_DRAIN);
            match tokio::time::timeout_at(drain_until.into(), io.read_line()).await {
                Ok(read) => read,
                Err(_) => Ok(Incoming::End),
            }
        };
        match tokio::time::timeout_at(deadline.into(), read).await {
            Ok(Ok(Incoming::Line(line))) => {
                self.log_line(&line);
                Ok(Got::Line(line))
            }
            Ok(Ok(Incoming::TooLong)) => {
                tracing::warn!(engine = %self.label, "wrote a line of more than {MAX_LINE} bytes");
                Ok(Got::TooLong)
            }
            Ok(Ok(Incoming::End) | Err(_)) => Ok(Got::End),
            Err(_) => Err(Timeout),
        }
    }

    async fn exited(&mut self, when: &str, context: String) -> EngineError {
        // Give the OS a moment to record the exit status.
        let mut status = None;
        if let Some(process) = self.process.as_mut() {
            for _ in 0..20 {
                status = process.exit_status();
                if status.is_some() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        let status = status.unwrap_or_else(|| "closed its output".to_owned());
        tracing::info!(engine = %self.label, "exited {when} ({status})");
        EngineError::Exited {
            when: when.to_owned(),
            status,
            context,
        }
    }
}

/// Resolves when the process exits (never, without a process).
async fn exit_of(process: &mut Option<Process>) {
    match process {
        Some(process) => {
            process.exited().await;
        }
        None => std::future::pending::<()>().await,
    }
}

fn too_long() -> EngineError {
    EngineError::Protocol(format!(
        "the engine wrote a line of more than {MAX_LINE} bytes (no message is that long; nothing more is read from it)"
    ))
}

/// What a read brought.
#[derive(Debug)]
enum Got {
    Line(Line),
    /// A line over [`MAX_LINE`]: the engine is broken.
    TooLong,
    /// End of output, or the engine exited.
    End,
}

/// A read that hit its deadline.
#[derive(Debug)]
struct Timeout;
