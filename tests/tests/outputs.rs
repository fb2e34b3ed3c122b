//! The outputs of a real run, end to end (issue 30 §2.8, §2.9, §3; issue 31 item 7):
//! the PGN has cutechess's move and end comments, the terminal shows the pairing header
//! and the last line, the report page links the PGN and lists the games, and an
//! engine's text cannot break the PGN.

mod common;

use common::{commands_config, fault_command, match_config, runner, scratch};

/// The games of a PGN file: (tags, movetext).
fn games(pgn: &str) -> Vec<(Vec<String>, String)> {
    let mut out: Vec<(Vec<String>, String)> = Vec::new();
    for line in pgn.lines() {
        if line.starts_with('[') {
            if out.last().is_none_or(|(_, moves)| !moves.is_empty()) {
                out.push((Vec::new(), String::new()));
            }
            if let Some((tags, _)) = out.last_mut() {
                tags.push(line.to_owned());
            }
        } else if let Some((_, moves)) = out.last_mut() {
            moves.push_str(line);
            moves.push(' ');
        }
    }
    out
}

/// The `{...}` comments of a movetext (not nested: a `{` inside one is an error) and the
/// text outside them.
fn comments(movetext: &str) -> (Vec<String>, String) {
    let (mut inside, mut outside) = (Vec::new(), String::new());
    let mut current: Option<String> = None;
    for c in movetext.chars() {
        match (c, current.as_mut()) {
            ('{', None) => current = Some(String::new()),
            ('{', Some(_)) => panic!("a brace inside a comment: {movetext}"),
            ('}', Some(_)) => inside.extend(current.take()),
            ('}', None) => panic!("a closing brace outside a comment: {movetext}"),
            (c, Some(text)) => text.push(c),
            (c, None) => outside.push(c),
        }
    }
    assert!(current.is_none(), "an open comment: {movetext}");
    (inside, outside)
}

/// The comments of a game, after checking that its movetext holds one result, at its
/// end, the one of its `[Result]` tag (no engine text forged another).
fn checked_comments(tags: &[String], movetext: &str) -> Vec<String> {
    let (notes, outside) = comments(movetext);
    let result = tag(tags, "Result").expect("Result tag");
    let tokens: Vec<&str> = outside.split_whitespace().collect();
    assert_eq!(tokens.last(), Some(&result), "{movetext}");
    let forged = tokens[..tokens.len() - 1]
        .iter()
        .any(|t| matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"));
    assert!(!forged, "no result inside the movetext: {movetext}");
    notes
}

fn tag<'a>(tags: &'a [String], name: &str) -> Option<&'a str> {
    let head = format!("[{name} \"");
    tags.iter()
        .find_map(|t| t.strip_prefix(&head)?.strip_suffix("\"]"))
}

/// `+0.93/12 0.211s, n=..., sd=..., nps=...`, `0.00/5 ...`, `-M4/3 0.010s` or `0.211s`:
/// is it one?
fn is_move_comment(text: &str) -> bool {
    let mut fields = text.split(", ");
    let Some(head) = fields.next() else {
        return false;
    };
    let time = match head.split_once(' ') {
        Some((score, time)) => {
            let (value, depth) = score.split_once('/').unwrap_or((score, "1"));
            // A sign, except on an even score (cutechess writes `0.00`).
            let signed = value.starts_with('+') || value.starts_with('-');
            let number = if signed { &value[1..] } else { value };
            let signed = signed || value == "0.00";
            let pawns = number.split_once('.').is_some_and(|(i, f)| {
                f.len() == 2 && i.parse::<u32>().is_ok() && f.parse::<u32>().is_ok()
            });
            let mate = number
                .strip_prefix('M')
                .is_some_and(|n| n.parse::<u32>().is_ok());
            if !(signed && (pawns || mate) && depth.parse::<u32>().is_ok()) {
                return false;
            }
            time
        }
        None => head,
    };
    let seconds = time
        .strip_suffix('s')
        .and_then(|t| t.split_once('.'))
        .is_some_and(|(_, f)| f.len() == 3);
    seconds
        && fields.all(|f| {
            f.split_once('=')
                .is_some_and(|(k, v)| matches!(k, "n" | "sd" | "nps") && v.parse::<u64>().is_ok())
        })
}

