-- Finding projects (docs/decisions.md, "Finding projects"): each project may name the municipality of Gunma it
-- belongs to and a category, which the public list filters by; members keep projects they like (お気に入り).
-- Areas and categories are reference data: seeded here, read by the public list and the operators' edit screen.

-- The municipalities of Gunma prefecture, in the order of their local government codes.
CREATE TABLE areas (
    -- Surrogate key.
    id        BIGSERIAL PRIMARY KEY,
    -- The list's address value (`?area=maebashi`): romaji, a-z, 0-9 and inner hyphens.
    slug      TEXT      NOT NULL,
    -- The name as shown, e.g. '前橋市'.
    name      TEXT      NOT NULL,
    -- Display order, ascending.
    position  INTEGER   NOT NULL,
    CONSTRAINT areas_slug_key UNIQUE (slug),
    CONSTRAINT areas_slug_check CHECK (slug ~ '^[a-z0-9]([a-z0-9-]{0,58}[a-z0-9])?$'),
    CONSTRAINT areas_name_check CHECK (length(btrim(name)) BETWEEN 1 AND 50),
    CONSTRAINT areas_position_check CHECK (position BETWEEN 0 AND 10000)
);

INSERT INTO areas (slug, name, position) VALUES
    ('maebashi', '前橋市', 1), ('takasaki', '高崎市', 2), ('kiryu', '桐生市', 3), ('isesaki', '伊勢崎市', 4),
    ('ota', '太田市', 5), ('numata', '沼田市', 6), ('tatebayashi', '館林市', 7), ('shibukawa', '渋川市', 8),
    ('fujioka', '藤岡市', 9), ('tomioka', '富岡市', 10), ('annaka', '安中市', 11), ('midori', 'みどり市', 12),
    ('shinto', '榛東村', 13), ('yoshioka', '吉岡町', 14), ('ueno', '上野村', 15), ('kanna', '神流町', 16),
    ('shimonita', '下仁田町', 17), ('nanmoku', '南牧村', 18), ('kanra', '甘楽町', 19), ('nakanojo', '中之条町', 20),
    ('naganohara', '長野原町', 21), ('tsumagoi', '嬬恋村', 22), ('kusatsu', '草津町', 23), ('takayama', '高山村', 24),
    ('higashiagatsuma', '東吾妻町', 25), ('katashina', '片品村', 26), ('kawaba', '川場村', 27), ('showa', '昭和村', 28),
    ('minakami', 'みなかみ町', 29), ('tamamura', '玉村町', 30), ('itakura', '板倉町', 31), ('meiwa', '明和町', 32),
    ('chiyoda', '千代田町', 33), ('oizumi', '大泉町', 34), ('ora', '邑楽町', 35);

-- What a project is about. Operators manage the list; until a screen exists it is seeded here.
CREATE TABLE categories (
    -- Surrogate key.
    id        BIGSERIAL PRIMARY KEY,
    -- The list's address value (`?category=food-agriculture`): a-z, 0-9 and inner hyphens.
    slug      TEXT      NOT NULL,
    -- The name as shown, e.g. '食・農業'.
    name      TEXT      NOT NULL,
    -- Display order, ascending.
    position  INTEGER   NOT NULL,
    CONSTRAINT categories_slug_key UNIQUE (slug),
    CONSTRAINT categories_slug_check CHECK (slug ~ '^[a-z0-9]([a-z0-9-]{0,58}[a-z0-9])?$'),
    CONSTRAINT categories_name_check CHECK (length(btrim(name)) BETWEEN 1 AND 50),
    CONSTRAINT categories_position_check CHECK (position BETWEEN 0 AND 10000)
);

INSERT INTO categories (slug, name, position) VALUES
    ('food-agriculture', '食・農業', 1), ('culture-arts', '文化・芸術', 2), ('children-education', '子ども・教育', 3),
    ('nature-environment', '自然・環境', 4), ('sports', 'スポーツ', 5), ('community', 'まちづくり', 6),
    ('welfare-medical', '福祉・医療', 7);

ALTER TABLE projects
    ADD COLUMN area_id BIGINT,
    ADD COLUMN category_id BIGINT,
    -- Removing an area or a category leaves its projects without one.
    ADD CONSTRAINT projects_area_id_fkey FOREIGN KEY (area_id) REFERENCES areas (id) ON DELETE SET NULL,
    ADD CONSTRAINT projects_category_id_fkey FOREIGN KEY (category_id) REFERENCES categories (id) ON DELETE SET NULL;
COMMENT ON COLUMN projects.area_id IS 'The municipality the project belongs to; NULL = not set.';
COMMENT ON COLUMN projects.category_id IS 'What the project is about; NULL = not set.';

-- Deleting an area or a category finds its projects without a scan.
CREATE INDEX projects_area_id_idx ON projects (area_id) WHERE area_id IS NOT NULL;
CREATE INDEX projects_category_id_idx ON projects (category_id) WHERE category_id IS NOT NULL;

-- Projects a member keeps (お気に入り): one row per member and project.
CREATE TABLE favourites (
    -- The member.
    user_id     BIGINT      NOT NULL,
    -- The project kept.
    project_id  BIGINT      NOT NULL,
    -- When it was kept (the list is newest first).
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT favourites_pkey PRIMARY KEY (user_id, project_id),
    CONSTRAINT favourites_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT favourites_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE
);

-- A project's removal finds its favourites without a scan.
CREATE INDEX favourites_project_id_idx ON favourites (project_id);
