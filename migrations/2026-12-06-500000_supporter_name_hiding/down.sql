DROP TABLE supporter_name_hidings;
