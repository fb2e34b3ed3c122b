//! `write_report` and `xq-runner report` on recorded runs (tests/data/report/): the page
//! and summary.md show the numbers recomputed here from the journal with the stats
//! module, the SVG and HTML are well formed, names are escaped, and the odd states of a
//! run (no games, no summary.json, a torn journal line, an aborted run) still report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use xq_runner::output::report::write_report;
use xq_runner::stats::{Anchor, Estimate, Penta, RatingList, Sprt, Wdl};
use xq_runner::store::journal::{Journal, JournalEntry};

const FILES: [&str; 3] = ["run.json", "games.jsonl", "summary.json"];

/// `+1.5`, `-0.3`, and `0.0` for anything that rounds to zero, as the report prints Elo.
fn signed(v: f64, decimals: usize) -> String {
    let text = format!("{v:+.decimals$}");
    if text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_owned()
    } else {
        text
    }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/report")
        .join(name)
}

/// A fresh folder holding a copy of `files` of the fixture `name`, removed when dropped.
fn scratch(test: &str, name: &str, files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("xq-report-{test}-"))
        .tempdir()
        .unwrap_or_else(|e| panic!("scratch folder: {e}"));
    for file in files {
        std::fs::copy(fixture(name).join(file), dir.path().join(file))
            .unwrap_or_else(|e| panic!("copy {name}/{file}: {e}"));
    }
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Writes the report of `dir` and returns (html, markdown).
fn report(dir: &Path) -> (String, String) {
    let files = write_report(dir).unwrap_or_else(|e| panic!("write_report: {e}"));
    (read(&files.html), read(&files.markdown))
}

fn summary(name: &str) -> Value {
    serde_json::from_str(&read(&fixture(name).join("summary.json")))
        .unwrap_or_else(|e| panic!("summary.json: {e}"))
}

fn entries(name: &str) -> Vec<JournalEntry> {
    // read_all may truncate a torn line, so it reads a copy.
    let folder = scratch(&format!("entries-{name}"), name, &["games.jsonl"]);
    let dir = folder.path();
    Journal::read_all(&dir.join("games.jsonl")).unwrap_or_else(|e| panic!("journal: {e}"))
}

/// Score of `engine` in a game, if it played.
fn score_of(entry: &JournalEntry, engine: &str) -> Option<f64> {
    let red = match entry.result.as_pgn() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    };
    if entry.red == engine {
        Some(red)
    } else if entry.black == engine {
        Some(1.0 - red)
    } else {
        None
    }
}

/// Pentanomial and game counts of `first` against `second`: both games of a pair in.
fn counts(entries: &[JournalEntry], first: &str, second: &str) -> (Penta, Wdl) {
    let mut pairs: BTreeMap<u64, [Option<f64>; 2]> = BTreeMap::new();
    for e in entries {
        let opponent = if e.red == first { &e.black } else { &e.red };
        if opponent != second {
            continue;
        }
        if let Some(s) = score_of(e, first) {
            pairs.entry(e.pair).or_default()[usize::from(e.game)] = Some(s);
        }
    }
    let (mut penta, mut wdl) = (Penta::default(), Wdl::default());
    for [a, b] in pairs.values() {
        if let (Some(a), Some(b)) = (a, b) {
            penta.add_scores(*a, *b).unwrap_or_else(|e| panic!("{e}"));
            wdl.add_score(*a).unwrap_or_else(|e| panic!("{e}"));
            wdl.add_score(*b).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    (penta, wdl)
}

/// Tags balance: every opened element is closed in order (void HTML elements excepted).
fn assert_balanced(markup: &str) {
    const VOID: [&str; 4] = ["meta", "br", "hr", "img"];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = markup;
    while let Some(start) = rest.find('<') {
        let end = rest[start..]
            .find('>')
            .map(|e| start + e)
            .expect("unclosed tag");
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if let Some(closing) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("</{closing}> closes nothing"));
            assert_eq!(open, name, "<{open}> closed by </{name}>");
        } else if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "never closed: {stack:?}");
}

