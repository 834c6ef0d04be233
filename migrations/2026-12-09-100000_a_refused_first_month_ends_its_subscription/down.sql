ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_provider_id_once;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_provider_id_once
  CHECK (status = 'incomplete' OR subscription_id IS NOT NULL) NOT VALID;
