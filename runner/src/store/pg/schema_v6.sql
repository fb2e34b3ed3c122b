-- Version 5 to 6: the trust boundary, second pass (issue 60). What a hostile worker
-- connected as the worker role still found, and what closes it:
--   1. A NULL token passed the fence (`token <> NULL` is NULL, which IF takes as
--      false): every fence refuses a NULL outright and compares with IS DISTINCT FROM.
--   2. Games from anywhere: each stored game must start from its pair's opening (kept
--      per run by its owner at submit, `xq.run_openings`) and end in a way the run's
--      config can produce (no adjudication the config lacks, no time loss without a
--      clock, `max_plies` at its limit only).
--   3. Stalls: every function a worker calls waits at most 5 s for a lock and leaves
--      its session with a 10 s idle-in-transaction timeout; a claim takes at most a
--      share of the run bounded by the worker's declared concurrency; the share of a
--      run's end counts the workers that hold its batches, not those that said hello.
--   4. Identity: a worker's name is bound to the connection that uses it (while it
--      is heard of), and `db_user` is the connecting role (`session_user`), not the
--      functions' owner.
--   5. Entries: the server accepts exactly what the runner reads (store/journal.rs):
--      integers written as integers and within their Rust types, no key twice, no
--      field the runner does not know, one line, at most 512 KiB.
-- `db init` fills what the checks of item 2 need for the runs already there
-- (schema.rs, store/pg/game_rules.rs); a run for which it cannot keeps the columns
-- NULL and the server skips that check for it (`verify` says so).

-- ---------------------------------------------------------------------------------
-- What each game of a run must start from and how it may end, written by the owner.

-- The endings the config can produce: adjudication by draw or resignation only when
-- configured, `max_plies` only at its value, a time loss or moves over the clock only
-- for an engine with a clock (each engine of `engines`, in order). NULL for a run of
-- an older version whose config no longer reads (its batches are refused anyway).
ALTER TABLE xq.runs ADD COLUMN adjudicate_draw boolean;
ALTER TABLE xq.runs ADD COLUMN adjudicate_resign boolean;
ALTER TABLE xq.runs ADD COLUMN max_plies integer;
ALTER TABLE xq.runs ADD COLUMN clocked boolean[];

-- Pair p is round p / k (k pairings) and plays the opening of slot
-- round % opening_cycle (store/layout.rs, openings/book.rs): opening_cycle is the
-- number of openings in the book (1 without a book), and a row is kept for each slot a
-- round of the run reaches. NULL when the owner could not say (an older run whose
-- opening file is gone): its starts are not checked.
ALTER TABLE xq.runs ADD COLUMN opening_cycle bigint CHECK (opening_cycle > 0);
CREATE TABLE xq.run_openings (
    run_id bigint NOT NULL REFERENCES xq.runs ON DELETE CASCADE,
    slot bigint NOT NULL CHECK (slot >= 0),
    -- The opening's index in the book (the entry's `opening`); NULL for the start
    -- position of a run without a book.
    opening bigint CHECK (opening >= 0),
    start_fen text NOT NULL,
    -- The opening's moves, space separated (the entry's `opening_moves`).
    moves text NOT NULL,
    PRIMARY KEY (run_id, slot)
);

-- The connection a worker's name is bound to (see xq.bind_worker), and the connecting
-- role, which is what `db_user` always meant.
ALTER TABLE xq.workers ADD COLUMN backend_pid integer;
ALTER TABLE xq.workers ALTER COLUMN db_user SET DEFAULT session_user;
-- The batches a worker holds, found by its name (a heartbeat's run).
CREATE INDEX batches_held ON xq.batches (worker) WHERE state = 'claimed';

-- The largest entry stored: 512 KiB. A game of 1,000 plies with every score, depth,
-- node count, speed and time is about 40 KB (docs/fleet.md); the longest game the
-- default move limit allows (about 3,700 plies) fits even at the widest values the
-- runner can write (105 bytes a ply). A batch with a larger entry is refused.
INSERT INTO xq.meta VALUES ('max_entry_bytes', '524288');

-- ---------------------------------------------------------------------------------
-- Item 1: the fences.

-- Raises XQ003 unless both a batch and a token are given.
CREATE FUNCTION xq.need_token(p_batch bigint, p_token uuid) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF p_batch IS NULL OR p_token IS NULL THEN
        RAISE EXCEPTION 'a batch and its token are needed (batch %, token %)',
            coalesce(p_batch::text, 'NULL'), coalesce(p_token::text, 'NULL')
            USING ERRCODE = 'XQ003';
    END IF;
END $$;

-- Version 4's, with the token required and compared as a value.
CREATE OR REPLACE FUNCTION xq.held_batch(p_batch bigint, p_token uuid) RETURNS xq.batches
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
BEGIN
    PERFORM xq.need_token(p_batch, p_token);
    SELECT * INTO b FROM xq.batches WHERE id = p_batch;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'batch % does not exist', p_batch USING ERRCODE = 'XQ001';
    END IF;
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id FOR NO KEY UPDATE;
    SELECT * INTO b FROM xq.batches WHERE id = p_batch FOR UPDATE;
    IF b.token IS DISTINCT FROM p_token OR b.state IS DISTINCT FROM 'claimed' THEN
        RAISE EXCEPTION 'batch % is no longer this worker''s (its lease was lost)', p_batch
            USING ERRCODE = 'XQ001';
    END IF;
    IF r.state IS DISTINCT FROM 'open' THEN
        RAISE EXCEPTION 'run % is %', r.id, r.state USING ERRCODE = 'XQ002';
    END IF;
    RETURN b;
END $$;

CREATE OR REPLACE FUNCTION xq.held_batch_only(p_batch bigint, p_token uuid) RETURNS xq.batches
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
BEGIN
    PERFORM xq.need_token(p_batch, p_token);
    SELECT * INTO b FROM xq.batches WHERE id = p_batch FOR UPDATE;
    IF NOT FOUND OR b.token IS DISTINCT FROM p_token OR b.state IS DISTINCT FROM 'claimed' THEN
        RAISE EXCEPTION 'batch % is no longer this worker''s (its lease was lost)', p_batch
            USING ERRCODE = 'XQ001';
    END IF;
    PERFORM xq.open_run(b.run_id);
    RETURN b;
END $$;

-- ---------------------------------------------------------------------------------
-- Items 3 and 4: sessions, names and claims.

-- Ends a transaction that a worker's session leaves open for 10 s (the runner never
-- does: each of its statements is a transaction of its own), so that a lock taken by
-- a function is not held by an idle session. A session that sets it off again holds
-- its locks as long as it likes: every function waits for one at most 5 s (its
-- `lock_timeout`), and the owner's commands at most 30 s, then say so.
CREATE FUNCTION xq.bound_session() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('idle_in_transaction_session_timeout', '10s', false);
END $$;

