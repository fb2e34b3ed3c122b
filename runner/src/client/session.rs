//! One engine, from start to quit: handshake, options, readiness, and searches with the
//! runner's own measurement of the time each one took.

use std::time::{Duration, Instant};

use xq_core::board::Move;

use super::from_engine::{FromEngine, Info};
use super::io::LineIo;
use super::process::Process;
use super::spec::{EngineSpec, Timeouts};
use super::to_engine::{GoLimit, ToEngine};
use super::EngineError;

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
        let (process, io) = Process::spawn(spec)?;
        let mut session = EngineSession {
            spec: spec.clone(),
            timeouts,
            process: Some(process),
            io,
            id_name: None,
            announced: Vec::new(),
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

    /// The hello exchange, options and the first `isready`.
    ///
    /// # Errors
    /// See [`EngineSession::start`].
    pub async fn handshake(&mut self) -> Result<(), EngineError> {
        self.send(&ToEngine::Hello).await?;
        let deadline = Instant::now() + self.timeouts.startup;
        loop {
            match self.next_message(deadline, "the handshake answer").await? {
                FromEngine::HelloOk => break,
                FromEngine::IdName(name) => self.id_name = Some(name),
                FromEngine::Option(line) => self.announced.push(line),
                _ => {}
            }
        }
        if self.spec.protocol == super::Protocol::Ucci {
            self.send(&ToEngine::SetOption {
                name: "usemillisec".to_owned(),
                value: "true".to_owned(),
            })
            .await?;
        }
        for (name, value) in self.spec.options.clone() {
            self.send(&ToEngine::SetOption { name, value }).await?;
        }
        self.ready(self.timeouts.startup).await
    }

    /// Tells the engine a new game starts and waits until it is ready.
    ///
    /// # Errors
    /// The engine exited or missed the ping timeout.
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(&ToEngine::NewGame).await?;
        self.ready(self.timeouts.ping).await
    }

    /// `isready` until `readyok`, within `timeout`.
    async fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send(&ToEngine::IsReady).await?;
        let deadline = Instant::now() + timeout;
        while self.next_message(deadline, "readyok").await? != FromEngine::ReadyOk {}
        Ok(())
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
        self.send(&ToEngine::Position {
            fen: fen.to_owned(),
            moves: moves.to_vec(),
        })
        .await?;
        if !banned.is_empty() && self.spec.protocol == super::Protocol::Ucci {
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
        };
        let mut limit_at = started + budget;
        loop {
            let message = match self.next_line(limit_at).await {
                Ok(Some(line)) => {
                    thought.lines += 1;
                    (FromEngine::parse(&line.text, self.spec.protocol), line.at)
                }
                Ok(None) => return Err(self.exited("during a search").await),
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

    async fn send(&mut self, message: &ToEngine) -> Result<Instant, EngineError> {
        let line = message.render(self.spec.protocol, self.spec.coordinates);
        self.write(&line).await
    }

    async fn write(&mut self, line: &str) -> Result<Instant, EngineError> {
        tracing::trace!(engine = %self.spec.name, to = %line);
        match self.io.write_line(line).await {
            Ok(at) => Ok(at),
            Err(_) => Err(self.exited("while the runner was writing to it").await),
        }
    }

    /// The next line before `deadline`: `Ok(None)` at end of output, `Err` on timeout.
    async fn next_line(&mut self, deadline: Instant) -> Result<Option<super::io::Line>, Timeout> {
        let read = tokio::time::timeout_at(deadline.into(), self.io.read_line()).await;
        match read {
            Ok(Ok(Some(line))) => {
                tracing::trace!(engine = %self.spec.name, from = %line.text);
                Ok(Some(line))
            }
            Ok(Ok(None) | Err(_)) => Ok(None),
            Err(_) => Err(Timeout),
        }
    }

    async fn next_message(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<FromEngine, EngineError> {
        match self.next_line(deadline).await {
            Ok(Some(line)) => Ok(FromEngine::parse(&line.text, self.spec.protocol)),
            Ok(None) => Err(self
                .exited(&format!("while the runner waited for {waiting_for}"))
                .await),
            Err(Timeout) => Err(EngineError::Timeout {
                waiting_for: waiting_for.to_owned(),
            }),
        }
    }

    async fn exited(&mut self, when: &str) -> EngineError {
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
        EngineError::Exited {
            when: when.to_owned(),
            status: status.unwrap_or_else(|| "closed its output".to_owned()),
        }
    }
}

/// A read that hit its deadline.
#[derive(Debug)]
struct Timeout;
