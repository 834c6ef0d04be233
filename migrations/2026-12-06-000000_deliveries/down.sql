DROP TABLE sale_deliveries;