fn assert_svgs(html: &str, expected: usize) {
    assert_eq!(html.matches("<svg").count(), expected, "number of charts");
    assert_eq!(html.matches("</svg>").count(), expected);
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..]
            .find("</svg>")
            .map(|e| start + e + 6)
            .expect("</svg>");
        let svg = &rest[start..end];
        assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(!svg.contains("NaN") && !svg.contains("inf\""), "{svg}");
        assert_balanced(svg);
        rest = &rest[end..];
    }
    assert_balanced(html);
}

#[test]
fn sprt_match_shows_the_numbers_of_its_journal() {
    let folder = scratch("sprt", "match-sprt", &FILES);
    let dir = folder.path();
    let (html, md) = report(dir);
    let entries = entries("match-sprt");
    let (penta, wdl) = counts(&entries, "level6", "level0");
    let e = Estimate::new(&penta);
    let s = summary("match-sprt");
    let sprt: Sprt = serde_json::from_value(s["sprt"].clone()).expect("an SPRT run");
    let llr = sprt.llr(&penta).expect("llr");
    // The run's own summary agrees with the journal.
    assert_eq!(s["penta"], serde_json::json!(penta.to_array()));
    assert!((s["llr"].as_f64().unwrap_or(f64::NAN) - llr).abs() < 1e-9);
    for want in [
        format!("{} ± {:.2}", signed(e.elo, 2), e.elo_ci95),
        format!("Elo: {:.2} +/- {:.2}", e.elo, e.elo_ci95),
        format!("LLR: {llr:.2}"),
        format!("[{penta}]"),
        format!("{} / {} / {}", wdl.wins, wdl.draws, wdl.losses),
        format!("{:.2}", sprt.upper_bound()),
        "level6 vs level0".to_owned(),
        s["status"].as_str().unwrap_or("?").to_owned(),
    ] {
        assert!(html.contains(&want), "page lacks {want}");
    }
    assert!(html.contains("aria-label=\"LLR over pairs\""));
    assert_svgs(&html, 3);
    assert!(
        md.contains("```text\nResults of level6 vs level0:\n"),
        "{md}"
    );
    assert!(md.contains(&format!("Ptnml(0-2): [{penta}]")));
    assert!(md.contains(&format!("LLR: {llr:.2}")));
    assert!(md.contains(&format!("Games: {}", wdl.games())));
    assert!(
        md.contains("| level6 | 0 |") && md.contains("| level0 | 0 |"),
        "{md}"
    );
}

#[test]
fn match_without_sprt_has_no_llr() {
    let folder = scratch("plain", "match", &FILES);
    let dir = folder.path();
    let (html, md) = report(dir);
    let (penta, _) = counts(&entries("match"), "level6", "level0");
    let e = Estimate::new(&penta);
    assert!(html.contains(&format!("Elo: {:.2} +/- {:.2}", e.elo, e.elo_ci95)));
    assert!(html.contains(&format!("[{penta}]")));
    assert!(!html.contains("LLR"), "no SPRT, no LLR");
    assert_svgs(&html, 2);
    assert!(
        md.starts_with("## xq-runner: level6 vs level0\n\n**[PASS] finished**"),
        "{md}"
    );
    let reasons = &summary("match")["reasons"];
    for (code, games) in reasons.as_object().expect("reasons") {
        assert!(
            md.contains(&format!("| `{code}` | {games} |")),
            "{code} in {md}"
        );
    }
}

#[test]
fn gauntlet_shows_the_rating_list() {
    let folder = scratch("gauntlet", "gauntlet", &FILES);
    let dir = folder.path();
    let (html, md) = report(dir);
    let names = ["level6", "level3", "level0"];
    let games: Vec<(usize, usize, f64)> = entries("gauntlet")
        .iter()
        .filter_map(|e| {
            let red = names.iter().position(|n| *n == e.red)?;
            let black = names.iter().position(|n| *n == e.black)?;
            Some((red, black, score_of(e, &e.red)?))
        })
        .collect();
    let list = RatingList::fit(&games, Anchor::Engine(0)).expect("ratings");
    for (name, r) in names.iter().zip(&list.ratings) {
        let row = format!("{name} | {} | {:.1} |", signed(r.elo, 1), r.ci95);
        assert!(md.contains(&row), "summary.md lacks {row}");
        let cells = format!("<td>{name}</td><td class=\"num\">{}</td>", signed(r.elo, 1));
        assert!(html.contains(&cells), "page lacks {cells}");
    }
    for opponent in ["level3", "level0"] {
        let (penta, _) = counts(&entries("gauntlet"), "level6", opponent);
        assert!(html.contains(&format!("[{penta}]")), "level6 vs {opponent}");
    }
    assert!(html.contains("Gauntlet: level6 vs 2 opponents"));
    assert!(html.contains("Rank  Name"), "the terminal's rating table");
    // Ratings, histogram, Elo of each pairing; no LLR.
    assert_svgs(&html, 3);
}