#[test]
fn a_run_writes_cutechess_pgn_a_pairing_header_a_last_line_and_a_linked_report() {
    let folder = scratch("outputs-run");
    let config = match_config(
        folder.path(),
        2,
        "pgn_nodes = true\npgn_seldepth = true\npgn_nps = true",
    );
    let (code, stdout, stderr) = runner(&["run", config.to_str().expect("path")]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = folder.path().join("out");

    // §2.8: every move has a cutechess comment, the last one names how the game ended.
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    let games = games(&pgn);
    assert_eq!(games.len(), 4, "{pgn}");
    let mut extras = 0;
    for (tags, movetext) in &games {
        let notes = checked_comments(tags, movetext);
        assert!(!movetext.contains("{- "), "no dash for a missing score");
        let (last, moves) = notes.split_last().expect("comments");
        // Opening moves are `{book}`, as cutechess writes them.
        for note in moves.iter().filter(|n| n.as_str() != "book") {
            assert!(is_move_comment(note), "not a move comment: {{{note}}}");
            extras += usize::from(note.contains(", n="));
        }
        let words = ["Red ", "Black ", "Draw "];
        let parts: Vec<&str> = last.split(", ").collect();
        let end = parts
            .iter()
            .position(|p| words.iter().any(|w| p.starts_with(w)));
        let own = end.map(|i| parts[..i].join(", ")).unwrap_or_default();
        assert!(
            end.is_some() && is_move_comment(&own),
            "the last comment has the move and the end in words naming the side: {{{last}}}"
        );
    }
    assert!(extras > 0, "pgn_nodes: n= where the engine gave nodes");

    // §2.9: one line per pairing before the first game; the last line says it all.
    let header = stdout
        .find("Pairing 1 of 1: level6 vs level0 (")
        .expect("the pairing header");
    let first_game = stdout.find("Finished game 1 ").expect("a game");
    assert!(header < first_game, "{stdout}");
    let header_line = stdout[header..].lines().next().unwrap_or_default();
    assert!(header_line.contains("depth 2"), "{header_line}");
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty());
    let last = last.unwrap_or_default();
    assert!(
        last.starts_with("Finished: 4 games in ") && last.contains(" s; results in "),
        "{last}"
    );

    // §3: the page links games.pgn and lists every game, each opening its PGN.
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(html.contains("<a href=\"games.pgn\">games.pgn</a>"));
    let rows = html.matches("<td class=\"result\"><a href=\"#").count();
    assert_eq!(rows, 4, "a row per game");
    let panels = html.matches("<div class=\"pgn\" id=\"").count();
    assert_eq!(panels, 4, "a PGN panel per game");
}

/// The PGN pop-ups of a report page, by round (`1.2`), unescaped as a browser shows them.
fn pop_ups(html: &str) -> Vec<(String, String)> {
    html.split("<div class=\"pgn\" id=\"g")
        .skip(1)
        .map(|panel| {
            let pre = panel.split("<pre>").nth(1).unwrap_or_default();
            let text = pre.split("</pre>").next().unwrap_or_default();
            let text = text
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            let round = text
                .lines()
                .find_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
                .unwrap_or_default()
                .to_owned();
            (round, text)
        })
        .collect()
}

/// The games of a PGN file as written, by round.
fn pgn_texts(pgn: &str) -> Vec<(String, String)> {
    pgn.split("[Game ")
        .skip(1)
        .map(|game| {
            let text = format!("[Game {}", game.trim_end());
            let round = text
                .lines()
                .find_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
                .unwrap_or_default()
                .to_owned();
            (round, text)
        })
        .collect()
}

