-- Full-text search documents (FTS5), keyed by the rowid of the row they describe.
-- company_search: name and industry (for signal lists), and the longer description text.
-- company_names: trigram index of company names, for typo-tolerant name matching.
-- signal_search: a signal's own searchable text, and a job's description.

CREATE VIRTUAL TABLE company_search USING fts5(
    name_industry, details,
    content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE company_names USING fts5(
    name, content = '', contentless_delete = 1, tokenize = 'trigram'
);
CREATE VIRTUAL TABLE signal_search USING fts5(
    body, description,
    content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
);
