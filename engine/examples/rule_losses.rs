//! `rule_losses`: were an engine's losses by perpetual check or perpetual chase avoidable?
//!
//! A loss by the repetition rules looks like a bug in the engine's repetition handling,
//! but it is often the longest resistance in a lost position: every other move loses
//! faster. This program tells the two apart. For every game of the journals that
//! `--engine` lost by `perpetual_check` or `perpetual_chase`, it replays the game with
//! the project's judge, finds the repeating span, and at each of the engine's moves in
//! the span plays out every legal move (the runner's `banmoves` left out: the engine
//! could not play them) and classifies it:
//!
//! - `a`: lost within two plies (the opponent has a reply after which the judge names
//!   the engine the loser: mate, stalemate, or the perpetual completed);
//! - `b`: proven lost by a full-width boolean search under the real rules: the opponent
//!   forces a verdict against the engine within `--depth` plies (counted after the
//!   alternative), against every defence;
//! - `c`: unproven; printed as a FEN and as `position fen ... moves ...` (the history
//!   matters to the repetition rules) for a deeper engine to examine;
//! - `d`: the game ends at once without the engine losing (a draw or a win): an escape.
//!
//! ```sh
//! cargo run --release -p xq-engine --example rule_losses -- --journal out/games.jsonl \
//!     --engine xq [--ruleset asian] [--move-limit 120] [--limit-counting all] [--depth 7]
//! ```
//!
//! The rules must be the run's (`[rules]` of its config; the defaults here are the
//! runner's). Each game is replayed and must end as the journal says, otherwise it is
//! reported and skipped. Plies are counted from `start_fen`, opening moves included.

use std::fmt::Write as _;
use std::iter::once;
use std::process::ExitCode;

use serde_json::Value;
use xq_engine::board::{Color, Move};
use xq_engine::movegen::{gives_check, legal_moves};
use xq_engine::rules::{
    judge_cycle, GameRecord, GameResult, LimitCounting, Reason, Rules, Ruleset, Verdict,
};

const USAGE: &str = "usage: rule_losses --journal FILE [--journal FILE...] --engine NAME \
[--ruleset asian] [--move-limit 120] [--limit-counting all] [--depth 7]";

/// The command line.
#[derive(Debug)]
struct Options {
    journals: Vec<String>,
    engine: String,
    rules: Rules,
    depth: u32,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let (mut journals, mut engine, mut depth) = (Vec::new(), None, 7);
    let mut rules = Rules::default();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u32>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--journal" => journals.push(value),
            "--engine" => engine = Some(value),
            "--ruleset" => rules.ruleset = Ruleset::from_name(&value).map_err(|e| e.to_string())?,
            "--move-limit" => rules.move_limit = number(&value)?,
            "--limit-counting" => {
                rules.limit_counting =
                    LimitCounting::from_name(&value).map_err(|e| e.to_string())?;
            }
            "--depth" => depth = number(&value)?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let engine = engine.ok_or("--engine is required")?;
    if journals.is_empty() {
        return Err("at least one --journal is required".to_owned());
    }
    Ok(Options {
        journals,
        engine,
        rules,
        depth,
    })
}

/// The fields of one journal line that the analysis needs.
#[derive(Debug)]
struct Game {
    label: String,
    red: String,
    black: String,
    result: String,
    reason: String,
    start_fen: String,
    moves: Vec<Move>,
    /// How many of `moves` are the opening's (played before the engines).
    opening: usize,
}

