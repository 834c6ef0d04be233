-- A published project's former addresses (docs/decisions.md, "A published address may change"): when an operator
-- changes the slug of a published project, the old `/projects/{slug}/` keeps working by a permanent redirect to the
-- new one. An old slug stays reserved for its project: no other project may take it (checked by the authoring
-- adapter with the project's own slug uniqueness), and the project taking back a former slug removes its row.
CREATE TABLE project_slug_redirects (
    -- The former slug; one project each.
    old_slug    TEXT        PRIMARY KEY,
    -- The project it now leads to.
    project_id  BIGINT      NOT NULL,
    -- When the project left this address.
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT project_slug_redirects_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id)
        ON DELETE CASCADE
);

-- A project's former addresses, read with the project.
CREATE INDEX project_slug_redirects_project_id_idx ON project_slug_redirects (project_id);
