-- Version 4 to 5: a submit's cost no longer grows with its run. A batch's pentanomial
-- counts (`xq.first_pairing_penta` with a batch) read the games of the batch's range of
-- pairs alone; version 3's read every game of the run and kept the batch's, so on a run
-- of 100,000 pairs a submit of 100 pairs took 163 ms at its end against 67 ms at its
-- start (`benches/serve.rs`).

CREATE OR REPLACE FUNCTION xq.first_pairing_penta(p_run bigint, p_pairings integer, p_batch bigint)
RETURNS bigint[]
LANGUAGE plpgsql STABLE SET search_path = xq, pg_temp AS $$
DECLARE
    low bigint := 0;
    high bigint := 9223372036854775807;
BEGIN
    IF p_batch IS NOT NULL THEN
        SELECT b.first_pair, b.first_pair + b.pairs INTO low, high
            FROM xq.batches AS b WHERE b.id = p_batch;
    END IF;
    RETURN (
        SELECT ARRAY[count(*) FILTER (WHERE s = 0), count(*) FILTER (WHERE s = 1),
                     count(*) FILTER (WHERE s = 2), count(*) FILTER (WHERE s = 3),
                     count(*) FILTER (WHERE s = 4)]
        FROM (SELECT sum(CASE WHEN g.result = '1/2-1/2' THEN 1
                              WHEN (g.result = '1-0') = (g.game = 0) THEN 2 ELSE 0 END) AS s
              FROM xq.games AS g
              WHERE g.run_id = p_run AND g.pair >= low AND g.pair < high
                AND (p_batch IS NULL OR g.batch_id = p_batch)
                AND g.result IS NOT NULL AND g.pair % p_pairings = 0
              GROUP BY g.pair HAVING count(*) = 2) AS pairs);
END $$;

REVOKE ALL ON FUNCTION xq.first_pairing_penta(bigint, integer, bigint) FROM PUBLIC;

UPDATE xq.meta SET value = '5' WHERE key = 'schema_version';
