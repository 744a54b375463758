-- A game is its creation request plus an append-only log of accepted
-- inputs (issue 13 § Persistence). Both dialects (SQLite, Postgres) read
-- this file: only TEXT and BIGINT columns.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    white_token TEXT,
    black_token TEXT,
    status TEXT NOT NULL,
    result TEXT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX games_status ON games (status);
CREATE TABLE inputs (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    white_ms BIGINT,
    black_ms BIGINT,
    PRIMARY KEY (game_id, seq)
);
