-- The project index reads a closing's outcome only. The close sweep rewrites `checked_at`, `counted` and
-- `pending` of every project still waiting for transfers on each run, and each of those writes bumped the
-- catalog version, so every server read every project again after each sweep. Only a new, removed or
-- decided closing changes the index now.
DROP TRIGGER project_closings_bump_catalog_version ON project_closings;
CREATE CONSTRAINT TRIGGER project_closings_bump_catalog_version AFTER INSERT OR DELETE ON project_closings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
CREATE CONSTRAINT TRIGGER project_closings_outcome_bumps_catalog_version AFTER UPDATE ON project_closings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.outcome IS DISTINCT FROM NEW.outcome OR OLD.project_id IS DISTINCT FROM NEW.project_id)
    EXECUTE FUNCTION bump_catalog_version();
