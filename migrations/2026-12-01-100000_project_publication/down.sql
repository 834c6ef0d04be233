DROP INDEX projects_created_at_idx;
DROP TRIGGER projects_start_as_drafts ON projects;
DROP FUNCTION projects_start_as_drafts();
DROP TABLE project_publications;
