-- Sorted company pages off an index instead of a sort of every matching row (measured at scale
-- l, see BENCHMARKS.md): by name (the default), employee count and founded year.
CREATE INDEX companies_name_order ON companies (name, id);
CREATE INDEX companies_employee_order ON companies (employee_count, id);
CREATE INDEX companies_founded_order ON companies (founded_year, id);
