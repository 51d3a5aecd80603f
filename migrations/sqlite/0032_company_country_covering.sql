-- The company list in employee order, filtered by headquarters country (`countries=EUROPE`,
-- say), walked the employee index and read each company's row to test its country: its count
-- read about 150,000 rows of the companies table at scale `l`. With the country in the index
-- the count and the page test it off the index alone.
DROP INDEX companies_employee_order;
CREATE INDEX companies_employee_order ON companies (employee_count, id, headquarters_country);
