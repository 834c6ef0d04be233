-- A monthly support whose first month the bank refuses never gets a provider subscription, and ends at once
-- (`incomplete_expired`): the check refused that write, so the refusal answered 400 and left the sale pending.
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_provider_id_once;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_provider_id_once
  CHECK (status IN ('incomplete', 'incomplete_expired') OR subscription_id IS NOT NULL);
