//! The signals that stop a run: SIGINT (Ctrl-C), SIGTERM (`kill`, systemd, Kubernetes,
//! a CI runner's cancel) and SIGHUP (the terminal closed) all mean "stop cleanly": stop
//! scheduling, kill the engines, keep the results resumable. A second one of any of them
//! ends the runner at once, after killing every engine process of the run. A reader of
//! stdout that leaves (`| head`) stops it the same way, once (see [`crate::stdout`]).
//!
//! SIGKILL cannot be caught; the parent-death signal set on every engine and the sweep
//! of leftovers at the next start cover it (see `client::lifetime`).

use std::fmt;
use std::io::Write as _;

#[cfg(unix)]
use tokio::signal::unix::{signal, Signal, SignalKind};

/// A stop signal that arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopSignal {
    Interrupt,
    Terminate,
    HangUp,
    /// A write to stdout met EPIPE: its reader left.
    StdoutClosed,
}

impl fmt::Display for StopSignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopSignal::Interrupt => "SIGINT",
            StopSignal::Terminate => "SIGTERM",
            StopSignal::HangUp => "SIGHUP",
            StopSignal::StdoutClosed => "stdout closed",
        })
    }
}

/// Listens for the stop signals from the moment it is made (a signal that arrives
/// between two waits is not lost).
#[derive(Debug)]
pub struct StopSignals {
    #[cfg(unix)]
    streams: Option<[Signal; 3]>,
    /// The closed stdout was reported: it stays closed, so it is one stop, not two.
    stdout_reported: bool,
}

impl StopSignals {
    /// Starts listening. Where the signals cannot be installed, it falls back to
    /// Ctrl-C alone (with a warning).
    #[must_use]
    pub fn listen() -> StopSignals {
        #[cfg(unix)]
        {
            let streams = (|| {
                Ok::<_, std::io::Error>([
                    signal(SignalKind::interrupt())?,
                    signal(SignalKind::terminate())?,
                    signal(SignalKind::hangup())?,
                ])
            })();
            let streams = streams
                .map_err(|e| {
                    tracing::warn!(
                        "cannot listen for SIGTERM/SIGHUP ({e}); only Ctrl-C stops the run cleanly"
                    )
                })
                .ok();
            StopSignals {
                streams,
                stdout_reported: false,
            }
        }
        #[cfg(not(unix))]
        StopSignals {
            stdout_reported: false,
        }
    }

    /// The next stop signal; `None` if no signal can ever come.
    pub async fn next(&mut self) -> Option<StopSignal> {
        let pipe = !self.stdout_reported;
        #[cfg(unix)]
        if let Some([int, term, hup]) = self.streams.as_mut() {
            let stop = tokio::select! {
                _ = int.recv() => StopSignal::Interrupt,
                _ = term.recv() => StopSignal::Terminate,
                _ = hup.recv() => StopSignal::HangUp,
                () = crate::stdout::reader_gone(), if pipe => StopSignal::StdoutClosed,
            };
            tracing::info!("received {stop}");
            self.stdout_reported |= stop == StopSignal::StdoutClosed;
            return Some(stop);
        }
        let stop = tokio::select! {
            signal = tokio::signal::ctrl_c() => signal.ok().map(|()| StopSignal::Interrupt),
            () = crate::stdout::reader_gone(), if pipe => Some(StopSignal::StdoutClosed),
        };
        self.stdout_reported |= stop == Some(StopSignal::StdoutClosed);
        stop
    }
}

/// Waits for the first stop signal, prints `what` (naming the signal) and calls
/// `stop`; on a second signal kills every engine process of the run and exits with
/// `code`. Meant to be spawned for the whole of a run (or a worker's life).
pub async fn stop_then_exit(what: &str, code: u8, stop: impl FnOnce()) {
    stop_then_exit_saying(|| Some(what.to_owned()), code, stop).await;
}

/// As [`stop_then_exit`], with what the stop does asked of `what` when the signal comes:
/// `None` stops quietly (a worker holding no batch has nothing to drop).
pub async fn stop_then_exit_saying(
    what: impl FnOnce() -> Option<String>,
    code: u8,
    stop: impl FnOnce(),
) {
    let mut stops = StopSignals::listen();
    let Some(first) = stops.next().await else {
        return;
    };
    if let Some(what) = what() {
        // Not eprintln!: after SIGHUP the terminal is gone and a failed write panics.
        let _ = writeln!(
            std::io::stderr(),
            "\nInterrupted ({first}): {what} (again to quit at once)"
        );
    }
    stop();
    // Only a signal quits at once: a reader of stdout that leaves meanwhile (Ctrl-C
    // ends `| head` too) must not cut the saving of the results short.
    while let Some(again) = stops.next().await {
        if again != StopSignal::StdoutClosed {
            exit_now(code);
        }
    }
}

/// Ends the runner at once with `code` (the second signal), killing every engine
/// process of the run first; the parent-death signal would end the engines themselves,
/// but not what they started in sessions of their own.
pub fn exit_now(code: u8) -> ! {
    let killed = crate::client::kill_all_engines();
    tracing::info!("second signal: killed {killed} engine processes of the run");
    std::process::exit(i32::from(code))
}

/// Makes a file that outgrows the file size limit (`ulimit -f`, RLIMIT_FSIZE) an error
/// instead of the end of the runner. The kernel sends SIGXFSZ, whose default ends the
/// process on the spot, before it can say why or keep its outputs whole; caught by a
/// handler that does nothing, the write fails with EFBIG and the runner stops as on a
/// full disk (one line, exit 4, the previous outputs kept). Caught rather than
/// ignored: exec resets a caught signal, so the engines keep the default.
pub fn survive_file_size_limit() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{signal, SigHandler, Signal};
        extern "C" fn nothing(_: nix::libc::c_int) {}
        // Safety: the handler does nothing, so it is async-signal-safe and shares no
        // state with the code it interrupts; no other code of the runner handles
        // SIGXFSZ, so no handler is replaced.
        #[allow(unsafe_code)]
        let installed = unsafe { signal(Signal::SIGXFSZ, SigHandler::Handler(nothing)) };
        if let Err(e) = installed {
            tracing::warn!(
                "cannot catch SIGXFSZ ({e}): a file over the size limit ends the runner"
            );
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn sigterm_and_sighup_stop_like_ctrl_c() {
        let mut stops = StopSignals::listen();
        for (signal, expected) in [
            (nix::sys::signal::Signal::SIGTERM, StopSignal::Terminate),
            (nix::sys::signal::Signal::SIGHUP, StopSignal::HangUp),
        ] {
            // Sent to this process; the listener is installed, so it does not end it.
            nix::sys::signal::raise(signal).expect("raise");
            let got = tokio::time::timeout(std::time::Duration::from_secs(10), stops.next())
                .await
                .expect("the signal arrives");
            assert_eq!(got, Some(expected));
        }
    }
}
