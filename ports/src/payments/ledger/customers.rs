//! The member's customer at the provider, which holds their saved cards,
//! and the e-mail it is made with.

use domain::account::Email;
use domain::ids::UserId;

use crate::payments::gateway::CustomerId;
use crate::RepoError;

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait CustomerStore: Send + Sync {
    /// The member's e-mail, which their provider customer is made with.
    /// MUST return `RepoError::NotFound` for an unknown user.
    async fn member_email(&self, user: UserId) -> Result<Email, RepoError>;

    /// The user's provider customer; `None` when none was made yet.
    async fn customer(&self, user: UserId) -> Result<Option<CustomerId>, RepoError>;

    /// Stores the user's provider customer. When one is stored already (a
    /// concurrent first card), MUST keep and return that one.
    async fn save_customer(&self, user: UserId, customer: &CustomerId) -> Result<CustomerId, RepoError>;
}
