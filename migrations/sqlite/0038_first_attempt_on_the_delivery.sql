-- Most deliveries succeed at their first attempt. Such a delivery now keeps that attempt on its
-- own row (its answer and time were there already; the duration is this column) instead of in a
-- row of `delivery_attempts`, which holds the attempts of deliveries that needed more than one
-- (or have not succeeded). Deliveries recorded before this migration keep their attempt rows and
-- have no duration here, so none is read twice.
ALTER TABLE deliveries ADD COLUMN duration_ms BIGINT;
