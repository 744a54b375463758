-- Ownership of live games in a cluster (issue 24): one row per game that a
-- node has taken, with the node (its id and incarnation, '' once released
-- for good), the fencing epoch (raised by every take-over) and the lease's
-- end (ms since the Unix epoch, by the database's clock). Each append of a
-- clustered node checks, in its own transaction, that the row still names
-- it with the epoch it took (crates/server/src/store/writer.rs). A single
-- node (SQLite or Postgres without --cluster) never reads or writes it.
-- Both dialects read this file: only TEXT and BIGINT columns.
CREATE TABLE game_owner (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    node_id TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    lease_until_ms BIGINT NOT NULL
);
CREATE INDEX game_owner_node ON game_owner (node_id);
CREATE INDEX game_owner_lease ON game_owner (lease_until_ms);
