-- The twin of SQLite's 0014. Nothing looks deliveries up by event (events are never deleted, so
-- the foreign key needs no index either), yet deliveries_event is written once per delivery, ten
-- times per signal that fans out to ten webhooks: dropped here too. deliveries_due stays: unlike
-- SQLite's, PostgreSQL's claim walks the pending rows in time order on it.
DROP INDEX IF EXISTS deliveries_event;
