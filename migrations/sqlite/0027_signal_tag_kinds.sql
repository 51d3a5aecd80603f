-- Each tag row carries its signal's kind, and the tag index covers it: a count of a kind's
-- signals by tag groups (seniorities with departments, say) reads the tag index alone instead
-- of looking every tagged signal up by its id to learn its kind (1.06 s at scale l, a count
-- that every page of such a list needs).
ALTER TABLE signal_tags ADD COLUMN kind TEXT NOT NULL DEFAULT '';
UPDATE signal_tags SET kind = (SELECT s.kind FROM signals s WHERE s.id = signal_tags.signal_id)
WHERE EXISTS (SELECT 1 FROM signals s WHERE s.id = signal_tags.signal_id);
DROP INDEX signal_tags_tag;
CREATE INDEX signal_tags_tag ON signal_tags (tag, kind, signal_id);
ANALYZE signal_tags;
