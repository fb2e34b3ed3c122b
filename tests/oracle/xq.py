"""Small pure-Python Xiangqi helpers shared by the oracle scripts.

IMPORTANT: nothing in here is a source of truth for the differential tests.
Every legal-move list, check flag and game verdict that the oracle scripts
print comes from pyffish.  This module only

  * converts between pyffish's move coordinates (ranks 1-10) and ours
    (UCCI/ICCS, ranks 0-9),
  * keeps a board in sync with the moves played, so that a FEN can be printed
    for every ply without an extra (slow, ~4.5 ms) pyffish call; the scripts
    compare this FEN with pyffish.get_fen() at the end of every game and abort
    on any difference,
  * offers a rough move generator / attack test used to *steer* the random
    games (prefer checks, find repetition loops).  If it were wrong, the only
    consequence would be a worse choice of moves: a planned move that pyffish
    does not list as legal is never played.

Board layout: a list of 90 entries, index = rank * 9 + file, rank 0 is Red's
back rank, file 0 is file 'a' (left as seen by Red).  Entries are FEN piece
letters ('K','A','B','N','R','C','P' for Red, lower case for Black) or None.
"""

import re

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
VARIANT = "xiangqi"
FILES = "abcdefghi"

# pyffish accepts H/E as aliases on input but always prints N/B.
_ALIASES = {"h": "n", "e": "b", "H": "N", "E": "B"}

_PY_MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
_OUR_MOVE = re.compile(r"^([a-i])([0-9])([a-i])([0-9])$")


# ---------------------------------------------------------------- coordinates

def py2ours(m):
    """'h3e3' -> 'h2e2', 'a10a9' -> 'a9a8' (pyffish ranks 1-10 -> ours 0-9)."""
    g = _PY_MOVE.match(m)
    if not g:
        raise ValueError("not a pyffish xiangqi move: %r" % m)
    return "%s%d%s%d" % (g.group(1), int(g.group(2)) - 1, g.group(3), int(g.group(4)) - 1)


def ours2py(m):
    """'h2e2' -> 'h3e3', 'a9a8' -> 'a10a9'."""
    g = _OUR_MOVE.match(m)
    if not g:
        raise ValueError("not a UCCI move: %r" % m)
    return "%s%d%s%d" % (g.group(1), int(g.group(2)) + 1, g.group(3), int(g.group(4)) + 1)


def sq(file, rank):
    return rank * 9 + file


