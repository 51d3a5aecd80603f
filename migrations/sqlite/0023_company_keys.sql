-- The website domains and LinkedIn pages by which an ingest created a company: one row per key,
-- written in the transaction that creates the company. Ingests in several processes that create
-- the same new company at once race on this primary key (`INSERT … ON CONFLICT DO NOTHING`)
-- instead of queuing behind one lock: the first commits, the others see their claim refused,
-- start again and find the company it created. Companies created before this table existed
-- have no rows here: they are found by their stored domain and page, as before, so no backfill
-- is needed and duplicates already stored (from older versions) are left as they are.
CREATE TABLE company_keys (
    key TEXT PRIMARY KEY,
    company_id TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- PostgreSQL's 0023 also drops deliveries_due here; SQLite dropped it in its 0014.
