-- Two indexes of the delivery outbox that no query on SQLite reads, each written once per
-- delivery, that is ten times per signal that fans out to ten webhooks. The claim on SQLite
-- seeks per webhook (deliveries_due_webhook, deliveries_due_free) instead of walking every
-- pending row in time order, the expiry of held deliveries walks the pending rows of that same
-- index, and nothing looks deliveries up by event. PostgreSQL's claim still uses the first.
DROP INDEX deliveries_due;
DROP INDEX deliveries_event;
