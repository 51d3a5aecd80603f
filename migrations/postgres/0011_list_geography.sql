-- The company's headquarters country copied onto its signals (`company_country`: written with
-- the signal, and the trigger below follows a company whose country changes), so the country
-- filters read no company row and a page can be chosen from `signals` alone.
ALTER TABLE signals ADD COLUMN company_country TEXT;
UPDATE signals s SET company_country = c.headquarters_country
FROM companies c
WHERE c.id = s.company_id AND c.headquarters_country IS NOT NULL;

CREATE FUNCTION signals_follow_company_country() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE signals SET company_country = NEW.headquarters_country WHERE company_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER companies_country_to_signals
AFTER UPDATE OF headquarters_country ON companies
FOR EACH ROW WHEN (OLD.headquarters_country IS DISTINCT FROM NEW.headquarters_country)
EXECUTE FUNCTION signals_follow_company_country();

-- Deals of a few countries over a period (funding DACH 30 days by amount).
CREATE INDEX signals_kind_company_country ON signals (kind, company_country, occurred_at);

-- Companies sorted by name: the default order is lower(name) descending, then id.
CREATE INDEX companies_lower_name_order ON companies (lower(name) DESC NULLS LAST, id DESC);