#[test]
fn faults_are_counted_per_engine_and_reason() {
    let folder = scratch("faults", "faults", &FILES);
    let dir = folder.path();
    let (html, md) = report(dir);
    let entries = entries("faults");
    // The statistics count the games of complete pairs; the faults every game recorded
    // (issue 47: the crash that aborted the run is in the fixture's half-played last
    // pair, and a report that left it out said fewer crashes than stopped the run).
    let complete = |pair: u64| entries.iter().filter(|e| e.pair == pair).count() == 2;
    let crashes = entries
        .iter()
        .filter(|e| e.faulted.as_deref() == Some("faulty") && e.reason.code() == "crash");
    let illegal = crashes.clone().count();
    let unpaired = crashes.filter(|e| !complete(e.pair)).count();
    assert!(illegal > 0, "the fixture has faults");
    assert_eq!(unpaired, 1, "the fixture's unpaired game is a crash");
    assert!(
        html.contains("1 game of unfinished pairs not counted"),
        "{html}"
    );
    assert!(
        md.contains(&format!("| faulty | {illegal} | {illegal} |")),
        "{md}"
    );
    assert!(
        md.contains("1 of them in games whose pair is not complete"),
        "{md}"
    );
    assert!(md.contains("| level6 | 0 | 0 |"));
    assert!(md.contains("**[ABORTED] aborted**"), "{md}");
    assert!(html.contains(&format!("<td class=\"num bad\">{illegal}</td>")));
    assert!(html.contains("<th class=\"num\">crash</th>"));
    assert_svgs(&html, 2);
}

#[test]
fn no_games_and_no_summary_still_report() {
    let folder = scratch("empty", "match-sprt", &["run.json"]);
    let dir = folder.path();
    let (html, md) = report(dir);
    assert!(html.contains("No complete pairs yet"));
    assert!(
        md.contains("[INCOMPLETE]") && md.contains("0 games, 0 pairs"),
        "{md}"
    );
    assert_svgs(&html, 0);
}

#[test]
fn without_summary_the_config_gives_the_sprt() {
    let full_folder = scratch("with-summary", "match-sprt", &FILES);
    let full = full_folder.path();
    let bare_folder = scratch("no-summary", "match-sprt", &["run.json", "games.jsonl"]);
    let bare = bare_folder.path();
    let (with, _) = report(full);
    let (without, md) = report(bare);
    let llr = |html: &str| {
        let at = html.find("LLR: ").expect("LLR line");
        html[at..at + 12].to_owned()
    };
    assert_eq!(llr(&with), llr(&without));
    assert!(md.contains("[INCOMPLETE]"));
}

#[test]
fn a_torn_last_line_is_dropped() {
    let folder = scratch("torn", "match", &FILES);
    let dir = folder.path();
    let journal = dir.join("games.jsonl");
    let mut text = read(&journal);
    let games = text.lines().count();
    text.push_str("{\"pair\":99,\"game\":0,\"red\":\"lev");
    std::fs::write(&journal, text).expect("write");
    let (html, _) = report(dir);
    assert!(html.contains(&format!("Games: {games},")));
}

#[test]
fn hostile_engine_names_are_escaped() {
    let folder = scratch("hostile", "match", &[]);
    let dir = folder.path();
    let name = "<script>alert(1)</script>&'";
    for file in FILES {
        let text = read(&fixture("match").join(file)).replace("level0", name);
        std::fs::write(dir.join(file), text).expect("write");
    }
    let (html, md) = report(dir);
    assert!(!html.contains("<script"), "raw name in the page");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#39;"));
    // Only inside the code fence of the result block, where markdown shows text as is.
    let fence_end = md.rfind("```").expect("a code fence");
    let (block, rest) = md.split_at(fence_end);
    assert!(block.contains("Results of level6 vs <script>"));
    assert!(!rest.contains("<script") && !md.starts_with("## xq-runner: level6 vs <"));
    assert_svgs(&html, 2);
}

