//! `xq-runner serve --db URL [--listen 127.0.0.1:8080]`: the runs in the database as
//! live web pages, read-only (see docs/serve.md). It refuses a role that can write.
//! `xq-runner serve DIR`: the same pages for the run folders under DIR, each followed
//! live from its journal.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use crate::exit;
use crate::store::pg::Db;

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// A folder of run folders (`output.dir` of local runs): serve those, not a database.
    #[arg(conflicts_with = "db", value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
    /// The database; else XQ_DB, else the PG* variables. Connect as a role made by
    /// `db init --reader-role NAME`: a role that can write is refused.
    #[arg(long)]
    pub db: Option<String>,
    /// Address and port to listen on (loopback by default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
}

/// How long the answers under way may go on after a stop signal: a reader that never
/// reads a stream, or a read stuck in the file system, must not keep `serve` alive.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// How long the runtime waits, at the end, for reads still running on its blocking
/// threads (a stuck one is left to the process's exit).
const THREADS_GRACE: Duration = Duration::from_millis(200);

/// Resolves when the process is asked to stop (Ctrl-C or SIGTERM).
async fn stopped() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}

/// Runs `serve`.
#[must_use]
pub fn run(args: &ServeArgs) -> u8 {
    let Ok(listen) = args.listen.parse::<SocketAddr>() else {
        eprintln!(
            "error: --listen {}: not an address and port (like 127.0.0.1:8080)",
            args.listen.escape_debug()
        );
        return exit::USAGE;
    };
    if let Some(dir) = &args.dir {
        return serve_folder(dir, listen);
    }
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let code = runtime.block_on(async {
        let db = match Db::open(&target).await {
            Ok(db) => db,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::USAGE;
            }
        };
        let role = db.current_role().await.unwrap_or_else(|_| "?".to_owned());
        match db.write_privilege().await {
            Ok(None) => {}
            Ok(Some(privilege)) => {
                eprintln!(
                    "error: serve is read-only, but role {role} can write ({privilege}): connect as a role made by `xq-runner db init --reader-role NAME`"
                );
                return exit::USAGE;
            }
            Err(e) => {
                eprintln!("error: cannot check what role {role} may do: {e}");
                return exit::USAGE;
            }
        }
        let listener = match tokio::net::TcpListener::bind(listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: cannot listen on {listen}: {e}");
                return exit::USAGE;
            }
        };
        let bound = listener.local_addr().unwrap_or(listen);
        crate::stdout::line(format_args!(
            "serving http://{bound}/ (read-only, as {})",
            target.describe()
        ));
        serve_until_stopped(listener, crate::web::router(target, db)).await
    });
    runtime.shutdown_timeout(THREADS_GRACE);
    code
}

/// Answers on `listener` until the process is asked to stop, then lets the answers
/// under way finish for at most [`STOP_GRACE`].
async fn serve_until_stopped(listener: tokio::net::TcpListener, app: axum::Router) -> u8 {
    let (stop, asked) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        stopped().await;
        let _ = stop.send(true);
    });
    let mut graceful = asked.clone();
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        let _ = graceful.wait_for(|asked| *asked).await;
    });
    let mut late = asked;
    let deadline = async move {
        let _ = late.wait_for(|asked| *asked).await;
        tokio::time::sleep(STOP_GRACE).await;
    };
    tokio::select! {
        served = server => match served {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("error: serving stopped: {e}");
                exit::ABORTED
            }
        },
        () = deadline => {
            tracing::info!(
                "stopped with answers still under way after {} s (dropped)",
                STOP_GRACE.as_secs()
            );
            exit::OK
        }
    }
}

/// `serve DIR`: the run folders under `dir`, on `listen`.
fn serve_folder(dir: &std::path::Path, listen: SocketAddr) -> u8 {
    let app = match crate::web::folder_router(dir) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    let code = runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: cannot listen on {listen}: {e}");
                return exit::USAGE;
            }
        };
        let bound = listener.local_addr().unwrap_or(listen);
        crate::stdout::line(format_args!(
            "serving http://{bound}/ (read-only, the run folders under {})",
            dir.display()
        ));
        serve_until_stopped(listener, app).await
    });
    runtime.shutdown_timeout(THREADS_GRACE);
    code
}
