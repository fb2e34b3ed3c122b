-- Version 6 to 7: what a run is to the people who read it. Who submitted it (`submit`
-- records the OS user and host, or its `--submitter`), and each engine's build: the
-- first 12 hex digits of the SHA-256 of the program stored with it, by the engine's
-- index in the config (an engine whose program the workers have has none). Written by
-- the owner at submit; read by the reader role with the rest of the run.

ALTER TABLE xq.runs ADD COLUMN submitter text
    CHECK (submitter IS NULL
           OR (length(submitter) BETWEEN 1 AND 100 AND submitter !~ '[[:cntrl:]]'));
ALTER TABLE xq.runs ADD COLUMN builds jsonb NOT NULL DEFAULT '{}'::jsonb;

-- The runs of an older version: their builds from the programs stored with them.
UPDATE xq.runs AS r SET builds = coalesce(
    (SELECT jsonb_object_agg(f.engine::text, left(f.sha256, 12))
     FROM xq.run_files AS f WHERE f.run_id = r.id AND f.role = 'program'),
    '{}'::jsonb);

UPDATE xq.meta SET value = '7' WHERE key = 'schema_version';
