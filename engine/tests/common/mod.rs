//! A test driver for the engine binary over real pipes.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running `xq-engine` with line access to its pipes.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine binary of this package.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts the engine binary of this package with command-line arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq-engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn xq-engine");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (for malformed input).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Reads lines until the answer to `go`: `bestmove ...` or `nobestmove`.
    pub fn expect_answer(&mut self, timeout: Duration) -> Vec<String> {
        self.expect_any(&["bestmove", "nobestmove"], timeout)
    }

    /// Reads lines until one starts with `prefix`; returns every line read, the match last.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.expect_any(&[prefix], timeout)
    }

    /// Reads lines until one starts with any of `prefixes`.
    pub fn expect_any(&mut self, prefixes: &[&str], timeout: Duration) -> Vec<String> {
        let prefix = prefixes.join("|");
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let done = prefixes.iter().any(|p| line.starts_with(p));
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "no `{prefix}` within {timeout:?}; transcript:\n{}",
                        self.transcript.join("\n")
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "engine closed its output before `{prefix}`; transcript:\n{}",
                        self.transcript.join("\n")
                    )
                }
            }
        }
    }

    /// Lines that arrive within `wait` (for checking that nothing, or only info, comes).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            self.transcript.push(format!("< {line}"));
            seen.push(line);
        }
        seen
    }

    /// The move of a `bestmove` line, or `None` for `nobestmove` / `bestmove (none)`.
    pub fn best_move(lines: &[String]) -> Option<String> {
        let last = lines.last()?;
        let mut words = last.split_whitespace();
        match (words.next(), words.next()) {
            (Some("bestmove"), Some("(none)")) | (Some("nobestmove"), _) => None,
            (Some("bestmove"), Some(m)) => Some(m.to_owned()),
            _ => None,
        }
    }

    /// Closes stdin and waits for the process to exit; returns whether it did in time.
    pub fn close_and_wait(&mut self, timeout: Duration) -> bool {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A UCCI engine after the handshake, with milliseconds on.
pub fn ucci() -> Engine {
    let mut engine = Engine::start();
    engine.send("ucci");
    engine.expect("ucciok", Duration::from_secs(10));
    engine.send("setoption usemillisec true");
    engine
}
