DROP TRIGGER sales_state_bumps_catalog_version ON sales;
DROP TRIGGER sales_insert_or_delete_bumps_catalog_version ON sales;
DROP TRIGGER returns_words_bump_catalog_version ON returns;
DROP TRIGGER returns_bump_catalog_version ON returns;
DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['projects', 'project_publications', 'project_slider_images', 'project_owners',
                             'project_owner_links', 'project_faqs', 'project_closings', 'project_slug_redirects',
                             'areas', 'categories'] LOOP
        EXECUTE format('DROP TRIGGER %I ON %I', t || '_bump_catalog_version', t);
    END LOOP;
END
$$;
DROP FUNCTION bump_catalog_version_for_closed_project_sale();
DROP FUNCTION bump_catalog_version();
DROP FUNCTION bump_catalog_version_now();
DROP TABLE catalog_version;
