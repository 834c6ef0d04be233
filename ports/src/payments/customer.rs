//! The member's customer at the provider, made once on first need.

use domain::account::Email;
use domain::ids::UserId;

use super::gateway::{CustomerId, IdempotencyKey, KeyNamespace, NewCustomer, PaymentGateway};
use super::ledger::CustomerStore;
use super::outcome::{provider_error, SupportError};

/// The user's provider customer, made (once, by key) on first need.
pub(crate) async fn ensure_customer<K: CustomerStore + ?Sized, G: PaymentGateway>(
    ledger: &K,
    gateway: &G,
    namespace: &KeyNamespace,
    user: UserId,
    email: &Email,
) -> Result<CustomerId, SupportError> {
    if let Some(customer) = ledger.customer(user).await? {
        return Ok(customer);
    }
    let new = NewCustomer { user_id: user, email: email.clone(), name: None };
    let created =
        gateway.create_customer(new, IdempotencyKey::for_customer(namespace, user)).await.map_err(provider_error)?;
    Ok(ledger.save_customer(user, &created).await?)
}