#[test]
fn the_report_s_pgn_pop_ups_are_the_games_of_games_pgn() {
    // Issue 47 item 4.3: the pop-ups lacked the Date, Opening and ECCO tags of the file.
    let folder = scratch("outputs-pop-ups");
    let config = match_config(folder.path(), 3, "");
    let (code, stdout, stderr) = runner(&["run", config.to_str().expect("path")]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = folder.path().join("out");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    let file = pgn_texts(&pgn);
    assert_eq!(file.len(), 6, "{pgn}");
    for (_, text) in &file {
        for tag in ["[Date \"", "[Opening \"", "[ECCO \"", "[TimeControl \""] {
            assert!(text.contains(tag), "games.pgn has {tag}: {text}");
        }
    }
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert_eq!(pop_ups(&html), file, "the pop-ups of the run's own report");
    assert!(html.contains("All 6 games of the run, as in <a href=\"games.pgn\">games.pgn</a>."));
    // `xq-runner report` rewrites the page from the folder: the same PGN again.
    let (code, stdout, stderr) = runner(&["report", out.to_str().expect("path")]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert_eq!(pop_ups(&html), file, "the pop-ups of a rewritten report");
}

#[test]
fn an_engine_answer_with_braces_cannot_forge_a_result_in_the_pgn() {
    let folder = scratch("outputs-brace");
    let tag_name = common::tag("brace");
    let config = commands_config(
        folder.path(),
        1,
        1,
        &fault_command("brace-move", &tag_name, &[]),
        &fault_command("none", &tag_name, &[]),
        "",
    );
    let (code, stdout, stderr) = runner(&["run", config.to_str().expect("path")]);
    assert!(code == 0 || code == 3, "{stdout}{stderr}");
    let pgn = std::fs::read_to_string(folder.path().join("out").join("games.pgn")).expect("pgn");
    let games = games(&pgn);
    assert_eq!(games.len(), 2, "{pgn}");
    for (tags, movetext) in &games {
        let notes = checked_comments(tags, movetext);
        let last = notes.last().expect("an end comment");
        assert!(
            last.contains("makes an illegal move"),
            "the end names the illegal move: {last}"
        );
    }
    assert!(!pgn.lines().any(|l| l.starts_with('%')), "{pgn}");
}

#[test]
fn an_option_the_engine_never_announced_is_warned_of_once_and_in_the_summary() {
    // Issue 47 item 4.2: options an engine did not announce were sent silently.
    let folder = scratch("outputs-unknown-option");
    let config = match_config(folder.path(), 3, "");
    let text = std::fs::read_to_string(&config).expect("config");
    // `EVALLEVEL` is xq-engine's `evallevel` in other letters (no warning); `Foo` is none
    // of its options.
    let text = text.replace(
        "options = { evallevel = \"6\", hashsize = \"4\" }",
        "options = { EVALLEVEL = \"6\", hashsize = \"4\", Foo = \"1\" }",
    );
    std::fs::write(&config, text).expect("config");
    let warning = "warning: engine `level6` did not announce the option `Foo`: sent anyway";

    let (code, stdout, stderr) = runner(&["run", config.to_str().expect("path"), "--dry-run"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains(warning), "the dry run says it: {stdout}");
    assert!(
        !folder.path().join("out").exists(),
        "a dry run writes nothing"
    );

    // Six games on two slots start level6 more than once: one warning all the same.
    let (code, stdout, stderr) = runner(&["run", config.to_str().expect("path")]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("did not announce"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].starts_with(warning), "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(folder.path().join("out/summary.json")).expect("summary.json"),
    )
    .expect("summary.json is JSON");
    let unknown: Vec<&serde_json::Value> = summary["engines"]
        .as_array()
        .expect("engines")
        .iter()
        .map(|e| &e["unknown_options"])
        .collect();
    assert_eq!(
        unknown,
        [&serde_json::json!(["Foo"]), &serde_json::json!([])]
    );
    let html = std::fs::read_to_string(folder.path().join("out/report.html")).expect("report");
    assert!(
        html.contains(
            "<p class=\"note warn\">level6 did not announce <code>Foo</code>: sent anyway"
        ),
        "the report's Engines card says it too"
    );

    // Names are compared as the engine's protocol announces them, in any case: in UCI,
    // xq-engine's options are `Hash` and `EvalLevel`, so `evallevel` is one of them and
    // UCCI's `hashsize` is unknown there.
    let (code, stdout, stderr) = runner(&[
        "run",
        config.to_str().expect("path"),
        "--dry-run",
        "--out",
        folder.path().join("uci").to_str().expect("path"),
        "--set",
        "engine.level0.protocol=uci",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("warning: engine `level0` did not announce the option `hashsize`:"),
        "{stdout}"
    );
}
