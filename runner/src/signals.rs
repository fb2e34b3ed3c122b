//! The signals that stop a run: SIGINT (Ctrl-C), SIGTERM (systemd, Kubernetes, `kill`)
//! and SIGHUP (a closed terminal) all mean "stop cleanly": end the games in progress,
//! kill every engine, save the results.

/// Waits for the next SIGINT, SIGTERM or SIGHUP.
///
/// # Errors
/// The signal handlers cannot be installed.
pub async fn first() -> std::io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut hangup = signal(SignalKind::hangup())?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r,
        _ = term.recv() => Ok(()),
        _ = hangup.recv() => Ok(()),
    }
}
