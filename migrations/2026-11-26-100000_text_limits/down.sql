-- Drops the text length limits of up.sql.
ALTER TABLE sale_additional_data DROP CONSTRAINT sale_additional_data_value_length;
ALTER TABLE comments DROP CONSTRAINT comments_comment_length;
ALTER TABLE display_names DROP CONSTRAINT display_names_displayname_length;
ALTER TABLE addresses DROP CONSTRAINT addresses_building_length;
ALTER TABLE addresses DROP CONSTRAINT addresses_address_length;
ALTER TABLE addresses DROP CONSTRAINT addresses_city_length;
ALTER TABLE addresses DROP CONSTRAINT addresses_pref_length;
ALTER TABLE addresses DROP CONSTRAINT addresses_name_length;
ALTER TABLE user_keys DROP CONSTRAINT user_keys_new_email_length;
ALTER TABLE users DROP CONSTRAINT users_corporateurl_length;
ALTER TABLE users DROP CONSTRAINT users_corporatename_length;
ALTER TABLE users DROP CONSTRAINT users_age_group_length;
ALTER TABLE users DROP CONSTRAINT users_profile_length;
ALTER TABLE users DROP CONSTRAINT users_displayname_length;
ALTER TABLE users DROP CONSTRAINT users_username_length;
