DROP TRIGGER project_closings_outcome_bumps_catalog_version ON project_closings;
DROP TRIGGER project_closings_bump_catalog_version ON project_closings;
CREATE CONSTRAINT TRIGGER project_closings_bump_catalog_version AFTER INSERT OR UPDATE OR DELETE ON project_closings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