fn cli(dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .arg("report")
        .arg(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xq-runner: {e}"))
}

#[test]
fn cli_writes_the_files_or_exits_2() {
    let folder = scratch("cli", "gauntlet", &FILES);
    let dir = folder.path();
    let out = cli(dir);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(dir.join("report.html").is_file() && dir.join("summary.md").is_file());

    let empty_folder = scratch("cli-empty", "gauntlet", &[]);
    let empty = empty_folder.path();
    let out = cli(empty);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no run here"), "{stderr}");
    assert!(!empty.join("report.html").exists());
}

#[test]
fn a_summary_whose_status_is_no_ending_is_refused_naming_it() {
    let folder = scratch("bad-status", "gauntlet", &FILES);
    let dir = folder.path();
    let path = dir.join("summary.json");
    let text = read(&path).replace(
        "\"status\": \"finished\"",
        "\"status\": \"done, more or less\"",
    );
    assert!(
        text.contains("done, more or less"),
        "the fixture's status is `finished`"
    );
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("summary.json: {e}"));
    let out = cli(dir);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("summary.json"), "{stderr}");
    assert!(
        stderr.contains("`done, more or less` is not how a run ends"),
        "{stderr}"
    );
    assert!(!dir.join("report.html").exists());
}

/// The part of the page from `start` to the next `end`.
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html
        .find(start)
        .unwrap_or_else(|| panic!("page lacks {start}"));
    let rest = &html[from..];
    &rest[..rest.find(end).map_or(rest.len(), |e| e + end.len())]
}

/// The rows of the games table.
fn game_rows(html: &str) -> Vec<&str> {
    let table = between(html, "<div class=\"games\">", "</table>");
    table.split("<tr").skip(2).collect()
}

/// Writes `entries` as the journal of `dir` (no summary.json: the shape comes from
/// run.json).
fn write_journal(dir: &Path, entries: &[JournalEntry]) {
    let mut text = String::new();
    for e in entries {
        text.push_str(&serde_json::to_string(e).expect("entry"));
        text.push('\n');
    }
    std::fs::write(dir.join("games.jsonl"), text).expect("journal");
}

#[test]
fn the_games_table_links_every_game_to_its_pgn() {
    let folder = scratch("games", "match", &FILES);
    let dir = folder.path();
    let (html, _) = report(dir);
    let entries = entries("match");
    let rows = game_rows(&html);
    assert_eq!(
        rows.len(),
        entries.len(),
        "every game of a short run is listed"
    );
    for e in &entries {
        let anchor = format!("g{}-{}", e.pair + 1, e.game + 1);
        let link = format!("<a href=\"#{anchor}\">{}</a>", e.result.as_pgn());
        assert_eq!(html.matches(&link).count(), 1, "{link}");
        let panel = between(
            &html,
            &format!("<div class=\"pgn\" id=\"{anchor}\">"),
            "</div>\n",
        );
        // The game's own PGN: its round, its players, its result, its last move.
        assert!(panel.contains(&format!(
            "[Round &quot;{}.{}&quot;]",
            e.pair + 1,
            e.game + 1
        )));
        assert!(panel.contains(&format!("[Red &quot;{}&quot;]", e.red)));
        assert!(panel.contains(&format!("[Result &quot;{}&quot;]", e.result.as_pgn())));
        let last = e
            .moves
            .split_whitespace()
            .last()
            .expect("moves")
            .to_uppercase();
        let last = format!("{}-{}", &last[..2], &last[2..]);
        assert!(panel.contains(&last), "{anchor} lacks {last}");
    }
    assert!(
        !html.contains("<tr class=\"fault\">"),
        "no faults in this run"
    );
    assert!(html.contains(&format!("All {} games of the run", entries.len())));
}

