-- One lease per cluster node (issue 24, session 18): a node renews its own
-- row each second (one row update, whatever the number of games it owns)
-- instead of the `lease_until_ms` of each of its `game_owner` rows (10,000
-- row updates a second at 10,000 games, each locking a row that the store's
-- writer locks to check an append's fence). A game may be taken over when
-- its `game_owner.node_id` is '' or names a node whose row here is absent or
-- expired; the fencing epoch of `game_owner` stays the guard of every
-- append. `game_owner.lease_until_ms` is no longer read.
-- Both dialects read this file: only TEXT and BIGINT columns.
CREATE TABLE node_lease (
    node_id TEXT PRIMARY KEY,
    lease_until_ms BIGINT NOT NULL
);
