-- Receipts (領収書) of paid sales (docs/decisions.md, "Receipts"). The project owner is the seller; the operator
-- issues the receipt on the owner's behalf, from the issuer data an operator sets on the project. A project without
-- a row here gets receipts that name the operator as receiving payment on the owner's behalf, with no registration
-- number.
CREATE TABLE project_receipt_issuers (
    -- The project whose receipts name this issuer (one issuer per project).
    project_id          BIGINT      PRIMARY KEY,
    -- The issuer's name as printed (domain::receipt::ISSUER_NAME: 1 to 100 characters, trimmed).
    issuer_name         TEXT        NOT NULL,
    -- The qualified-invoice registration number (登録番号), 'T' and 13 digits; NULL when the owner is not registered.
    registration_number TEXT,
    -- When an operator last set the row (who and what is in admin_actions).
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT project_receipt_issuers_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id)
        ON DELETE CASCADE,
    CONSTRAINT project_receipt_issuers_issuer_name_length CHECK (char_length(issuer_name) BETWEEN 1 AND 100),
    CONSTRAINT project_receipt_issuers_registration_number_check
        CHECK (registration_number IS NULL OR registration_number ~ '^T[0-9]{13}$')
);

-- Each paid sale's receipt once it has been issued: to whom, and how many times (every issue after the first is
-- printed 再発行, so that two originals never exist). No row: never issued.
CREATE TABLE sale_receipts (
    -- The sale the receipt is for (one receipt per sale).
    sale_id         BIGINT      PRIMARY KEY,
    -- The addressee (宛名) printed by the latest issue: what the supporter typed, else their name; may be empty
    -- when there was no name to print (domain::receipt::ADDRESSEE: at most 60 characters).
    addressee       TEXT        NOT NULL,
    -- How many times it was issued; 1 is the original.
    issued_count    INTEGER     NOT NULL DEFAULT 1,
    -- The first issue (the original).
    first_issued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- The latest issue (the date a reissue prints).
    last_issued_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT sale_receipts_sale_id_fkey FOREIGN KEY (sale_id) REFERENCES sales (id) ON DELETE RESTRICT,
    CONSTRAINT sale_receipts_addressee_length CHECK (char_length(addressee) <= 60),
    CONSTRAINT sale_receipts_issued_count_check CHECK (issued_count BETWEEN 1 AND 1000000),
    CONSTRAINT sale_receipts_issued_order_check CHECK (first_issued_at <= last_issued_at)
);