def sq_name(s):
    return "%s%d" % (FILES[s % 9], s // 9)


def parse_ours(m):
    """'h2e2' -> (from_square, to_square) board indices."""
    return (FILES.index(m[0]) + 9 * int(m[1]), FILES.index(m[2]) + 9 * int(m[3]))


def make_ours(frm, to):
    return sq_name(frm) + sq_name(to)


def reverse_move(m):
    """Reverse of a UCCI move ('h2e2' -> 'e2h2')."""
    return m[2:4] + m[0:2]


# ----------------------------------------------------------------------- FEN

class Position:
    """Board + side to move + the two FEN counters, kept in pyffish's format.

    Counter semantics observed in pyffish 0.0.90 (xiangqi):
      * halfmove clock: +1 every ply, reset to 0 ONLY by captures (soldier
        moves do not reset it, unlike chess pawns);
      * fullmove number: +1 after each Black move.
    """

    __slots__ = ("board", "red", "halfmove", "fullmove")

    def __init__(self, fen=START_FEN):
        parts = fen.split()
        rows = parts[0].split("/")
        if len(rows) != 10:
            raise ValueError("bad FEN (need 10 ranks): %r" % fen)
        board = [None] * 90
        for i, row in enumerate(rows):
            rank = 9 - i
            f = 0
            for ch in re.findall(r"\d+|.", row):
                if ch.isdigit():
                    f += int(ch)
                else:
                    board[sq(f, rank)] = _ALIASES.get(ch, ch)
                    f += 1
            if f != 9:
                raise ValueError("bad FEN rank %r in %r" % (row, fen))
        self.board = board
        side = parts[1] if len(parts) > 1 else "w"
        if side not in ("w", "b", "r"):
            raise ValueError("bad side to move in FEN %r" % fen)
        self.red = side in ("w", "r")
        self.halfmove = int(parts[4]) if len(parts) > 4 else 0
        self.fullmove = int(parts[5]) if len(parts) > 5 else 1

    def copy(self):
        p = Position.__new__(Position)
        p.board = self.board[:]
        p.red = self.red
        p.halfmove = self.halfmove
        p.fullmove = self.fullmove
        return p

    def board_fen(self):
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for f in range(9):
                pc = self.board[sq(f, rank)]
                if pc is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += pc
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def key(self):
        """Repetition key: board + side to move (no castling/ep in xiangqi)."""
        return self.board_fen() + (" w" if self.red else " b")

    def fen(self):
        """FEN exactly as pyffish.get_fen() prints it for xiangqi."""
        return "%s %s - - %d %d" % (self.board_fen(), "w" if self.red else "b",
                                     self.halfmove, self.fullmove)

    def is_capture(self, m):
        return self.board[parse_ours(m)[1]] is not None

    def play(self, m):
        """Apply a UCCI move in place (no legality check)."""
        frm, to = parse_ours(m)
        pc = self.board[frm]
        if pc is None:
            raise ValueError("no piece on %s for move %s" % (sq_name(frm), m))
        captured = self.board[to]
        self.board[to] = pc
        self.board[frm] = None
        self.halfmove = 0 if captured is not None else self.halfmove + 1
        if not self.red:
            self.fullmove += 1
        self.red = not self.red
        return captured

    def after(self, m):
        p = self.copy()
        p.play(m)
        return p

    # ------------------------------------------------------ steering helpers
    # (rough but complete xiangqi rules; see the module docstring)

    def king_square(self, red):
        k = "K" if red else "k"
        for s in (range(0, 27) if red else range(63, 90)):
            if self.board[s] == k:
                return s
        return None

    def attacked(self, s, by_red):
        """Is square s attacked by the given side (incl. the flying general)?"""
        b = self.board
        f, r = s % 9, s // 9
        rook, cannon, king = ("R", "C", "K") if by_red else ("r", "c", "k")
        # lines: rook, cannon, facing general
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            ff, rr, screens = f + df, r + dr, 0
            while 0 <= ff < 9 and 0 <= rr < 10:
                pc = b[sq(ff, rr)]
                if pc is not None:
                    if screens == 0:
                        if pc == rook or (pc == king and df == 0):
                            return True
                    elif screens == 1 and pc == cannon:
                        return True
                    screens += 1
                    if screens > 1:
                        break
                ff += df
                rr += dr
        # horses: a horse at (f+a, r+b) reaches s if its leg square is empty
        horse = "N" if by_red else "n"
        for a, bb, la, lb in ((1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
                              (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0)):
            hf, hr = f + a, r + bb
            if 0 <= hf < 9 and 0 <= hr < 10 and b[sq(hf, hr)] == horse:
                # leg is next to the horse, one step toward s along the long leg
                lf, lr = hf - la, hr - lb
                if b[sq(lf, lr)] is None:
                    return True
        # soldiers
        if by_red:
            if r - 1 >= 0 and b[sq(f, r - 1)] == "P":
                return True
            for ff in (f - 1, f + 1):
                if 0 <= ff < 9 and r >= 5 and b[sq(ff, r)] == "P":
                    return True
        else:
            if r + 1 <= 9 and b[sq(f, r + 1)] == "p":
                return True
            for ff in (f - 1, f + 1):
                if 0 <= ff < 9 and r <= 4 and b[sq(ff, r)] == "p":
                    return True
        # Advisors, elephants and the king's own step can never reach the enemy
        # king, so they are irrelevant for checks.
        return False

    def in_check(self, red=None):
        if red is None:
            red = self.red
        k = self.king_square(red)
        return k is not None and self.attacked(k, not red)

    def pseudo_moves(self, red=None):
        """Pseudo-legal moves (UCCI) of one side, ignoring self-check."""
        if red is None:
            red = self.red
        b = self.board
        own = str.isupper if red else str.islower
        out = []

        def add(frm, to):
            pc = b[to]
            if pc is None or not own(pc):
                out.append(make_ours(frm, to))

        for s in range(90):
            pc = b[s]
            if pc is None or not own(pc):
                continue
            f, r = s % 9, s // 9
            t = pc.upper()
            if t == "K" or t == "A":
                steps = ((1, 0), (-1, 0), (0, 1), (0, -1)) if t == "K" else ((1, 1), (1, -1), (-1, 1), (-1, -1))
                for df, dr in steps:
                    ff, rr = f + df, r + dr
                    if 3 <= ff <= 5 and ((0 <= rr <= 2) if red else (7 <= rr <= 9)):
                        add(s, sq(ff, rr))
            elif t == "B":
                for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
                    ff, rr = f + df, r + dr
                    if 0 <= ff < 9 and ((0 <= rr <= 4) if red else (5 <= rr <= 9)):
                        if b[sq(f + df // 2, r + dr // 2)] is None:
                            add(s, sq(ff, rr))
            elif t == "N":
                for df, dr, lf, lr in ((1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
                                       (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0)):
                    ff, rr = f + df, r + dr
                    if 0 <= ff < 9 and 0 <= rr < 10 and b[sq(f + lf, r + lr)] is None:
                        add(s, sq(ff, rr))
            elif t == "R" or t == "C":
                for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    ff, rr, jumped = f + df, r + dr, False
                    while 0 <= ff < 9 and 0 <= rr < 10:
                        tp = b[sq(ff, rr)]
                        if t == "R":
                            add(s, sq(ff, rr))
                            if tp is not None:
                                break
                        elif not jumped:
                            if tp is None:
                                out.append(make_ours(s, sq(ff, rr)))
                            else:
                                jumped = True
                        elif tp is not None:
                            add(s, sq(ff, rr))
                            break
                        ff += df
                        rr += dr
            elif t == "P":
                fwd = 1 if red else -1
                if 0 <= r + fwd < 10:
                    add(s, sq(f, r + fwd))
                if (r >= 5) if red else (r <= 4):
                    for ff in (f - 1, f + 1):
                        if 0 <= ff < 9:
                            add(s, sq(ff, r))
        return out

    def legal_moves(self):
        """Legal moves by our own rough rules (steering only, see docstring)."""
        res = []
        for m in self.pseudo_moves():
            p = self.after(m)
            if not p.in_check(self.red):
                res.append(m)
        return res

    def gives_check(self, m):
        return self.after(m).in_check()

    def targets_of(self, s):
        """Squares of enemy pieces that the piece on s could capture now."""
        pc = self.board[s]
        if pc is None:
            return []
        p = self.copy()
        p.red = pc.isupper()
        return [parse_ours(m)[1] for m in p.pseudo_moves()
                if m[:2] == sq_name(s) and p.board[parse_ours(m)[1]] is not None]

    def defended(self, s):
        """Could the owner of the piece on s recapture on s (legally)?"""
        pc = self.board[s]
        if pc is None:
            return False
        q = self.copy()
        q.board[s] = "r" if pc.isupper() else "R"   # pretend an enemy piece captured there
        q.red = pc.isupper()
        name = sq_name(s)
        return any(m[2:4] == name for m in q.legal_moves())
