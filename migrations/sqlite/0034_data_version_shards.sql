-- The list data version becomes the sum of sixteen counters, each bump picking one at random.
-- One shared row made every ingest of every process wait, from its bump to its commit, for the
-- commits of the others (a stalled commit held them all). The sum still moves by one with every
-- committed bump, in the same transaction as the data it covers.
INSERT INTO data_version (id, version) VALUES
    (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0),
    (10, 0), (11, 0), (12, 0), (13, 0), (14, 0), (15, 0), (16, 0);
