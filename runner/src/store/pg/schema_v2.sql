-- Version 2 of the xq-runner schema, over version 1 (`schema.sql`): tune runs. `db init`
-- runs it after version 1 for a new database, and alone to upgrade a version-1 one; the
-- runs already there are match runs and keep working.
--
-- A tune run keeps its SPSA state in its row (`tune`: the parameters, the schedule and
-- theta, written by the runner whole under the row's lock); each finished iteration is
-- one row of xq.tune_records, keyed by its number, so that it counts exactly once.

ALTER TABLE xq.runs ADD COLUMN kind text NOT NULL DEFAULT 'match'
    CHECK (kind IN ('match', 'tune'));
ALTER TABLE xq.runs ADD COLUMN tune jsonb;
ALTER TABLE xq.runs ADD CONSTRAINT runs_tune_state CHECK ((kind = 'tune') = (tune IS NOT NULL));

-- One finished iteration: the journal line a local tune writes. `applied` is the order
-- in which results were applied to theta (1, 2, ...), which is the journal's order.
CREATE TABLE xq.tune_records (
    run_id bigint NOT NULL REFERENCES xq.runs ON DELETE CASCADE,
    iteration bigint NOT NULL CHECK (iteration > 0),
    applied bigint NOT NULL CHECK (applied > 0),
    batch_id bigint NOT NULL REFERENCES xq.batches,
    record text NOT NULL,
    PRIMARY KEY (run_id, iteration),
    UNIQUE (run_id, applied)
);

-- The second half of a tune batch's submit (the first is xq.begin_submit, which checks
-- the fence and locks the run): stores one record per iteration of the batch, every one
-- of them and no other, and theta after them; closes the run when p_state says so.
CREATE FUNCTION xq.finish_tune_submit(p_batch bigint, p_token uuid, p_iterations bigint[],
    p_records text[], p_tune jsonb, p_faults bigint, p_busy_s double precision,
    p_state text, p_status text, p_exit integer)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
DECLARE
    b xq.batches%ROWTYPE;
    r xq.runs%ROWTYPE;
BEGIN
    SELECT * INTO b FROM xq.batches WHERE id = p_batch FOR UPDATE;
    IF NOT FOUND OR b.token <> p_token OR b.state <> 'claimed' THEN
        RAISE EXCEPTION 'batch % is no longer this worker''s (its lease was lost)', p_batch
            USING ERRCODE = 'XQ001';
    END IF;
    SELECT * INTO r FROM xq.runs WHERE id = b.run_id FOR UPDATE;
    IF r.state <> 'open' THEN
        RAISE EXCEPTION 'run % is %', r.id, r.state USING ERRCODE = 'XQ002';
    END IF;
    IF r.kind <> 'tune' OR p_tune IS NULL THEN
        RAISE EXCEPTION 'run % is not a tune', r.id;
    END IF;
    IF p_state NOT IN ('open', 'finished', 'aborted') THEN
        RAISE EXCEPTION 'a worker cannot set a run %', p_state;
    END IF;
    -- Iteration k is pair k - 1: the batch's pairs, each once.
    IF cardinality(p_iterations) <> b.pairs OR cardinality(p_records) <> b.pairs
       OR (SELECT count(DISTINCT k) FROM unnest(p_iterations) AS k
           WHERE k - 1 >= b.first_pair AND k - 1 < b.first_pair + b.pairs) <> b.pairs THEN
        RAISE EXCEPTION 'the records of batch % are not its iterations', p_batch;
    END IF;
    INSERT INTO xq.tune_records (run_id, iteration, applied, batch_id, record)
        SELECT b.run_id, g.k, r.pairs_done + g.i, b.id, g.record
        FROM unnest(p_iterations, p_records) WITH ORDINALITY AS g(k, record, i);
    UPDATE xq.batches SET state = 'done', done_at = now() WHERE id = p_batch;
    UPDATE xq.runs SET tune = p_tune, pairs_done = pairs_done + b.pairs,
            games_done = games_done + 2 * b.pairs,
            state = p_state,
            status = CASE WHEN p_state = 'open' THEN status ELSE p_status END,
            exit_code = CASE WHEN p_state = 'open' THEN exit_code ELSE p_exit END,
            ended_at = CASE WHEN p_state = 'open' THEN ended_at ELSE now() END
        WHERE id = b.run_id;
    IF p_state <> 'open' THEN
        PERFORM pg_notify('xq_runs', b.run_id::text);
    END IF;
    INSERT INTO xq.run_workers AS w (run_id, worker, batches, games, faults, busy_s)
        VALUES (b.run_id, b.worker, 1, 2 * b.pairs, p_faults, p_busy_s)
        ON CONFLICT (run_id, worker) DO UPDATE SET batches = w.batches + 1,
            games = w.games + excluded.games, faults = w.faults + excluded.faults,
            busy_s = w.busy_s + excluded.busy_s, last_at = now();
END $$;

REVOKE ALL ON FUNCTION xq.finish_tune_submit(bigint, uuid, bigint[], text[], jsonb, bigint,
    double precision, text, text, integer) FROM PUBLIC;

-- The worker roles of version 1 get what version 2 adds, so that an upgrade needs no
-- second grant.
DO $$
DECLARE
    grantee_role text;
BEGIN
    FOR grantee_role IN SELECT DISTINCT grantee FROM information_schema.role_routine_grants
                WHERE routine_schema = 'xq' AND routine_name = 'finish_submit'
                  AND grantee <> current_user LOOP
        EXECUTE format('GRANT SELECT ON xq.tune_records TO %I', grantee_role);
        EXECUTE format('GRANT EXECUTE ON FUNCTION xq.finish_tune_submit(bigint, uuid, bigint[], text[], jsonb, bigint, double precision, text, text, integer) TO %I', grantee_role);
    END LOOP;
END $$;

UPDATE xq.meta SET value = '2' WHERE key = 'schema_version';
