-- Version 7 to 8: the machine each worker runs on, for the workers page, and the name
-- each engine announced to the workers that benched it, for the run page. The machine: its host name,
-- operating system, architecture and cores (the concurrency it runs is the heartbeat's).
-- A worker reports them itself, once a connection, through xq.report_machine, which
-- binds the name to the caller's connection first (xq.bind_worker, version 6): a worker
-- may describe only itself, never a name another live connection holds. No table is
-- granted for writing, and the function writes these four columns of that one row only.

ALTER TABLE xq.workers ADD COLUMN host text
    CHECK (host IS NULL OR (length(host) BETWEEN 1 AND 100 AND host !~ '[[:cntrl:]]'));
ALTER TABLE xq.workers ADD COLUMN os text
    CHECK (os IS NULL OR (length(os) BETWEEN 1 AND 40 AND os !~ '[[:cntrl:]]'));
ALTER TABLE xq.workers ADD COLUMN arch text
    CHECK (arch IS NULL OR (length(arch) BETWEEN 1 AND 40 AND arch !~ '[[:cntrl:]]'));
ALTER TABLE xq.workers ADD COLUMN cores integer CHECK (cores IS NULL OR cores BETWEEN 1 AND 65536);

-- Every argument is checked before the name is bound, so that a refused call leaves
-- nothing behind (not even a new row for its name).
CREATE FUNCTION xq.report_machine(p_worker text, p_host text, p_os text, p_arch text,
                                  p_cores integer)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF p_host IS NULL OR length(p_host) NOT BETWEEN 1 AND 100 OR p_host ~ '[[:cntrl:]]'
       OR p_os IS NULL OR length(p_os) NOT BETWEEN 1 AND 40 OR p_os ~ '[[:cntrl:]]'
       OR p_arch IS NULL OR length(p_arch) NOT BETWEEN 1 AND 40 OR p_arch ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'a worker''s machine is a host of 1 to 100 characters, an OS and an architecture of 1 to 40, none a control character'
            USING ERRCODE = 'XQ003';
    END IF;
    IF p_cores IS NULL OR p_cores NOT BETWEEN 1 AND 65536 THEN
        RAISE EXCEPTION 'a worker''s machine has 1 to 65536 cores, not %',
            coalesce(p_cores::text, 'NULL') USING ERRCODE = 'XQ003';
    END IF;
    PERFORM xq.bind_worker(p_worker);
    UPDATE xq.workers AS k SET host = p_host, os = p_os, arch = p_arch, cores = p_cores
        WHERE k.name = p_worker;
END $$;
REVOKE ALL ON FUNCTION xq.report_machine(text, text, text, text, integer) FROM PUBLIC;
ALTER FUNCTION xq.report_machine(text, text, text, text, integer) SET lock_timeout = '5s';

-- The name each engine announced (`id name`) to a worker that benched it, by engine
-- name, as that worker reported it for the run (xq.report_announced): shown beside the
-- engine's build and bench. Fenced as a bench report: the worker's own row, its name
-- bound to its connection, every text bounded.
ALTER TABLE xq.run_workers ADD COLUMN announced jsonb;

CREATE FUNCTION xq.report_announced(p_run bigint, p_worker text, p_names jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = xq, pg_temp AS $$
BEGIN
    IF p_names IS NULL OR jsonb_typeof(p_names) IS DISTINCT FROM 'object'
       OR (SELECT count(*) FROM jsonb_each(p_names)) > 64
       OR EXISTS (SELECT 1 FROM jsonb_each(p_names) AS e(k, v)
                  WHERE length(e.k) NOT BETWEEN 1 AND 100 OR jsonb_typeof(e.v) <> 'string'
                     OR length(e.v #>> '{}') NOT BETWEEN 1 AND 100
                     OR (e.v #>> '{}') ~ '[[:cntrl:]]' OR e.k ~ '[[:cntrl:]]') THEN
        RAISE EXCEPTION 'the names engines announced are an object of at most 64 engines, each a name of 1 to 100 characters without a control character'
            USING ERRCODE = 'XQ003';
    END IF;
    IF p_run IS NULL OR NOT EXISTS (SELECT 1 FROM xq.runs WHERE id = p_run) THEN
        RETURN;
    END IF;
    PERFORM xq.bind_worker(p_worker);
    INSERT INTO xq.run_workers AS w (run_id, worker, announced) VALUES (p_run, p_worker, p_names)
        ON CONFLICT (run_id, worker) DO UPDATE SET announced = excluded.announced, last_at = now();
END $$;
REVOKE ALL ON FUNCTION xq.report_announced(bigint, text, jsonb) FROM PUBLIC;
ALTER FUNCTION xq.report_announced(bigint, text, jsonb) SET lock_timeout = '5s';

-- The git commit of each engine's build where `bisect` built it from one, by the
-- engine's index in the config; written by the owner at submit, read with the run.
ALTER TABLE xq.runs ADD COLUMN commits jsonb NOT NULL DEFAULT '{}'::jsonb;

-- The worker roles of version 7 may report their machine (`db init --worker-role`
-- grants it to new ones).
DO $$
DECLARE
    grantee_role text;
BEGIN
    FOR grantee_role IN SELECT DISTINCT grantee FROM information_schema.role_routine_grants
                WHERE routine_schema = 'xq' AND routine_name = 'heartbeat'
                  AND grantee <> current_user LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION xq.report_machine(text, text, text, text, integer), xq.report_announced(bigint, text, jsonb) TO %I', grantee_role);
    END LOOP;
END $$;

UPDATE xq.meta SET value = '8' WHERE key = 'schema_version';
