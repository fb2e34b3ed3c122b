//! Judged rule cases from `tests/data/rules_cases.txt` (format at the top of that file):
//! every case is replayed through `judge_game` under each ruleset it names and must
//! give exactly the expected result, reason and ply. The file must also cover every
//! reason for both colours and give every case an explanation.

use std::collections::BTreeSet;

use xq_core::board::{Move, Position, Square};
use xq_core::rules::{judge_game, GameRecord, LimitCounting, Reason, Rules, Ruleset};

#[derive(Debug, Default, Clone)]
struct Case {
    name: String,
    line: usize,
    fen: String,
    moves: Vec<Move>,
    limit: Option<u32>,
    counting: Option<LimitCounting>,
    expects: Vec<Expect>,
    chased: Vec<Chased>,
}

#[derive(Debug, Clone)]
struct Expect {
    ruleset: Ruleset,
    result: String,
    reason: Reason,
    ply: usize,
}

#[derive(Debug, Clone)]
struct Chased {
    ruleset: Ruleset,
    ply: usize,
    squares: BTreeSet<String>,
}

/// `all`, one ruleset name, or several joined by commas.
fn rulesets(names: &str, line: usize) -> Vec<Ruleset> {
    if names == "all" {
        return Ruleset::ALL.to_vec();
    }
    names
        .split(',')
        .map(|name| {
            Ruleset::from_name(name).unwrap_or_else(|e| panic!("rules_cases.txt line {line}: {e}"))
        })
        .collect()
}

/// Expands `[m1 m2 m3 m4]*3` groups and parses the moves.
fn parse_moves(text: &str, line: usize) -> Vec<Move> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(body) = rest.strip_prefix('[') {
            let close = body
                .find("]*")
                .unwrap_or_else(|| panic!("line {line}: `[` without `]*N`"));
            let group = parse_moves(&body[..close], line);
            let after = &body[close + 2..];
            let digits = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            let times: usize = after[..digits]
                .parse()
                .unwrap_or_else(|_| panic!("line {line}: bad repeat count"));
            for _ in 0..times {
                out.extend_from_slice(&group);
            }
            rest = after[digits..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let token = &rest[..end];
            if token != "-" {
                out.push(Move::parse(token).unwrap_or_else(|e| panic!("line {line}: {e}")));
            }
            rest = rest[end..].trim_start();
        }
    }
    out
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/rules_cases.txt");
    let mut out: Vec<Case> = Vec::new();
    let mut comment_seen = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        if raw.starts_with('#') {
            comment_seen = true;
            continue;
        }
        let (word, rest) = raw.split_once(' ').unwrap_or((raw, ""));
        let rest = rest.trim();
        if word == "case" {
            assert!(
                comment_seen,
                "line {line}: case `{rest}` has no comment explaining it"
            );
            comment_seen = false;
            out.push(Case {
                name: rest.to_owned(),
                line,
                ..Case::default()
            });
            continue;
        }
        let case = out
            .last_mut()
            .unwrap_or_else(|| panic!("line {line}: `{word}` before any case"));
        match word {
            "fen" => case.fen = rest.to_owned(),
            "moves" => case.moves = parse_moves(rest, line),
            "limit" => {
                case.limit = Some(
                    rest.parse()
                        .unwrap_or_else(|_| panic!("line {line}: bad limit")),
                )
            }
            "counting" => {
                case.counting = Some(
                    LimitCounting::from_name(rest).unwrap_or_else(|e| panic!("line {line}: {e}")),
                );
            }
            "expect" => {
                let parts: Vec<&str> = rest.split_whitespace().collect();
                let [set, result, reason, ply] = parts[..] else {
                    panic!("line {line}: expected `expect <ruleset> <result> <reason> <ply>`");
                };
                let reason = Reason::from_code(reason)
                    .unwrap_or_else(|| panic!("line {line}: unknown reason {reason}"));
                let ply = ply
                    .parse()
                    .unwrap_or_else(|_| panic!("line {line}: bad ply"));
                for ruleset in rulesets(set, line) {
                    case.expects.push(Expect {
                        ruleset,
                        result: result.to_owned(),
                        reason,
                        ply,
                    });
                }
            }
            "chased" => {
                let parts: Vec<&str> = rest.split_whitespace().collect();
                let [set, ply, squares @ ..] = &parts[..] else {
                    panic!("line {line}: expected `chased <ruleset> <ply> <squares|->`");
                };
                let ply = ply
                    .parse()
                    .unwrap_or_else(|_| panic!("line {line}: bad ply"));
                let squares: BTreeSet<String> = squares
                    .iter()
                    .filter(|s| **s != "-")
                    .map(|s| (*s).to_owned())
                    .collect();
                for ruleset in rulesets(set, line) {
                    case.chased.push(Chased {
                        ruleset,
                        ply,
                        squares: squares.clone(),
                    });
                }
            }
            other => panic!("line {line}: unknown line `{other}`"),
        }
    }
    out
}

