-- A sale keeps the delivery address it was placed with (issue #18 item 9): the member's address book may change
-- afterwards without rewriting where a past support is delivered. Written in the sale's own transaction.
CREATE TABLE sale_addresses (
    -- The sale (one delivery address per sale).
    sales_id    BIGINT      PRIMARY KEY,
    -- Recipient name, phone, postal code, prefecture, city, street and building, as they were at the support.
    name        TEXT        NOT NULL,
    tel_number  TEXT        NOT NULL,
    zip         TEXT        NOT NULL,
    pref        TEXT        NOT NULL,
    city        TEXT        NOT NULL,
    address     TEXT        NOT NULL,
    building    TEXT,
    -- When the row was written.
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT sale_addresses_sales_id_fkey FOREIGN KEY (sales_id) REFERENCES sales (id) ON DELETE RESTRICT
);

-- Past sales keep what their address says now: the best record there is of what it said then.
INSERT INTO sale_addresses (sales_id, name, tel_number, zip, pref, city, address, building, created_at)
SELECT s.id, a.name, a.tel_number, a.zip, a.pref, a.city, a.address, a.building, s.created_at
  FROM sales s JOIN addresses a ON a.id = s.address_id;