#[test]
fn the_page_links_games_pgn_once_it_is_written() {
    let folder = scratch("pgn-link", "match", &FILES);
    let dir = folder.path();
    let (html, _) = report(dir);
    assert!(!html.contains("href=\"games.pgn\""), "no file, no link");
    assert!(html.contains("games.pgn is written when the run ends"));
    std::fs::write(dir.join("games.pgn"), "").expect("games.pgn");
    let (html, _) = report(dir);
    assert!(html.contains("<a href=\"games.pgn\">games.pgn</a>"));
}

#[test]
fn the_header_says_the_time_control_hash_and_openings() {
    let folder = scratch("settings", "match-sprt", &FILES);
    let dir = folder.path();
    let (html, _) = report(dir);
    let meta = between(&html, "<div class=\"meta settings\">", "</div>");
    assert!(
        meta.contains("tc depth 2, hash engine default, openings mainlines.epd, sequential"),
        "{meta}"
    );
    // A hash option and its own time control for one engine.
    let run = read(&dir.join("run.json")).replace(
        r#"evallevel = \"0\"\n"#,
        r#"evallevel = \"0\"\nhashsize = 64\n\n[engine.time]\nnodes = 5000\n"#,
    );
    std::fs::write(dir.join("run.json"), run).expect("run.json");
    let (html, _) = report(dir);
    let meta = between(&html, "<div class=\"meta settings\">", "</div>");
    assert!(
        meta.contains("tc depth 2 vs nodes 5000, hash engine default vs 64 MB"),
        "{meta}"
    );
}

#[test]
fn faults_are_highlighted_in_the_games_table() {
    let folder = scratch("fault-rows", "faults", &FILES);
    let dir = folder.path();
    let (html, _) = report(dir);
    let faults = entries("faults")
        .iter()
        .filter(|e| e.reason.is_fault())
        .count();
    let highlighted = game_rows(&html)
        .iter()
        .filter(|r| r.starts_with(" class=\"fault\"") && r.contains("<code>crash</code> by faulty"))
        .count();
    assert_eq!(highlighted, faults);
    assert!(html.contains("the engine exited during a search"));
}

#[test]
fn a_long_run_lists_the_first_games_and_the_faults_only() {
    let folder = scratch("long", "match", &["run.json"]);
    let dir = folder.path();
    let sample = entries("match");
    let pairs = 1500_u64;
    let mut all = Vec::new();
    for pair in 0..pairs {
        for game in 0..2_u8 {
            let mut e = sample[(pair as usize * 2 + usize::from(game)) % sample.len()].clone();
            e.pair = pair;
            e.game = game;
            (e.red, e.black) = if game == 0 {
                ("level6".to_owned(), "level0".to_owned())
            } else {
                ("level0".to_owned(), "level6".to_owned())
            };
            // Every 20th game from game 1000 on is lost on time: 100 faults.
            let number = pair * 2 + u64::from(game);
            if number >= 1000 && number % 20 == 0 {
                e.reason = xq_runner::game::EndReason::TimeForfeit;
                e.faulted = Some(e.red.clone());
                e.detail = Some("answered after 1200 ms with 1000 ms left".to_owned());
            }
            all.push(e);
        }
    }
    write_journal(dir, &all);
    let (html, _) = report(dir);
    let rows = game_rows(&html);
    let faults = all.iter().filter(|e| e.reason.is_fault()).count();
    assert_eq!(faults, 100);
    assert_eq!(rows.len(), 200 + faults, "the first 200 and the faults");
    assert_eq!(
        rows.iter()
            .filter(|r| r.starts_with(" class=\"fault\""))
            .count(),
        faults
    );
    assert_eq!(html.matches("<div class=\"pgn\" id=").count(), rows.len());
    assert!(html.contains("300 of the run's 3000 games: the first 200, and all 100 that ended"));
    // Bounded by the listed games, not by the run: the 12 games of the fixture give a
    // page of about 60 KB; 300 listed games (~3 KB of PGN each) stay near 1 MB.
    assert!(html.len() < 2_000_000, "{} bytes", html.len());
}

/// The numbers of the Elo chart's vertical axis.
fn elo_ticks(html: &str) -> Vec<f64> {
    let svg = between(html, "aria-label=\"Elo over pairs\"", "</svg>");
    svg.lines()
        .filter(|l| l.starts_with("<text x=\"56.0\"") && l.contains("text-anchor=\"end\""))
        .filter_map(|l| l.split('>').nth(1)?.split('<').next()?.parse().ok())
        .collect()
}

