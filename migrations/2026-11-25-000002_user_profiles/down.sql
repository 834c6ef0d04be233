DROP TABLE administrators;
DROP INDEX addresses_one_primary_per_user_key;
DROP INDEX addresses_user_id_idx;
DROP TABLE addresses;
DROP INDEX user_images_user_type_created_idx;
DROP TABLE user_images;
