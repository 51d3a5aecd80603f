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

-- The delivery claim now seeks each webhook's due rows on deliveries_due_webhook (and free rows
-- on deliveries_due_free), as SQLite's does since its 0014; nothing walks every pending row in
-- time order any more. Left in place, the planner preferred it for the per-webhook seek (with
-- due rows of all webhooks interleaved it looks cheap, and it reads the whole backlog when the
-- oldest rows belong to webhooks at their cap), and every delivery wrote it twice.
DROP INDEX IF EXISTS deliveries_due;
