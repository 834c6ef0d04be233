//! A member's saved cards (`/v1/stripe/customer/...`): the cards live at the
//! provider, under the member's own provider customer; ids sent by a client
//! are only ever looked up among that customer's cards.

use domain::ids::UserId;

use super::customer::ensure_customer;
use super::gateway::{
    CardToken, CustomerCards, GatewayError, IdempotencyKey, KeyNamespace, PaymentGateway, PaymentMethodId, SavedCard,
};
use super::ledger::CustomerStore;
use crate::RepoError;

/// The spec's message when the provider customer could not be made (001 §8).
pub const MSG_CUSTOMER_FAILED: &str = "顧客情報登録に失敗しました。";

#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// The card (or its token) is not the member's.
    #[error("not found")]
    NotFound,
    /// The provider refused the card (expired, wrong number...).
    #[error("{}", super::outcome::MSG_CARD_DECLINED)]
    Declined,
    #[error("{}", MSG_CUSTOMER_FAILED)]
    CustomerFailed,
    /// The provider did not answer; nothing changed on our side.
    #[error("payment provider unavailable")]
    Unavailable,
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for CardError {
    fn from(error: RepoError) -> Self {
        Self::Unexpected(error.into())
    }
}

impl From<GatewayError> for CardError {
    fn from(error: GatewayError) -> Self {
        match error {
            GatewayError::Declined { .. } => Self::Declined,
            GatewayError::NotFound(_) => Self::NotFound,
            GatewayError::Unavailable(_) => Self::Unavailable,
            other => Self::Unexpected(other.into()),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Cards: Send + Sync {
    /// The member's cards and default; none before the first card.
    async fn list(&self, user: UserId) -> Result<CustomerCards, CardError>;
    /// Registers a browser-tokenised card, making the provider customer on
    /// the first one (which becomes the default).
    async fn register(&self, user: UserId, token: CardToken) -> Result<(SavedCard, CustomerCards), CardError>;
    async fn set_default(&self, user: UserId, card: PaymentMethodId) -> Result<CustomerCards, CardError>;
    async fn delete(&self, user: UserId, card: PaymentMethodId) -> Result<CustomerCards, CardError>;
    /// The member's provider customer, if one was made (no provider call):
    /// the session loads cards and monthly supports only when there is one.
    async fn customer(&self, user: UserId) -> Result<Option<super::gateway::CustomerId>, CardError>;
}

pub struct CardService<L, G> {
    ledger: L,
    gateway: G,
    namespace: KeyNamespace,
    subscriptions: Option<std::sync::Arc<dyn super::subscriptions::Subscriptions>>,
}

impl<L, G> CardService<L, G> {
    pub fn new(ledger: L, gateway: G, namespace: KeyNamespace) -> Self {
        Self { ledger, gateway, namespace, subscriptions: None }
    }

    /// Applies the contract's card rules to monthly supports: a deleted
    /// card's subscriptions move to the default left (or stop at the
    /// period's end), and a new default takes over the failing ones.
    #[must_use]
    pub fn with_subscriptions(
        mut self,
        subscriptions: std::sync::Arc<dyn super::subscriptions::Subscriptions>,
    ) -> Self {
        self.subscriptions = Some(subscriptions);
        self
    }
}

impl<L: CustomerStore, G: PaymentGateway> CardService<L, G> {
    /// The member's customer and cards, refusing a card that is not among them.
    async fn owned(&self, user: UserId, card: &PaymentMethodId) -> Result<super::gateway::CustomerId, CardError> {
        let customer = self.ledger.customer(user).await?.ok_or(CardError::NotFound)?;
        let cards = self.gateway.cards(&customer).await?;
        if !cards.cards.iter().any(|c| &c.id == card) {
            return Err(CardError::NotFound);
        }
        Ok(customer)
    }
}

#[async_trait::async_trait]
impl<L: CustomerStore, G: PaymentGateway> Cards for CardService<L, G> {
    async fn list(&self, user: UserId) -> Result<CustomerCards, CardError> {
        match self.ledger.customer(user).await? {
            Some(customer) => Ok(self.gateway.cards(&customer).await?),
            None => Ok(CustomerCards::default()),
        }
    }

    async fn register(&self, user: UserId, token: CardToken) -> Result<(SavedCard, CustomerCards), CardError> {
        let email = self.ledger.member_email(user).await?;
        let customer = ensure_customer(&self.ledger, &self.gateway, &self.namespace, user, &email)
            .await
            .map_err(|_| CardError::CustomerFailed)?;
        let key = IdempotencyKey::for_card(&self.namespace, user, &token);
        let card = self.gateway.add_card(&customer, &token, key).await?;
        let cards = self.gateway.cards(&customer).await?;
        Ok((card, cards))
    }

    async fn set_default(&self, user: UserId, card: PaymentMethodId) -> Result<CustomerCards, CardError> {
        let customer = self.owned(user, &card).await?;
        self.gateway.set_default_card(&customer, &card).await?;
        if let Some(subscriptions) = &self.subscriptions {
            if let Err(error) = subscriptions.default_changed(user, &card).await {
                tracing::warn!(%error, "failing subscriptions not moved to the new default card");
            }
        }
        Ok(self.gateway.cards(&customer).await?)
    }

    async fn delete(&self, user: UserId, card: PaymentMethodId) -> Result<CustomerCards, CardError> {
        let customer = self.owned(user, &card).await?;
        match self.gateway.delete_card(&customer, &card).await {
            Ok(()) | Err(GatewayError::NotFound(_)) => {}
            Err(other) => return Err(other.into()),
        }
        let left = self.gateway.cards(&customer).await?;
        if let Some(subscriptions) = &self.subscriptions {
            subscriptions
                .card_removed(user, &card, &left)
                .await
                .map_err(|e| CardError::Unexpected(anyhow::anyhow!(e.to_string())))?;
        }
        Ok(left)
    }

    async fn customer(&self, user: UserId) -> Result<Option<super::gateway::CustomerId>, CardError> {
        Ok(self.ledger.customer(user).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payments::gateway::{CustomerId, MockPaymentGateway};
    use crate::payments::ledger::MockCustomerStore;
    use domain::account::Email;

    fn card(id: &str) -> SavedCard {
        SavedCard {
            id: PaymentMethodId::new(id),
            brand: "Visa".into(),
            last4: "4242".into(),
            exp_month: 1,
            exp_year: 2031,
        }
    }

    fn member_with_customer(customer: Option<&'static str>) -> MockCustomerStore {
        let mut ledger = MockCustomerStore::new();
        ledger.expect_customer().returning(move |_| Ok(customer.map(CustomerId::new)));
        ledger.expect_member_email().returning(|_| Ok(Email::parse("m@example.jp").unwrap()));
        ledger
    }

    #[tokio::test]
    async fn the_first_card_makes_the_customer_once_and_is_listed() {
        let mut ledger = member_with_customer(None);
        ledger.expect_save_customer().times(1).returning(|_, c| Ok(c.clone()));
        let mut gateway = MockPaymentGateway::new();
        gateway
            .expect_create_customer()
            .withf(|_, key| key.as_str() == "user-7-customer")
            .times(1)
            .returning(|_, _| Ok(CustomerId::new("cus_new")));
        gateway
            .expect_add_card()
            .withf(|customer, token, _| customer.as_str() == "cus_new" && token.as_str() == "tok_1")
            .returning(|_, _, _| Ok(card("card_1")));
        gateway.expect_cards().returning(|_| {
            Ok(CustomerCards { cards: vec![card("card_1")], default: Some(PaymentMethodId::new("card_1")) })
        });
        let cards = CardService::new(ledger, gateway, KeyNamespace::none());

        let (added, all) = cards.register(UserId(7), CardToken::new("tok_1")).await.unwrap();

        assert_eq!(added.id.as_str(), "card_1");
        assert_eq!(all.default, Some(PaymentMethodId::new("card_1")));
    }

    #[tokio::test]
    async fn a_customer_the_provider_will_not_make_gives_the_specs_message() {
        let ledger = member_with_customer(None);
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_create_customer().returning(|_, _| Err(GatewayError::Unavailable("down".into())));
        gateway.expect_add_card().never();
        let error = CardService::new(ledger, gateway, KeyNamespace::none())
            .register(UserId(7), CardToken::new("tok_1"))
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "顧客情報登録に失敗しました。");
    }

    #[tokio::test]
    async fn someone_elses_card_can_be_neither_made_default_nor_deleted() {
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_cards().returning(|_| Ok(CustomerCards { cards: vec![card("card_mine")], default: None }));
        gateway.expect_set_default_card().never();
        gateway.expect_delete_card().never();
        let cards = CardService::new(member_with_customer(Some("cus_1")), gateway, KeyNamespace::none());

        let foreign = PaymentMethodId::new("card_theirs");
        assert!(matches!(cards.set_default(UserId(7), foreign.clone()).await, Err(CardError::NotFound)));
        assert!(matches!(cards.delete(UserId(7), foreign).await, Err(CardError::NotFound)));
    }

    #[tokio::test]
    async fn a_member_without_a_customer_has_no_cards() {
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_cards().never();
        let cards = CardService::new(member_with_customer(None), gateway, KeyNamespace::none());
        assert_eq!(cards.list(UserId(7)).await.unwrap(), CustomerCards::default());
    }
}