fn parse_line(line: &str) -> Result<Game, String> {
    let json: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let text = |key: &str| {
        json.get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("no string field `{key}`"))
    };
    let parse = |key: &str| -> Result<Vec<Move>, String> {
        let list = text(key)?;
        let moves = list.split_whitespace().map(Move::parse);
        moves
            .collect::<Result<_, _>>()
            .map_err(|e| format!("`{key}`: {e}"))
    };
    let number = |key: &str| json.get(key).and_then(Value::as_u64);
    let label = match (number("pair"), number("game")) {
        (Some(pair), Some(game)) => format!("pair {pair} game {game}"),
        _ => "game".to_owned(),
    };
    let mut moves = parse("opening_moves")?;
    let opening = moves.len();
    moves.extend(parse("moves")?);
    Ok(Game {
        label,
        red: text("red")?,
        black: text("black")?,
        result: text("result")?,
        reason: text("reason")?,
        start_fen: text("start_fen")?,
        moves,
        opening,
    })
}

/// What an alternative leads to, from the engine's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Lost within two plies.
    A,
    /// Proven lost by the search at this depth.
    B(u32),
    /// Not proven lost.
    C,
    /// The game ends at once, and not as a loss: an escape.
    D(Verdict),
}

/// Whether the opponent of `us` can force a verdict that `us` loses within `plies`,
/// against every defence. Exits early both ways: at the opponent's turn on the first
/// winning move (checks and captures tried first), at ours on the first escape.
fn forced_loss(record: &mut GameRecord, us: Color, plies: u32, nodes: &mut u64) -> bool {
    *nodes += 1;
    let verdict = record.verdict();
    if verdict.is_final() {
        // Also covers a side with no legal move: in Xiangqi it loses.
        return verdict.result == GameResult::loss_for(us);
    }
    if plies == 0 {
        return false;
    }
    let pos = record.position();
    let attacking = pos.side_to_move() != us;
    let mut moves: Vec<Move> = legal_moves(pos).iter().copied().collect();
    if attacking {
        moves.sort_by_key(|&m| (!gives_check(pos, m), pos.piece_at(m.to()).is_none()));
    }
    for m in moves {
        if record.push(m).is_err() {
            continue;
        }
        let lost = forced_loss(record, us, plies - 1, nodes);
        record.pop();
        if lost == attacking {
            return attacking;
        }
    }
    !attacking
}

/// Classifies the position after an alternative of `us` (the opponent to move).
fn classify(record: &mut GameRecord, us: Color, depth: u32, nodes: &mut u64) -> Class {
    let verdict = record.verdict();
    if verdict.is_final() {
        return if verdict.result == GameResult::loss_for(us) {
            Class::A
        } else {
            Class::D(verdict)
        };
    }
    if forced_loss(record, us, 1, nodes) {
        return Class::A;
    }
    // Odd depths end on the opponent's move, the only kind that can lose for us.
    let mut depths = (3..depth).step_by(2).chain(once(depth)).filter(|&d| d > 1);
    depths
        .find(|&d| forced_loss(record, us, d, nodes))
        .map_or(Class::C, Class::B)
}

/// One of the engine's moves in the span and what each allowed move there leads to.
#[derive(Debug)]
struct Turn {
    ply: usize,
    played: Move,
    banned: usize,
    /// Every allowed move, the played one among them.
    alternatives: Vec<Alternative>,
}

/// One allowed move of a turn.
#[derive(Debug)]
struct Alternative {
    mv: Move,
    class: Class,
    /// For `C` only: the FEN after it, and the game up to it as `position fen ... moves`.
    unproven: Option<(String, String)>,
}

/// A lost game examined: the loser's colour, the final verdict, the span's first ply.
#[derive(Debug)]
struct Examined {
    us: Color,
    verdict: Verdict,
    span_start: usize,
    turns: Vec<Turn>,
}

