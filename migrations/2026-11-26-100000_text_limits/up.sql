-- Length limits for every text a person types and we store. The domain (`domain::text::rules`, `Email::MAX_LEN`,
-- `WebUrl::MAX_LEN`) refuses longer input first with the field's message; these named constraints are the
-- backstop, and adapters-http maps each name back to that field's message (a 400, never a 500).
-- Lengths are in characters (char_length), as the domain counts them. The limits are listed in docs/decisions.md.

-- Profile user name: 50 characters.
ALTER TABLE users ADD CONSTRAINT users_username_length CHECK (char_length(username) <= 50);
-- Profile display name: 50 characters.
ALTER TABLE users ADD CONSTRAINT users_displayname_length CHECK (char_length(displayname) <= 50);
-- Profile self-introduction (multi-line): 1000 characters.
ALTER TABLE users ADD CONSTRAINT users_profile_length CHECK (char_length(profile) <= 1000);
-- Age group (a choice of the form): 20 characters.
ALTER TABLE users ADD CONSTRAINT users_age_group_length CHECK (char_length(age_group) <= 20);
-- Company name, shown publicly on sponsor walls: 100 characters.
ALTER TABLE users ADD CONSTRAINT users_corporatename_length CHECK (char_length(corporatename) <= 100);
-- Company site URL: 2048 characters (the URL rule's limit).
ALTER TABLE users ADD CONSTRAINT users_corporateurl_length CHECK (char_length(corporateurl) <= 2048);

-- Requested address of an e-mail change: the e-mail limit, 254 characters.
ALTER TABLE user_keys ADD CONSTRAINT user_keys_new_email_length CHECK (char_length(new_email) <= 254);

-- Delivery address recipient: 50 characters.
ALTER TABLE addresses ADD CONSTRAINT addresses_name_length CHECK (char_length(name) <= 50);
-- Prefecture: one of the 47 names (at most 4 characters); 10 bounds it without repeating the list.
ALTER TABLE addresses ADD CONSTRAINT addresses_pref_length CHECK (char_length(pref) <= 10);
-- City, ward, town: 50 characters.
ALTER TABLE addresses ADD CONSTRAINT addresses_city_length CHECK (char_length(city) <= 50);
-- Street and number: 100 characters.
ALTER TABLE addresses ADD CONSTRAINT addresses_address_length CHECK (char_length(address) <= 100);
-- Building and room: 100 characters.
ALTER TABLE addresses ADD CONSTRAINT addresses_building_length CHECK (char_length(building) <= 100);

-- A sale's display name, shown publicly: 50 characters.
ALTER TABLE display_names ADD CONSTRAINT display_names_displayname_length CHECK (char_length(displayname) <= 50);

-- A supporter comment (multi-line), shown publicly: 1000 characters.
ALTER TABLE comments ADD CONSTRAINT comments_comment_length CHECK (char_length(comment) <= 1000);

-- The supporter's answer to a project's additional-data question (multi-line): 1000 characters.
ALTER TABLE sale_additional_data ADD CONSTRAINT sale_additional_data_value_length CHECK (char_length(value) <= 1000);
