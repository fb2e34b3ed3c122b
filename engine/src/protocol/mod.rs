//! The UCCI and UCI command loops.
//!
//! The first line picks the dialect: `ucci` or `uci`. Every bad line is answered with
//! `info string error: <why>` and the engine stays ready; end of input quits like `quit`.

mod command;
mod output;
mod session;

use std::io::{BufRead, Write};

pub use command::{parse, Command, CommandError, Dialect, Go};
pub use output::{Output, DEFAULT_HASH_MB, MAX_HASH_MB};
pub use session::{Flow, Session};

/// Reads a line as text whatever its bytes; `None` at end of input.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> Option<String> {
    buffer.clear();
    match input.read_until(b'\n', buffer) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(buffer).trim().to_owned()),
    }
}

/// Runs the protocol loop until `quit` or end of input.
pub fn run(mut input: impl BufRead, mut output: Box<dyn Write + Send>) {
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
    let out = Output::new(output, dialect);
    out.hello();
    serve(input, Session::new(out), buffer);
}

fn serve(mut input: impl BufRead, mut session: Session, mut buffer: Vec<u8>) {
    while let Some(line) = read_line(&mut input, &mut buffer) {
        if line.is_empty() {
            continue;
        }
        match parse(&line, session.dialect(), session.millis()) {
            Ok(command) => {
                if session.execute(command) == Flow::Quit {
                    return;
                }
            }
            Err(error) => session.error_line(&error.to_string()),
        }
    }
    // End of input: the GUI is gone. Stop thinking and leave.
    session.stop();
}
