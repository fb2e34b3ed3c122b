#!/usr/bin/env python3
"""Move-generation oracle: seeded random Xiangqi games judged by pyffish.

pyffish (Python bindings of Fairy-Stockfish, pinned in requirements.txt) is
used as an independent implementation of Xiangqi move generation.  For every
position of every game this script prints pyffish's list of legal moves, so
that the Rust engine can be compared with it move list by move list.

Usage
-----
    python3 movegen_oracle.py --games 200 --max-plies 200 --seed 1 > out.jsonl
    python3 movegen_oracle.py --games 50 --max-plies 100 --seed 7 --fens fens.txt

Options: --bias (probability of preferring captures/checks, default 0.3),
--jobs (worker processes, default: number of CPUs; the output does not depend
on it), --no-history (omit moves_so_far), --verify (slow: cross-check every
ply with extra pyffish calls, see below).

Output (stdout, one JSON object per line, deterministic for given arguments)
--------------------------------------------------------------------------
One line per position of each game, in order (keys in this order):
  {"type": "ply", "game": g, "ply": i,
   "start_fen": FEN the game started from,
   "fen": FEN of the position BEFORE move i (see "FEN format" below),
   "moves_so_far": [the i moves from start_fen, UCCI, ranks 0-9],
   "legal": [sorted legal moves, UCCI, ranks 0-9],
   "in_check": bool (side to move is in check),
   "played": move i in UCCI, or null on the game's last position}
then one final line per game:
  {"type": "end", "game": g, "plies": number of moves played,
   "start_fen": ..., "final_fen": ...,
   "reason": "checkmate" | "stalemate" | "max_plies",
   "result": "1-0" | "0-1" | null (null when stopped by --max-plies),
   "pyffish_game_result": int or null}
A game stops when the side to move has no legal move (then "legal" is [] on
its last ply line) or after --max-plies moves.  Repetitions and the move-count
rule are deliberately NOT applied here: this script only tests move
generation (see rules_oracle.py for game-end rules).

"result" is from Red's point of view.  In xiangqi the side without a legal
move LOSES, whether in check (checkmate) or not (stalemate); pyffish's
game_result() returns -32000 (= -VALUE_MATE, from the side to move's view) in
both cases.

Coordinates
-----------
pyffish writes ranks 1-10 ("h3e3", "a10a9"); we print UCCI/ICCS with ranks
0-9 ("h2e2", "a9a8"): files a-i from Red's left, rank_ours = rank_pyffish - 1.

FEN format (pyffish 0.0.90, variant "xiangqi")
-----------------------------------------------
  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
* Ranks listed from rank 9 (Black's back rank, top) down to rank 0.
* Pieces: K king/general, A advisor, B elephant (bishop), N horse (knight),
  R chariot (rook), C cannon, P soldier (pawn); upper case Red, lower case
  Black.  pyffish accepts H/E as input aliases for N/B but always prints N/B.
* Side to move: "w" = Red, "b" = Black.  pyffish REJECTS "r" (it prints
  "Invalid side to move specification" and silently uses w) - this script
  therefore normalises r -> w in --fens input itself.
* Castling and en-passant fields are always "- -".
* Halfmove clock: plies since the last CAPTURE (soldier moves do NOT reset
  it); fullmove number: starts at 1, +1 after every Black move.  Both are
  always present in pyffish's output.

Speed
-----
Every pyffish call costs ~4.5 ms, whatever it does: since 2021 pyffish
re-initialises the piece attack tables of the variant (UCI::init_variant) on
every call.  So this script makes as few calls as possible:
  * ONE legal_moves() call per position (with the game's move list);
  * the FEN of each position is tracked in Python (xq.Position) and compared
    with pyffish.get_fen() once at the end of every game (abort on mismatch);
  * in_check comes from ONE get_san_moves() call per game: pyffish appends
    "+"/"#" to a SAN move exactly when pos.gives_check(move) (plus
    gives_check() once for the start position).  --verify re-checks both
    with per-ply get_fen()/gives_check() calls;
  * the capture/check bias uses the Python helper only to choose moves.
Games are spread over --jobs processes.  200 games x 200 plies: see README.
"""

import argparse
import json
import multiprocessing
import os
import random
import sys
import time

import pyffish as sf

sys.dont_write_bytecode = True  # keep tests/oracle free of __pycache__
import xq  # noqa: E402

V = xq.VARIANT


def normalise_fen(fen):
    """Accept 'r' for Red and missing counters; return pyffish's canonical FEN."""
    parts = fen.split()
    if len(parts) < 2:
        parts.append("w")
    if parts[1] == "r":
        parts[1] = "w"
    fen = " ".join(parts)
    if sf.validate_fen(fen, V) != sf.FEN_OK:
        raise ValueError("invalid xiangqi FEN: %r" % fen)
    return sf.get_fen(V, fen, [])


