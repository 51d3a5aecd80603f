-- Search vectors of the filters that read only part of a signal's text: `place_tsv` (a
-- posting's city, location and region; a person's city and location: the hiring and job-change
-- `city` filters) and `role_tsv` (a job change's new role: `new_role`).
ALTER TABLE signals ADD COLUMN place_tsv tsvector;
ALTER TABLE signals ADD COLUMN role_tsv tsvector;
UPDATE signals SET
    place_tsv = to_tsvector('simple', CASE kind
        WHEN 'hiring' THEN concat_ws(' ', payload::json ->> 'city',
            payload::json ->> 'location', payload::json ->> 'region')
        ELSE concat_ws(' ', payload::json ->> 'personCity', payload::json ->> 'personLocation')
    END),
    role_tsv = to_tsvector('simple', CASE kind WHEN 'job_change' THEN COALESCE(title, '') ELSE '' END)
WHERE kind IN ('hiring', 'job_change');
CREATE INDEX signals_place_tsv ON signals USING gin (place_tsv);
CREATE INDEX signals_role_tsv ON signals USING gin (role_tsv);

-- A deal imported without a currency is in US dollars (as its record shows it).
UPDATE signals SET currency = 'USD'
WHERE currency IS NULL AND kind IN ('funding_round', 'acquisition');