-- Whether a worker's name, last bound to backend `p_pid` and last heard of at `p_seen`, is
-- bound to another live connection: one that is still connected and was heard of in
-- the last 60 s (a worker renews and beats every few seconds). A worker that
-- reconnects takes its name back with its first renewal (the token proves it), or
-- 60 s after its old connection fell silent.
CREATE FUNCTION xq.bound_elsewhere(p_pid integer, p_seen timestamptz) RETURNS boolean
LANGUAGE sql STABLE SET search_path = xq, pg_temp AS $$
    SELECT p_pid IS NOT NULL AND p_pid <> pg_backend_pid()
       AND p_seen > now() - interval '60 seconds'
       AND EXISTS (SELECT 1 FROM pg_stat_activity AS a WHERE a.pid = p_pid)
$$;

-- Binds worker name p_worker to this connection and its role (`session_user`), or
-- raises: XQ003 for a name that is no name, XQ004 for a name another live connection
-- uses. Read first without a lock, so that a refused caller holds nothing.
CREATE FUNCTION xq.bind_worker(p_worker text) RETURNS void
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    w xq.workers%ROWTYPE;
BEGIN
    IF p_worker IS NULL OR length(p_worker) NOT BETWEEN 1 AND 100 THEN
        RAISE EXCEPTION 'a worker''s name must have 1 to 100 characters' USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.bound_session();
    SELECT * INTO w FROM xq.workers AS k WHERE k.name = p_worker;
    IF FOUND AND xq.bound_elsewhere(w.backend_pid, w.last_seen) THEN
        RAISE EXCEPTION 'the worker name % is in use by another connection (role %): give this worker another --name',
            p_worker, w.db_user USING ERRCODE = 'XQ004';
    END IF;
    INSERT INTO xq.workers AS k (name, db_user, version, concurrency, backend_pid)
        VALUES (p_worker, session_user, '', 1, pg_backend_pid())
        ON CONFLICT (name) DO UPDATE SET backend_pid = pg_backend_pid(),
            db_user = session_user, last_seen = now()
        WHERE NOT xq.bound_elsewhere(k.backend_pid, k.last_seen);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the worker name % is in use by another connection: give this worker another --name',
            p_worker USING ERRCODE = 'XQ004';
    END IF;
END $$;

