DROP TABLE sale_addresses;
