-- A finished game's final state (the GET /api/games/{id} answer as of its
-- end, JSON text), written once the game ends: reads of a finished game
-- come from here without rebuilding its session (issue 21). NULL for a
-- game going on, and for a game finished before this column existed (its
-- first read rebuilds it and fills the column).
ALTER TABLE games ADD COLUMN final_state TEXT;
