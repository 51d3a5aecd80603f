-- Search documents of the filters that read only part of a signal's text, keyed by the signal's
-- rowid: `place` (a posting's city, location and region; a person's city and location: the
-- hiring and job-change `city` filters) and `role` (a job change's new role: `new_role`).
CREATE VIRTUAL TABLE signal_fields USING fts5(
    place, role,
    content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
);
INSERT INTO signal_fields (rowid, place, role)
SELECT rowid,
       CASE kind
           WHEN 'hiring' THEN COALESCE(json_extract(payload, '$.city'), '') || ' '
               || COALESCE(json_extract(payload, '$.location'), '') || ' '
               || COALESCE(json_extract(payload, '$.region'), '')
           ELSE COALESCE(json_extract(payload, '$.personCity'), '') || ' '
               || COALESCE(json_extract(payload, '$.personLocation'), '')
       END,
       CASE kind WHEN 'job_change' THEN COALESCE(title, '') ELSE '' END
FROM signals WHERE kind IN ('hiring', 'job_change');

-- A deal imported without a currency is in US dollars (as its record shows it).
UPDATE signals SET currency = 'USD'
WHERE currency IS NULL AND kind IN ('funding_round', 'acquisition');
