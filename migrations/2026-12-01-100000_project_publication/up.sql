-- Operators author projects (docs/decisions.md, "Authoring projects"): a project is a draft until it is published,
-- now or at a chosen time. Only a published project is public (lists, pages, payments). After publication its end
-- may only move later, a bounded number of times. Kept beside `projects` (one row per project, written with it).
CREATE TABLE project_publications (
    -- The project.
    project_id     BIGINT      PRIMARY KEY,
    -- When the project is (or becomes) public; NULL while it is a draft.
    published_at   TIMESTAMPTZ,
    -- How many times the end was moved later after publication (domain::authoring::MAX_END_EXTENSIONS).
    end_extensions SMALLINT    NOT NULL DEFAULT 0,
    CONSTRAINT project_publications_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT project_publications_end_extensions_check CHECK (end_extensions BETWEEN 0 AND 100)
);

-- Every project written before authoring existed was public from its creation.
INSERT INTO project_publications (project_id, published_at) SELECT id, created_at FROM projects;

-- Every new project has its row, as a draft, whatever wrote it: nothing is public unless someone published it.
CREATE FUNCTION projects_start_as_drafts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO project_publications (project_id) SELECT id FROM new_projects;
    RETURN NULL;
END;
$$;

CREATE TRIGGER projects_start_as_drafts AFTER INSERT ON projects
    REFERENCING NEW TABLE AS new_projects FOR EACH STATEMENT EXECUTE FUNCTION projects_start_as_drafts();

-- The admin list reads projects newest first.
CREATE INDEX projects_created_at_idx ON projects (created_at DESC, id DESC);
