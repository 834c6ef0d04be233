-- What a project page shows beyond the campaign itself (issue #13): who runs the project (name, photo, a short
-- text, links), the questions the operator answers for supporters (FAQ), and when each return is delivered.
-- Everything is optional: a project without an owner profile or FAQ shows neither section.

-- Who runs a project, as its page introduces them; no row = no profile box.
CREATE TABLE project_owners (
    -- The project (one owner profile per project).
    project_id BIGINT PRIMARY KEY,
    -- The owner's name as shown.
    name       TEXT   NOT NULL,
    -- The owner's photo or logo (a media URL); NULL = a default icon.
    image_url  TEXT,
    -- A short introduction (plain text, line breaks kept).
    profile    TEXT,
    CONSTRAINT project_owners_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_owners_name_check CHECK (btrim(name) <> '' AND char_length(name) <= 100),
    CONSTRAINT project_owners_image_url_length CHECK (char_length(image_url) <= 2048),
    CONSTRAINT project_owners_profile_length CHECK (char_length(profile) <= 1000)
);

-- Links of the owner's profile (site, social accounts), in the operator's order.
CREATE TABLE project_owner_links (
    -- Surrogate key.
    id         BIGSERIAL PRIMARY KEY,
    -- The project whose owner this is.
    project_id BIGINT    NOT NULL,
    -- Display order, ascending.
    position   INTEGER   NOT NULL DEFAULT 0,
    -- The link's text, e.g. '公式サイト'.
    label      TEXT      NOT NULL,
    -- Absolute http(s) URL.
    url        TEXT      NOT NULL,
    CONSTRAINT project_owner_links_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_owner_links_label_check CHECK (btrim(label) <> '' AND char_length(label) <= 60),
    CONSTRAINT project_owner_links_url_check CHECK (url ~ '^https?://' AND char_length(url) <= 2048)
);
CREATE INDEX project_owner_links_project_idx ON project_owner_links (project_id, position);

-- Questions and answers the operator writes for a project, in the operator's order.
CREATE TABLE project_faqs (
    -- Surrogate key.
    id         BIGSERIAL PRIMARY KEY,
    -- The project the entry belongs to.
    project_id BIGINT    NOT NULL,
    -- Display order, ascending.
    position   INTEGER   NOT NULL DEFAULT 0,
    -- The question (plain text).
    question   TEXT      NOT NULL,
    -- The answer (plain text, line breaks kept).
    answer     TEXT      NOT NULL,
    CONSTRAINT project_faqs_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_faqs_question_check CHECK (btrim(question) <> '' AND char_length(question) <= 200),
    CONSTRAINT project_faqs_answer_check CHECK (btrim(answer) <> '' AND char_length(answer) <= 2000)
);
CREATE INDEX project_faqs_project_idx ON project_faqs (project_id, position);

-- The month a return is delivered (its first day; the page shows '2027年3月'); NULL = not announced.
ALTER TABLE returns ADD COLUMN delivery_month DATE;
ALTER TABLE returns ADD CONSTRAINT returns_delivery_month_first_day CHECK (extract(day FROM delivery_month) = 1);
