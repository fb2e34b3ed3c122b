//! The files a run ends with (`games.pgn`, `summary.json`, `summary.md`, `report.html`)
//! are byte for byte those of the files in `tests/data/outputs/`, written from the same
//! journal by the runner before its outputs were rewritten to read the journal once.
//! Any change to an output format shows here as a diff; an intended one is blessed with
//! `XQ_BLESS=1 cargo test -p xq-runner --test outputs_unchanged`.

use std::path::{Path, PathBuf};

use xq_runner::output::files::RunFiles;
use xq_runner::output::summary::RunnerCost;
use xq_runner::store::ending::Ending;
use xq_runner::store::journal::Journal;
use xq_runner::store::layout::Jobs;
use xq_runner::store::tracker::Tracker;

const FILES: [&str; 4] = ["games.pgn", "summary.json", "summary.md", "report.html"];

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

/// A config for the journal's engines (`/bin/sh` stands for them: nothing is started).
fn config(dir: &Path, extra: &str) -> String {
    format!(
        "[tournament]\npairs = 50\nseed = 1\n[time]\ndepth = 2\n[sprt]\nelo0 = 0\nelo1 = 50\nmodel = \"logistic\"\n\
         [output]\ndir = {:?}\n{extra}\n[[engine]]\nname = \"level6\"\ncommand = [\"/bin/sh\"]\n\
         [[engine]]\nname = \"level0\"\ncommand = [\"/bin/sh\"]\n",
        dir.display().to_string()
    )
}

/// Writes the run's files into a fresh folder holding `journal` and returns it.
fn write_outputs(journal: &str, extra: &str) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("temp dir");
    let dir = folder.path();
    let text = config(dir, extra);
    let loaded = xq_runner::config::parse("golden.toml", &text, &[]).expect("config");
    let plan = &loaded.plan;
    std::fs::copy(data(journal), dir.join("games.jsonl")).expect("journal");
    let meta = xq_runner::store::meta::RunMeta {
        version: "0.1.0".to_owned(),
        config_hash: loaded.hash.clone(),
        config: text.clone(),
        openings: None,
        shard: None,
        db_run: None,
        played_s: 12.5,
    };
    meta.write(dir).expect("run.json");
    let names = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let mut tracker = Tracker::new(names, plan.pairings.len());
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    Journal::scan(&dir.join("games.jsonl"), |_, entry| {
        let job = jobs.job(entry.pair, entry.game);
        let (a, b) = plan.pairings[job.pairing];
        tracker.record(&entry, job.pairing, a, b);
    })
    .expect("journal");
    let ending = Ending::NoVerdict;
    RunFiles {
        plan,
        hash: &loaded.hash,
        tracker: &tracker,
        ending: &ending,
        played_s: 12.5,
        cost: RunnerCost::default(),
        book: None,
        date: "2026.12.01".to_owned(),
    }
    .write(dir)
    .expect("files written");
    folder
}

/// A written file with the folder's path (it differs from run to run) made `DIR`.
fn normalized(dir: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.replace(&dir.display().to_string(), "DIR")
}

fn check(case: &str, journal: &str, extra: &str) {
    let folder = write_outputs(journal, extra);
    let expected_dir = data(&format!("outputs/{case}"));
    let bless = std::env::var_os("XQ_BLESS").is_some();
    for file in FILES {
        let got = normalized(folder.path(), file);
        let expected_path = expected_dir.join(file);
        if bless {
            std::fs::create_dir_all(&expected_dir).expect("data dir");
            std::fs::write(&expected_path, &got).expect("bless");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        assert!(
            got == expected,
            "{case}/{file} differs from {} (first difference at byte {})",
            expected_path.display(),
            got.bytes()
                .zip(expected.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(got.len().min(expected.len()))
        );
    }
}

#[test]
fn an_sprt_match_writes_the_files_it_always_wrote() {
    check("match-sprt", "report/match-sprt/games.jsonl", "");
}

#[test]
fn wxf_with_every_pgn_extra_writes_the_files_it_always_wrote() {
    check(
        "match-sprt-wxf",
        "report/match-sprt/games.jsonl",
        "pgn_format = \"wxf\"\npgn_nodes = true\npgn_seldepth = true\npgn_nps = true\n",
    );
}

#[test]
fn a_journal_out_of_order_with_faults_writes_the_files_it_always_wrote() {
    check("faults", "outputs/faults.jsonl", "");
}
