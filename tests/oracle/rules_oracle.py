#!/usr/bin/env python3
"""Rules oracle: seeded random Xiangqi games with forced repetitions, judged by pyffish.

For the project's rules judge (game-end detection) this script produces games
that end by perpetual check, perpetual chase, plain repetition, the move-count
rule, checkmate and stalemate, and records pyffish's verdict.

Usage
-----
    python3 rules_oracle.py --games 200 --seed 1 > rules.jsonl
Options: --max-plies (default 400), --jobs (default: CPUs; output does not
depend on it), --extra-plies K (keep playing K plies after the first verdict,
default 0), --strict (ask pyffish at EVERY ply, not only where a game end is
possible; same output, slower), --fens FILE (start FENs instead of the
standard start position, game g uses FEN g mod count).

What pyffish 0.0.90 does for variant "xiangqi" (established by reading
Fairy-Stockfish's src/position.cpp / src/pyffish.cpp and by experiment; the
full list of API facts is in README.md)
--------------------------------------------------------------------------
The calls used here (positional arguments only, `moves` must be a list of
moves in pyffish coordinates, ranks 1-10; every call rebuilds the position
from FEN + moves, so history-dependent rules only see the moves in that list
and nothing before the FEN):
  is_optional_game_end(variant, fen, moves[, chess960, count_started])
      -> (bool ended, int value).  value is from the SIDE TO MOVE's view:
         +32000 side to move wins, -32000 it loses, 0 draw.  When ended is
         False the value is UNINITIALISED (0 or e.g. 32683): ignore it.
         Evaluated "at the root" (ply 0), so repetition needs 3 occurrences.
  is_immediate_game_end(variant, fen, moves[, chess960]) -> (bool, int)
      -> never ends a xiangqi game (no variant-specific immediate end).
  game_result(variant, fen, moves[, chess960]) -> int
      -> only meaningful when there is no legal move: -32000 (side to move
         loses) for checkmate AND for stalemate (xiangqi stalemateValue =
         -VALUE_MATE).  On a position with legal moves it returns garbage
         (-32000 for the start position): always check legal_moves first.
  legal_moves(variant, fen, moves[, chess960]) -> [str]
  gives_check(variant, fen, moves[, chess960]) -> bool: side to move in check.
  An illegal move in `moves` raises SystemError (ValueError inside).

Repetition (nFoldRule = 3): a game end is declared at the THIRD occurrence of
a position (same board and side to move), i.e. when the current position
occurred twice before, looking back only over plies since the last capture
(the halfmove clock) and never before the FEN given to pyffish.  Nothing is
declared at the 2nd occurrence.  With a 4-ply loop P0 m1 n1 m1' n1' the end
comes at ply 8 (P0 occurs at plies 0, 4, 8).  Let the occurrences be at plies
a < b < n (n = now) and X the side that made the last move, Y the side to
move.  The verdict is:
  * perpetual check (perpetualCheckIllegal): X checks perpetually if the
    position was check at plies a, a+2, ..., n (i.e. after every X move in
    the span AND after the X move that produced the first occurrence); Y if
    check at plies a+1, a+3, ..., n-1.  Exactly one side perpetual: the
    CHECKING SIDE LOSES.  Both: draw.
  * otherwise perpetual chase (chasingRule = AXF_CHASING): if one side chased
    the same piece with every move of the span (attack on an undefended
    piece, or on a more valuable one: horse/cannon on a chariot, elephant/
    advisor on chariot/cannon/horse; kings and uncrossed soldiers excluded,
    mutual attacks by the same piece type excluded) and the other did not,
    the CHASING SIDE LOSES.  Both chasing: draw.  Checks take precedence.
  * otherwise (plain repetition / idle moves): DRAW.
Move-count rule (nMoveRule = 50): it is a 50-move (100-ply) rule, NOT 60.
  The counter is the FEN halfmove clock (reset only by captures; soldier moves
  do not reset it).  The game is drawn when the counter reaches 100 plies
  (rule50 > 99), unless the side to move is checkmated.  AXF adjustment:
  when at least 20 plies were played from the given FEN, the checks in the
  last min(halfmove, plies from FEN) plies are counted per side, and the limit
  is extended by 2 plies for every check beyond 10 of the side that checked
  more (observed: draws at halfmove 120 and 122).  The n-move rule is tested
  BEFORE repetition (if both apply, it is a draw).
No legal move: the side to move loses (checkmate or stalemate), see
  game_result above.  Insufficient material never ends a xiangqi game.

Game generation
---------------
Each game picks a mode (round robin over the game index, random details):
  perpetual_check : random prefix, then search for a 4-ply loop in which the
                    side to move checks with both of its moves and the loop
                    returns to the same position; repeat the loop.
  chase           : loop in which the side to move's piece attacks an enemy
                    piece after both of its moves while that piece shuffles.
  shuffle         : loop of quiet moves (plain repetition, normally a draw).
  move_rule       : no captures, no repeated position: runs into the
                    50-move rule (some games prefer checks, exercising the
                    AXF check extension).
  random          : random play with a capture/check bias (mates, stalemates).
If no loop is found, one random move is played and the search retried.  The
loop and mode are only a plan: what counts is pyffish's verdict.

Output (stdout): one JSON object per game, in game order:
  {"game": g, "mode": ..., "start_fen": FEN,
   "moves": [all moves played, UCCI ranks 0-9],
   "loop": {"start_ply": k, "moves": [4 moves]} or null,
   "verdicts": [ {"ply": p,              # verdict for the position after p moves
                  "result": "1-0" | "0-1" | "1/2-1/2",  # from Red's side
                  "reason": "checkmate" | "stalemate" | "perpetual_check" |
                            "mutual_perpetual_check" | "perpetual_chase" |
                            "repetition_draw" | "move_rule",
                  "side_to_move": "w" | "b",
                  "occurrence": n,        # occurrences of this position in the
                                          # counted window, incl. this one
                  "halfmove": clock, "fen": FEN after p moves,
                  "pyffish": {"legal_moves": count, "in_check": bool,
                              "optional_game_end": [bool, value|null],
                              "immediate_game_end": [bool, value|null],
                              "game_result": value or null}} ... ],
   "result": result of the first verdict or null (no verdict within --max-plies)}
Every ply of "moves" not listed in "verdicts" is a position where pyffish says
the game is NOT over.  A verdict is listed for every ply where pyffish says it
is over (only the last ply, unless --extra-plies).  "reason" is this script's
classification of pyffish's answer (perpetual flags are recomputed from
pyffish's check flags, "perpetual_chase" = pyffish gave a non-draw repetition
result without a perpetual check).
Summary counts go to stderr.
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
from movegen_oracle import normalise_fen

V = xq.VARIANT
MODES = ["perpetual_check", "chase", "perpetual_check", "shuffle", "chase",
         "perpetual_check", "move_rule", "shuffle", "random", "perpetual_check"]


# ------------------------------------------------------------ loop searches
# All searches use the Python helper (xq) only; every move is later checked
# against pyffish's legal_moves before it is played.

def _quiet(pos, m):
    return not pos.is_capture(m)


def find_check_loop(pos, rng):
    """[m1, n1, m1', n1'] with m1 and m1' both giving check, or None."""
    ms = [m for m in pos.legal_moves() if _quiet(pos, m)]
    rng.shuffle(ms)
    for m1 in ms:
        p1 = pos.after(m1)
        if not p1.in_check():
            continue
        ns = [n for n in p1.legal_moves() if _quiet(p1, n)]
        rng.shuffle(ns)
        for n1 in ns:
            p2 = p1.after(n1)
            m1r = xq.reverse_move(m1)
            if m1r not in p2.legal_moves():
                continue
            p3 = p2.after(m1r)
            if not p3.in_check():
                continue
            if xq.reverse_move(n1) in p3.legal_moves():
                return [m1, n1, m1r, xq.reverse_move(n1)]
    return None


