-- The company and tag rows of the signals a bulk load writes, kept here in the order they come
-- until the load ends, then moved into signal_companies and signal_tags sorted by their keys.
-- Written straight into those tables, every row lands at a random place of their primary-key
-- indexes (random text signal ids), and at scale the indexes outgrow the page cache: a load of
-- two million records spent a third of its time there. `batch` numbers the load's signal
-- batches; a signal stored again by a later batch is listed in bulk_restored_signals, and only
-- its last batch's rows are moved.
CREATE TABLE bulk_signal_companies (
    batch INTEGER NOT NULL,
    signal_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    company_id TEXT NOT NULL,
    occurred_at BIGINT NOT NULL
);
CREATE TABLE bulk_signal_tags (
    batch INTEGER NOT NULL,
    signal_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    tag TEXT NOT NULL
);
CREATE TABLE bulk_restored_signals (
    signal_id TEXT NOT NULL,
    batch INTEGER NOT NULL,
    PRIMARY KEY (signal_id, batch)
);
