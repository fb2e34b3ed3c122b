//! `xq-runner report <output-dir>`: writes `report.html` and `summary.md` into the output
//! folder of a run (finished, interrupted or still going) from its files alone; of a
//! scaling folder, each point's and then `scaling.json` and the scaling page.
//! `xq-runner report --db URL <ID> --out DIR`: writes a stored run as a run folder (the
//! same files a local run writes).

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::output::report::write_report;
use crate::store::pg::Db;

/// Arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The output folder of a run (the one holding run.json and games.jsonl), or with
    /// --out, the id of a run in the database.
    pub target: String,
    /// Write the stored run with this id into DIR (needs the database: --db, XQ_DB or
    /// the PG* variables).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The database; else XQ_DB, else the PG* variables.
    #[arg(long)]
    pub db: Option<String>,
}

/// Writes a stored run into `dir`.
pub(crate) async fn from_db(db: &Db, id: i64, dir: &std::path::Path) -> Result<(), String> {
    let run = db.run(id).await.map_err(|e| e.to_string())?;
    if run.is_tune() {
        return crate::fleet::tune_run::write_report(db, &run, dir).await;
    }
    crate::fleet::report::write(db, id, dir).await
}

fn report_from_db(args: &ReportArgs, dir: &std::path::Path) -> u8 {
    let Ok(id) = args.target.parse::<i64>() else {
        eprintln!(
            "error: `{}` is not a run id (report --out DIR takes the id of a stored run)",
            args.target
        );
        return exit::USAGE;
    };
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let result = match Db::open(&target).await {
            Ok(db) => from_db(&db, id, dir).await,
            Err(e) => Err(e.to_string()),
        };
        match result {
            Ok(()) => {
                crate::stdout::line(dir.join("report.html").display());
                exit::OK
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}

/// `report DIR` of a scaling folder: its points' reports, `scaling.json` and its page.
fn scaling_report(dir: &std::path::Path) -> u8 {
    match crate::scaling::rewrite(dir) {
        Ok(files) => {
            for file in files {
                crate::stdout::line(file.display());
            }
            exit::OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Runs `report`: 0 when the files are written, 2 when there is no readable run, 4
/// when a file cannot be written.
#[must_use]
pub fn run(args: &ReportArgs) -> u8 {
    if let Some(dir) = &args.out {
        return report_from_db(args, dir);
    }
    if args.db.is_some() {
        eprintln!("error: report --db needs --out DIR (where to write the run's files)");
        return exit::USAGE;
    }
    let dir = std::path::Path::new(&args.target);
    if crate::scaling::is_scaling_folder(dir) {
        return scaling_report(dir);
    }
    // A journal that a resume would refuse is not reported on either (a folder without
    // a run is write_report's to name).
    let has_run = dir.join(crate::store::meta::RUN_FILE).exists();
    match has_run.then(|| crate::local_run::folder_check::journal_fits(dir)) {
        None | Some(Ok(None)) => {}
        Some(Ok(Some(unchecked))) => eprintln!("warning: {}", unchecked.0),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    }
    match write_report(dir) {
        Ok(files) => {
            crate::stdout::line(files.html.display());
            crate::stdout::line(files.markdown.display());
            exit::OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                // The run is there; the disk would not take its report.
                crate::output::report::ReportError::Write { .. } => exit::ABORTED,
                _ => exit::USAGE,
            }
        }
    }
}
