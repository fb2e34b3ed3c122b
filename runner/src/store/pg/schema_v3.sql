-- Version 3 of the xq-runner schema, over version 2: the database is the only judge of
-- a run. A worker hands in the games of a batch it holds, and nothing else: the server
-- checks every game, derives the counts from the games it stores, and decides itself
-- whether the run ends (the SPRT, the regression gate, the fault limits, the last pair),
-- so that no worker can set counts, a verdict or an exit code. Why the database and not a
-- process of the owner: a run submitted with `submit` has no process of its owner left
-- to close it, and an SPRT must stop when its bound is crossed, at the batch that
-- crosses it, whoever plays. The rules it applies are the runner's (local_run/ending.rs);
-- the tests hold the two to the same answers.
--
-- `db init` runs this after version 2 for a new database, and alone to upgrade one of
-- version 2; it then fills the columns below for the runs already there from their
-- configs (a run whose config no longer reads here keeps them empty and is refused by
-- the submit of its batches, with a message).

-- What the server needs to judge a run, written by its owner at submit (workers cannot
-- write a table): the engine names in config order; the pairings as engine indexes,
-- flattened (pairing k plays engines[pairings[2k+1]] with Red in game 0 against
-- engines[pairings[2k+2]]); the SPRT on the first pairing (elo0, elo1, alpha, beta,
-- model), the gate's minimum Elo, and the fault limits (max_crashes, max_time_losses,
-- max_illegal_moves). `penta` is the first pairing's pentanomial count, derived from
-- the stored games by xq.submit_batch alone.
ALTER TABLE xq.runs ADD COLUMN engines text[];
ALTER TABLE xq.runs ADD COLUMN pairings integer[];
ALTER TABLE xq.runs ADD COLUMN sprt jsonb;
ALTER TABLE xq.runs ADD COLUMN gate_min_elo double precision;
ALTER TABLE xq.runs ADD COLUMN fault_limits bigint[];
ALTER TABLE xq.runs ADD COLUMN penta bigint[] NOT NULL DEFAULT '{0,0,0,0,0}';
ALTER TABLE xq.runs DROP COLUMN counts;

-- Each game's facts, read by the server from its entry when it is stored: what the
-- counts, the ending and `verify` work from. Games of version 2 get them from their
-- entries below; an entry that is not JSON keeps them empty (counted nowhere, and listed
-- by `verify`).
ALTER TABLE xq.games ADD COLUMN red text;
ALTER TABLE xq.games ADD COLUMN black text;
ALTER TABLE xq.games ADD COLUMN result text;
ALTER TABLE xq.games ADD COLUMN reason text;
ALTER TABLE xq.games ADD COLUMN faulted text;
-- Red's and Black's moves over the clock, `[{"moves": n, "ms": t}, ...]`, when any.
ALTER TABLE xq.games ADD COLUMN over_clock jsonb;
CREATE INDEX games_faults ON xq.games (run_id) WHERE faulted IS NOT NULL;

-- The longest lease and the most pairs a claim may take, whatever a worker asks: the
-- worker's own `--lease` is bounded by the same hour.
INSERT INTO xq.meta VALUES ('max_lease_s', '3600'), ('max_claim_pairs', '4096');

