DROP TABLE project_slug_redirects;
