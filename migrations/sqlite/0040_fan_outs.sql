-- PostgreSQL's migration 0040 adds `fan_outs`, the deliveries an accepting transaction leaves
-- to a worker to write. SQLite has one writer: its accepting transactions write the delivery
-- rows themselves (the work would only move to another turn of the same writer). Nothing
-- changes here; the number keeps both sets of migrations in step.
SELECT 1;
