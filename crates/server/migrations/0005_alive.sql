-- The last moment a single server was known to run (issue 26 item 7): it
-- writes the row every few seconds and when it stops, and reads it at the
-- next start, before it rebuilds the games, to charge the side to move the
-- time it thought before the stop (not the outage). One row, node_id ''.
-- Both dialects read this file: only TEXT and BIGINT columns.
CREATE TABLE node_alive (
    node_id TEXT PRIMARY KEY,
    alive_ms BIGINT NOT NULL
);
