//! `xq-runner serve --db URL [--listen 127.0.0.1:8080]`: the runs in the database as
//! live web pages, read-only (see docs/serve.md). It refuses a role that can write.

use std::net::SocketAddr;

use clap::Args;

use crate::exit;
use crate::store::pg::Db;

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The database; else XQ_DB, else the PG* variables. Connect as a role made by
    /// `db init --reader-role NAME`: a role that can write is refused.
    #[arg(long)]
    pub db: Option<String>,
    /// Address and port to listen on (loopback by default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
}

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
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
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
        let app = crate::web::router(target, db);
        match axum::serve(listener, app)
            .with_graceful_shutdown(stopped())
            .await
        {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("error: serving stopped: {e}");
                exit::ABORTED
            }
        }
    })
}