# Which pieces a piece type "chases" when the target is defended (AXF: attacks
# on a more valuable piece); against an undefended target any type counts.
_STRONGER = {"N": "R", "C": "R", "B": "RNC", "A": "RNC"}


def _chased(p, chaser, t, frm):
    """Rough AXF chase test: is the attack from square frm on square t a chase?"""
    target = p.board[t].upper()
    if target == "K":
        return False
    if target == "P" and (t // 9 < 5 if p.board[t].isupper() else t // 9 > 4):
        return False                      # uncrossed soldiers may be attacked freely
    if frm in p.targets_of(t):
        return False                      # mutual attack
    return target in _STRONGER.get(chaser, "") or not p.defended(t)


def find_chase_loop(pos, rng):
    """Loop where the mover's piece attacks the same fleeing enemy piece after both its moves."""
    ms = [m for m in pos.legal_moves() if _quiet(pos, m) and not pos.gives_check(m)]
    rng.shuffle(ms)
    for m1 in ms:
        frm, to = xq.parse_ours(m1)
        p1 = pos.after(m1)
        chaser = p1.board[to].upper()
        targets = [t for t in p1.targets_of(to) if _chased(p1, chaser, t, to)]
        if not targets:
            continue
        rng.shuffle(targets)
        legal1 = p1.legal_moves()
        for x in targets:
            ns = [n for n in legal1 if xq.parse_ours(n)[0] == x and _quiet(p1, n)]
            rng.shuffle(ns)
            for n1 in ns:
                p2 = p1.after(n1)
                if p2.in_check():
                    continue
                m1r = xq.reverse_move(m1)
                if m1r not in p2.legal_moves():
                    continue
                p3 = p2.after(m1r)
                y = xq.parse_ours(n1)[1]
                if p3.in_check() or y not in p3.targets_of(frm) or not _chased(p3, chaser, y, frm):
                    continue
                if xq.reverse_move(n1) in p3.legal_moves():
                    return [m1, n1, m1r, xq.reverse_move(n1)]
    return None


def find_quiet_loop(pos, rng):
    """Loop of quiet, non-checking moves; prefer moves that attack nothing."""
    best = None
    ms = [m for m in pos.legal_moves() if _quiet(pos, m) and not pos.gives_check(m)]
    rng.shuffle(ms)
    for m1 in ms[:12]:
        p1 = pos.after(m1)
        ns = [n for n in p1.legal_moves() if _quiet(p1, n) and not p1.gives_check(n)]
        rng.shuffle(ns)
        for n1 in ns[:12]:
            p2 = p1.after(n1)
            m1r, n1r = xq.reverse_move(m1), xq.reverse_move(n1)
            if m1r not in p2.legal_moves() or p2.gives_check(m1r):
                continue
            p3 = p2.after(m1r)
            if n1r not in p3.legal_moves() or p3.gives_check(n1r):
                continue
            loop = [m1, n1, m1r, n1r]
            idle = (not p1.targets_of(xq.parse_ours(m1)[1]) and not p2.targets_of(xq.parse_ours(n1)[1])
                    and not p3.targets_of(xq.parse_ours(m1r)[1])
                    and not p3.after(n1r).targets_of(xq.parse_ours(n1r)[1]))
            if idle:
                return loop
            best = best or loop
    return best


FINDERS = {"perpetual_check": find_check_loop, "chase": find_chase_loop,
           "shuffle": find_quiet_loop}


# ------------------------------------------------------------------- games

def _end_json(res):
    """(ended, value) -> [ended, value or null].  When pyffish answers ended=False
    the value is UNINITIALISED memory (seen: 32683), so it is not printed."""
    return [bool(res[0]), res[1] if res[0] else None]


class Game:
    def __init__(self, g, start_fen, opts):
        self.g, self.start_fen, self.opts = g, start_fen, opts
        self.pos = xq.Position(start_fen)
        self.moves, self.moves_py = [], []
        self.window = [self.pos.key()]   # repetition keys since the last capture
        self.verdicts = []
        self.legal = None                # pyffish legal moves (ours) of the current position

    def ply(self):
        return len(self.moves)

    def judge(self):
        """Ask pyffish about the current position; record a verdict if it is over."""
        self.legal = sorted(xq.py2ours(m) for m in sf.legal_moves(V, self.start_fen, self.moves_py))
        occ = self.window.count(self.pos.key())
        if not self.legal:
            over, opt = True, None
        elif self.opts["strict"] or occ >= 2 or self.pos.halfmove >= 100:
            # pyffish can only end a game with legal moves by repetition (the
            # current position occurred before since the last capture) or by
            # the move-count rule (halfmove clock >= 100); elsewhere skip the call.
            opt = sf.is_optional_game_end(V, self.start_fen, self.moves_py)
            over = opt[0]
            if over and occ < 3 and self.pos.halfmove < 100:
                raise RuntimeError("game %d ply %d: pyffish ends a game we thought impossible"
                                   % (self.g, self.ply()))
        else:
            over = False
        if over:
            self.verdicts.append(self.make_verdict(occ, opt))
        return over

    def make_verdict(self, occ, opt):
        sf_moves = self.moves_py
        in_check = sf.gives_check(V, self.start_fen, sf_moves)
        imm = sf.is_immediate_game_end(V, self.start_fen, sf_moves)
        if opt is None:
            opt = sf.is_optional_game_end(V, self.start_fen, sf_moves)
        gres = None
        red = self.pos.red
        if not self.legal:
            gres = sf.game_result(V, self.start_fen, sf_moves)
            value = gres
            reason = "checkmate" if in_check else "stalemate"
        else:
            value = opt[1]
            reason = self.classify_optional(value, occ)
        if value > 0:
            result = "1-0" if red else "0-1"
        elif value < 0:
            result = "0-1" if red else "1-0"
        else:
            result = "1/2-1/2"
        return {"ply": self.ply(), "result": result, "reason": reason,
                "side_to_move": "w" if red else "b", "occurrence": occ,
                "halfmove": self.pos.halfmove, "fen": self.pos.fen(),
                "pyffish": {"legal_moves": len(self.legal), "in_check": in_check,
                            "optional_game_end": _end_json(opt),
                            "immediate_game_end": _end_json(imm),
                            "game_result": gres}}

    def classify_optional(self, value, occ):
        if occ < 3:
            return "move_rule"
        if value == 0 and self.pos.halfmove >= 100:
            return "move_rule"   # pyffish tests the move-count rule first
        # Perpetual-check flags over the repeated span, from pyffish's check
        # flags (SAN "+"/"#" == gives_check of each move).
        n = self.ply()
        key = self.pos.key()
        # window[j] is the position after (n - len(window) + 1 + j) moves
        base = n - len(self.window) + 1
        occ_plies = [base + j for j, k in enumerate(self.window) if k == key]
        first = occ_plies[-3]           # the earliest of the last three occurrences
        sans = sf.get_san_moves(V, self.start_fen, self.moves_py,
                                False, sf.NOTATION_SAN)
        # chk[p]: side to move in check after p moves
        chk = [sf.gives_check(V, self.start_fen, [])] + [s[-1] in "+#" for s in sans]
        them = all(chk[p] for p in range(n, first - 1, -2))      # side that just moved
        us = all(chk[p] for p in range(n - 1, first, -2))        # side to move
        if them and us:
            return "mutual_perpetual_check"
        if them or us:
            return "perpetual_check"
        return "perpetual_chase" if value != 0 else "repetition_draw"

    def play(self, m):
        if m not in self.legal:
            raise RuntimeError("game %d: planned move %s not legal per pyffish" % (self.g, m))
        capture = self.pos.play(m)
        self.moves.append(m)
        self.moves_py.append(xq.ours2py(m))
        if capture is not None:
            self.window = []
        self.window.append(self.pos.key())


def random_move(rng, pos, legal, bias, quiet_only=False, avoid=None):
    cands = legal
    if quiet_only:
        cands = [m for m in cands if not pos.is_capture(m)]
    if avoid is not None:
        cands = [m for m in cands if pos.after(m).key() not in avoid] or cands
    if not cands:
        return None
    if rng.random() < bias:
        forcing = [m for m in cands if pos.is_capture(m) or pos.gives_check(m)]
        if forcing:
            return rng.choice(forcing)
    return rng.choice(cands)


def play_game(task):
    g, start_fen, opts = task
    rng = random.Random("rules:%d:%d" % (opts["seed"], g))
    mode = MODES[g % len(MODES)]
    game = Game(g, start_fen, opts)
    max_plies = opts["max_plies"]
    loop, loop_info, loop_i = None, None, 0
    prefix = rng.randint(0, 60) if mode != "move_rule" else rng.randint(0, 40)
    searches = 0
    check_pref = rng.random() < 0.5            # move_rule mode: prefer checks?
    extra_left = None

    over = game.judge()
    while game.ply() < max_plies:
        if over:
            if extra_left is None:
                extra_left = opts["extra_plies"]
            if extra_left <= 0 or not game.legal:
                break
            extra_left -= 1
        pos, legal = game.pos, game.legal
        m = None
        if loop is not None:
            m = loop[loop_i % 4]
            loop_i += 1
            if m not in legal or loop_i > 24:
                loop, m = None, None
        if m is None and mode in FINDERS and game.ply() >= prefix and loop_info is None \
                and searches < 60:
            searches += 1
            found = FINDERS[mode](pos, rng)
            if found and found[0] in legal:
                loop, loop_i = found, 1
                loop_info = {"start_ply": game.ply(), "moves": found}
                m = found[0]
        if m is None:
            if mode == "move_rule" and game.ply() >= prefix:
                seen = set(game.window)
                quiet = [x for x in legal if not pos.is_capture(x)]
                fresh = [x for x in quiet if pos.after(x).key() not in seen]
                cands = fresh or quiet or legal
                checks = [x for x in cands if pos.gives_check(x)] if check_pref else []
                pool = checks if checks and rng.random() < 0.7 else cands
                # do not end the game by mate/stalemate if it can be avoided
                m = rng.choice(pool)
                for x in rng.sample(pool, len(pool)):
                    if pos.after(x).legal_moves():
                        m = x
                        break
            else:
                m = random_move(rng, pos, legal, opts["bias"] if mode != "random" else 0.5)
        game.play(m)
        over = game.judge() or over

    final = sf.get_fen(V, start_fen, game.moves_py)
    if final != game.pos.fen():
        raise RuntimeError("FEN mismatch at end of game %d: pyffish %s, ours %s"
                           % (g, final, game.pos.fen()))
    rec = {"game": g, "mode": mode, "start_fen": start_fen, "moves": game.moves,
           "loop": loop_info, "verdicts": game.verdicts,
           "result": game.verdicts[0]["result"] if game.verdicts else None}
    first = game.verdicts[0]["reason"] if game.verdicts else "unfinished"
    return json.dumps(rec, separators=(",", ":")), mode, first, game.ply()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--extra-plies", type=int, default=0,
                    help="keep playing this many plies after the first verdict")
    ap.add_argument("--bias", type=float, default=0.3,
                    help="probability of preferring captures/checks in random moves")
    ap.add_argument("--fens", help="file with start FENs, one per line")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--strict", action="store_true",
                    help="query is_optional_game_end at every ply")
    a = ap.parse_args()

    if a.fens:
        with open(a.fens) as fh:
            fens = [normalise_fen(l.strip()) for l in fh
                    if l.strip() and not l.lstrip().startswith("#")]
    else:
        fens = [sf.start_fen(V)]
    opts = {"seed": a.seed, "max_plies": a.max_plies, "extra_plies": a.extra_plies,
            "bias": a.bias, "strict": a.strict}
    tasks = [(g, fens[g % len(fens)], opts) for g in range(a.games)]

    t0 = time.time()
    pool = multiprocessing.Pool(a.jobs) if a.jobs > 1 else None
    results = pool.imap(play_game, tasks) if pool else map(play_game, tasks)
    by_reason, by_mode, plies = {}, {}, 0
    for line, mode, reason, n in results:
        sys.stdout.write(line + "\n")
        by_reason[reason] = by_reason.get(reason, 0) + 1
        by_mode.setdefault(mode, {})
        by_mode[mode][reason] = by_mode[mode].get(reason, 0) + 1
        plies += n
    if pool:
        pool.close()
        pool.join()
    print("rules_oracle: pyffish %s, %d games, %d plies, %.1f s"
          % (".".join(map(str, sf.version())), a.games, plies, time.time() - t0), file=sys.stderr)
    print("first verdicts: %s" % json.dumps(by_reason, sort_keys=True), file=sys.stderr)
    for mode in sorted(by_mode):
        print("  mode %-16s %s" % (mode, json.dumps(by_mode[mode], sort_keys=True)), file=sys.stderr)


if __name__ == "__main__":
    main()
