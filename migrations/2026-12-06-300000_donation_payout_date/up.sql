-- A donation project's own payout date (terms §9: donation projects are paid out on the date set on the project,
-- not on the 3rd bank business day of the second month). Set by operators on the project's edit form; required
-- to publish a donation project (domain::authoring::publish_problems), after the end and within a year of it
-- (domain::authoring::check_terms). NULL for every other project; a donation project without one is paid out on
-- the terms' date (domain::payout::project_payout_date).
ALTER TABLE projects ADD COLUMN donation_payout_date DATE;
