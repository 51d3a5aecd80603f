-- A company's signals by type and date, with their ids: the newest signals of the companies a CSV
-- enrichment job matched are read off this index alone, not off the signal rows scattered through
-- the table (cold, those reads took a 1,000-row job on scale l past 1 s).
DROP INDEX signals_company;
CREATE INDEX signals_company ON signals (company_id, kind, occurred_at, id);
