-- A job's description is searched (`description`) on the hiring list only, and from now on only
-- a posting's record gives its signal a description document. A description query's matches can
-- then be counted off the full-text index alone, without reading each match's row for its kind,
-- wherever no other kind of signal was given a description document before: this row says
-- whether that holds here (it stays as computed: nothing writes such a document any more).
CREATE TABLE search_facts (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    descriptions_of_postings_only INTEGER NOT NULL
);
INSERT INTO search_facts (id, descriptions_of_postings_only)
SELECT 1, NOT EXISTS (
    SELECT 1 FROM signals
    WHERE kind <> 'hiring' AND json_extract(payload, '$.descriptionText') IS NOT NULL
);
