-- The twin of SQLite's 0039. `companies_lower_name` (migration 0007) holds the same keys as
-- `companies_lower_name_order` (0011) less the id: an equality on the lower-cased name (the
-- enrichment's exact-name look-up) is served by either, read in either direction. Each company
-- written kept both up to date, and a bulk load built both.
DROP INDEX IF EXISTS companies_lower_name;