-- A heartbeat: the worker is alive, its version and its concurrency (1 to 1,024, a
-- run's own bound). Its run is the run of a batch it holds (p_run's first): a
-- heartbeat alone puts no worker on a run, so that names that only beat count for no
-- claim's share.
CREATE OR REPLACE FUNCTION xq.heartbeat(p_worker text, p_run bigint, p_concurrency integer, p_version text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF p_version IS NULL OR length(p_version) > 100 THEN
        RAISE EXCEPTION 'a worker''s version must have at most 100 characters' USING ERRCODE = 'XQ003';
    END IF;
    IF p_concurrency IS NULL OR p_concurrency NOT BETWEEN 1 AND 1024 THEN
        RAISE EXCEPTION 'a worker''s concurrency of %: it must be 1 to 1024',
            coalesce(p_concurrency::text, 'NULL') USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.bind_worker(p_worker);
    UPDATE xq.workers AS k SET version = p_version, concurrency = p_concurrency,
            run_id = (SELECT b.run_id FROM xq.batches AS b
                      WHERE b.worker = p_worker AND b.state = 'claimed' AND b.lease_until > now()
                      ORDER BY b.run_id IS NOT DISTINCT FROM p_run DESC, b.id LIMIT 1)
        WHERE k.name = p_worker;
END $$;

-- Claims as version 4 did, with the name bound to this connection and two more
-- bounds. A claim takes at most max(the run's batch size, min(256 pairs a declared
-- slot, max(64 pairs, an eighth of the run))): an honest worker asks for enough pairs
-- to last 4 s, which for the fastest games seen (10 ms a game) is 200 pairs a slot,
-- and no single claim takes more than an eighth of a run of over 512 pairs (a smaller
-- run is cheap to wait for: 64 pairs are a few seconds to minutes). Near the end, a claim takes its share of what is left
-- among the workers that hold a batch of the run under a live lease (and itself):
-- heartbeats do not count, so names that only beat cannot shrink an honest claim.
CREATE OR REPLACE FUNCTION xq.claim_batch(p_run bigint, p_worker text, p_pairs integer, p_lease_s double precision)
RETURNS TABLE (batch_id bigint, token uuid, first_pair bigint, pairs integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    r xq.runs%ROWTYPE;
    b xq.batches%ROWTYPE;
    n bigint;
    live bigint;
    declared bigint;
    cap bigint;
    max_lease double precision := (SELECT value::double precision FROM xq.meta WHERE key = 'max_lease_s');
    max_pairs integer := (SELECT value::integer FROM xq.meta WHERE key = 'max_claim_pairs');
BEGIN
    IF p_lease_s IS NULL OR NOT (p_lease_s >= 0.3 AND p_lease_s <= max_lease) THEN
        RAISE EXCEPTION 'a lease of % s: it must be 0.3 s to % s', p_lease_s, max_lease
            USING ERRCODE = 'XQ003';
    END IF;
    IF p_pairs IS NULL THEN
        RAISE EXCEPTION 'a claim must say how many pairs it asks for' USING ERRCODE = 'XQ003';
    END IF;
    IF p_run IS NULL THEN
        RAISE EXCEPTION 'a claim must name its run' USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.bind_worker(p_worker);
    SELECT * INTO r FROM xq.runs WHERE id = p_run FOR NO KEY UPDATE;
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
        UPDATE xq.workers SET run_id = p_run WHERE name = p_worker;
        RETURN QUERY SELECT b.id, b.token, b.first_pair, b.pairs;
        RETURN;
    END IF;
    IF r.next_pair >= r.total_pairs THEN
        RETURN;
    END IF;
    UPDATE xq.workers SET run_id = p_run WHERE name = p_worker
        RETURNING concurrency INTO declared;
    SELECT count(DISTINCT x.worker) + 1 INTO live FROM xq.batches AS x
        WHERE x.run_id = p_run AND x.state = 'claimed' AND x.lease_until > now()
          AND x.worker <> p_worker;
    cap := greatest(r.batch_pairs::bigint,
                    least(256 * least(greatest(coalesce(declared, 1), 1), 1024),
                          greatest(64, ceil(r.total_pairs / 8.0)::bigint)));
    n := least(greatest(p_pairs, 1)::bigint, max_pairs::bigint, cap, r.total_pairs - r.next_pair,
               greatest(1, ceil((r.total_pairs - r.next_pair)::numeric / live)::bigint));
    INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until)
        VALUES (p_run, r.next_pair, n::integer, 'claimed', p_worker, gen_random_uuid(),
                now() + make_interval(secs => p_lease_s))
        RETURNING * INTO b;
    UPDATE xq.runs SET next_pair = next_pair + n WHERE id = p_run;
    RETURN QUERY SELECT b.id, b.token, b.first_pair, b.pairs;
END $$;

-- Renews as version 3 did, the token required; the token proves whose batch it is,
-- so the worker's name follows it to this connection (a worker that reconnected).
CREATE OR REPLACE FUNCTION xq.renew_batch(p_batch bigint, p_token uuid, p_lease_s double precision)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    holder text;
BEGIN
    IF p_lease_s IS NULL OR NOT (p_lease_s >= 0.3 AND p_lease_s <=
            (SELECT value::double precision FROM xq.meta WHERE key = 'max_lease_s')) THEN
        RAISE EXCEPTION 'a lease of % s is out of bounds', p_lease_s USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.need_token(p_batch, p_token);
    PERFORM xq.bound_session();
    UPDATE xq.batches AS b SET lease_until = now() + make_interval(secs => p_lease_s)
        FROM xq.runs AS r
        WHERE b.id = p_batch AND b.token = p_token AND b.state = 'claimed'
          AND r.id = b.run_id AND r.state = 'open'
        RETURNING b.worker INTO holder;
    IF holder IS NULL THEN
        RETURN false;
    END IF;
    -- Not waited for: a row some other session holds keeps its binding a while longer.
    PERFORM 1 FROM xq.workers AS k WHERE k.name = holder FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
        UPDATE xq.workers AS k SET backend_pid = pg_backend_pid(), db_user = session_user,
                last_seen = now()
            WHERE k.name = holder;
    END IF;
    RETURN true;
