//! The UCCI and UCI command loops.
//!
//! The first line picks the dialect: `ucci` or `uci`. Every bad line is answered with
//! `info string error: <why>` and the engine stays ready; end of input quits like `quit`.
//! [`run_with`] and [`Handshake::WithTunables`] (`xq-engine --tune`) also announce the
//! tunable search parameters and evaluation weights (see [`tunables`]).

mod command;
mod output;
mod session;
pub mod tunables;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

pub use command::{parse, Command, CommandError, Dialect, Go};
pub use output::{Output, DEFAULT_HASH_MB, MAX_HASH_MB};
pub use session::{Flow, Session};
pub use tunables::Handshake;

/// Reads a line as text whatever its bytes; `None` at end of input.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> Option<String> {
    buffer.clear();
    match input.read_until(b'\n', buffer) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(buffer).trim().to_owned()),
    }
}

/// How often the loop looks whether the search has ended, while commands wait for it.
const WAIT_POLL: Duration = Duration::from_millis(2);

/// Runs the protocol loop until `quit` or end of input, with the standard handshake.
pub fn run(input: impl BufRead + Send + 'static, output: Box<dyn Write + Send>) {
    run_with(input, output, Handshake::Standard);
}

/// Runs the protocol loop until `quit` or end of input, announcing the options of
/// `handshake`.
pub fn run_with(
    mut input: impl BufRead + Send + 'static,
    mut output: Box<dyn Write + Send>,
    handshake: Handshake,
) {
    let mut buffer = Vec::new();
    let dialect = loop {
        let Some(line) = read_line(&mut input, &mut buffer) else {
            return;
        };
        match line.split_whitespace().next() {
            Some("ucci") => break Dialect::Ucci,
            Some("uci") => break Dialect::Uci,
            Some("quit") => return,
            None => {}
            Some(_) => {
                let _ = writeln!(output, "info string error: say `ucci` or `uci` first");
                let _ = output.flush();
            }
        }
    };
    let session = Session::new(Output::new(output, dialect), handshake);
    session.hello();
    serve(input, session, buffer);
}

/// The command loop. Lines come from a reader thread, so that the loop never blocks on
/// a search: a command that has to wait for a search that ends by itself (a `position`
/// after `go depth 20`, say) is held back, in order, and `stop`, `isready`, `ponderhit`
/// and `quit` are still answered meanwhile, as is the end of input.
fn serve(input: impl BufRead + Send + 'static, mut session: Session, buffer: Vec<u8>) {
    let Some(lines) = spawn_reader(input, buffer) else {
        session.error_line("cannot start the input thread");
        return;
    };
    // Every command but those answered while thinking passes through here, in order.
    // Lines, not commands: a line is parsed again when its turn comes, after the options
    // before it (`usemillisec`) have taken effect.
    let mut held: VecDeque<String> = VecDeque::new();
    loop {
        while let Some(line) = held.front() {
            if let Ok(command) = parse(line, session.dialect(), session.millis()) {
                if session.must_wait(&command) {
                    break;
                }
                if session.execute(command) == Flow::Quit {
                    return;
                }
            }
            held.pop_front();
        }
        let line = if held.is_empty() {
            lines.recv().ok()
        } else {
            match lines.recv_timeout(WAIT_POLL) {
                Ok(line) => Some(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => None,
            }
        };
        // End of input: the GUI is gone. Stop thinking and leave.
        let Some(line) = line else { break };
        if line.is_empty() {
            continue;
        }
        match parse(&line, session.dialect(), session.millis()) {
            Ok(command) if command.is_answered_while_thinking() => {
                if session.execute(command) == Flow::Quit {
                    return;
                }
            }
            // Run by the loop above: at once, unless a search or a held line is first.
            Ok(_) => held.push_back(line),
            Err(error) => session.error_line(&error.to_string()),
        }
    }
    session.stop();
}

/// Reads the input on a thread of its own, line by line, until its end (the channel
/// then closes) or until the loop has gone.
fn spawn_reader(
    mut input: impl BufRead + Send + 'static,
    mut buffer: Vec<u8>,
) -> Option<Receiver<String>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("input".to_owned())
        .spawn(move || {
            while let Some(line) = read_line(&mut input, &mut buffer) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        })
        .ok()?;
    Some(receiver)
}