-- An entry as JSON, or NULL when it is not a JSON object.
CREATE FUNCTION xq.entry_json(p_entry text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE SET search_path = xq, pg_temp AS $$
DECLARE
    v jsonb;
BEGIN
    v := p_entry::jsonb;
    RETURN CASE WHEN jsonb_typeof(v) = 'object' THEN v END;
EXCEPTION WHEN others THEN
    RETURN NULL;
END $$;

-- A JSON value as a whole number, or NULL when it is anything else.
CREATE FUNCTION xq.json_integer(p_value jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(p_value) = 'number' THEN
                CASE WHEN p_value::text::numeric = floor(p_value::text::numeric)
                     THEN p_value::text::numeric END
           END
$$;

DO $$
DECLARE
    g record;
    e jsonb;
BEGIN
    FOR g IN SELECT run_id, pair, game, entry FROM xq.games LOOP
        e := xq.entry_json(g.entry);
        CONTINUE WHEN e IS NULL;
        UPDATE xq.games SET red = e->>'red', black = e->>'black', result = e->>'result',
                reason = e->>'reason', faulted = e->>'faulted', over_clock = e->'over_clock'
            WHERE run_id = g.run_id AND pair = g.pair AND game = g.game;
    END LOOP;
END $$;

-- What is wrong with an entry's shape, or NULL when it has the journal entry's fields
-- with their types (store/journal.rs), so that every stored game reads back as one.
-- The fields by jsonpath, the per-move lists by a regular expression over their text
-- (both run in C; a list of 300 numbers is matched in microseconds).
CREATE FUNCTION xq.entry_problem(e jsonb) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = xq, pg_temp AS $$
    SELECT CASE
        WHEN e IS NULL THEN 'not a JSON object'
        WHEN jsonb_path_match(e, '$.red.type() == "string" && $.black.type() == "string"
                && $.start_fen.type() == "string" && $.moves.type() == "string"
                && (!exists($.opening_moves) || $.opening_moves.type() == "string")
                && (!exists($.faulted) || $.faulted.type() == "string" || $.faulted.type() == "null")
                && (!exists($.detail) || $.detail.type() == "string" || $.detail.type() == "null")')
             IS NOT TRUE
            THEN 'red, black, start_fen and moves must be strings (opening_moves, faulted and detail too, when given)'
        WHEN jsonb_path_match(e, '$.plies.type() == "number" && $.plies >= 0 && $.plies.floor() == $.plies
                && $.duration_ms.type() == "number" && $.duration_ms >= 0
                && $.duration_ms.floor() == $.duration_ms
                && (!exists($.opening) || $.opening.type() == "null"
                    || ($.opening.type() == "number" && $.opening >= 0 && $.opening.floor() == $.opening))')
             IS NOT TRUE
            THEN 'plies, duration_ms and opening must be whole numbers, 0 or more'
        WHEN (e->'times_ms')::text !~ '^\[(\d+(, \d+)*)?\]$'
             OR (e->'depths')::text !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR coalesce((e->'nodes')::text, '[]') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR coalesce((e->'nps')::text, '[]') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR coalesce((e->'seldepths')::text, '[]') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
            THEN 'times_ms and depths (and nodes, nps, seldepths, when given) must be lists of whole numbers, 0 or more'
        WHEN (e->'scores')::text !~ '^\[(("([^"\\]|\\.)*"|null)(, ("([^"\\]|\\.)*"|null))*)?\]$'
            THEN 'scores must be a list of texts and nulls'
        WHEN jsonb_path_match(e, '!exists($.over_clock) || ($.over_clock.type() == "array"
                && $.over_clock.size() == 2
                && !exists($.over_clock[*] ? (!(@.type() == "object"
                    && @.moves.type() == "number" && @.moves >= 0 && @.moves.floor() == @.moves
                    && @.ms.type() == "number" && @.ms >= 0 && @.ms.floor() == @.ms))))')
             IS NOT TRUE
            THEN 'over_clock must be Red''s and Black''s {"moves", "ms"}, whole numbers, 0 or more'
    END
$$;

-- The first pairing's pentanomial count of run p_run's games (of batch p_batch only,
-- unless NULL), its p_pairings pairings known: each of its pairs scored for its first
-- engine (Red in game 0), 0, 1/4, ..., 1 counted in buckets 1..5. `db init` counts the
-- runs of version 2 with it once their pairings are known.
CREATE FUNCTION xq.first_pairing_penta(p_run bigint, p_pairings integer, p_batch bigint)
RETURNS bigint[]
LANGUAGE sql STABLE SET search_path = xq, pg_temp AS $$
    SELECT ARRAY[count(*) FILTER (WHERE s = 0), count(*) FILTER (WHERE s = 1),
                 count(*) FILTER (WHERE s = 2), count(*) FILTER (WHERE s = 3),
                 count(*) FILTER (WHERE s = 4)]
    FROM (SELECT sum(CASE WHEN result = '1/2-1/2' THEN 1
                          WHEN (result = '1-0') = (game = 0) THEN 2 ELSE 0 END) AS s
          FROM xq.games
          WHERE run_id = p_run AND (p_batch IS NULL OR batch_id = p_batch)
            AND result IS NOT NULL AND pair % p_pairings = 0
          GROUP BY pair HAVING count(*) = 2) AS pairs
$$;

-- The known end reasons, and which are an engine's fault (game/outcome.rs).
CREATE FUNCTION xq.reason_kind(p_reason text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN p_reason IN ('time_forfeit', 'illegal_move', 'crash', 'stall', 'no_move') THEN 'fault'
        WHEN p_reason IN ('checkmate', 'stalemate', 'perpetual_check', 'perpetual_chase',
                          'adjudication_resign') THEN 'decisive'
        WHEN p_reason IN ('repetition', 'move_limit', 'insufficient_material',
                          'adjudication_draw', 'max_plies') THEN 'draw'
    END
$$;

-- fishtest's generalized SPRT, as stats/sprt.rs computes it: the counts regularized
-- (a zero becomes 1e-3), the maximum-likelihood fits under H0 and H1 (a secular
-- equation solved by bisection inside its poles, which is monotonic there), and
-- N * sum p ln(q1 / q0). NULL when a fit does not exist (the run goes on).
CREATE FUNCTION xq.secular(p_x double precision[], p_p double precision[])
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    lo double precision;
    hi double precision;
    mid double precision;
    f double precision;
    i integer;
BEGIN
    IF (SELECT min(x) FROM unnest(p_x) AS x) * (SELECT max(x) FROM unnest(p_x) AS x) >= 0 THEN
        RETURN NULL;
    END IF;
    lo := -1.0 / (SELECT max(x) FROM unnest(p_x) AS x) + 1e-9;
    hi := -1.0 / (SELECT min(x) FROM unnest(p_x) AS x) - 1e-9;
    -- f falls from + to - across (lo, hi): halve until the bracket stops shrinking.
    FOR i IN 1 .. 200 LOOP
        mid := lo + (hi - lo) / 2;
        EXIT WHEN mid <= lo OR mid >= hi;
        f := 0;
        FOR j IN 1 .. cardinality(p_x) LOOP
            f := f + p_p[j] * p_x[j] / (1 + mid * p_x[j]);
        END LOOP;
        IF f > 0 THEN
            lo := mid;
        ELSIF f < 0 THEN
            hi := mid;
        ELSE
            RETURN mid;
        END IF;
    END LOOP;
    RETURN lo + (hi - lo) / 2;
END $$;

CREATE FUNCTION xq.llr(p_penta bigint[], p_sprt jsonb) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    a double precision[] := '{0, 0.25, 0.5, 0.75, 1}';
    p double precision[] := '{}';
    q double precision[];
    fits double precision[][] := '{}';
    n double precision := 0;
    x double precision[];
    theta double precision;
    mu double precision;
    var double precision;
    sigma double precision;
    t double precision;
    moved double precision;
    elo double precision;
    s double precision;
    llr double precision := 0;
    h integer;
    i integer;
    k integer;
BEGIN
    FOR i IN 1 .. 5 LOOP
        p := p || CASE WHEN p_penta[i] = 0 THEN 1e-3 ELSE p_penta[i]::double precision END;
        n := n + p[i];
    END LOOP;
    FOR i IN 1 .. 5 LOOP
        p[i] := p[i] / n;
    END LOOP;
    FOR h IN 0 .. 1 LOOP
        elo := CASE h WHEN 0 THEN (p_sprt->>'elo0')::double precision
                      ELSE (p_sprt->>'elo1')::double precision END;
        IF p_sprt->>'model' = 'logistic' THEN
            s := 1 / (1 + power(10, -elo / 400));
            x := ARRAY(SELECT a[j] - s FROM generate_series(1, 5) AS j ORDER BY j);
            theta := xq.secular(x, p);
            IF theta IS NULL THEN
                RETURN NULL;
            END IF;
            q := ARRAY(SELECT p[j] / (1 + theta * x[j]) FROM generate_series(1, 5) AS j ORDER BY j);
        ELSE
            -- The t-value of a pair score: nElo / (800 / ln 10) * sqrt 2.
            t := elo / (800 / ln(10)) * sqrt(2);
            q := '{0.2, 0.2, 0.2, 0.2, 0.2}';
            FOR k IN 1 .. 10 LOOP
                mu := 0;
                FOR i IN 1 .. 5 LOOP
                    mu := mu + q[i] * a[i];
                END LOOP;
                var := 0;
                FOR i IN 1 .. 5 LOOP
                    var := var + q[i] * (a[i] - mu) ^ 2;
                END LOOP;
                sigma := sqrt(var);
                x := ARRAY(SELECT a[j] - 0.5 - t * sigma * (1 + ((mu - a[j]) / sigma) ^ 2) / 2
                           FROM generate_series(1, 5) AS j ORDER BY j);
                theta := xq.secular(x, p);
                IF theta IS NULL THEN
                    RETURN NULL;
                END IF;
                moved := 0;
                FOR i IN 1 .. 5 LOOP
                    moved := greatest(moved, abs(q[i] - p[i] / (1 + theta * x[i])));
                    q[i] := p[i] / (1 + theta * x[i]);
                END LOOP;
                EXIT WHEN moved < 1e-9;
            END LOOP;
        END IF;
        fits := fits || ARRAY[q];
    END LOOP;
    FOR i IN 1 .. 5 LOOP
        llr := llr + p[i] * (ln(fits[2][i]) - ln(fits[1][i]));
    END LOOP;
    RETURN n * llr;
EXCEPTION WHEN numeric_value_out_of_range OR invalid_argument_for_logarithm
               OR division_by_zero OR invalid_argument_for_power_function THEN
    RETURN NULL;
END $$;

-- Logistic Elo of the first pairing's regularized mean pair score (the gate's figure,
-- stats/elo.rs: the score clamped to [0.001, 0.999]).
CREATE FUNCTION xq.elo(p_penta bigint[]) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
    SELECT -400 * log(1 / least(greatest(sum(c * v) / sum(c), 0.001), 0.999) - 1)
    FROM unnest(ARRAY(SELECT CASE WHEN x = 0 THEN 1e-3 ELSE x::double precision END
                      FROM unnest(p_penta) AS x),
                '{0, 0.25, 0.5, 0.75, 1}'::double precision[]) AS u(c, v)
$$;

-- Whether run p_run ends now, and how (state, status, exit code), from its stored games
-- alone, in the order and the words the runner decides a local run's end with
-- (local_run/ending.rs): too many faults of one engine, an SPRT verdict, every pair
-- played. No row while it goes on.
CREATE FUNCTION xq.run_ending(p_run bigint)
RETURNS TABLE (state text, status text, exit_code integer)
LANGUAGE plpgsql STABLE SET search_path = xq, pg_temp AS $$
DECLARE
    r xq.runs%ROWTYPE;
    f record;
    llr double precision;
    lower double precision;
    upper double precision;
BEGIN
    SELECT * INTO r FROM xq.runs WHERE id = p_run;
    FOR f IN
        SELECT e.name, e.i,
               count(*) FILTER (WHERE g.reason IN ('crash', 'stall')) AS crashes,
               count(*) FILTER (WHERE g.reason = 'time_forfeit') AS time_losses,
               count(*) FILTER (WHERE g.reason IN ('illegal_move', 'no_move')) AS illegal
        FROM unnest(r.engines) WITH ORDINALITY AS e(name, i)
        JOIN xq.games g ON g.run_id = p_run AND g.faulted = e.name
        GROUP BY e.name, e.i ORDER BY e.i
    LOOP
        IF f.crashes > r.fault_limits[1] THEN
            RETURN QUERY SELECT 'aborted', format('aborted: %s crashed or stalled %s (faults.max_crashes = %s)',
                f.name, CASE f.crashes WHEN 1 THEN 'once' WHEN 2 THEN 'twice' ELSE f.crashes || ' times' END,
                r.fault_limits[1]), 4;
            RETURN;
        ELSIF f.time_losses > r.fault_limits[2] THEN
            RETURN QUERY SELECT 'aborted', format('aborted: %s lost %s game%s on time (faults.max_time_losses = %s)',
                f.name, f.time_losses, CASE WHEN f.time_losses = 1 THEN '' ELSE 's' END,
                r.fault_limits[2]), 4;
            RETURN;
        ELSIF f.illegal > r.fault_limits[3] THEN
            RETURN QUERY SELECT 'aborted', format('aborted: %s made %s illegal or missing move%s (faults.max_illegal_moves = %s)',
                f.name, f.illegal, CASE WHEN f.illegal = 1 THEN '' ELSE 's' END,
                r.fault_limits[3]), 4;
            RETURN;
        END IF;
    END LOOP;
    IF r.sprt IS NOT NULL THEN
        llr := xq.llr(r.penta, r.sprt);
        lower := ln((r.sprt->>'beta')::double precision / (1 - (r.sprt->>'alpha')::double precision));
        upper := ln((1 - (r.sprt->>'beta')::double precision) / (r.sprt->>'alpha')::double precision);
        IF llr > upper THEN
            RETURN QUERY SELECT 'finished', 'H1 accepted', 0;
            RETURN;
        ELSIF llr < lower THEN
            RETURN QUERY SELECT 'finished', 'H0 accepted', 1;
            RETURN;
        END IF;
    END IF;
    IF r.pairs_done >= r.total_pairs THEN
        IF r.gate_min_elo IS NOT NULL THEN
            IF xq.elo(r.penta) >= r.gate_min_elo THEN
                RETURN QUERY SELECT 'finished', 'gate passed', 0;
            ELSE
                RETURN QUERY SELECT 'finished', 'gate failed: Elo below the minimum', 1;
            END IF;
        ELSIF r.sprt IS NOT NULL THEN
            RETURN QUERY SELECT 'finished', 'finished without an SPRT verdict', 3;
        ELSE
            RETURN QUERY SELECT 'finished', 'finished', 0;
        END IF;
    END IF;
END $$;

-- The batch p_batch, if p_token holds it: the run locked until the transaction ends
-- (so that one submit at a time reads and writes it), then the batch; SQLSTATE XQ001
-- when the token no longer holds it (its lease was lost), XQ002 when the run is closed.
CREATE FUNCTION xq.held_batch(p_batch bigint, p_token uuid) RETURNS xq.batches
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
BEGIN
    SELECT * INTO b FROM xq.batches WHERE id = p_batch;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'batch % does not exist', p_batch USING ERRCODE = 'XQ001';
    END IF;
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id FOR UPDATE;
    SELECT * INTO b FROM xq.batches WHERE id = p_batch FOR UPDATE;
    IF b.token <> p_token OR b.state <> 'claimed' THEN
        RAISE EXCEPTION 'batch % is no longer this worker''s (its lease was lost)', p_batch
            USING ERRCODE = 'XQ001';
    END IF;
    IF r.state <> 'open' THEN
        RAISE EXCEPTION 'run % is %', r.id, r.state USING ERRCODE = 'XQ002';
    END IF;
    RETURN b;
END $$;

-- Raised for a batch whose games the server refuses: nothing of it is stored.
CREATE FUNCTION xq.refuse_games(p_batch bigint, p_why text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'batch %: %', p_batch, p_why USING ERRCODE = 'XQ003';
END $$;

-- Submits a played batch: its games, every one of its pairs x 2 and no other, each
-- checked (a JSON object; its pair and game of this batch, once; the engines the
-- schedule gives that game, Red and Black; a known result and reason that agree, the
-- faulted engine one of the two and the loser). The server stores them, counts them,
-- and closes the run when they end it. `p_busy_s`, the worker's time on the batch (for
-- games per second in `status`), is bounded by the time since its claim.
-- Returns the run's state, status and exit code after the batch.
CREATE FUNCTION xq.submit_batch(p_batch bigint, p_token uuid, p_entries text[],
    p_busy_s double precision)
RETURNS TABLE (state text, status text, exit_code integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
    pairings integer;
    refused text;
    faults bigint;
    d bigint[];
    ending record;
BEGIN
    b := xq.held_batch(p_batch, p_token);
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id;
    IF r.kind <> 'match' THEN
        PERFORM xq.refuse_games(p_batch, format('run %s is a %s, not a match', r.id, r.kind));
    END IF;
    IF r.engines IS NULL THEN
        PERFORM xq.refuse_games(p_batch, format(
            'run %s has no engines on record (stored by an older runner; `db init` as its owner fills them)', r.id));
    END IF;
    IF cardinality(p_entries) IS DISTINCT FROM 2 * b.pairs THEN
        PERFORM xq.refuse_games(p_batch, format('%s games sent, the batch holds %s',
            coalesce(cardinality(p_entries), 0), 2 * b.pairs));
    END IF;
    pairings := cardinality(r.pairings) / 2;
    -- Every game read once, checked in one pass, and stored only if none is wrong: the
    -- first problem in the order sent is the one named.
    WITH sent AS MATERIALIZED (
        -- Materialized: each entry is parsed and its shape checked once, however often
        -- the queries below name it.
        SELECT u.i, u.t, j.e, xq.entry_problem(j.e) AS shape
        FROM unnest(p_entries) WITH ORDINALITY AS u(t, i),
             LATERAL (SELECT CASE WHEN length(u.t) <= 1048576 THEN xq.entry_json(u.t) END AS e) AS j
    ), read AS MATERIALIZED (
        SELECT s.i, s.t, s.e, s.shape, xq.json_integer(s.e->'pair') AS pair,
               xq.json_integer(s.e->'game') AS game, s.e->>'result' AS result,
               xq.reason_kind(s.e->>'reason') AS kind
        FROM sent AS s
    ), placed AS (
        SELECT d.*,
               CASE WHEN d.pair BETWEEN b.first_pair AND b.first_pair + b.pairs - 1
                         AND d.game IN (0, 1) THEN
                   r.engines[r.pairings[2 * (d.pair % pairings)::integer + 1 + d.game::integer] + 1]
               END AS red,
               CASE WHEN d.pair BETWEEN b.first_pair AND b.first_pair + b.pairs - 1
                         AND d.game IN (0, 1) THEN
                   r.engines[r.pairings[2 * (d.pair % pairings)::integer + 2 - d.game::integer] + 1]
               END AS black
        FROM read AS d
    ), judged AS (
        SELECT p.*,
               CASE p.result WHEN '1-0' THEN p.black WHEN '0-1' THEN p.red END AS loser
        FROM placed AS p
    ), checked AS (
        SELECT j.*, CASE
            WHEN length(j.t) > 1048576 THEN format('game %s: longer than 1 MiB', j.i)
            WHEN j.shape IS NOT NULL THEN format('game %s: %s', j.i, j.shape)
            WHEN j.red IS NULL
                THEN format('game %s: pair %s game %s is not one of pairs %s..%s', j.i,
                            coalesce(j.e->>'pair', 'none'), coalesce(j.e->>'game', 'none'),
                            b.first_pair, b.first_pair + b.pairs - 1)
            WHEN j.e->>'red' IS DISTINCT FROM j.red OR j.e->>'black' IS DISTINCT FROM j.black
                THEN format('pair %s game %s: Red %s and Black %s, the schedule says %s and %s',
                            j.pair, j.game, j.e->'red', j.e->'black', j.red, j.black)
            WHEN j.result IS NULL OR j.result NOT IN ('1-0', '0-1', '1/2-1/2') OR j.kind IS NULL
                THEN format('pair %s game %s: result %s by %s is not known', j.pair, j.game,
                            coalesce(j.e->'result', 'null'), coalesce(j.e->'reason', 'null'))
            WHEN (j.kind = 'draw') <> (j.loser IS NULL)
                 OR (j.kind = 'fault') <> (j.e->>'faulted' IS NOT NULL)
                 OR (j.kind = 'fault' AND j.e->>'faulted' IS DISTINCT FROM j.loser)
                THEN format('pair %s game %s: %s by %s (faulted %s) do not agree', j.pair, j.game,
                            j.result, j.e->>'reason', coalesce(j.e->>'faulted', 'none'))
            WHEN count(*) OVER (PARTITION BY j.pair, j.game) > 1
                THEN format('pair %s game %s: sent twice', j.pair, j.game)
        END AS problem
        FROM judged AS j
    ), first_problem AS (
        SELECT c.problem FROM checked AS c WHERE c.problem IS NOT NULL ORDER BY c.i LIMIT 1
    ), stored AS (
        INSERT INTO xq.games (run_id, pair, game, batch_id, entry, red, black, result, reason,
                              faulted, over_clock)
            SELECT b.run_id, c.pair, c.game, b.id, c.t, c.red, c.black, c.result,
                   c.e->>'reason', c.e->>'faulted', c.e->'over_clock'
            FROM checked AS c
            WHERE NOT EXISTS (SELECT 1 FROM first_problem)
            RETURNING xq.games.reason
    )
    SELECT (SELECT f.problem FROM first_problem AS f),
           (SELECT count(*) FILTER (WHERE xq.reason_kind(g.reason) = 'fault') FROM stored AS g)
        INTO refused, faults;
    IF refused IS NOT NULL THEN
        PERFORM xq.refuse_games(p_batch, refused);
    END IF;
    d := xq.first_pairing_penta(b.run_id, pairings, b.id);
    UPDATE xq.batches SET state = 'done', done_at = now() WHERE id = p_batch;
    UPDATE xq.runs SET pairs_done = pairs_done + b.pairs, games_done = games_done + 2 * b.pairs,
            penta = ARRAY[penta[1] + d[1], penta[2] + d[2], penta[3] + d[3], penta[4] + d[4],
                          penta[5] + d[5]]
        WHERE id = b.run_id;
    INSERT INTO xq.run_workers AS w (run_id, worker, batches, games, faults, busy_s)
        VALUES (b.run_id, b.worker, 1, 2 * b.pairs, faults,
                least(greatest(coalesce(p_busy_s, 0), 0),
                      extract(epoch from now() - b.claimed_at)::double precision))
        ON CONFLICT (run_id, worker) DO UPDATE SET batches = w.batches + 1,
            games = w.games + excluded.games, faults = w.faults + excluded.faults,
            busy_s = w.busy_s + excluded.busy_s, last_at = now();
    SELECT * INTO ending FROM xq.run_ending(b.run_id);
    IF FOUND THEN
        UPDATE xq.runs SET state = ending.state, status = ending.status,
                exit_code = ending.exit_code, ended_at = now()
            WHERE id = b.run_id;
        -- Workers waiting for the run's last leases may stop waiting.
        PERFORM pg_notify('xq_runs', b.run_id::text);
        RETURN QUERY SELECT ending.state, ending.status, ending.exit_code;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'open'::text, 'open'::text, NULL::integer;
END $$;

-- The first half of a tune batch's submit: checks the batch is still this worker's,
-- locks the run until the transaction ends (so that theta is read and written by one
-- batch at a time), and returns its SPSA state.
CREATE FUNCTION xq.begin_tune_submit(p_batch bigint, p_token uuid) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
BEGIN
    b := xq.held_batch(p_batch, p_token);
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id;
    RETURN r.tune::text;
END $$;

-- A tune batch's submit: the records and theta are still the worker's (the SPSA update
-- runs on the worker), but the server checks that the state keeps the run's parameters
-- and schedule, that theta is finite and inside each parameter's range, and decides the
-- end itself (every iteration applied).
CREATE FUNCTION xq.submit_tune_batch(p_batch bigint, p_token uuid, p_iterations bigint[],
    p_records text[], p_tune jsonb, p_faults bigint, p_busy_s double precision)
RETURNS TABLE (state text, status text, exit_code integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
    ended boolean;
BEGIN
    b := xq.held_batch(p_batch, p_token);
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id;
    IF r.kind <> 'tune' OR p_tune IS NULL THEN
        PERFORM xq.refuse_games(p_batch, format('run %s is not a tune', r.id));
    END IF;
    IF p_tune->'params' IS DISTINCT FROM r.tune->'params'
       OR p_tune->'schedule' IS DISTINCT FROM r.tune->'schedule'
       OR jsonb_typeof(p_tune->'theta') <> 'array'
       OR jsonb_array_length(p_tune->'theta') <> jsonb_array_length(r.tune->'params')
       OR EXISTS (SELECT 1 FROM jsonb_array_elements(p_tune->'theta') WITH ORDINALITY AS t(v, i)
                  WHERE CASE WHEN jsonb_typeof(t.v) <> 'number' THEN true
                             ELSE t.v::text::numeric NOT BETWEEN
                                  (r.tune->'params'->(t.i::integer - 1)->>'min')::numeric
                                  AND (r.tune->'params'->(t.i::integer - 1)->>'max')::numeric
                        END) THEN
        PERFORM xq.refuse_games(p_batch, 'the tune state changes more than theta, or theta leaves its range');
    END IF;
    -- Iteration k is pair k - 1: the batch's pairs, each once, each record its JSON.
    IF cardinality(p_iterations) <> b.pairs OR cardinality(p_records) <> b.pairs
       OR (SELECT count(DISTINCT k) FROM unnest(p_iterations) AS k
           WHERE k - 1 >= b.first_pair AND k - 1 < b.first_pair + b.pairs) <> b.pairs
       OR EXISTS (SELECT 1 FROM unnest(p_iterations, p_records) AS g(k, record)
                  WHERE (xq.entry_json(g.record)->>'iteration') IS DISTINCT FROM g.k::text) THEN
        PERFORM xq.refuse_games(p_batch, 'the records are not the batch''s iterations');
    END IF;
    INSERT INTO xq.tune_records (run_id, iteration, applied, batch_id, record)
        SELECT b.run_id, g.k, r.pairs_done + g.i, b.id, g.record
        FROM unnest(p_iterations, p_records) WITH ORDINALITY AS g(k, record, i);
    UPDATE xq.batches SET state = 'done', done_at = now() WHERE id = p_batch;
    ended := r.pairs_done + b.pairs >= r.total_pairs;
    UPDATE xq.runs AS u SET tune = p_tune, pairs_done = u.pairs_done + b.pairs,
            games_done = u.games_done + 2 * b.pairs,
            state = CASE WHEN ended THEN 'finished' ELSE u.state END,
            status = CASE WHEN ended THEN 'finished' ELSE u.status END,
            exit_code = CASE WHEN ended THEN 0 ELSE u.exit_code END,
            ended_at = CASE WHEN ended THEN now() ELSE u.ended_at END
        WHERE u.id = b.run_id;
    IF ended THEN
        PERFORM pg_notify('xq_runs', b.run_id::text);
    END IF;
    INSERT INTO xq.run_workers AS w (run_id, worker, batches, games, faults, busy_s)
        VALUES (b.run_id, b.worker, 1, 2 * b.pairs, least(greatest(p_faults, 0), 2 * b.pairs),
                least(greatest(coalesce(p_busy_s, 0), 0),
                      extract(epoch from now() - b.claimed_at)::double precision))
        ON CONFLICT (run_id, worker) DO UPDATE SET batches = w.batches + 1,
            games = w.games + excluded.games, faults = w.faults + excluded.faults,
            busy_s = w.busy_s + excluded.busy_s, last_at = now();
    RETURN QUERY SELECT u.state, u.status, u.exit_code FROM xq.runs AS u WHERE u.id = b.run_id;
END $$;

-- Claims as version 1 did, within bounds: a lease of 1 s to the longest (meta
-- max_lease_s), at most max_claim_pairs pairs, a worker's name of at most 100
-- characters.
CREATE OR REPLACE FUNCTION xq.claim_batch(p_run bigint, p_worker text, p_pairs integer, p_lease_s double precision)
RETURNS TABLE (batch_id bigint, token uuid, first_pair bigint, pairs integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    r xq.runs%ROWTYPE;
    b xq.batches%ROWTYPE;
    n integer;
    live bigint;
    max_lease double precision := (SELECT value::double precision FROM xq.meta WHERE key = 'max_lease_s');
    max_pairs integer := (SELECT value::integer FROM xq.meta WHERE key = 'max_claim_pairs');
BEGIN
    IF p_lease_s IS NULL OR NOT (p_lease_s >= 0.3 AND p_lease_s <= max_lease) THEN
        RAISE EXCEPTION 'a lease of % s: it must be 0.3 s to % s', p_lease_s, max_lease
            USING ERRCODE = 'XQ003';
    END IF;
    IF p_worker IS NULL OR length(p_worker) NOT BETWEEN 1 AND 100 THEN
        RAISE EXCEPTION 'a worker''s name must have 1 to 100 characters' USING ERRCODE = 'XQ003';
    END IF;
    SELECT * INTO r FROM xq.runs WHERE id = p_run FOR UPDATE;
    IF NOT FOUND OR r.state <> 'open' THEN
        RETURN;
    END IF;
    SELECT * INTO b FROM xq.batches
        WHERE run_id = p_run AND state = 'claimed' AND lease_until < now()
        ORDER BY first_pair LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
        UPDATE xq.batches SET worker = p_worker, token = gen_random_uuid(), claims = claims + 1,
            claimed_at = now(), lease_until = now() + make_interval(secs => p_lease_s)
            WHERE id = b.id RETURNING * INTO b;
        RETURN QUERY SELECT b.id, b.token, b.first_pair, b.pairs;
        RETURN;
    END IF;
    IF r.next_pair >= r.total_pairs THEN
        RETURN;
    END IF;
    -- Guided self-scheduling: near the end of a run a claim takes at most its share of
    -- what is left among the workers on the run, so that they finish together instead
    -- of one playing a large last batch while the others wait.
    UPDATE xq.workers SET run_id = p_run, last_seen = now() WHERE name = p_worker;
    SELECT count(*) INTO live FROM xq.workers
        WHERE run_id = p_run AND last_seen > now() - interval '30 seconds';
    n := least(greatest(p_pairs, 1), max_pairs, r.total_pairs - r.next_pair,
               greatest(1, ceil((r.total_pairs - r.next_pair)::numeric / greatest(live, 1))::integer));
    INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until)
        VALUES (p_run, r.next_pair, n, 'claimed', p_worker, gen_random_uuid(),
                now() + make_interval(secs => p_lease_s))
        RETURNING * INTO b;
    UPDATE xq.runs SET next_pair = next_pair + n WHERE id = p_run;
    RETURN QUERY SELECT b.id, b.token, b.first_pair, b.pairs;
END $$;

-- Renews within the same bound.
CREATE OR REPLACE FUNCTION xq.renew_batch(p_batch bigint, p_token uuid, p_lease_s double precision)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF p_lease_s IS NULL OR NOT (p_lease_s >= 0.3 AND p_lease_s <=
            (SELECT value::double precision FROM xq.meta WHERE key = 'max_lease_s')) THEN
        RAISE EXCEPTION 'a lease of % s is out of bounds', p_lease_s USING ERRCODE = 'XQ003';
    END IF;
    UPDATE xq.batches b SET lease_until = now() + make_interval(secs => p_lease_s)
        FROM xq.runs r
        WHERE b.id = p_batch AND b.token = p_token AND b.state = 'claimed'
          AND r.id = b.run_id AND r.state = 'open';
    RETURN FOUND;
END $$;

-- A heartbeat and a refusal as before, their texts bounded (a name of 100 characters,
-- a version of 100, a reason of 1,000); `status` shows them with control characters
-- escaped.
CREATE OR REPLACE FUNCTION xq.heartbeat(p_worker text, p_run bigint, p_concurrency integer, p_version text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF length(p_worker) NOT BETWEEN 1 AND 100 OR length(p_version) > 100 THEN
        RAISE EXCEPTION 'a worker''s name must have 1 to 100 characters, its version at most 100'
            USING ERRCODE = 'XQ003';
    END IF;
    INSERT INTO xq.workers AS w (name, version, concurrency, run_id)
        VALUES (p_worker, p_version, p_concurrency, p_run)
        ON CONFLICT (name) DO UPDATE SET last_seen = now(), run_id = excluded.run_id,
            concurrency = excluded.concurrency, version = excluded.version,
            db_user = current_user;
END $$;

CREATE OR REPLACE FUNCTION xq.refuse_run(p_run bigint, p_worker text, p_reason text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF length(p_worker) NOT BETWEEN 1 AND 100 THEN
        RAISE EXCEPTION 'a worker''s name must have 1 to 100 characters' USING ERRCODE = 'XQ003';
    END IF;
    INSERT INTO xq.run_workers AS w (run_id, worker, refused)
        VALUES (p_run, p_worker, left(p_reason, 1000))
        ON CONFLICT (run_id, worker) DO UPDATE SET refused = excluded.refused, last_at = now();
END $$;

-- The submits of versions 1 and 2 go: a worker no longer hands in counts or an ending.
DROP FUNCTION xq.begin_submit(bigint, uuid);
DROP FUNCTION xq.finish_submit(bigint, uuid, bigint[], smallint[], text[], jsonb, bigint,
    double precision, text, text, integer);
DROP FUNCTION xq.finish_tune_submit(bigint, uuid, bigint[], text[], jsonb, bigint,
    double precision, text, text, integer);

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA xq FROM PUBLIC;

-- The worker roles of version 2 get what version 3 gives (the grants of `db init
-- --worker-role`, schema.rs): no token of a batch is readable any more, and the facts
-- of the games are (what `status` counts), not their entries.
DO $$
DECLARE
    grantee_role text;
BEGIN
    FOR grantee_role IN SELECT DISTINCT grantee FROM information_schema.role_routine_grants
                WHERE routine_schema = 'xq' AND routine_name = 'claim_batch'
                  AND grantee <> current_user LOOP
        EXECUTE format('REVOKE SELECT ON xq.batches FROM %I', grantee_role);
        EXECUTE format('GRANT SELECT (id, run_id, first_pair, pairs, state, worker, claims, claimed_at, lease_until, done_at) ON xq.batches TO %I', grantee_role);
        EXECUTE format('GRANT SELECT (run_id, pair, game, batch_id, red, black, result, reason, faulted, over_clock) ON xq.games TO %I', grantee_role);
        EXECUTE format('GRANT EXECUTE ON FUNCTION xq.submit_batch(bigint, uuid, text[], double precision),
            xq.begin_tune_submit(bigint, uuid),
            xq.submit_tune_batch(bigint, uuid, bigint[], text[], jsonb, bigint, double precision) TO %I', grantee_role);
    END LOOP;
END $$;

UPDATE xq.meta SET value = '3' WHERE key = 'schema_version';
