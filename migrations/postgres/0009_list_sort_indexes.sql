-- Sorted list pages off an index instead of a sort of every matching row (measured at scale l,
-- see BENCHMARKS.md): companies by name (the default), employee count and founded year, and
-- signals by amount with the id as tie-break. Lists sort descending by default with NULLS LAST,
-- which a plain index read backwards does not give on PostgreSQL.
CREATE INDEX companies_name_order ON companies (name DESC NULLS LAST, id DESC);
CREATE INDEX companies_employee_order ON companies (employee_count DESC NULLS LAST, id DESC);
CREATE INDEX companies_founded_order ON companies (founded_year DESC NULLS LAST, id DESC);
DROP INDEX signals_kind_amount;
CREATE INDEX signals_kind_amount ON signals (kind, amount DESC NULLS LAST, id DESC);
-- The planner needs statistics for the new indexes at once: without them SQLite took the amount
-- index for every `kind = ?` list and read all of a kind's signals (seconds at scale l).
ANALYZE;
