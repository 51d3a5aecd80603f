-- A bulk load under way: the import of a database that holds no data yet loads the rows first and
-- builds the list and search indexes afterwards. Its row is written in the transaction that drops
-- those indexes, with the statements that create them again, and deleted in the transaction that
-- creates them: while it exists the database is half-loaded (the server refuses to start on it,
-- and the next import starts the load over).
CREATE TABLE bulk_loads (
    id BIGINT PRIMARY KEY,
    started_at BIGINT NOT NULL,
    indexes TEXT NOT NULL
);
