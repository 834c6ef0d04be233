DROP INDEX provider_events_object_id_idx;
DROP INDEX provider_events_unprocessed_idx;
DROP TABLE provider_events;
DROP INDEX subscriptions_user_id_idx;
DROP TABLE subscriptions;
DROP TABLE payment_customers;
