-- PostgreSQL leaves room in each page of deliveries for their lease from this migration on.
-- SQLite rewrites a row in place; nothing changes here.
SELECT 1;
