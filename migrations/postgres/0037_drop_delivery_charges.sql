-- A successful delivery was charged through a row of its own here, whose primary key kept a
-- second charge out. Nothing read the table, and the outcome's update already admits one
-- charge a delivery: only the recorder whose update moves the delivery from `pending` to `done`
-- under its own lease charges it, and `done` is final. Each delivery wrote one row and one index
-- entry less once the table went.
DROP TABLE delivery_charges;
