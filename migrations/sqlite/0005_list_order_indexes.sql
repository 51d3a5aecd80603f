-- List pages are ordered by date and then id: carry the id in the date indexes so a page is read
-- straight off the index, however many signals share a timestamp.
DROP INDEX signals_kind_occurred;
DROP INDEX signals_kind_discovered;
CREATE INDEX signals_kind_occurred ON signals (kind, occurred_at, id);
CREATE INDEX signals_kind_discovered ON signals (kind, discovered_at, id);
