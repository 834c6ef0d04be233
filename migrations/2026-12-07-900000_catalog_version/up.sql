-- A number that changes whenever anything the public project index reads may change
-- (`CatalogRepository::catalog_version`). A server without a cache reads this one row per request
-- and keeps its index of every project in memory while it holds, instead of reading every project
-- again (docs/decisions.md, "Public reads without the cache").
CREATE TABLE catalog_version (
    -- Always TRUE: the table has exactly one row.
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE,
    -- Bumped by the triggers below, once per transaction that changes what the index reads.
    version  BIGINT  NOT NULL DEFAULT 0,
    CONSTRAINT catalog_version_one_row CHECK (only_row)
);
INSERT INTO catalog_version DEFAULT VALUES;

-- The triggers are deferred to the commit, so the row lock on the version is the last lock a
-- transaction takes: two transactions can never wait for each other through it (a bump in the
-- middle of a transaction could deadlock with another that holds a project row). The setting
-- remembers that this transaction bumped already, so a bulk edit bumps once.
CREATE FUNCTION bump_catalog_version_now() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('catalog.bumped_by', true) IS DISTINCT FROM txid_current()::text THEN
        UPDATE catalog_version SET version = version + 1;
        PERFORM set_config('catalog.bumped_by', txid_current()::text, true);
    END IF;
END
$$;

CREATE FUNCTION bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_catalog_version_now();
    RETURN NULL;
END
$$;

-- A closed project's page counts the paid sales still to refund (`refunds_left`), so a sale of a closed
-- project that is added, paid, refunded or removed bumps the version; a sale of an open project (nearly
-- every write) only costs the lookup.
CREATE FUNCTION bump_catalog_version_for_closed_project_sale() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    sale_project BIGINT := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
BEGIN
    IF EXISTS (SELECT 1 FROM project_closings c WHERE c.project_id = sale_project)
       OR (TG_OP = 'UPDATE' AND EXISTS (SELECT 1 FROM project_closings c WHERE c.project_id = OLD.project_id)) THEN
        PERFORM bump_catalog_version_now();
    END IF;
    RETURN NULL;
END
$$;

-- Every table the index reads, whole.
DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['projects', 'project_publications', 'project_slider_images', 'project_owners',
                             'project_owner_links', 'project_faqs', 'project_closings', 'project_slug_redirects',
                             'areas', 'categories'] LOOP
        EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
                       'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version()',
                       t || '_bump_catalog_version', t);
    END LOOP;
END
$$;
-- Returns: only the words keyword search reads and what decides whether a visitor sees them. A sale
-- changes `lots_taken`, which the index does not hold, so buying never bumps it.
CREATE CONSTRAINT TRIGGER returns_bump_catalog_version AFTER INSERT OR DELETE ON returns
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
CREATE CONSTRAINT TRIGGER returns_words_bump_catalog_version
    AFTER UPDATE OF project_id, title, description, flag, show_user_email, position ON returns
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version();
CREATE CONSTRAINT TRIGGER sales_insert_or_delete_bumps_catalog_version AFTER INSERT OR DELETE ON sales
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_version_for_closed_project_sale();
CREATE CONSTRAINT TRIGGER sales_state_bumps_catalog_version AFTER UPDATE ON sales
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.flag IS DISTINCT FROM NEW.flag
          OR OLD.total IS DISTINCT FROM NEW.total OR OLD.refunded_amount IS DISTINCT FROM NEW.refunded_amount
          OR OLD.project_id IS DISTINCT FROM NEW.project_id)
    EXECUTE FUNCTION bump_catalog_version_for_closed_project_sale();
