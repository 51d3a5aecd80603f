-- Sorted company pages off an index instead of a sort of every matching row (measured at scale
-- l, see BENCHMARKS.md): by name (the default), employee count and founded year. Lists sort
-- descending by default with NULLS LAST, which a plain index read backwards does not give on
-- PostgreSQL.
CREATE INDEX companies_name_order ON companies (name DESC NULLS LAST, id DESC);
CREATE INDEX companies_employee_order ON companies (employee_count DESC NULLS LAST, id DESC);
CREATE INDEX companies_founded_order ON companies (founded_year DESC NULLS LAST, id DESC);
