-- The word vectors of places and roles (migration 0010) have been unread since the `city` and
-- `new_role` filters match substrings through the trigram indexes of 0017. Every hiring and
-- job-change insert still computed them and kept two GIN indexes: dropping them makes ingest and
-- import cheaper.
DROP INDEX signals_place_tsv;
DROP INDEX signals_role_tsv;
ALTER TABLE signals DROP COLUMN place_tsv;
ALTER TABLE signals DROP COLUMN role_tsv;
