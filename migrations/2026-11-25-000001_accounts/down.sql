DROP TABLE user_keys;
DROP TABLE users;
