-- The modifier library saved from the web app's editor (POST /api/modifiers):
-- one descriptor (JSON text) per id; saving an id again replaces it.
CREATE TABLE modifiers (
    id TEXT PRIMARY KEY,
    descriptor TEXT NOT NULL,
    saved_ms BIGINT NOT NULL
);
