-- The word index of places and roles (signal_fields, migration 0010) has been unread since the
-- `city` and `new_role` filters match substrings through the trigram table of 0017. Every hiring
-- and job-change insert still wrote it: dropping it makes ingest and import cheaper.
DROP TABLE signal_fields;
