DROP TABLE favourites;
ALTER TABLE projects DROP COLUMN category_id, DROP COLUMN area_id;
DROP TABLE categories;
DROP TABLE areas;
