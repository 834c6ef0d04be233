-- Adds :projects public projects for the project list and keyword search benchmark: copies of the demo projects
-- (every column but the id, a slug `bench-<n>-<demo slug>`, the title with its number), with the demo project's
-- owner and returns (so the folded search text is as long as a real project's), published a day ago. Their
-- stories, areas, categories and end dates are the demo's, so filters and keywords hit the same share of them.
-- Columns are listed from the catalog, so a column added later is copied too.
BEGIN;
SELECT set_config('bench.projects', :'projects', true) \g /dev/null

CREATE TEMP TABLE bench_sources ON COMMIT DROP AS
    SELECT id, slug, (row_number() OVER (ORDER BY id)) - 1 AS n FROM projects;

DO $$
DECLARE
    wanted integer := current_setting('bench.projects')::integer;
    sources integer := (SELECT count(*) FROM bench_sources);
    project_columns text;
    return_columns text;
BEGIN
    SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO project_columns
    FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'projects' AND column_name NOT IN ('id', 'slug', 'title');
    EXECUTE format(
        'INSERT INTO projects (slug, title, %1$s)
         SELECT ''bench-'' || g || ''-'' || s.slug, p.title || '' '' || g, %2$s
         FROM generate_series(1, %3$s) AS g
         JOIN bench_sources s ON s.n = g %% %4$s
         JOIN projects p ON p.id = s.id',
        project_columns,
        (SELECT string_agg('p.' || c, ', ') FROM unnest(string_to_array(project_columns, ', ')) AS c),
        wanted, sources);

    SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO return_columns
    FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'returns' AND column_name NOT IN ('id', 'project_id');
    EXECUTE format(
        'INSERT INTO returns (project_id, %1$s)
         SELECT np.id, %2$s
         FROM projects np
         JOIN bench_sources s ON s.slug = substring(np.slug FROM ''^bench-[0-9]+-(.*)$'')
         JOIN returns r ON r.project_id = s.id
         WHERE np.slug LIKE ''bench-%%''',
        return_columns,
        (SELECT string_agg('r.' || c, ', ') FROM unnest(string_to_array(return_columns, ', ')) AS c));
END $$;

INSERT INTO project_owners (project_id, name, image_url, profile)
SELECT np.id, o.name, o.image_url, o.profile
FROM projects np
JOIN bench_sources s ON s.slug = substring(np.slug FROM '^bench-[0-9]+-(.*)$')
JOIN project_owners o ON o.project_id = s.id
WHERE np.slug LIKE 'bench-%';

-- New projects start as drafts (projects_start_as_drafts): publish them.
UPDATE project_publications SET published_at = now() - interval '1 day'
WHERE project_id IN (SELECT id FROM projects WHERE slug LIKE 'bench-%');
COMMIT;
