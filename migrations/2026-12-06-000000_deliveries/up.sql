-- The delivery state of each sale's return (docs/decisions.md, "Shipping the returns"). A row: the return was
-- shipped (発送済み); no row: not shipped yet (未発送). Who set it and what it was before is in admin_actions.
CREATE TABLE sale_deliveries (
    -- The sale whose return was shipped (one state per sale).
    sale_id     BIGINT      PRIMARY KEY,
    -- The day it was shipped (Asia/Tokyo), as the operator entered it; never after the day it was entered.
    shipped_on  DATE        NOT NULL,
    -- The operator's note for the supporter: carrier, tracking number (domain::delivery::DELIVERY_NOTE, one line,
    -- at most 200 characters); NULL when none.
    note        TEXT,
    -- The administrator who set the state last.
    updated_by  BIGINT      NOT NULL,
    -- When the state was first set to shipped, and last changed.
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT sale_deliveries_sale_id_fkey FOREIGN KEY (sale_id) REFERENCES sales (id) ON DELETE RESTRICT,
    CONSTRAINT sale_deliveries_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES users (id) ON DELETE RESTRICT,
    CONSTRAINT sale_deliveries_note_length CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 200)
);
