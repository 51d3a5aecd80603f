-- PostgreSQL drops the foreign keys of deliveries in this migration (their checks took a row
-- lock on the webhook, the team and the event of every delivery). SQLite keeps them: there a
-- check is a look-up in the same process under the one write lock, and dropping a constraint
-- would mean rebuilding the whole deliveries table. Nothing changes here.
SELECT 1;
