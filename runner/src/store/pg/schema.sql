-- The xq-runner schema, version 1: runs, their batches of pairs, their games, and the
-- workers. Created by `xq-runner db init` (or at the first submit) as the role that
-- owns it. Workers connect as a role that can only call the functions at the end of this
-- file (claim, renew, release and submit batches, report themselves), and read.

CREATE SCHEMA xq;

CREATE TABLE xq.meta (
    key text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO xq.meta VALUES ('schema_version', '1');

-- One test: its config as played, its counts (a JSON object the runner reads and writes
-- whole, in the transaction of each batch), and how far it has got.
CREATE TABLE xq.runs (
    id bigserial PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    submitted_by text NOT NULL DEFAULT current_user,
    title text NOT NULL,
    config text NOT NULL,
    config_hash text NOT NULL,
    openings_fingerprint text,
    bench jsonb NOT NULL DEFAULT '{}',
    total_pairs bigint NOT NULL CHECK (total_pairs >= 0),
    batch_pairs integer NOT NULL CHECK (batch_pairs > 0),
    -- Pairs below this have been handed out at least once.
    next_pair bigint NOT NULL DEFAULT 0,
    pairs_done bigint NOT NULL DEFAULT 0,
    games_done bigint NOT NULL DEFAULT 0,
    counts jsonb NOT NULL,
    state text NOT NULL DEFAULT 'open'
        CHECK (state IN ('open', 'finished', 'cancelled', 'aborted')),
    status text NOT NULL DEFAULT 'open',
    exit_code integer,
    ended_at timestamptz
);

-- Whole pairs handed to one worker at a time under a lease. The token fences a result:
-- only the holder of the current token may submit, so a worker that lost its lease (and
-- whose batch went to another) cannot count a pair twice.
CREATE TABLE xq.batches (
    id bigserial PRIMARY KEY,
    run_id bigint NOT NULL REFERENCES xq.runs ON DELETE CASCADE,
    first_pair bigint NOT NULL,
    pairs integer NOT NULL CHECK (pairs > 0),
    state text NOT NULL CHECK (state IN ('claimed', 'done')),
    worker text NOT NULL,
    token uuid NOT NULL,
    claims integer NOT NULL DEFAULT 1,
    claimed_at timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz NOT NULL,
    done_at timestamptz,
    UNIQUE (run_id, first_pair)
);
CREATE INDEX batches_claimed ON xq.batches (run_id, lease_until) WHERE state = 'claimed';

-- Every game of a run, as the journal line a local run writes.
CREATE TABLE xq.games (
    run_id bigint NOT NULL REFERENCES xq.runs ON DELETE CASCADE,
    pair bigint NOT NULL,
    game smallint NOT NULL CHECK (game IN (0, 1)),
    batch_id bigint NOT NULL REFERENCES xq.batches,
    entry text NOT NULL,
    PRIMARY KEY (run_id, pair, game)
);

CREATE TABLE xq.workers (
    name text PRIMARY KEY,
    db_user text NOT NULL DEFAULT current_user,
    version text NOT NULL,
    concurrency integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    last_seen timestamptz NOT NULL DEFAULT now(),
    run_id bigint
);

-- What each worker did for each run, and why it refused one (a wrong bench signature).
CREATE TABLE xq.run_workers (
    run_id bigint NOT NULL REFERENCES xq.runs ON DELETE CASCADE,
    worker text NOT NULL,
    batches bigint NOT NULL DEFAULT 0,
    games bigint NOT NULL DEFAULT 0,
    faults bigint NOT NULL DEFAULT 0,
    busy_s double precision NOT NULL DEFAULT 0,
    first_at timestamptz NOT NULL DEFAULT now(),
    last_at timestamptz NOT NULL DEFAULT now(),
    refused text,
    PRIMARY KEY (run_id, worker)
);

-- Claims a batch of at most p_pairs pairs of an open run: first a batch whose lease ran
-- out (a worker died or lost the network), else new pairs. No row when the run has none
-- to give (closed, or every pair handed out and under a lease).
CREATE FUNCTION xq.claim_batch(p_run bigint, p_worker text, p_pairs integer, p_lease_s double precision)
RETURNS TABLE (batch_id bigint, token uuid, first_pair bigint, pairs integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    r xq.runs%ROWTYPE;
    b xq.batches%ROWTYPE;
    n integer;
    live bigint;
BEGIN
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
    n := least(greatest(p_pairs, 1), r.total_pairs - r.next_pair,
               greatest(1, ceil((r.total_pairs - r.next_pair)::numeric / greatest(live, 1))::integer));
    INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until)
        VALUES (p_run, r.next_pair, n, 'claimed', p_worker, gen_random_uuid(),
                now() + make_interval(secs => p_lease_s))
        RETURNING * INTO b;
    UPDATE xq.runs SET next_pair = next_pair + n WHERE id = p_run;
    RETURN QUERY SELECT b.id, b.token, b.first_pair, b.pairs;
END $$;

-- Extends a lease; false when the batch is no longer this worker's or its run closed.
CREATE FUNCTION xq.renew_batch(p_batch bigint, p_token uuid, p_lease_s double precision)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    UPDATE xq.batches b SET lease_until = now() + make_interval(secs => p_lease_s)
        FROM xq.runs r
        WHERE b.id = p_batch AND b.token = p_token AND b.state = 'claimed'
          AND r.id = b.run_id AND r.state = 'open';
    RETURN FOUND;
END $$;

-- Gives a batch back at once (a worker that stops): another worker may claim it now.
CREATE FUNCTION xq.release_batch(p_batch bigint, p_token uuid)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
    UPDATE xq.batches SET lease_until = now() - interval '1 second'
        WHERE id = p_batch AND token = p_token AND state = 'claimed';
    -- Workers waiting for leases may take it now.
    SELECT pg_notify('xq_runs', run_id::text) FROM xq.batches WHERE id = p_batch;
$$;

-- The first half of a submit: locks the run and checks that the batch is still this
-- worker's (SQLSTATE XQ001 if not: the lease was lost) and the run still open (XQ002),
-- and returns the run's counts. The runner adds the batch's games to them, decides
-- whether the run ends, and calls xq.finish_batch in the same transaction.
CREATE FUNCTION xq.begin_submit(p_batch bigint, p_token uuid)
RETURNS TABLE (counts jsonb, pairs_done bigint, total_pairs bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
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
    RETURN QUERY SELECT r.counts, r.pairs_done, r.total_pairs;
END $$;

-- The second half: stores the games and the new counts, marks the batch done, and
-- closes the run when p_state says it ended (a verdict, a fault limit, every pair).
CREATE FUNCTION xq.finish_submit(p_batch bigint, p_token uuid, p_pairs bigint[], p_games smallint[],
    p_entries text[], p_counts jsonb, p_faults bigint, p_busy_s double precision,
    p_state text, p_status text, p_exit integer)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
BEGIN
    SELECT * INTO b FROM xq.batches WHERE id = p_batch FOR UPDATE;
    IF NOT FOUND OR b.token <> p_token OR b.state <> 'claimed' THEN
        RAISE EXCEPTION 'batch % is no longer this worker''s (its lease was lost)', p_batch
            USING ERRCODE = 'XQ001';
    END IF;
    IF p_state NOT IN ('open', 'finished', 'aborted') THEN
        RAISE EXCEPTION 'a worker cannot set a run %', p_state;
    END IF;
    IF EXISTS (SELECT 1 FROM unnest(p_pairs) AS p
               WHERE p < b.first_pair OR p >= b.first_pair + b.pairs) THEN
        RAISE EXCEPTION 'a game outside batch %', p_batch;
    END IF;
    INSERT INTO xq.games (run_id, pair, game, batch_id, entry)
        SELECT b.run_id, g.pair, g.game, b.id, g.entry
        FROM unnest(p_pairs, p_games, p_entries) AS g(pair, game, entry);
    UPDATE xq.batches SET state = 'done', done_at = now() WHERE id = p_batch;
    UPDATE xq.runs SET counts = p_counts, pairs_done = pairs_done + b.pairs,
            games_done = games_done + cardinality(p_entries),
            state = p_state,
            status = CASE WHEN p_state = 'open' THEN status ELSE p_status END,
            exit_code = CASE WHEN p_state = 'open' THEN exit_code ELSE p_exit END,
            ended_at = CASE WHEN p_state = 'open' THEN ended_at ELSE now() END
        WHERE id = b.run_id;
    IF p_state <> 'open' THEN
        -- Workers waiting for the run's last leases may stop waiting.
        PERFORM pg_notify('xq_runs', b.run_id::text);
    END IF;
    INSERT INTO xq.run_workers AS w (run_id, worker, batches, games, faults, busy_s)
        VALUES (b.run_id, b.worker, 1, cardinality(p_entries), p_faults, p_busy_s)
        ON CONFLICT (run_id, worker) DO UPDATE SET batches = w.batches + 1,
            games = w.games + excluded.games, faults = w.faults + excluded.faults,
            busy_s = w.busy_s + excluded.busy_s, last_at = now();
END $$;

-- A worker says it is alive, and what it works on.
CREATE FUNCTION xq.heartbeat(p_worker text, p_run bigint, p_concurrency integer, p_version text)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
    INSERT INTO xq.workers AS w (name, version, concurrency, run_id)
        VALUES (p_worker, p_version, p_concurrency, p_run)
        ON CONFLICT (name) DO UPDATE SET last_seen = now(), run_id = excluded.run_id,
            concurrency = excluded.concurrency, version = excluded.version,
            db_user = current_user;
$$;

-- A worker refuses a run it must not play (its engines' bench signature differs, its
-- opening file differs): visible in `status`, and the worker skips the run.
CREATE FUNCTION xq.refuse_run(p_run bigint, p_worker text, p_reason text)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
    INSERT INTO xq.run_workers AS w (run_id, worker, refused) VALUES (p_run, p_worker, p_reason)
        ON CONFLICT (run_id, worker) DO UPDATE SET refused = excluded.refused, last_at = now();
$$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA xq FROM PUBLIC;
