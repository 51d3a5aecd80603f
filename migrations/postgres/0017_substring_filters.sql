-- Substring filters: the hiring and job-change `city` and `job_locations` filters and the
-- job-change `new_role` filter match any part of the text, in any letter case. Trigram indexes
-- serve their `LIKE '%…%'`: on the place text (a posting's city, location and region; a
-- person's city and location) and on the title (a job change's new role).
CREATE INDEX signals_place_trgm ON signals USING gin (lower(
    COALESCE(payload::json ->> 'city', '') || ' '
    || COALESCE(payload::json ->> 'location', '') || ' '
    || COALESCE(payload::json ->> 'region', '') || ' '
    || COALESCE(payload::json ->> 'personCity', '') || ' '
    || COALESCE(payload::json ->> 'personLocation', '')
) gin_trgm_ops);
CREATE INDEX signals_title_trgm ON signals USING gin (lower(title) gin_trgm_ops);