fn rules_for(case: &Case, ruleset: Ruleset) -> Rules {
    let rules = Rules::new(ruleset);
    let rules = case.limit.map_or(rules, |l| rules.with_move_limit(l));
    case.counting
        .map_or(rules, |c| rules.with_limit_counting(c))
}

#[test]
fn every_case_gets_its_expected_verdict() {
    let cases = cases();
    let mut failures = Vec::new();
    for case in &cases {
        let start = Position::from_fen(&case.fen)
            .unwrap_or_else(|e| panic!("case {} (line {}): bad FEN: {e}", case.name, case.line));
        assert!(
            !case.expects.is_empty(),
            "case {} has no expect line",
            case.name
        );
        for expect in &case.expects {
            let judged = judge_game(start.clone(), &case.moves, rules_for(case, expect.ruleset))
                .unwrap_or_else(|e| panic!("case {} (line {}): {e}", case.name, case.line));
            let v = judged.verdict;
            let got = (v.result.as_pgn().to_owned(), v.reason, v.ply);
            let want = (expect.result.clone(), expect.reason, expect.ply);
            if got != want {
                failures.push(format!(
                    "case {} (line {}), ruleset {}: expected {} {} {}, got {} {} {}",
                    case.name,
                    case.line,
                    expect.ruleset,
                    want.0,
                    want.1,
                    want.2,
                    got.0,
                    got.1,
                    got.2
                ));
            }
        }
        for chased in &case.chased {
            let mut record = GameRecord::new(start.clone(), rules_for(case, chased.ruleset));
            for &m in &case.moves[..chased.ply] {
                record
                    .push(m)
                    .unwrap_or_else(|e| panic!("case {} (line {}): {e}", case.name, case.line));
            }
            let got: BTreeSet<String> = record.history()[chased.ply]
                .chased
                .iter()
                .map(|s: Square| s.to_string())
                .collect();
            if got != chased.squares {
                failures.push(format!(
                    "case {} (line {}), ruleset {}: move at ply {} chased {:?}, expected {:?}",
                    case.name, case.line, chased.ruleset, chased.ply, got, chased.squares
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_cases_cover_every_reason_for_both_colours_and_every_ruleset() {
    let cases = cases();
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    let expects: Vec<&Expect> = cases.iter().flat_map(|c| &c.expects).collect();
    let seen = |reason: Reason, result: &str| {
        expects
            .iter()
            .any(|e| e.reason == reason && e.result == result)
    };
    for reason in [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
    ] {
        for result in ["1-0", "0-1"] {
            assert!(
                seen(reason, result),
                "no case where {reason} gives {result}"
            );
        }
    }
    for reason in [
        Reason::Repetition,
        Reason::MoveLimit,
        Reason::InsufficientMaterial,
        Reason::Ongoing,
    ] {
        assert!(
            expects.iter().any(|e| e.reason == reason),
            "no case for {reason}"
        );
    }
    for ruleset in Ruleset::ALL {
        assert!(
            expects.iter().any(|e| e.ruleset == ruleset),
            "no case for {ruleset}"
        );
    }
}
