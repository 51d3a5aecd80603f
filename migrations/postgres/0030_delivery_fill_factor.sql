-- A delivery row is written three times: inserted, leased by a worker, and given its outcome.
-- The lease changes no indexed column, so PostgreSQL can write it as a heap-only tuple (no
-- new entry in any of the table's indexes) when the row's page has room for the new version.
-- Freshly inserted pages are full at the default fill factor of 100: leave half of each free
-- for the leases (old versions are pruned as pages are read, so the heap grows by far less).
ALTER TABLE deliveries SET (fillfactor = 50);
