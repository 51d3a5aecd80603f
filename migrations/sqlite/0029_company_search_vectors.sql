-- PostgreSQL computes a company's search vectors as generated columns from this migration on.
-- SQLite keeps its search documents in FTS5 tables, written with the rows; nothing changes here.
SELECT 1;
