-- The twin of SQLite's 0020. What the receiver answered to each delivery attempt, for the
-- dashboard's delivery page: the first bytes of the response body (at most 1 KiB, cut at a
-- character boundary, so always valid UTF-8). NULL when no answer came, and for attempts
-- recorded before this column existed.
ALTER TABLE delivery_attempts ADD COLUMN response_excerpt TEXT;
