-- Version 3 to 4: the server makes a tune run's SPSA update itself. A worker hands in
-- nothing but the two games of each iteration of its batch (`W`, `D` or `L` of the
-- theta+ side); the server draws the iteration's flips and rounding from the run's seed
-- and k, takes theta as it was when the batch was claimed for the values played, and
-- applies the result to theta as it is now: the same arithmetic as `tune/spsa.rs` and
-- `tune/iteration.rs`, operation for operation, so a tune on the workers follows the
-- trajectory a local tune of the same results would. A hostile worker can lie about the
-- results of the iterations it holds, as it can about a match's games, but can no
-- longer put theta anywhere it likes.

-- theta when the batch was (last) claimed: the values its iterations play.
ALTER TABLE xq.batches ADD COLUMN theta double precision[];

-- Set on every claim of a tune run's batch (a new batch, or one handed out again after
-- its lease ran out: a new token). A trigger rather than a copy of `xq.claim_batch`:
-- claiming is the same for both kinds of run, only the snapshot is a tune's.
CREATE FUNCTION xq.snapshot_theta() RETURNS trigger
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
BEGIN
    NEW.theta := (SELECT array_agg(t.v::double precision ORDER BY t.i)
                  FROM xq.runs AS r, jsonb_array_elements(r.tune->'theta') WITH ORDINALITY AS t(v, i)
                  WHERE r.id = NEW.run_id AND r.kind = 'tune');
    RETURN NEW;
END $$;
CREATE TRIGGER batches_theta BEFORE INSERT OR UPDATE OF token ON xq.batches
    FOR EACH ROW EXECUTE FUNCTION xq.snapshot_theta();
UPDATE xq.batches SET token = token WHERE state = 'claimed';

