DROP TABLE sale_receipts;
DROP TABLE project_receipt_issuers;
