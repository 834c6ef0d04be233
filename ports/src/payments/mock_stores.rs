//! One mock of every store, for the use cases that hold them all behind
//! one handle (the real one is a single PostgreSQL adapter).

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId, SaleId, UserId};
use domain::money::Yen;

use super::gateway::{
    CustomerId, InvoiceId, PaymentId, PaymentMethodId, ProviderInvoice, ProviderSubscription, SubscriptionId,
};
use super::ledger::{
    Checkout, CustomerStore, EventStore, GuestLookup, MonthRecorded, NewSale, PaymentReport, PlaceError, Placed,
    Recorded, SaleRecord, SaleStore, SubscriptionRecord, SubscriptionStore, SubscriptionTally, SweepStore,
};
use crate::RepoError;

mockall::mock! {
    pub Stores {}
    #[async_trait::async_trait]
    impl SaleStore for Stores {
        async fn checkout(&self, project: ProjectId, ret: ReturnId) -> Result<Option<Checkout>, RepoError>;
        async fn lookup_guest(&self, email: &Email) -> Result<GuestLookup, RepoError>;
        async fn create_guest(&self, email: &Email) -> Result<UserId, RepoError>;
        async fn place(&self, sale: NewSale) -> Result<Placed, PlaceError>;
        async fn sale(&self, id: SaleId) -> Result<Option<SaleRecord>, RepoError>;
        async fn sale_by_payment(&self, payment: &PaymentId) -> Result<Option<SaleRecord>, RepoError>;
        async fn sale_by_key(&self, user: UserId, key: &str) -> Result<Option<SaleRecord>, RepoError>;
        async fn record_payment(
            &self,
            sale: SaleId,
            report: PaymentReport,
            now: DateTime<Utc>,
        ) -> Result<Recorded, RepoError>;
    }
    #[async_trait::async_trait]
    impl SweepStore for Stores {
        async fn unsettled(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;
        async fn sales_with_payment(&self, after: SaleId, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;
        async fn overdue_transfers(&self, today: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;
        async fn late_transfers(&self, changed_before: DateTime<Utc>, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;
        async fn transfers_to_close(&self, deadline_before: NaiveDate, limit: i64) -> Result<Vec<SaleRecord>, RepoError>;
        async fn close_transfer(
            &self,
            sale: SaleId,
            partly_paid: bool,
            now: DateTime<Utc>,
        ) -> Result<SaleRecord, RepoError>;
    }
    #[async_trait::async_trait]
    impl EventStore for Stores {
        async fn record_event(
            &self,
            event_id: &str,
            event_type: &str,
            object_id: Option<String>,
            payload: serde_json::Value,
            now: DateTime<Utc>,
        ) -> Result<bool, RepoError>;
        async fn finish_event(&self, event_id: &str, error: Option<String>, now: DateTime<Utc>) -> Result<(), RepoError>;
        async fn unapplied_event_payments(&self, limit: i64) -> Result<Vec<(String, PaymentId)>, RepoError>;
    }
    #[async_trait::async_trait]
    impl CustomerStore for Stores {
        async fn member_email(&self, user: UserId) -> Result<Email, RepoError>;
        async fn customer(&self, user: UserId) -> Result<Option<CustomerId>, RepoError>;
        async fn save_customer(&self, user: UserId, customer: &CustomerId) -> Result<CustomerId, RepoError>;
    }
    #[async_trait::async_trait]
    impl SubscriptionStore for Stores {
        async fn open_subscription(
            &self,
            sale: SaleId,
            customer: &CustomerId,
            card: &PaymentMethodId,
            plan_id: &str,
            amount: Yen,
        ) -> Result<SubscriptionRecord, RepoError>;
        async fn subscription(&self, id: i64) -> Result<Option<SubscriptionRecord>, RepoError>;
        async fn subscription_by_sale(&self, sale: SaleId) -> Result<Option<SubscriptionRecord>, RepoError>;
        async fn subscription_by_provider(&self, id: &SubscriptionId) -> Result<Option<SubscriptionRecord>, RepoError>;
        async fn record_subscription(
            &self,
            id: i64,
            state: &ProviderSubscription,
            now: DateTime<Utc>,
        ) -> Result<SubscriptionRecord, RepoError>;
        async fn record_month(
            &self,
            id: i64,
            invoice: &ProviderInvoice,
            now: DateTime<Utc>,
        ) -> Result<MonthRecorded, RepoError>;
        async fn mark_failure_mailed(&self, id: i64, invoice: &InvoiceId) -> Result<bool, RepoError>;
        async fn mark_end_mailed(&self, id: i64) -> Result<bool, RepoError>;
        async fn subscriptions_of(&self, user: UserId) -> Result<Vec<SubscriptionRecord>, RepoError>;
        async fn running_subscriptions(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionRecord>, RepoError>;
        async fn subscription_tallies(&self, after: i64, limit: i64) -> Result<Vec<SubscriptionTally>, RepoError>;
        async fn subscriptions_of_ended_projects(
            &self,
            today: NaiveDate,
            limit: i64,
        ) -> Result<Vec<SubscriptionRecord>, RepoError>;
    }
}