def choose_move(rng, pos, legal, bias):
    """Uniform random legal move; with probability `bias` prefer captures/checks."""
    if rng.random() < bias:
        forcing = [m for m in legal if pos.is_capture(m) or pos.gives_check(m)]
        if forcing:
            return rng.choice(forcing)
    return rng.choice(legal)


def play_game(args):
    """Play one game; return its output lines (JSON strings) and its ply count."""
    g, start_fen, opts = args
    rng = random.Random("movegen:%d:%d" % (opts["seed"], g))
    pos = xq.Position(start_fen)
    moves, moves_py, records = [], [], []

    while True:
        legal = sorted(xq.py2ours(m) for m in sf.legal_moves(V, start_fen, moves_py))
        played = None
        if legal and len(moves) < opts["max_plies"]:
            played = choose_move(rng, pos, legal, opts["bias"])
        records.append((pos.fen(), legal, played))
        if opts["verify"]:
            f = sf.get_fen(V, start_fen, moves_py)
            if f != pos.fen():
                raise RuntimeError("FEN mismatch g=%d ply=%d: pyffish %s, ours %s"
                                   % (g, len(moves), f, pos.fen()))
        if played is None:
            break
        moves.append(played)
        moves_py.append(xq.ours2py(played))
        pos.play(played)

    # in_check for every position: start position + SAN check markers.
    checks = [sf.gives_check(V, start_fen, [])]
    if moves_py:
        sans = sf.get_san_moves(V, start_fen, moves_py, False, sf.NOTATION_SAN)
        checks += [s.endswith("+") or s.endswith("#") for s in sans]
    if opts["verify"]:
        for i in range(len(moves_py) + 1):
            if sf.gives_check(V, start_fen, moves_py[:i]) != checks[i]:
                raise RuntimeError("in_check mismatch g=%d ply=%d" % (g, i))

    final_fen = sf.get_fen(V, start_fen, moves_py)
    if final_fen != pos.fen():
        raise RuntimeError("FEN mismatch at end of game %d: pyffish %s, ours %s"
                           % (g, final_fen, pos.fen()))

    lines = []
    for i, (fen, legal, played) in enumerate(records):
        rec = {"type": "ply", "game": g, "ply": i, "start_fen": start_fen, "fen": fen}
        if opts["history"]:
            rec["moves_so_far"] = moves[:i]
        rec.update(legal=legal, in_check=checks[i], played=played)
        lines.append(json.dumps(rec, separators=(",", ":")))

    end = {"type": "end", "game": g, "plies": len(moves), "start_fen": start_fen,
           "final_fen": final_fen}
    if not records[-1][1]:
        value = sf.game_result(V, start_fen, moves_py)
        red_to_move = pos.red
        # value is from the side to move's point of view (negative = it lost)
        if value < 0:
            result = "0-1" if red_to_move else "1-0"
        elif value > 0:
            result = "1-0" if red_to_move else "0-1"
        else:
            result = "1/2-1/2"
        end.update(reason="checkmate" if checks[-1] else "stalemate",
                   result=result, pyffish_game_result=value)
    else:
        end.update(reason="max_plies", result=None, pyffish_game_result=None)
    lines.append(json.dumps(end, separators=(",", ":")))
    return lines, len(moves), end["reason"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fens", help="file with one start FEN per line (# comments); "
                    "game g starts from FEN number g mod count")
    ap.add_argument("--bias", type=float, default=0.3,
                    help="probability of choosing among captures/checks (default 0.3)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-history", action="store_true", help="omit moves_so_far")
    ap.add_argument("--verify", action="store_true",
                    help="cross-check FENs and check flags with per-ply pyffish calls (slow)")
    a = ap.parse_args()

    if a.fens:
        with open(a.fens) as fh:
            fens = [normalise_fen(l.strip()) for l in fh
                    if l.strip() and not l.lstrip().startswith("#")]
        if not fens:
            sys.exit("no FENs in %s" % a.fens)
    else:
        fens = [sf.start_fen(V)]

    opts = {"seed": a.seed, "max_plies": a.max_plies, "bias": a.bias,
            "history": not a.no_history, "verify": a.verify}
    tasks = [(g, fens[g % len(fens)], opts) for g in range(a.games)]

    t0 = time.time()
    total_plies, reasons = 0, {}
    out = sys.stdout
    if a.jobs > 1:
        pool = multiprocessing.Pool(a.jobs)
        results = pool.imap(play_game, tasks)  # ordered => deterministic output
    else:
        pool, results = None, map(play_game, tasks)
    for lines, plies, reason in results:
        out.write("\n".join(lines))
        out.write("\n")
        total_plies += plies
        reasons[reason] = reasons.get(reason, 0) + 1
    if pool:
        pool.close()
        pool.join()
    print("movegen_oracle: pyffish %s, %d games, %d plies, endings %s, %.1f s"
          % (".".join(map(str, sf.version())), a.games, total_plies,
             json.dumps(reasons, sort_keys=True), time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