#[test]
fn the_elo_range_comes_from_the_settled_run_not_the_first_pair() {
    let folder = scratch("range", "match", &["run.json"]);
    let dir = folder.path();
    let sample = entries("match");
    let win = sample
        .iter()
        .find(|e| e.game == 0 && e.result.as_pgn() == "1-0");
    let draw = sample.iter().find(|e| e.result.as_pgn() == "1/2-1/2");
    let (win, draw) = (win.expect("a Red win"), draw.expect("a draw"));
    // Pair 1: level6 wins both games (+1000 Elo after one pair); then 199 drawn pairs.
    let mut all = Vec::new();
    for pair in 0..200_u64 {
        for game in 0..2_u8 {
            let mut e = if pair == 0 { win.clone() } else { draw.clone() };
            e.pair = pair;
            e.game = game;
            (e.red, e.black) = if game == 0 {
                ("level6".to_owned(), "level0".to_owned())
            } else {
                ("level0".to_owned(), "level6".to_owned())
            };
            if pair == 0 && game == 1 {
                e.result = xq_runner::game::Outcome::BlackWins;
            }
            all.push(e);
        }
    }
    write_journal(dir, &all);
    let (html, _) = report(dir);
    let first = Estimate::new(&Penta::new([0, 0, 0, 0, 1]));
    assert!(first.elo > 500.0, "pair 1 reads {}", first.elo);
    let ticks = elo_ticks(&html);
    let top = ticks.iter().copied().fold(f64::MIN, f64::max);
    assert!(ticks.len() >= 3, "{ticks:?}");
    // The final band of 200 pairs is some tens of Elo wide.
    let last = Estimate::new(&Penta::new([0, 0, 199, 0, 1]));
    assert!(
        top >= last.elo_upper && top < 3.0 * last.elo_upper.max(10.0),
        "{ticks:?}"
    );
    assert_svgs(&html, 2);
}

#[test]
fn the_elo_chart_shows_the_sprt_bounds_in_the_sprt_unit() {
    let folder = scratch("bounds", "match-sprt", &FILES);
    let dir = folder.path();
    let (html, _) = report(dir);
    let svg = between(&html, "aria-label=\"Elo over pairs\"", "</svg>");
    assert!(svg.contains("Elo with 95% interval and the SPRT&#39;s elo0 and elo1"));
    assert!(
        svg.contains(">elo0 = 0<") && svg.contains(">elo1 = 50<"),
        "{svg}"
    );
    // A normalized SPRT: its bounds are nElo, and so is the chart.
    for file in ["run.json", "summary.json"] {
        let text = read(&dir.join(file)).replace("logistic", "normalized");
        std::fs::write(dir.join(file), text).expect("write");
    }
    let (html, _) = report(dir);
    assert!(html.contains("aria-label=\"nElo over pairs\""));
    assert!(html.contains("nElo with 95% interval and the SPRT"));
    let plain = scratch("no-bounds", "match", &FILES);
    let (html, _) = report(plain.path());
    assert!(!html.contains("elo0 ="), "no SPRT, no bounds");
}

#[test]
fn markdown_and_html_in_names_stay_text() {
    let folder = scratch("markdown", "match", &[]);
    let dir = folder.path();
    let name = "![t](https://example.invalid/x.png)*b*<i>";
    for file in FILES {
        // JSON and TOML both escape `"` in strings; this name has none.
        let text = read(&fixture("match").join(file)).replace("level0", name);
        std::fs::write(dir.join(file), text).expect("write");
    }
    let (html, md) = report(dir);
    let fence_end = md.rfind("```").expect("a code fence");
    let (_, rest) = md.split_at(fence_end);
    let title = md.lines().next().unwrap_or_default();
    for text in [rest, title] {
        assert!(!text.contains("!["), "markdown image in {text}");
        assert!(!text.contains("*b*") && !text.contains("<i>"), "{text}");
    }
    assert!(
        rest.contains(r"\!\[t\]\(https://example.invalid/x.png\)\*b\*&lt;i&gt;"),
        "{md}"
    );
    assert!(!html.contains("<i>"), "raw HTML in the page");
    for row in game_rows(&html) {
        assert!(!row.contains("<i>"));
    }
    assert!(html.contains("[Black &quot;![t](https://example.invalid/x.png)*b*&lt;i&gt;&quot;]"));
    assert_svgs(&html, 2);
}

