ALTER TABLE projects DROP COLUMN donation_payout_date;