/// Replays `game`, checks that the judge agrees with the journal, and examines the
/// loser's moves in the span. `Err` says why the game was skipped.
fn examine(
    game: &Game,
    us: Color,
    rules: Rules,
    depth: u32,
    nodes: &mut u64,
) -> Result<Examined, String> {
    let mut record = GameRecord::from_fen(&game.start_fen, rules)
        .map_err(|e| format!("bad start_fen {}: {e}", game.start_fen))?;
    for (i, &m) in game.moves.iter().enumerate() {
        // The runner judges only after the opening, before each engine move.
        let early = record.verdict();
        if i >= game.opening && early.is_final() {
            return Err(format!("mismatch: the judge ends the game with {early}"));
        }
        record.push(m).map_err(|e| e.to_string())?;
    }
    let verdict = record.verdict();
    if (verdict.result.as_pgn(), verdict.reason.code()) != (&game.result, &game.reason) {
        return Err(format!(
            "mismatch: the journal says {} {}, the judge {verdict}",
            game.result, game.reason
        ));
    }
    let threshold = rules.ruleset.repetition_threshold();
    let side = record.position().side_to_move();
    let cycle = judge_cycle(record.history(), side, threshold)
        .ok_or("mismatch: no repetition at the end")?;
    // Walks the span backwards on one record, taking a move off at each ply (each
    // alternative is pushed and popped again), then puts the turns in game order.
    let mut here = record;
    let mut turns = Vec::new();
    for ply in (cycle.first_occurrence..game.moves.len()).rev() {
        while here.ply() > ply {
            here.pop();
        }
        if here.position().side_to_move() != us {
            continue;
        }
        let banned = here.banned_moves();
        let played = game.moves[ply];
        let legal = legal_moves(here.position());
        let allowed: Vec<Move> = (legal.iter().copied())
            .filter(|m| *m == played || !banned.contains(m))
            .collect();
        let mut alternatives = Vec::new();
        for m in allowed {
            if here.push(m).is_err() {
                continue;
            }
            let class = classify(&mut here, us, depth, nodes);
            let unproven = (class == Class::C).then(|| {
                let mut line = format!("position fen {} moves", game.start_fen);
                for mv in here.moves() {
                    let _ = write!(line, " {mv}");
                }
                (here.position().to_fen(), line)
            });
            here.pop();
            alternatives.push(Alternative {
                mv: m,
                class,
                unproven,
            });
        }
        turns.push(Turn {
            ply,
            played,
            banned: banned.len(),
            alternatives,
        });
    }
    turns.reverse();
    Ok(Examined {
        us,
        verdict,
        span_start: cycle.first_occurrence,
        turns,
    })
}

/// Counts over all games: a, b, c, d as in the module documentation.
#[derive(Debug, Default)]
struct Totals {
    games: usize,
    skipped: usize,
    turns: usize,
    classes: [usize; 4],
    nodes: u64,
}

fn class_index(class: Class) -> usize {
    match class {
        Class::A => 0,
        Class::B(_) => 1,
        Class::C => 2,
        Class::D(_) => 3,
    }
}

