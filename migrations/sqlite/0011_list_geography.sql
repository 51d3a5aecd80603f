-- Signal pages chosen off an index alone (measured at scale l, see BENCHMARKS.md).
--
-- The company's headquarters country is copied onto its signals (`company_country`: written
-- with the signal, and the trigger below follows a company whose country changes), so the
-- country filters read no company row.
ALTER TABLE signals ADD COLUMN company_country TEXT;
UPDATE signals SET company_country =
    (SELECT c.headquarters_country FROM companies c WHERE c.id = signals.company_id);
CREATE TRIGGER companies_country_to_signals
AFTER UPDATE OF headquarters_country ON companies
WHEN OLD.headquarters_country IS NOT NEW.headquarters_country
BEGIN
    UPDATE signals SET company_country = NEW.headquarters_country WHERE company_id = NEW.id;
END;

-- The list-order indexes carry the columns the country filters test, so rows are tested off the
-- index instead of a read of each signal row.
DROP INDEX signals_kind_occurred;
DROP INDEX signals_kind_discovered;
DROP INDEX signals_kind_amount;
CREATE INDEX signals_kind_occurred ON signals (kind, occurred_at, id, company_country, country);
CREATE INDEX signals_kind_discovered ON signals (kind, discovered_at, id, company_country, country);
CREATE INDEX signals_kind_amount ON signals (kind, amount, id, company_country);
-- Deals of a few countries over a period, in any order (funding DACH 30 days by amount).
CREATE INDEX signals_kind_company_country
    ON signals (kind, company_country, occurred_at, round_type, amount, id);

-- A tag group's rows come off the index alone, and a row's tags are looked up on it.
DROP INDEX signal_tags_tag;
CREATE INDEX signal_tags_tag ON signal_tags (tag, signal_id);

-- Companies sorted by name (the default order sorts lower(name), then id).
CREATE INDEX companies_lower_name_order ON companies (lower(name), id);

-- Statistics of the three tables (not of the whole database: on a fresh one that would write
-- statistics of the empty FTS5 tables, see 0009): without them SQLite took the new indexes for
-- every `kind = ?` (17 s for a hiring page at scale l). An empty table gets none.
ANALYZE signals;
ANALYZE signal_tags;
ANALYZE companies;
