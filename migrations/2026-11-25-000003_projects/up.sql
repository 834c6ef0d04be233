-- Projects and what a project page shows: slider, returns (rewards), news, and the manual sponsor lists
-- that replace the seed's hard-coded special cases (BRIEF decision 9).

CREATE TABLE projects (
    -- Surrogate key.
    id                           BIGSERIAL   PRIMARY KEY,
    -- URL segment of /projects/{slug}/ and /payment/.../{slug}/...; URL-safe characters only.
    slug                         TEXT        NOT NULL,
    -- Project name, shown in titles and cards.
    title                        TEXT        NOT NULL,
    -- Short lead text (plain text; also the meta/OGP description).
    description                  TEXT        NOT NULL DEFAULT '',
    -- Page body, HTML sanitised by the server before it is stored.
    content                      TEXT        NOT NULL DEFAULT '',
    -- Goal amount in yen (the seed's target).
    target_amount                BIGINT      NOT NULL,
    -- Last day of the campaign as an Asia/Tokyo calendar date (the seed's period); days left derive from it.
    period_end                   DATE        NOT NULL,
    -- 'all_in': succeeds on the first support; 'all_or_nothing': succeeds only when the goal is met (terms, spec 000 section 4).
    funding_model                TEXT        NOT NULL DEFAULT 'all_in',
    -- Main visual (the seed's urls.main); also the OGP image.
    main_image_url               TEXT,
    -- Honour banner image (the seed's honorImgUrl).
    honor_img_url                TEXT,
    -- Where the honour banner links to (the seed's ImgUrlLink).
    honor_img_link               TEXT,
    -- Donation-type project: tax is zero and payout follows the application form.
    is_donation                  BOOLEAN     NOT NULL DEFAULT FALSE,
    -- Prices are shown tax-included (the seed's taxIncludes).
    tax_includes                 BOOLEAN     NOT NULL DEFAULT TRUE,
    -- Anonymous bank transfer: the project's own account, shown to anonymous supporters (no sale row is made
    -- for such transfers). Bank name; the five bank_* columns are all set or all NULL.
    bank_account                 TEXT,
    -- Branch name.
    bank_branch                  TEXT,
    -- Account kind (ordinary / current ...), as shown.
    bank_kinds                   TEXT,
    -- Account number, as shown.
    bank_number                  TEXT,
    -- Account holder name.
    bank_nominee                 TEXT,
    -- Payment-provider connected account that receives the money (application fee taken); NULL = platform account.
    -- Non-production environments override it with a test account in configuration, not here.
    connected_account_id         TEXT,
    -- Sponsor walls come from project_manual_sponsors instead of sales (the seed's "project id 1" rule, as data).
    uses_manual_sponsors         BOOLEAN     NOT NULL DEFAULT FALSE,
    -- The footer sponsor area is hidden on this project (the seed's special-slug rule, as data).
    hide_footer_sponsors         BOOLEAN     NOT NULL DEFAULT FALSE,
    -- Additional data asked at payment step 1 (the seed's additionalData); NULL label = none asked.
    additional_data_label        TEXT,
    -- Explanatory text shown above the field.
    additional_data_text         TEXT,
    -- Longer description / placeholder of the field.
    additional_data_description  TEXT,
    -- Alert shown when the field is left empty (its presence makes the field required).
    additional_data_alert        TEXT,
    -- Number of lines of the input (the seed's formLine); 1 = single-line input.
    additional_data_form_line    INTEGER,
    -- When the row was written.
    created_at                   TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at                   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT projects_slug_key UNIQUE (slug),
    CONSTRAINT projects_slug_check CHECK (slug ~ '^[A-Za-z0-9][A-Za-z0-9_-]*$'),
    CONSTRAINT projects_title_check CHECK (btrim(title) <> ''),
    CONSTRAINT projects_target_amount_check CHECK (target_amount > 0),
    CONSTRAINT projects_funding_model_check CHECK (funding_model IN ('all_in', 'all_or_nothing')),
    CONSTRAINT projects_bank_all_or_none CHECK (
        num_nonnulls(bank_account, bank_branch, bank_kinds, bank_number, bank_nominee) IN (0, 5)),
    CONSTRAINT projects_additional_data_needs_label CHECK (
        additional_data_label IS NOT NULL
        OR num_nonnulls(additional_data_text, additional_data_description, additional_data_alert,
                        additional_data_form_line) = 0),
    CONSTRAINT projects_additional_data_form_line_check CHECK (additional_data_form_line > 0)
);

-- Open projects first on the home page (period_end >= today).
CREATE INDEX projects_period_end_idx ON projects (period_end);

-- Slider images on the project page, in order.
CREATE TABLE project_slider_images (
    -- Surrogate key.
    id         BIGSERIAL   PRIMARY KEY,
    -- The project shown.
    project_id BIGINT      NOT NULL,
    -- Order in the slider, ascending.
    position   INTEGER     NOT NULL,
    -- Image URL.
    src        TEXT        NOT NULL,
    -- Alternative text.
    alt        TEXT        NOT NULL DEFAULT '',
    CONSTRAINT project_slider_images_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_slider_images_position_key UNIQUE (project_id, position)
);

-- Returns (rewards) a supporter chooses from.
CREATE TABLE returns (
    -- Surrogate key.
    id                  BIGSERIAL   PRIMARY KEY,
    -- Owning project; sales reference (project_id, id) so a sale's return always belongs to its project.
    project_id          BIGINT      NOT NULL,
    -- URL segment in /payment/.../{project}/{return}/, unique within the project.
    slug                TEXT        NOT NULL,
    -- The seed's type: 0 individual (display name), 1 company (name, logo, URL), 2 organisation (same as 1).
    return_type         SMALLINT    NOT NULL,
    -- Return name.
    title               TEXT        NOT NULL,
    -- What the supporter receives (HTML sanitised by the server).
    description         TEXT        NOT NULL DEFAULT '',
    -- Unit price in yen before tax.
    price               BIGINT      NOT NULL,
    -- The seed's limit: most lots that can be sold; NULL = unlimited.
    stock_limit         INTEGER,
    -- Lots held by live sales (pending, requires_action, processing, succeeded). Kept by the trigger on sales in
    -- the same transaction as the sale, so the CHECK below refuses overselling under any concurrency.
    lots_taken          INTEGER     NOT NULL DEFAULT 0,
    -- Closed by the operator regardless of stock.
    disabled            BOOLEAN     NOT NULL DEFAULT FALSE,
    -- Why it is closed, shown instead of the support button.
    disabled_comment    TEXT,
    -- The seed's flag; 900 or more hides the return.
    flag                SMALLINT    NOT NULL DEFAULT 0,
    -- Course label (sponsor tier name etc.), shown in the refund table.
    course              TEXT,
    -- Return image.
    image_src           TEXT,
    -- Extra image in the description.
    description_image   TEXT,
    -- Caption of the extra image.
    description_comment TEXT,
    -- Lot is fixed at 1 ('このリターンは口数を選択できません。').
    lot_disable         BOOLEAN     NOT NULL DEFAULT FALSE,
    -- A delivery address must be given at payment step 1.
    address_required    BOOLEAN     NOT NULL DEFAULT FALSE,
    -- Name of the address field, used in '{label}を入力してください'.
    address_label       TEXT,
    -- displayValidity.showUser: only the user with this e-mail (case-insensitive) may see the return.
    show_user_email     TEXT,
    -- Display order within the project, ascending.
    position            INTEGER     NOT NULL DEFAULT 0,
    -- When the row was written.
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Last change, set by the server on every update.
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT returns_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT returns_slug_key UNIQUE (project_id, slug),
    CONSTRAINT returns_project_id_id_key UNIQUE (project_id, id),
    CONSTRAINT returns_slug_check CHECK (slug ~ '^[A-Za-z0-9][A-Za-z0-9_-]*$'),
    CONSTRAINT returns_return_type_check CHECK (return_type IN (0, 1, 2)),
    CONSTRAINT returns_title_check CHECK (btrim(title) <> ''),
    CONSTRAINT returns_price_check CHECK (price >= 0),
    CONSTRAINT returns_stock_limit_check CHECK (stock_limit > 0),
    CONSTRAINT returns_lots_taken_non_negative CHECK (lots_taken >= 0),
    CONSTRAINT returns_lots_taken_within_stock_limit CHECK (stock_limit IS NULL OR lots_taken <= stock_limit),
    CONSTRAINT returns_flag_check CHECK (flag >= 0),
    CONSTRAINT returns_address_label_check CHECK (NOT address_required OR address_label IS NOT NULL)
);

CREATE INDEX returns_project_position_idx ON returns (project_id, position);

-- News / information items on a project page.
CREATE TABLE project_news (
    -- Surrogate key.
    id           BIGSERIAL   PRIMARY KEY,
    -- The project the item belongs to.
    project_id   BIGINT      NOT NULL,
    -- Headline.
    title        TEXT        NOT NULL,
    -- Body (HTML sanitised by the server).
    description  TEXT        NOT NULL DEFAULT '',
    -- When it becomes visible; items in the future are not shown yet.
    published_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- When the row was written.
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Shown as the item's date (the seed's updated_at).
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT project_news_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_news_title_check CHECK (btrim(title) <> '')
);

CREATE INDEX project_news_project_published_idx ON project_news (project_id, published_at DESC);

-- Manual sponsor list of a project with uses_manual_sponsors (the seed's manual logo master).
CREATE TABLE project_manual_sponsors (
    -- Surrogate key.
    id          BIGSERIAL   PRIMARY KEY,
    -- The project whose walls show this entry.
    project_id  BIGINT      NOT NULL,
    -- Logo wall 'A' (largest), 'B', 'C', or 'supporter' for the personal-sponsor name list.
    course      TEXT        NOT NULL,
    -- Sponsor name (company name or person).
    name        TEXT        NOT NULL,
    -- Logo image; required on the logo walls A/B/C.
    logo_src    TEXT,
    -- Where the logo links to.
    link        TEXT,
    -- Cumulative amount in yen, used for ordering (amount descending); NULL when not disclosed.
    amount      BIGINT,
    -- Date of the latest support, tie-breaker (earlier first).
    latest_date DATE,
    -- Manual order within the course, ascending, applied after amount and date.
    position    INTEGER     NOT NULL DEFAULT 0,
    CONSTRAINT project_manual_sponsors_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_manual_sponsors_course_check CHECK (course IN ('A', 'B', 'C', 'supporter')),
    CONSTRAINT project_manual_sponsors_name_check CHECK (btrim(name) <> ''),
    CONSTRAINT project_manual_sponsors_logo_check CHECK (course = 'supporter' OR logo_src IS NOT NULL),
    CONSTRAINT project_manual_sponsors_amount_check CHECK (amount >= 0)
);

CREATE INDEX project_manual_sponsors_project_course_idx ON project_manual_sponsors (project_id, course, position);

-- Accounts left out of a project's automatic sponsor walls (the seed's excludeAccount).
CREATE TABLE project_sponsor_exclusions (
    -- The project.
    project_id BIGINT      NOT NULL,
    -- The excluded account.
    user_id    BIGINT      NOT NULL,
    -- When it was excluded.
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT project_sponsor_exclusions_pkey PRIMARY KEY (project_id, user_id),
    CONSTRAINT project_sponsor_exclusions_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_sponsor_exclusions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);
