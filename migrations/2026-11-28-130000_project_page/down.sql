ALTER TABLE returns DROP CONSTRAINT returns_delivery_month_first_day;
ALTER TABLE returns DROP COLUMN delivery_month;
DROP TABLE project_faqs;
DROP TABLE project_owner_links;
DROP TABLE project_owners;
