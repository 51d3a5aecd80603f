-- `companies_lower_name` (migration 0007) is a prefix of `companies_lower_name_order` (0011):
-- every look-up by the lower-cased name (the enrichment's exact name, the name prefix and
-- range searches) is served by the longer index, and the planner already chose it. Each company
-- written kept both up to date, and a bulk load built both.
DROP INDEX IF EXISTS companies_lower_name;