END $$;

-- Gives a batch back as version 1 did, the token required.
CREATE OR REPLACE FUNCTION xq.release_batch(p_batch bigint, p_token uuid)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    PERFORM xq.need_token(p_batch, p_token);
    PERFORM xq.bound_session();
    UPDATE xq.batches SET lease_until = now() - interval '1 second'
        WHERE id = p_batch AND token = p_token AND state = 'claimed';
    IF FOUND THEN
        -- Workers waiting for leases may take it now.
        PERFORM pg_notify('xq_runs', b.run_id::text) FROM xq.batches AS b WHERE b.id = p_batch;
    END IF;
END $$;

-- A refusal of the worker itself (its name bound to this connection), with a reason
-- (one is always given: a NULL would erase the refusal), of a run that exists.
CREATE OR REPLACE FUNCTION xq.refuse_run(p_run bigint, p_worker text, p_reason text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF p_reason IS NULL OR length(p_reason) = 0 THEN
        RAISE EXCEPTION 'a refusal needs its reason' USING ERRCODE = 'XQ003';
    END IF;
    IF p_run IS NULL OR NOT EXISTS (SELECT 1 FROM xq.runs WHERE id = p_run) THEN
        RAISE EXCEPTION 'no run % to refuse', coalesce(p_run::text, 'NULL') USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.bind_worker(p_worker);
    INSERT INTO xq.run_workers AS w (run_id, worker, refused)
        VALUES (p_run, p_worker, left(p_reason, 1000))
        ON CONFLICT (run_id, worker) DO UPDATE SET refused = excluded.refused, last_at = now();
END $$;

-- A bench report of the worker itself, as version 4's, a NULL refused.
CREATE OR REPLACE FUNCTION xq.report_bench(p_run bigint, p_worker text, p_bench jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF p_bench IS NULL OR jsonb_typeof(p_bench) IS DISTINCT FROM 'object'
       OR (SELECT count(*) FROM jsonb_each(p_bench)) > 64
       OR EXISTS (SELECT 1 FROM jsonb_each(p_bench) AS e(k, v)
                  WHERE length(e.k) > 100 OR jsonb_typeof(e.v) <> 'number'
                     OR e.v::text::numeric NOT BETWEEN 0 AND 1e15) THEN
        RAISE EXCEPTION 'a bench report is an object of at most 64 engines and their nodes per second'
            USING ERRCODE = 'XQ003';
    END IF;
    IF p_run IS NULL OR NOT EXISTS (SELECT 1 FROM xq.runs WHERE id = p_run) THEN
        RETURN;
    END IF;
    PERFORM xq.bind_worker(p_worker);
    INSERT INTO xq.run_workers AS w (run_id, worker, bench) VALUES (p_run, p_worker, p_bench)
        ON CONFLICT (run_id, worker) DO UPDATE SET bench = excluded.bench, last_at = now();
END $$;

-- ---------------------------------------------------------------------------------
-- Item 5: an entry is exactly what the runner reads (store/journal.rs, JournalEntry,
-- read by serde_json): its fields and no other, each once, integers written as
-- integers (serde reads `1.0`, `1e0` or `-0` as a float, which a u64 refuses) and
-- within their Rust types (u8, u32, u64), and one line (the journal is read a line at
-- a time). The text as the worker sent it is what is stored.

-- What is wrong with the text of an entry whose JSON is an object, or NULL: read as
-- `json`, which keeps every key and the text of every number as written.
CREATE FUNCTION xq.entry_text_problem(p_text text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = xq, pg_temp AS $$
    WITH f AS MATERIALIZED (
        SELECT k.key, k.value::text AS raw, json_typeof(k.value) AS type
        FROM json_each(p_text::json) AS k
    )
    SELECT CASE
        WHEN p_text ~ '[\x01-\x1f]'
            THEN 'a control character (a line break?) outside its strings: an entry is one line'
        WHEN EXISTS (SELECT 1 FROM f GROUP BY f.key HAVING count(*) > 1)
            THEN format('%s is given twice',
                        (SELECT f.key FROM f GROUP BY f.key HAVING count(*) > 1 ORDER BY 1 LIMIT 1))
        WHEN EXISTS (SELECT 1 FROM f WHERE f.key <> ALL (ARRAY['pair', 'game', 'opening', 'red',
                    'black', 'result', 'reason', 'plies', 'start_fen', 'opening_moves', 'moves',
                    'times_ms', 'scores', 'depths', 'nodes', 'nps', 'seldepths', 'faulted',
                    'detail', 'over_clock', 'duration_ms']))
            THEN format('%s is not a field of a journal entry',
                        (SELECT f.key FROM f WHERE f.key <> ALL (ARRAY['pair', 'game', 'opening',
                            'red', 'black', 'result', 'reason', 'plies', 'start_fen',
                            'opening_moves', 'moves', 'times_ms', 'scores', 'depths', 'nodes',
                            'nps', 'seldepths', 'faulted', 'detail', 'over_clock', 'duration_ms'])
                         ORDER BY 1 LIMIT 1))
        WHEN EXISTS (SELECT 1 FROM f WHERE f.key IN ('pair', 'game', 'opening', 'plies', 'duration_ms')
                     AND f.type = 'number' AND f.raw !~ '^[0-9]+$')
            THEN (SELECT format('%s is %s: a whole number is written without a fraction, an exponent or a sign',
                                f.key, f.raw)
                  FROM f WHERE f.key IN ('pair', 'game', 'opening', 'plies', 'duration_ms')
                     AND f.type = 'number' AND f.raw !~ '^[0-9]+$' ORDER BY 1 LIMIT 1)
        WHEN EXISTS (SELECT 1 FROM f WHERE f.key = 'times_ms' AND f.type = 'array'
                     AND f.raw !~ '^\[\s*([0-9]+\s*(,\s*[0-9]+\s*)*)?\]$')
            THEN 'times_ms must list whole numbers, written without a fraction, an exponent or a sign'
        WHEN EXISTS (SELECT 1 FROM f WHERE f.key IN ('depths', 'nodes', 'nps', 'seldepths')
                     AND f.type = 'array'
                     AND f.raw !~ '^\[\s*(([0-9]+|null)\s*(,\s*([0-9]+|null)\s*)*)?\]$')
            THEN 'depths, nodes, nps and seldepths must list whole numbers (or nulls), written without a fraction, an exponent or a sign'
        WHEN EXISTS (SELECT 1 FROM f CROSS JOIN LATERAL json_array_elements(
                         CASE WHEN f.key = 'over_clock' AND f.type = 'array' THEN f.raw::json
                              ELSE '[]'::json END) AS o(v)
                     -- (CASEs: json_each and json_array_elements fail on other values,
                     -- which the shape check below names.)
                     CROSS JOIN LATERAL (SELECT CASE WHEN json_typeof(o.v) = 'object' THEN o.v
                                                     ELSE '{"moves": 0, "ms": 0}'::json END AS v) AS ob
                     WHERE ((SELECT count(*) FROM json_each(ob.v)) <> 2
                            OR (SELECT count(DISTINCT x.key) FROM json_each(ob.v) AS x
                                WHERE x.key IN ('moves', 'ms') AND json_typeof(x.value) = 'number'
                                  AND x.value::text ~ '^[0-9]+$') <> 2))
            THEN 'over_clock must hold Red''s and Black''s {"moves", "ms"}, each once, whole numbers written without a fraction, an exponent or a sign'
    END
$$;

-- Version 3's shape check, with the lists required (a missing list passed its pattern)
-- and every number within its Rust type: u64 for pairs, plies, durations, times, nodes
-- and openings (usize), u32 for depths and over_clock's moves.
CREATE OR REPLACE FUNCTION xq.entry_problem(e jsonb) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = xq, pg_temp AS $$
    SELECT CASE
        WHEN e IS NULL THEN 'not a JSON object'
        WHEN jsonb_path_match(e, '$.red.type() == "string" && $.black.type() == "string"
                && $.result.type() == "string" && $.reason.type() == "string"
                && $.start_fen.type() == "string" && $.moves.type() == "string"
                && (!exists($.opening_moves) || $.opening_moves.type() == "string")
                && (!exists($.faulted) || $.faulted.type() == "string" || $.faulted.type() == "null")
                && (!exists($.detail) || $.detail.type() == "string" || $.detail.type() == "null")')
             IS NOT TRUE
            THEN 'red, black, result, reason, start_fen and moves must be strings (opening_moves, faulted and detail too, when given)'
        WHEN jsonb_path_match(e, '$.plies.type() == "number" && $.plies >= 0 && $.plies.floor() == $.plies
                && $.plies <= 18446744073709551615
                && $.duration_ms.type() == "number" && $.duration_ms >= 0
                && $.duration_ms.floor() == $.duration_ms && $.duration_ms <= 18446744073709551615
                && (!exists($.opening) || $.opening.type() == "null"
                    || ($.opening.type() == "number" && $.opening >= 0 && $.opening.floor() == $.opening
                        && $.opening <= 18446744073709551615))')
             IS NOT TRUE
            THEN 'plies, duration_ms and opening must be whole numbers, 0 to 18446744073709551615'
        WHEN coalesce((e->'times_ms')::text, 'missing') !~ '^\[(\d+(, \d+)*)?\]$'
             OR coalesce((e->'depths')::text, 'missing') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR coalesce((e->'nodes')::text, '[]') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR coalesce((e->'nps')::text, '[]') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR coalesce((e->'seldepths')::text, '[]') !~ '^\[((\d+|null)(, (\d+|null))*)?\]$'
             OR jsonb_path_exists(e, '$.times_ms[*] ? (@ > 18446744073709551615)')
             OR jsonb_path_exists(e, '$.nodes[*] ? (@ > 18446744073709551615)')
             OR jsonb_path_exists(e, '$.nps[*] ? (@ > 18446744073709551615)')
             OR jsonb_path_exists(e, '$.depths[*] ? (@ > 4294967295)')
             OR jsonb_path_exists(e, '$.seldepths[*] ? (@ > 4294967295)')
            THEN 'times_ms and depths (and nodes, nps, seldepths, when given) must be lists of whole numbers, times, nodes and nps at most 18446744073709551615, depths at most 4294967295'
        WHEN coalesce((e->'scores')::text, 'missing') !~ '^\[(("([^"\\]|\\.)*"|null)(, ("([^"\\]|\\.)*"|null))*)?\]$'
            THEN 'scores must be a list of texts and nulls'
        WHEN jsonb_path_match(e, '!exists($.over_clock) || ($.over_clock.type() == "array"
                && $.over_clock.size() == 2
                && !exists($.over_clock[*] ? (!(@.type() == "object"
                    && @.moves.type() == "number" && @.moves >= 0 && @.moves.floor() == @.moves
                    && @.moves <= 4294967295
                    && @.ms.type() == "number" && @.ms >= 0 && @.ms.floor() == @.ms
                    && @.ms <= 18446744073709551615))))')
             IS NOT TRUE
            THEN 'over_clock must be Red''s and Black''s {"moves", "ms"}, whole numbers, moves at most 4294967295'
    END
$$;

-- Item 2: why run r's config cannot produce game e's ending, or NULL (NULL too when
-- the run's endings are not on record). Red and Black are engines red_i and black_i.
CREATE FUNCTION xq.ending_problem(r xq.runs, e jsonb, red_i integer, black_i integer) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = xq, pg_temp AS $$
    SELECT CASE
        WHEN r.clocked IS NULL THEN NULL
        WHEN e->>'reason' = 'adjudication_draw' AND NOT r.adjudicate_draw
            THEN 'a draw by adjudication, which the run''s config does not make (no [adjudication] draw rule)'
        WHEN e->>'reason' = 'adjudication_resign' AND NOT r.adjudicate_resign
            THEN 'a loss by adjudication, which the run''s config does not make (no [adjudication] resign rule)'
        WHEN e->>'reason' = 'max_plies' AND r.max_plies IS NULL
            THEN 'a draw at the maximum length, which the run''s config does not set (no adjudication.max_plies)'
        WHEN e->>'reason' = 'max_plies' AND (e->>'plies')::numeric <> r.max_plies
            THEN format('a draw at the maximum length after %s plies: adjudication.max_plies is %s',
                        e->>'plies', r.max_plies)
        WHEN e->>'reason' = 'time_forfeit' AND NOT coalesce(r.clocked[
                 CASE WHEN e->>'faulted' = r.engines[red_i + 1] THEN red_i ELSE black_i END + 1], false)
            THEN format('a loss on time by %s, which plays without a clock', e->>'faulted')
        WHEN ((e #>> '{over_clock,0,moves}')::numeric > 0 OR (e #>> '{over_clock,0,ms}')::numeric > 0)
             AND NOT coalesce(r.clocked[red_i + 1], false)
            THEN format('moves over the clock of %s, which plays without a clock', r.engines[red_i + 1])
        WHEN ((e #>> '{over_clock,1,moves}')::numeric > 0 OR (e #>> '{over_clock,1,ms}')::numeric > 0)
             AND NOT coalesce(r.clocked[black_i + 1], false)
            THEN format('moves over the clock of %s, which plays without a clock', r.engines[black_i + 1])
    END
$$;

-- The most bytes an entry may have (meta max_entry_bytes).
CREATE FUNCTION xq.max_entry_bytes() RETURNS integer
LANGUAGE sql STABLE SET search_path = xq, pg_temp AS $$
    SELECT value::integer FROM xq.meta WHERE key = 'max_entry_bytes'
$$;

-- Version 4's submit (the same checks in the same order and words), with the text of
-- each entry checked as the runner reads it, its start checked against its pair's
-- opening and its ending against the run's config, and the size bound in bytes.
CREATE OR REPLACE FUNCTION xq.submit_batch(p_batch bigint, p_token uuid, p_entries text[],
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
    max_bytes integer := xq.max_entry_bytes();
BEGIN
    PERFORM xq.bound_session();
    IF p_busy_s IS NULL THEN
        RAISE EXCEPTION 'a batch''s time is needed' USING ERRCODE = 'XQ003';
    END IF;
    b := xq.held_batch_only(p_batch, p_token);
    -- What the check reads of the run (kind, engines, pairings, openings, endings) never
    -- changes.
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
    WITH sent AS MATERIALIZED (
        -- Materialized: each entry is parsed and its shape checked once, however often
        -- the queries below name it.
        SELECT u.i, u.t, j.e,
               CASE WHEN j.e IS NULL THEN 'not a JSON object'
                    ELSE coalesce(xq.entry_problem(j.e), xq.entry_text_problem(u.t)) END AS shape
        FROM unnest(p_entries) WITH ORDINALITY AS u(t, i),
             LATERAL (SELECT CASE WHEN octet_length(u.t) <= max_bytes THEN xq.entry_json(u.t) END AS e) AS j
    ), read AS MATERIALIZED (
        SELECT s.i, s.t, s.e, s.shape, xq.json_integer(s.e->'pair') AS pair,
               xq.json_integer(s.e->'game') AS game, s.e->>'result' AS result,
               xq.reason_kind(s.e->>'reason') AS kind
        FROM sent AS s
    ), placed AS (
        SELECT d.*,
               CASE WHEN d.pair BETWEEN b.first_pair AND b.first_pair + b.pairs - 1
                         AND d.game IN (0, 1) THEN
                   r.pairings[2 * (d.pair % pairings)::integer + 1 + d.game::integer]
               END AS red_i,
               CASE WHEN d.pair BETWEEN b.first_pair AND b.first_pair + b.pairs - 1
                         AND d.game IN (0, 1) THEN
                   r.pairings[2 * (d.pair % pairings)::integer + 2 - d.game::integer]
               END AS black_i
        FROM read AS d
    ), named AS (
        SELECT p.*, r.engines[p.red_i + 1] AS red, r.engines[p.black_i + 1] AS black
        FROM placed AS p
    ), judged AS (
        SELECT n.*,
               CASE n.result WHEN '1-0' THEN n.black WHEN '0-1' THEN n.red END AS loser,
               o.slot IS NOT NULL AS has_opening, o.opening AS want_opening,
               o.start_fen AS want_fen, o.moves AS want_moves
        FROM named AS n
        LEFT JOIN xq.run_openings AS o
            -- (A CASE: a pair outside the batch may not fit a bigint.)
            ON r.opening_cycle IS NOT NULL AND o.run_id = r.id
               AND o.slot = CASE WHEN n.red_i IS NOT NULL
                                 THEN div(n.pair, pairings::numeric)::bigint % r.opening_cycle END
    ), checked AS (
        SELECT j.*, CASE
            WHEN octet_length(j.t) > max_bytes
                THEN format('game %s: %s bytes, over the %s an entry may have', j.i, octet_length(j.t), max_bytes)
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
            WHEN r.opening_cycle IS NOT NULL AND (NOT j.has_opening
                 OR j.e->>'start_fen' IS DISTINCT FROM j.want_fen
                 OR coalesce(j.e->>'opening_moves', '') IS DISTINCT FROM j.want_moves
                 OR xq.json_integer(j.e->'opening') IS DISTINCT FROM j.want_opening)
                THEN format('pair %s game %s: starts from `%s` after `%s` (opening %s), not from its pair''s opening %s: `%s` after `%s`',
                            j.pair, j.game, j.e->>'start_fen', coalesce(j.e->>'opening_moves', ''),
                            coalesce(j.e->>'opening', 'null'), coalesce(j.want_opening::text, 'null'),
                            j.want_fen, j.want_moves)
            WHEN xq.ending_problem(r, j.e, j.red_i, j.black_i) IS NOT NULL
                THEN format('pair %s game %s: %s', j.pair, j.game,
                            xq.ending_problem(r, j.e, j.red_i, j.black_i))
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
    -- The run's lock, for the counts and the end: a run that closed while the games
    -- were checked takes none of them (the transaction is undone).
    PERFORM 1 FROM xq.runs WHERE id = b.run_id FOR NO KEY UPDATE;
    PERFORM xq.open_run(b.run_id);
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

-- Version 4's tune submit, behind a check of its arguments: a NULL count of faults or
-- time was taken as 0 (a worker sends both). The version 4 function keeps its body
-- under another name, which no worker role may call.
ALTER FUNCTION xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision)
    RENAME TO submit_tune_games;
CREATE FUNCTION xq.submit_tune_batch(p_batch bigint, p_token uuid, p_games text[],
    p_faults bigint, p_busy_s double precision)
RETURNS TABLE (state text, status text, exit_code integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    PERFORM xq.need_token(p_batch, p_token);
    IF p_faults IS NULL OR p_busy_s IS NULL THEN
        RAISE EXCEPTION 'a batch''s faults and time are needed' USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.bound_session();
    RETURN QUERY SELECT * FROM xq.submit_tune_games(p_batch, p_token, p_games, p_faults, p_busy_s);
END $$;
REVOKE ALL ON FUNCTION xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision) FROM PUBLIC;
DO $$
DECLARE
    grantee_role text;
BEGIN
    FOR grantee_role IN SELECT DISTINCT grantee FROM information_schema.role_routine_grants
                WHERE routine_schema = 'xq' AND routine_name = 'submit_tune_games'
                  AND grantee <> current_user LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION xq.submit_tune_games(bigint, uuid, text[], bigint, double precision) FROM %I', grantee_role);
        EXECUTE format('GRANT EXECUTE ON FUNCTION xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision) TO %I', grantee_role);
    END LOOP;
END $$;

-- Every function a worker calls waits at most 5 s for a lock another session holds
-- (a transaction left open), then fails; the runner's worker tries again.
ALTER FUNCTION xq.claim_batch(bigint, text, integer, double precision) SET lock_timeout = '5s';
ALTER FUNCTION xq.renew_batch(bigint, uuid, double precision) SET lock_timeout = '5s';
ALTER FUNCTION xq.release_batch(bigint, uuid) SET lock_timeout = '5s';
ALTER FUNCTION xq.submit_batch(bigint, uuid, text[], double precision) SET lock_timeout = '5s';
ALTER FUNCTION xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision) SET lock_timeout = '5s';
ALTER FUNCTION xq.report_bench(bigint, text, jsonb) SET lock_timeout = '5s';
ALTER FUNCTION xq.heartbeat(text, bigint, integer, text) SET lock_timeout = '5s';
ALTER FUNCTION xq.refuse_run(bigint, text, text) SET lock_timeout = '5s';

-- ---------------------------------------------------------------------------------
-- Item 3: a purge of a worker that holds batches but stored no game gives them back
-- and says so (`released`: its batches handed out again that held no game).
DROP FUNCTION xq.purge_workers(bigint, text[]);
CREATE FUNCTION xq.purge_workers(p_run bigint, p_workers text[])
RETURNS TABLE (worker text, batches bigint, pairs bigint, games bigint, released bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    r xq.runs%ROWTYPE;
    who text;
    n_batches bigint;
    n_pairs bigint;
    n_games bigint;
    n_faults bigint;
    n_held bigint;
    gone_pairs bigint := 0;
    gone_games bigint := 0;
    touched boolean := false;
    ending record;
BEGIN
    SELECT * INTO r FROM xq.runs AS u WHERE u.id = p_run;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no run % in the database', p_run USING ERRCODE = 'XQ003';
    END IF;
    IF r.kind <> 'match' THEN
        RAISE EXCEPTION 'run % is a %: its results moved theta, which a purge cannot undo', p_run, r.kind
            USING ERRCODE = 'XQ003';
    END IF;
    IF r.engines IS NULL THEN
        RAISE EXCEPTION 'run % has no engines on record (`db init` as its owner fills them)', p_run
            USING ERRCODE = 'XQ003';
    END IF;
    -- The run's batches locked first, then the run, in the order a submit takes them.
    PERFORM 1 FROM xq.batches AS b WHERE b.run_id = p_run ORDER BY b.id FOR UPDATE;
    SELECT * INTO r FROM xq.runs AS u WHERE u.id = p_run FOR NO KEY UPDATE;
    IF r.state = 'cancelled' THEN
        RAISE EXCEPTION 'run % was cancelled', p_run USING ERRCODE = 'XQ003';
    END IF;
    FOR who IN SELECT DISTINCT w FROM unnest(p_workers) AS w WHERE w IS NOT NULL ORDER BY 1 LOOP
        SELECT count(*), coalesce(sum(b.pairs), 0) INTO n_batches, n_pairs
            FROM xq.batches AS b WHERE b.run_id = p_run AND b.worker = who AND b.state = 'done';
        WITH gone AS (
            DELETE FROM xq.games AS g USING xq.batches AS b
            WHERE g.run_id = p_run AND b.id = g.batch_id AND b.worker = who AND b.state = 'done'
            RETURNING g.reason
        )
        SELECT count(*), count(*) FILTER (WHERE xq.reason_kind(gone.reason) = 'fault')
            INTO n_games, n_faults FROM gone;
        -- Done or in play, the worker's batches go back to the pool, expired.
        UPDATE xq.batches AS b SET state = 'claimed', token = gen_random_uuid(),
                lease_until = now() - interval '1 second', done_at = NULL
            WHERE b.run_id = p_run AND b.worker = who;
        GET DIAGNOSTICS n_held = ROW_COUNT;
        CONTINUE WHEN n_held = 0;
        touched := true;
        UPDATE xq.run_workers AS w SET batches = greatest(w.batches - n_batches, 0),
                games = greatest(w.games - 2 * n_pairs, 0),
                faults = greatest(w.faults - n_faults, 0),
                purged = w.purged + n_games, last_at = now()
            WHERE w.run_id = p_run AND w.worker = who;
        gone_pairs := gone_pairs + n_pairs;
        gone_games := gone_games + 2 * n_pairs;
        RETURN QUERY SELECT who, n_batches, n_pairs, n_games, n_held - n_batches;
    END LOOP;
    IF NOT touched THEN
        RETURN;
    END IF;
    -- Counted as `xq.submit_batch` counts: 2 games a pair, the first pairing's pairs.
    UPDATE xq.runs AS u SET pairs_done = greatest(u.pairs_done - gone_pairs, 0),
            games_done = greatest(u.games_done - gone_games, 0),
            penta = xq.first_pairing_penta(p_run, cardinality(u.pairings) / 2, NULL)
        WHERE u.id = p_run;
    SELECT * INTO ending FROM xq.run_ending(p_run);
    IF FOUND THEN
        UPDATE xq.runs AS u SET state = ending.state, status = ending.status,
                exit_code = ending.exit_code,
                ended_at = CASE WHEN u.state = ending.state AND u.status = ending.status
                                THEN u.ended_at ELSE now() END
            WHERE u.id = p_run;
    ELSE
        UPDATE xq.runs AS u SET state = 'open', status = 'open', exit_code = NULL, ended_at = NULL
            WHERE u.id = p_run;
    END IF;
    -- Workers waiting for work see the pairs handed out again (or the run closed).
    PERFORM pg_notify('xq_runs', p_run::text);
END $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA xq FROM PUBLIC;

UPDATE xq.meta SET value = '6' WHERE key = 'schema_version';
