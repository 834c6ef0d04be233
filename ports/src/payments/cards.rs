//! A member's saved cards (`/v1/stripe/customer/...`): the cards live at the
//! provider, under the member's own provider customer; ids sent by a client
//! are only ever looked up among that customer's cards.

use domain::ids::UserId;

use super::customer::ensure_customer;
use super::gateway::{
    CardSetup, CustomerCards, CustomerId, GatewayError, KeyNamespace, PaymentGateway, PaymentMethodId, SavedCard,
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
    /// Starts a card set-up the browser confirms (3-D Secure when the card
    /// asks): for a member, under the member's provider customer (made on
    /// the first card); for a guest (`None`), under nobody until the support.
    async fn setup(&self, user: Option<UserId>) -> Result<CardSetup, CardError>;
    /// The card a confirmed set-up made, as the confirm step shows it (brand
    /// and last digits); [`CardError::NotFound`] for a set-up that did not
    /// succeed or a secret that is not its own.
    async fn set_up_card(&self, client_secret: &str) -> Result<SavedCard, CardError>;
    /// Registers a card the browser set up, making the provider customer on
    /// the first one (which becomes the default). Another customer's card is
    /// [`CardError::NotFound`].
    async fn register(&self, user: UserId, card: PaymentMethodId) -> Result<(SavedCard, CustomerCards), CardError>;
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
    /// The member's provider customer, made on first need.
    async fn member_customer(&self, user: UserId) -> Result<CustomerId, CardError> {
        let email = self.ledger.member_email(user).await?;
        ensure_customer(&self.ledger, &self.gateway, &self.namespace, user, &email)
            .await
            .map_err(|_| CardError::CustomerFailed)
    }

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

    async fn setup(&self, user: Option<UserId>) -> Result<CardSetup, CardError> {
        let customer = match user {
            Some(user) => Some(self.member_customer(user).await?),
            None => None,
        };
        Ok(self.gateway.start_card_setup(customer).await?)
    }

    async fn set_up_card(&self, client_secret: &str) -> Result<SavedCard, CardError> {
        let card = self.gateway.set_up_card(client_secret).await?;
        Ok(self.gateway.card(&card).await?.card)
    }

    async fn register(&self, user: UserId, card: PaymentMethodId) -> Result<(SavedCard, CustomerCards), CardError> {
        let customer = self.member_customer(user).await?;
        let card = claim_card(&self.gateway, &customer, &card).await?;
        let cards = keep_card(&self.gateway, &customer, &card.id).await?;
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

/// Whether a card the browser set up may serve `customer`: the provider
/// attached it to that customer already (a member's set-up), or to nobody
/// (a guest's). Another customer's card is never taken over.
pub(crate) fn may_claim(found: &super::gateway::ProviderCard, customer: Option<&CustomerId>) -> bool {
    match &found.customer {
        None => true,
        Some(owner) => Some(owner) == customer,
    }
}

/// Makes a card the browser set up `customer`'s: attached now when it is
/// nobody's yet, refused ([`GatewayError::NotFound`]) when it is another's.
pub(crate) async fn claim_card<G: PaymentGateway + ?Sized>(
    gateway: &G,
    customer: &CustomerId,
    card: &PaymentMethodId,
) -> Result<SavedCard, GatewayError> {
    let found = gateway.card(card).await?;
    if !may_claim(&found, Some(customer)) {
        return Err(GatewayError::NotFound(format!("card {card} belongs to another customer")));
    }
    match found.customer {
        Some(_) => Ok(found.card),
        None => gateway.attach_card(customer, card).await,
    }
}

/// The customer's cards once `card` is kept: the first card kept becomes
/// the default (the provider sets none for a PaymentMethod).
pub(crate) async fn keep_card<G: PaymentGateway + ?Sized>(
    gateway: &G,
    customer: &CustomerId,
    card: &PaymentMethodId,
) -> Result<CustomerCards, GatewayError> {
    let mut cards = gateway.cards(customer).await?;
    if cards.default.is_none() {
        gateway.set_default_card(customer, card).await?;
        cards.default = Some(card.clone());
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payments::gateway::{MockPaymentGateway, ProviderCard};
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
        gateway.expect_card().returning(|_| Ok(ProviderCard { card: card("pm_1"), customer: None }));
        gateway
            .expect_attach_card()
            .withf(|customer, card| customer.as_str() == "cus_new" && card.as_str() == "pm_1")
            .times(1)
            .returning(|_, _| Ok(card("pm_1")));
        gateway.expect_cards().returning(|_| {
            Ok(CustomerCards { cards: vec![card("pm_1")], default: Some(PaymentMethodId::new("pm_1")) })
        });
        let cards = CardService::new(ledger, gateway, KeyNamespace::none());

        let (added, all) = cards.register(UserId(7), PaymentMethodId::new("pm_1")).await.unwrap();

        assert_eq!(added.id.as_str(), "pm_1");
        assert_eq!(all.default, Some(PaymentMethodId::new("pm_1")));
    }

    #[tokio::test]
    async fn a_card_set_up_under_the_member_is_not_attached_again_and_the_first_becomes_the_default() {
        let mut gateway = MockPaymentGateway::new();
        gateway
            .expect_card()
            .returning(|_| Ok(ProviderCard { card: card("pm_1"), customer: Some(CustomerId::new("cus_1")) }));
        gateway.expect_attach_card().never();
        gateway.expect_cards().returning(|_| Ok(CustomerCards { cards: vec![card("pm_1")], default: None }));
        gateway
            .expect_set_default_card()
            .withf(|customer, card| customer.as_str() == "cus_1" && card.as_str() == "pm_1")
            .times(1)
            .returning(|_, _| Ok(()));
        let cards = CardService::new(member_with_customer(Some("cus_1")), gateway, KeyNamespace::none());

        let (added, all) = cards.register(UserId(7), PaymentMethodId::new("pm_1")).await.unwrap();
        assert_eq!(added.id.as_str(), "pm_1");
        // The member's first card becomes the default.
        assert_eq!(all.default, Some(PaymentMethodId::new("pm_1")));
    }

    #[tokio::test]
    async fn another_members_card_cannot_be_registered() {
        let mut gateway = MockPaymentGateway::new();
        gateway
            .expect_card()
            .returning(|_| Ok(ProviderCard { card: card("pm_theirs"), customer: Some(CustomerId::new("cus_2")) }));
        gateway.expect_attach_card().never();
        let cards = CardService::new(member_with_customer(Some("cus_1")), gateway, KeyNamespace::none());

        let error = cards.register(UserId(7), PaymentMethodId::new("pm_theirs")).await.unwrap_err();
        assert!(matches!(error, CardError::NotFound), "{error:?}");
    }

    #[tokio::test]
    async fn a_members_set_up_is_under_their_customer_and_a_guests_under_nobody() {
        let mut gateway = MockPaymentGateway::new();
        gateway
            .expect_start_card_setup()
            .withf(|customer| customer.as_ref().map(CustomerId::as_str) == Some("cus_1"))
            .times(1)
            .returning(|_| Ok(CardSetup { client_secret: "seti_1_secret_a".into() }));
        gateway
            .expect_start_card_setup()
            .withf(|customer| customer.is_none())
            .times(1)
            .returning(|_| Ok(CardSetup { client_secret: "seti_2_secret_b".into() }));
        let cards = CardService::new(member_with_customer(Some("cus_1")), gateway, KeyNamespace::none());

        assert_eq!(cards.setup(Some(UserId(7))).await.unwrap().client_secret, "seti_1_secret_a");
        assert_eq!(cards.setup(None).await.unwrap().client_secret, "seti_2_secret_b");
    }

    #[tokio::test]
    async fn a_customer_the_provider_will_not_make_gives_the_specs_message() {
        let ledger = member_with_customer(None);
        let mut gateway = MockPaymentGateway::new();
        gateway.expect_create_customer().returning(|_, _| Err(GatewayError::Unavailable("down".into())));
        gateway.expect_attach_card().never();
        let error = CardService::new(ledger, gateway, KeyNamespace::none())
            .register(UserId(7), PaymentMethodId::new("pm_1"))
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
