-- What hangs off an account: uploaded images (profile icon, corporate logo), delivery addresses,
-- and the administrator grants that the server checks on every admin endpoint.

-- Uploaded images. The bytes live in object storage (S3-compatible in production); this row is the record of one upload.
CREATE TABLE user_images (
    -- Also the seed's url_id: the payment flow refers to an uploaded logo by this id.
    id           BIGSERIAL   PRIMARY KEY,
    -- Owner of the image; images go with their account.
    user_id      BIGINT      NOT NULL,
    -- The seed's urls type: 2 = profile icon, 1 = corporate logo.
    image_type   SMALLINT    NOT NULL,
    -- Object key in the media store, so the object can be deleted or re-signed later.
    storage_key  TEXT        NOT NULL,
    -- Public URL the pages render.
    url          TEXT        NOT NULL,
    -- Sniffed by the server from the bytes, not taken from the client; only the spec's formats.
    content_type TEXT        NOT NULL,
    -- Size in bytes, at most the spec's 2,097,152 (2 MB).
    byte_size    INTEGER     NOT NULL,
    -- Upload time; the newest image of a type is the current one.
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT user_images_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT user_images_image_type_check CHECK (image_type IN (1, 2)),
    CONSTRAINT user_images_storage_key_key UNIQUE (storage_key),
    CONSTRAINT user_images_content_type_check CHECK (content_type IN ('image/jpeg', 'image/png', 'image/gif')),
    CONSTRAINT user_images_byte_size_check CHECK (byte_size > 0 AND byte_size <= 2097152)
);

-- The current icon / logo of a user: newest first per type.
CREATE INDEX user_images_user_type_created_idx ON user_images (user_id, image_type, created_at DESC);

-- Delivery addresses (addresses.main in the seed), for returns that ship something.
CREATE TABLE addresses (
    -- Surrogate key.
    id          BIGSERIAL   PRIMARY KEY,
    -- Owner of the address.
    user_id     BIGINT      NOT NULL,
    -- The seed's flag; 1 = active (the only value the seed writes), 0 = retired by the user.
    flag        SMALLINT    NOT NULL DEFAULT 1,
    -- The seed's is_primary = 1: the address used by default; at most one per user (index below).
    is_primary  BOOLEAN     NOT NULL DEFAULT TRUE,
    -- Recipient name.
    name        TEXT        NOT NULL,
    -- Phone number, half-width digits without hyphens (domestic: 10 or 11 digits).
    tel_number  TEXT        NOT NULL,
    -- Postal code, 7 half-width digits without hyphen.
    zip         TEXT        NOT NULL,
    -- Prefecture; forms default to Gunma.
    pref        TEXT        NOT NULL DEFAULT '群馬県',
    -- City / ward / town.
    city        TEXT        NOT NULL,
    -- Street and number.
    address     TEXT        NOT NULL,
    -- Building and room; optional.
    building    TEXT,
    -- When the row was written.
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT addresses_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT addresses_flag_check CHECK (flag IN (0, 1)),
    CONSTRAINT addresses_name_check CHECK (btrim(name) <> ''),
    CONSTRAINT addresses_tel_number_check CHECK (tel_number ~ '^[0-9]{10,11}$'),
    CONSTRAINT addresses_zip_check CHECK (zip ~ '^[0-9]{7}$'),
    CONSTRAINT addresses_pref_check CHECK (btrim(pref) <> ''),
    CONSTRAINT addresses_city_check CHECK (btrim(city) <> ''),
    CONSTRAINT addresses_address_check CHECK (btrim(address) <> '')
);

CREATE INDEX addresses_user_id_idx ON addresses (user_id);
-- At most one primary active address per user.
CREATE UNIQUE INDEX addresses_one_primary_per_user_key ON addresses (user_id) WHERE is_primary AND flag = 1;

-- Administrators granted in the database. The server treats a user as administrator when a row exists here
-- OR the user's e-mail is in the configured administrator e-mail list (the seed's master-user e-mails).
CREATE TABLE administrators (
    -- The administrator's account; one grant per user.
    user_id    BIGINT      NOT NULL,
    -- When the grant was made.
    granted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Who granted it; NULL when seeded or granted from the command line.
    granted_by BIGINT,
    CONSTRAINT administrators_pkey PRIMARY KEY (user_id),
    CONSTRAINT administrators_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT administrators_granted_by_fkey FOREIGN KEY (granted_by) REFERENCES users (id) ON DELETE SET NULL
);