#[test]
fn a_game_of_an_unfinished_pair_is_not_said_to_be_in_games_pgn() {
    let folder = scratch("unpaired", "match", &["run.json", "summary.json"]);
    let dir = folder.path();
    let mut all = entries("match");
    // The run stopped with pair 3's second game unplayed: 11 games, 10 of them counted.
    let dropped = all
        .iter()
        .position(|e| (e.pair, e.game) == (3, 1))
        .expect("pair 3 game 1 in the fixture");
    all.remove(dropped);
    write_journal(dir, &all);
    let (html, _) = report(dir);
    let total = all.len();
    assert!(
        !html.contains(&format!("All {total} games of the run, as in")),
        "games.pgn holds only the counted games"
    );
    let note = format!(
        "All {total} games of the run: the {} in games.pgn (written when the run ends), and 1 game \
         of an unfinished pair, not counted and not in games.pgn (marked).",
        total - 1
    );
    assert!(
        html.contains(&note),
        "{}",
        between(&html, "<p class=\"note\">All", "</p>")
    );
    let marked: Vec<&str> = game_rows(&html)
        .into_iter()
        .filter(|r| r.starts_with(" class=\"unpaired\""))
        .collect();
    assert_eq!(marked.len(), 1);
    assert!(marked[0].contains("<a href=\"#g4-1\">"), "{}", marked[0]);
    assert!(marked[0].contains("not counted: its pair is unfinished"));
}

/// The text of a PGN pop-up as written in the file (the page escapes it).
fn pop_up(html: &str, anchor: &str) -> String {
    let panel = between(
        html,
        &format!("<div class=\"pgn\" id=\"{anchor}\">"),
        "</div>\n",
    );
    between(panel, "<pre>", "</pre>")
        .trim_start_matches("<pre>")
        .trim_end_matches("</pre>")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn the_pgn_pop_ups_have_the_date_time_control_and_opening_tags_of_games_pgn() {
    let folder = scratch("pop-up-tags", "match", &["games.jsonl", "summary.json"]);
    let dir = folder.path();
    // The run's config as it validates on this machine: engines and openings found.
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/mainlines.epd");
    let engine = std::env::current_exe().expect("test binary");
    let mut run: Value =
        serde_json::from_str(&read(&fixture("match").join("run.json"))).expect("run.json");
    let config = run["config"]
        .as_str()
        .expect("config text")
        .replace("target/release/xq-engine", &engine.display().to_string())
        .replace("openings/mainlines.epd", &openings.display().to_string());
    run["config"] = Value::String(config);
    std::fs::write(dir.join("run.json"), run.to_string()).expect("run.json");
    // The date games.pgn was written on, which the pop-ups repeat.
    std::fs::write(
        dir.join("games.pgn"),
        "[Game \"Chinese Chess\"]\n[Event \"xq-runner\"]\n[Site \"xq-runner\"]\n[Date \"2026.11.30\"]\n",
    )
    .expect("games.pgn");
    let (html, _) = report(dir);
    let lines: Vec<String> = read(&openings)
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    for e in entries("match") {
        let pgn = pop_up(&html, &format!("g{}-{}", e.pair + 1, e.game + 1));
        let index = e.opening.expect("the fixture plays openings");
        let line = &lines[index];
        let name = line
            .split("name \"")
            .nth(1)
            .and_then(|n| n.split('"').next());
        let eco = line.split("; eco ").nth(1).map(str::trim);
        for tag in [
            "[Date \"2026.11.30\"]".to_owned(),
            "[TimeControl \"depth 2\"]".to_owned(),
            format!("[Opening \"{}\"]", name.expect("a name")),
            format!("[ECCO \"{}\"]", eco.expect("an ECCO code")),
        ] {
            assert!(pgn.contains(&tag), "{tag} missing:\n{pgn}");
        }
    }
}