-- SplitMix64 (`xq_core::rng`) on bigint, which holds a u64's 64 bits: additions and
-- products wrap through numeric, right shifts are logical.
CREATE FUNCTION xq.u64_wrap(n numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT (CASE WHEN m >= 9223372036854775808 THEN m - 18446744073709551616 ELSE m END)::bigint
    FROM (SELECT mod(mod(n, 18446744073709551616) + 18446744073709551616,
                     18446744073709551616) AS m) AS s
$$;

CREATE FUNCTION xq.u64_value(b bigint) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN b < 0 THEN b::numeric + 18446744073709551616 ELSE b::numeric END
$$;

CREATE FUNCTION xq.shr(b bigint, s integer) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT (b >> s) & ~((-1)::bigint << (64 - s)) $$;

-- One step: the next state and its output (`xq_core::rng::step`).
CREATE FUNCTION xq.splitmix(INOUT state bigint, OUT output bigint)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    z bigint;
BEGIN
    state := xq.u64_wrap(xq.u64_value(state) + 11400714819323198485);
    z := state;
    z := xq.u64_wrap(xq.u64_value(z # xq.shr(z, 30)) * 13787848793156543929);
    z := xq.u64_wrap(xq.u64_value(z # xq.shr(z, 27)) * 10723151780598845931);
    output := z # xq.shr(z, 31);
END $$;

-- The random draws of iteration k (`IterationRng` as `assign` uses it): a flip per
-- parameter, then the uniform numbers that round each parameter's theta+ value, then
-- its theta- value.
CREATE FUNCTION xq.spsa_draws(p_seed numeric, p_k bigint, p_params integer,
    OUT flips double precision[], OUT uniforms double precision[])
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    s bigint := xq.u64_wrap(p_seed) # xq.u64_wrap(p_k::numeric * 15111065706836454659);
    x bigint;
BEGIN
    SELECT o INTO s FROM xq.splitmix(s) AS m(st, o);
    flips := '{}';
    uniforms := '{}';
    FOR i IN 1 .. p_params LOOP
        SELECT st, o INTO s, x FROM xq.splitmix(s) AS m(st, o);
        flips := flips || CASE WHEN xq.shr(x, 63) = 1 THEN 1.0::double precision ELSE -1.0 END;
    END LOOP;
    FOR i IN 1 .. 2 * p_params LOOP
        SELECT st, o INTO s, x FROM xq.splitmix(s) AS m(st, o);
        uniforms := uniforms || (xq.shr(x, 11)::double precision / 9007199254740992.0);
    END LOOP;
END $$;

-- A tune batch's submit: `p_games` holds each iteration's two games from the theta+
-- side (`WL`: won as Red, lost as Black), in the order of the batch's iterations. The
-- server writes each iteration's record and moves theta; it ends the tune after its
-- last iteration. Floats print shortest-exact, so theta reads back bit for bit.
DROP FUNCTION xq.submit_tune_batch(bigint, uuid, bigint[], text[], jsonb, bigint, double precision);
DROP FUNCTION xq.begin_tune_submit(bigint, uuid);
CREATE FUNCTION xq.submit_tune_batch(p_batch bigint, p_token uuid, p_games text[],
    p_faults bigint, p_busy_s double precision)
RETURNS TABLE (state text, status text, exit_code integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp SET extra_float_digits = 1 AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
    params jsonb;
    n integer;
    big_n double precision;
    alpha double precision;
    gamma double precision;
    big_a double precision;
    lo double precision[];
    hi double precision[];
    c double precision[];
    a double precision[];
    names text[];
    theta double precision[];
    k bigint;
    draws record;
    result integer;
    c_k double precision;
    r_k double precision;
    plus jsonb;
    minus jsonb;
    flip jsonb;
    ended boolean;
BEGIN
    b := xq.held_batch(p_batch, p_token);
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id;
    IF r.kind <> 'tune' OR r.tune IS NULL THEN
        PERFORM xq.refuse_games(p_batch, format('run %s is not a tune', r.id));
    END IF;
    IF r.tune->'seed' IS NULL OR b.theta IS NULL THEN
        PERFORM xq.refuse_games(p_batch, format('run %s has no seed or theta to play from', r.id));
    END IF;
    IF p_games IS NULL OR cardinality(p_games) <> b.pairs
       OR EXISTS (SELECT 1 FROM unnest(p_games) AS g WHERE g IS NULL OR g !~ '^[WDL]{2}$') THEN
        PERFORM xq.refuse_games(p_batch, format(
            'the batch''s %s iterations need two games each, W, D or L (as "WL")', b.pairs));
    END IF;
    params := r.tune->'params';
    n := jsonb_array_length(params);
    big_n := (r.tune->'schedule'->>'iterations')::double precision;
    alpha := (r.tune->'schedule'->>'alpha')::double precision;
    gamma := (r.tune->'schedule'->>'gamma')::double precision;
    big_a := (r.tune->'schedule'->>'big_a')::double precision;
    SELECT array_agg(p->>'name' ORDER BY i), array_agg((p->>'min')::double precision ORDER BY i),
           array_agg((p->>'max')::double precision ORDER BY i),
           -- Gains::new: c = c_end * N^gamma, a = r_end * c_end * c_end * (A + N)^alpha.
           array_agg((p->>'c_end')::double precision * power(big_n, gamma) ORDER BY i),
           array_agg((p->>'r_end')::double precision * (p->>'c_end')::double precision
                     * (p->>'c_end')::double precision * power(big_a + big_n, alpha) ORDER BY i)
        INTO names, lo, hi, c, a
        FROM jsonb_array_elements(params) WITH ORDINALITY AS q(p, i);
    SELECT array_agg(t.v::double precision ORDER BY t.i) INTO theta
        FROM jsonb_array_elements(r.tune->'theta') WITH ORDINALITY AS t(v, i);
    IF cardinality(theta) <> n OR cardinality(b.theta) <> n THEN
        PERFORM xq.refuse_games(p_batch, format('run %s: theta and the parameters differ', r.id));
    END IF;
    FOR i IN 1 .. b.pairs LOOP
        k := b.first_pair + i;
        SELECT * INTO draws FROM xq.spsa_draws((r.tune->>'seed')::numeric, k, n);
        result := (SELECT sum(CASE g WHEN 'W' THEN 1 WHEN 'L' THEN -1 ELSE 0 END)
                   FROM regexp_split_to_table(p_games[i], '') AS g);
        plus := '{}';
        minus := '{}';
        flip := '{}';
        FOR j IN 1 .. n LOOP
            -- Step::new at the snapshot, the values rounded as the worker rounds them.
            c_k := c[j] / power(k::double precision, gamma);
            r_k := a[j] / power(big_a + k, alpha) / (c_k * c_k);
            plus := plus || jsonb_build_object(names[j], floor(greatest(lo[j], least(hi[j],
                b.theta[j] + c_k * draws.flips[j])) + draws.uniforms[j])::bigint);
            minus := minus || jsonb_build_object(names[j], floor(greatest(lo[j], least(hi[j],
                b.theta[j] - c_k * draws.flips[j])) + draws.uniforms[n + j])::bigint);
            flip := flip || jsonb_build_object(names[j], draws.flips[j]::integer);
            -- Step::update at theta as it is now.
            theta[j] := greatest(lo[j], least(hi[j],
                theta[j] + r_k * c_k * result::double precision * draws.flips[j]));
        END LOOP;
        INSERT INTO xq.tune_records (run_id, iteration, applied, batch_id, record)
            VALUES (b.run_id, k, r.pairs_done + i, b.id, jsonb_build_object(
                'iteration', k, 'plus', plus, 'minus', minus, 'flip', flip,
                'games', to_jsonb(regexp_split_to_array(p_games[i], '')), 'result', result,
                'theta', (SELECT jsonb_object_agg(names[j], theta[j]) FROM generate_series(1, n) AS j)
            )::text);
    END LOOP;
    UPDATE xq.batches SET state = 'done', done_at = now() WHERE id = p_batch;
    ended := r.pairs_done + b.pairs >= r.total_pairs;
    UPDATE xq.runs AS u SET tune = jsonb_set(u.tune, '{theta}', to_jsonb(theta)),
            pairs_done = u.pairs_done + b.pairs, games_done = u.games_done + 2 * b.pairs,
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

-- Artifacts: the programs, the files beside them and the opening files that runs carry,
-- stored once by SHA-256 however many runs use them, in chunks of at most 1 MiB so that
-- a 100 MB engine with its net is written and read a piece at a time. Only the owner
-- writes them (at submit); the worker role reads them and nothing more.
CREATE TABLE xq.artifacts (
    sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    size bigint NOT NULL CHECK (size >= 0),
    -- `x86_64-linux` for an ELF program, NULL for what any platform can use.
    platform text,
    stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE xq.artifact_chunks (
    sha256 text NOT NULL REFERENCES xq.artifacts ON DELETE CASCADE,
    seq integer NOT NULL CHECK (seq >= 0),
    data bytea NOT NULL,
    PRIMARY KEY (sha256, seq)
);
-- What a run carries: each engine's program and files (by the index of its [[engine]]
-- table; `name` is where the file goes in the engine's folder), and its opening file
-- (engine NULL).
CREATE TABLE xq.run_files (
    run_id bigint NOT NULL REFERENCES xq.runs ON DELETE CASCADE,
    engine integer,
    role text NOT NULL CHECK (role IN ('program', 'file', 'openings')),
    name text NOT NULL,
    sha256 text NOT NULL REFERENCES xq.artifacts,
    CHECK ((engine IS NULL) = (role = 'openings'))
);
CREATE UNIQUE INDEX run_files_place ON xq.run_files (run_id, coalesce(engine, -1), name);

-- Each worker's bench speed on a run (nodes per second by engine), so that a slow
-- machine in a test at a time control shows in `status`.
ALTER TABLE xq.run_workers ADD COLUMN bench jsonb;

CREATE FUNCTION xq.report_bench(p_run bigint, p_worker text, p_bench jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF length(p_worker) NOT BETWEEN 1 AND 100 OR jsonb_typeof(p_bench) <> 'object'
       OR (SELECT count(*) FROM jsonb_each(p_bench)) > 64
       OR EXISTS (SELECT 1 FROM jsonb_each(p_bench) AS e(k, v)
                  WHERE length(e.k) > 100 OR jsonb_typeof(e.v) <> 'number'
                     OR e.v::text::numeric NOT BETWEEN 0 AND 1e15) THEN
        RAISE EXCEPTION 'a bench report is an object of at most 64 engines and their nodes per second'
            USING ERRCODE = 'XQ003';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM xq.runs WHERE id = p_run) THEN
        RETURN;
    END IF;
    INSERT INTO xq.run_workers AS w (run_id, worker, bench) VALUES (p_run, p_worker, p_bench)
        ON CONFLICT (run_id, worker) DO UPDATE SET bench = excluded.bench, last_at = now();
END $$;
-- ---------------------------------------------------------------------------------
-- Purging a worker's games (issue 48, section 3: bad workers caught, as fishtest does).
-- `status` compares each worker's pairs with the rest of the run (fishtest's residuals,
-- computed by the runner from the stored games' facts); the owner removes the games
-- of a worker whose results do not fit with `xq-runner purge`, which calls the
-- function below. Not granted to the worker role: a worker must not be able to remove
-- another's games.

-- Games of this worker purged from the run: `status` shows them, so that a worker's
-- counts that went down say why.
ALTER TABLE xq.run_workers ADD COLUMN purged bigint NOT NULL DEFAULT 0;

-- Removes the games of the batches p_workers played for match run p_run, and hands
-- those batches out again as they were (the same first pair and pairs, so the run's
-- schedule is kept): each becomes a claimed batch whose lease has run out, under a new
-- token, which `xq.claim_batch` gives to the next worker that asks, before any new
-- pair. A batch such a worker holds now loses its token too: its late submit is
-- refused as a lost lease, so nothing is counted twice. The run's counts are made
-- again from what is left, and its end judged again: a run closed by the purged games
-- (a verdict, a fault limit, its last pair) opens again unless what is left closes it
-- too. One row per worker purged (none when they had no batch of the run).
CREATE FUNCTION xq.purge_workers(p_run bigint, p_workers text[])
RETURNS TABLE (worker text, batches bigint, pairs bigint, games bigint)
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
    -- The run's batches locked first, then the run, in the order a submit takes them
    -- (a claim takes the run's and skips locked batches): no batch of the run changes
    -- hands or is counted until this transaction ends.
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
        IF n_batches > 0 THEN
            RETURN QUERY SELECT who, n_batches, n_pairs, n_games;
        END IF;
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
-- End of the purge block.
-- ---------------------------------------------------------------------------------

-- ---------------------------------------------------------------------------------
-- Submits that do not wait for each other. Version 3's submit took the run's lock
-- first and held it while it checked and stored the batch's games (tens of ms), so a
-- run's submits and claims went one at a time: the load test (benches/fleet_load.rs)
-- found claims waiting 50 ms at the pace of 10,000 games in flight and seconds at twice
-- it, with the server's CPU a third used. Now a submit locks its batch, checks and
-- stores the games, and takes the run's lock only to count them and judge the run's
-- end. The order of locks is the batch's, then the run's (as in `xq.purge_workers`);
-- a claim takes the run's and skips locked batches. The run's lock is FOR NO KEY
-- UPDATE everywhere: storing a game takes a key-share lock on its run (the foreign
-- key), which FOR UPDATE would wait for, and two submits would wait for each other.

-- Version 3's claim, with the run's lock as said.
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

-- Version 3's, with the run's lock as said (a tune's submit: one at a time).
CREATE OR REPLACE FUNCTION xq.held_batch(p_batch bigint, p_token uuid) RETURNS xq.batches
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
BEGIN
    SELECT * INTO b FROM xq.batches WHERE id = p_batch;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'batch % does not exist', p_batch USING ERRCODE = 'XQ001';
    END IF;
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id FOR NO KEY UPDATE;
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

-- The batch p_batch, locked until the transaction ends, if p_token holds it and its
-- run is open: SQLSTATE XQ001 when the token no longer holds it (its lease was lost),
-- XQ002 when the run is closed. The run is not locked.
CREATE FUNCTION xq.held_batch_only(p_batch bigint, p_token uuid) RETURNS xq.batches
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
BEGIN
    SELECT * INTO b FROM xq.batches WHERE id = p_batch FOR UPDATE;
    IF NOT FOUND OR b.token <> p_token OR b.state <> 'claimed' THEN
        RAISE EXCEPTION 'batch % is no longer this worker''s (its lease was lost)', p_batch
            USING ERRCODE = 'XQ001';
    END IF;
    PERFORM xq.open_run(b.run_id);
    RETURN b;
END $$;

-- Raises XQ002 when run p_run is not open.
CREATE FUNCTION xq.open_run(p_run bigint) RETURNS void
LANGUAGE plpgsql SET search_path = xq, pg_temp AS $$
DECLARE
    run_state text := (SELECT u.state FROM xq.runs AS u WHERE u.id = p_run);
BEGIN
    IF run_state IS DISTINCT FROM 'open' THEN
        RAISE EXCEPTION 'run % is %', p_run, coalesce(run_state, 'gone') USING ERRCODE = 'XQ002';
    END IF;
END $$;

-- As version 3's (the same checks, in the same order, with the same words), with the
-- locks as said above.
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
BEGIN
    b := xq.held_batch_only(p_batch, p_token);
    -- What the check reads of the run (kind, engines, pairings) never changes.
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
-- End of the submit block.
-- ---------------------------------------------------------------------------------

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA xq FROM PUBLIC;

-- The worker roles of version 3 get what version 4 gives (`db init --worker-role`).
DO $$
DECLARE
    grantee_role text;
BEGIN
    FOR grantee_role IN SELECT DISTINCT grantee FROM information_schema.role_routine_grants
                WHERE routine_schema = 'xq' AND routine_name = 'claim_batch'
                  AND grantee <> current_user LOOP
        EXECUTE format('GRANT SELECT (theta) ON xq.batches TO %I', grantee_role);
        EXECUTE format('GRANT SELECT ON xq.artifacts, xq.artifact_chunks, xq.run_files TO %I', grantee_role);
        EXECUTE format('GRANT EXECUTE ON FUNCTION xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision), xq.report_bench(bigint, text, jsonb) TO %I', grantee_role);
    END LOOP;
END $$;

UPDATE xq.meta SET value = '4' WHERE key = 'schema_version';
