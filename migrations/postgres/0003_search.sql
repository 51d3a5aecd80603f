-- Full-text search vectors with GIN indexes, and a trigram index on company names for
-- typo-tolerant name matching.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

ALTER TABLE companies ADD COLUMN name_tsv tsvector;
ALTER TABLE companies ADD COLUMN search_tsv tsvector;
CREATE INDEX companies_name_tsv ON companies USING gin (name_tsv);
CREATE INDEX companies_search_tsv ON companies USING gin (search_tsv);
CREATE INDEX companies_name_trgm ON companies USING gin (lower(name) gin_trgm_ops);

ALTER TABLE signals ADD COLUMN search_tsv tsvector;
ALTER TABLE signals ADD COLUMN description_tsv tsvector;
CREATE INDEX signals_search_tsv ON signals USING gin (search_tsv);
CREATE INDEX signals_description_tsv ON signals USING gin (description_tsv);
