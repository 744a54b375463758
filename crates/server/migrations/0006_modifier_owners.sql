-- Saved modifiers are owned (session-14 trial: anyone could overwrite anyone's
-- rule under its id). The first save of an id gives the saver a token, once;
-- saving that id again needs it. Only its SHA-256 (hex) is kept, so that a
-- copy of the database opens no rule. NULL for a rule saved before this
-- migration: the next save of its id claims it.
-- Both dialects read this file: only TEXT columns.
ALTER TABLE modifiers ADD COLUMN owner_hash TEXT;
