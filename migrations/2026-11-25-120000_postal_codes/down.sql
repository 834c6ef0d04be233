DROP TABLE postal_codes;
