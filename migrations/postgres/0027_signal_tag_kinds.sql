-- Each tag row carries its signal's kind (the two schemas keep the same columns; SQLite counts
-- a kind's signals by tag groups off its tag index with it).
ALTER TABLE signal_tags ADD COLUMN kind TEXT NOT NULL DEFAULT '';
UPDATE signal_tags t SET kind = s.kind FROM signals s WHERE s.id = t.signal_id;