fn report(game: &Game, opponent: &str, seen: &Examined, totals: &mut Totals) {
    let colour = if seen.us == Color::Red {
        "red"
    } else {
        "black"
    };
    let our_plies: Vec<String> = seen.turns.iter().map(|t| t.ply.to_string()).collect();
    println!(
        "{} ({colour}, vs {opponent}): {} {} at ply {}; span {} plies from ply {}; our moves {} (plies {})",
        game.label,
        game.result,
        game.reason,
        seen.verdict.ply,
        seen.verdict.ply - seen.span_start,
        seen.span_start,
        seen.turns.len(),
        our_plies.join(" ")
    );
    totals.games += 1;
    for turn in &seen.turns {
        let mut counts = [0; 4];
        let mut played_class = Class::C;
        for alt in &turn.alternatives {
            counts[class_index(alt.class)] += 1;
            if alt.mv == turn.played {
                played_class = alt.class;
            }
        }
        let label = |c: Class| match c {
            Class::A => "a".to_owned(),
            Class::B(d) => format!("b{d}"),
            Class::C => "c".to_owned(),
            Class::D(v) => format!("d: {v}"),
        };
        println!(
            "  ply {} played {} ({}): {} moves ({} banned left out): a {}, b {}, c {}, d {}",
            turn.ply,
            turn.played,
            label(played_class),
            turn.alternatives.len(),
            turn.banned,
            counts[0],
            counts[1],
            counts[2],
            counts[3]
        );
        for Alternative {
            mv: m,
            class,
            unproven,
        } in &turn.alternatives
        {
            let mark = if *m == turn.played { " [played]" } else { "" };
            if let Some((fen, line)) = unproven {
                println!("    c {m}{mark}: fen {fen} | {line}");
            } else if let Class::D(v) = class {
                println!("    d {m}{mark}: the game ends {v}");
            }
        }
        totals.turns += 1;
        for (total, count) in totals.classes.iter_mut().zip(counts) {
            *total += count;
        }
    }
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(why) => {
            eprintln!("{why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut totals = Totals::default();
    for path in &options.journals {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        for (index, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = format!("{path}:{}", index + 1);
            let game = match parse_line(line) {
                Ok(game) => game,
                Err(why) => {
                    eprintln!("{at}: {why}");
                    continue;
                }
            };
            let by_rule = [Reason::PerpetualCheck, Reason::PerpetualChase]
                .iter()
                .any(|r| r.code() == game.reason);
            let (us, opponent) = match game.result.as_str() {
                "1-0" if game.black == options.engine => (Color::Black, &game.red),
                "0-1" if game.red == options.engine => (Color::Red, &game.black),
                _ => continue,
            };
            if !by_rule {
                continue;
            }
            match examine(&game, us, options.rules, options.depth, &mut totals.nodes) {
                Ok(seen) => report(&game, opponent, &seen, &mut totals),
                Err(why) => {
                    eprintln!("{at}: {} skipped: {why}", game.label);
                    totals.skipped += 1;
                }
            }
        }
    }
    let [a, b, c, d] = totals.classes;
    println!(
        "totals: games {} (skipped {}), moves examined {}, alternatives {}: a {a}, b {b}, c {c}, d {d}; search nodes {}",
        totals.games,
        totals.skipped,
        totals.turns,
        a + b + c + d,
        totals.nodes
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red's rook checks on ranks 9 and 8 while Black's king steps e9-e8-e9: Red loses
    /// by perpetual check at ply 8 (the example of `xq_core::rules`).
    const LINE: &str = r#"{"pair":3,"game":1,"red":"r","black":"b","result":"0-1","reason":"perpetual_check","start_fen":"4k4/R8/9/9/9/9/9/9/9/5K3 w","opening_moves":"a8a9","moves":"e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9"}"#;

    #[test]
    fn a_perpetual_is_found_and_its_alternatives_classified() {
        let game = parse_line(LINE).expect("the line parses");
        let seen = examine(&game, Color::Red, Rules::default(), 3, &mut 0).expect("replays");
        assert_eq!((seen.verdict.ply, seen.span_start), (8, 0));
        assert_eq!(
            seen.turns.iter().map(|t| t.ply).collect::<Vec<_>>(),
            [0, 2, 4, 6]
        );
        let last = &seen.turns[3];
        let played = last.alternatives.iter().find(|a| a.mv == last.played);
        // After a9a8 Black's e8e9 completes the perpetual; a rook against a bare king
        // has moves that do not lose.
        assert_eq!(played.map(|p| p.class), Some(Class::A));
        assert!(last.alternatives.iter().any(|a| a.class == Class::C));
    }

    #[test]
    fn bad_lines_are_errors_not_panics() {
        assert!(parse_line("not json").is_err());
        assert!(parse_line(&LINE.replace("e9e8 a9a8", "e9e8 zz99")).is_err());
        let game = parse_line(&LINE.replace("e9e8 a9a8", "e9e8 a9b7")).expect("parses");
        assert!(examine(&game, Color::Red, Rules::default(), 3, &mut 0).is_err());
        let game = parse_line(&LINE.replace("0-1", "1-0")).expect("parses");
        assert!(examine(&game, Color::Red, Rules::default(), 3, &mut 0).is_err());
    }
}
