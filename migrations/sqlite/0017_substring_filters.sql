-- Substring filters: the hiring and job-change `city` and `job_locations` filters and the
-- job-change `new_role` filter match any part of the text, in any letter case. A trigram table
-- keyed by the signal's rowid holds the text they read: `place` (a posting's city, location and
-- region; a person's city and location) and `role` (a job change's new role), lower-cased.
CREATE VIRTUAL TABLE signal_substrings USING fts5(
    place, role,
    content = '', contentless_delete = 1, tokenize = 'trigram'
);
INSERT INTO signal_substrings (rowid, place, role)
SELECT rowid,
       lower(COALESCE(json_extract(payload, '$.city'), '') || ' '
           || COALESCE(json_extract(payload, '$.location'), '') || ' '
           || COALESCE(json_extract(payload, '$.region'), '') || ' '
           || COALESCE(json_extract(payload, '$.personCity'), '') || ' '
           || COALESCE(json_extract(payload, '$.personLocation'), '')),
       CASE kind WHEN 'job_change' THEN lower(COALESCE(title, '')) ELSE '' END
FROM signals WHERE kind IN ('hiring', 'job_change');
