//! Saved cards through `StripeGateway` against the local fake Stripe: a card typed in the
//! browser is set up (a SetupIntent confirmed by Stripe.js) and becomes a PaymentMethod of the
//! customer; cards saved the old way (sources) keep working beside them; payments charge a
//! card with its customer.
//! Needs `bash app-server/dev/services.sh up` and `.data/services.env` sourced.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use domain::ids::SaleId;
use domain::money::Yen;
use domain::payment::IntentStatus;
use ports::payments::gateway::{
    CardCharge, CustomerCards, CustomerId, GatewayError, IdempotencyKey, KeyPurpose, PaymentGateway, PaymentMethodId,
};
use support::{card, customer, gateway, namespace, raw_ok, set_up};

fn summary(cards: &CustomerCards) -> Vec<(String, String, u8, u16, bool)> {
    cards
        .cards
        .iter()
        .map(|c| (c.brand.clone(), c.last4.clone(), c.exp_month, c.exp_year, cards.default.as_ref() == Some(&c.id)))
        .collect()
}

#[tokio::test]
async fn a_card_set_up_under_a_customer_is_theirs_and_the_list_shows_brand_last4_and_expiry() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 1).await;
    assert_eq!(gateway.cards(&customer).await.unwrap(), CustomerCards::default());

    let jcb = set_up(&gateway, Some(&customer), "3566002020360505").await;
    assert!(jcb.as_str().starts_with("pm_"), "{jcb:?}");
    let found = gateway.card(&jcb).await.unwrap();
    assert_eq!(found.customer.as_ref(), Some(&customer), "Stripe attaches a set-up card to its customer");
    assert_eq!(
        (found.card.brand.as_str(), found.card.last4.as_str(), found.card.exp_month, found.card.exp_year),
        ("JCB", "0505", 12, 2030)
    );
    // A PaymentMethod does not become the default by itself: the product makes the first one the default.
    assert_eq!(gateway.cards(&customer).await.unwrap().default, None);
    gateway.set_default_card(&customer, &jcb).await.unwrap();

    let mastercard = card(&gateway, &customer, "5555555555554444").await;
    let cards = gateway.cards(&customer).await.unwrap();
    assert_eq!(cards.default, Some(jcb.clone()));
    assert_eq!(
        summary(&cards),
        vec![
            ("JCB".to_owned(), "0505".to_owned(), 12, 2030, true),
            ("MasterCard".to_owned(), "4444".to_owned(), 12, 2030, false),
        ]
    );
    assert_eq!(cards.cards[1].id, mastercard);
}

#[tokio::test]
async fn a_guests_card_is_nobodys_until_attached_and_then_nobody_else_can_take_it() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let guest = customer(&gateway, &ns, 7).await;
    let other = customer(&gateway, &ns, 8).await;
    let visa = set_up(&gateway, None, "4242424242424242").await;
    assert_eq!(gateway.card(&visa).await.unwrap().customer, None);

    let attached = gateway.attach_card(&guest, &visa).await.unwrap();
    assert_eq!((attached.id.clone(), attached.last4.as_str()), (visa.clone(), "4242"));
    assert_eq!(gateway.card(&visa).await.unwrap().customer, Some(guest.clone()));
    assert!(gateway.attach_card(&other, &visa).await.is_err(), "Stripe refuses another customer's card");
    assert_eq!(gateway.cards(&other).await.unwrap(), CustomerCards::default());

    let err = gateway.card(&PaymentMethodId::new("pm_nonexistent")).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
}

#[tokio::test]
async fn a_card_saved_the_old_way_is_listed_made_default_and_removed_beside_payment_methods() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 9).await;
    // A card a member saved before cards moved to SetupIntents: a source made from a token.
    let token = raw_ok(
        "POST",
        "/v1/tokens",
        &[
            ("card[number]", "4242424242424242"),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"),
            ("card[cvc]", "123"),
        ],
    )
    .await;
    let source =
        raw_ok("POST", &format!("/v1/customers/{customer}/sources"), &[("source", token["id"].as_str().unwrap())])
            .await;
    let legacy = PaymentMethodId::new(source["id"].as_str().unwrap());
    let jcb = card(&gateway, &customer, "3566002020360505").await;

    let cards = gateway.cards(&customer).await.unwrap();
    assert_eq!(cards.cards.iter().map(|c| &c.id).collect::<Vec<_>>(), [&legacy, &jcb]);
    assert_eq!(cards.default, Some(legacy.clone()), "the source Stripe made the default stays so");

    gateway.set_default_card(&customer, &jcb).await.unwrap();
    assert_eq!(gateway.cards(&customer).await.unwrap().default, Some(jcb.clone()));
    gateway.set_default_card(&customer, &legacy).await.unwrap();
    assert_eq!(gateway.cards(&customer).await.unwrap().default, Some(legacy.clone()));

    // The old card still pays.
    let request = CardCharge {
        sale_id: SaleId(91),
        amount: Yen(1000),
        payment_method: legacy.clone(),
        customer: Some(customer.clone()),
        destination: None,
    };
    let paid = gateway.charge_card(request, IdempotencyKey::for_sale(&ns, SaleId(91), KeyPurpose::Confirm)).await;
    assert_eq!(paid.unwrap().status, IntentStatus::Succeeded);

    gateway.delete_card(&customer, &legacy).await.unwrap();
    let cards = gateway.cards(&customer).await.unwrap();
    assert_eq!((cards.cards.len(), cards.default), (1, Some(jcb)));
}

#[tokio::test]
async fn another_card_can_become_the_default_and_a_deleted_card_is_gone() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 2).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let discover = card(&gateway, &customer, "6011111111111117").await;

    gateway.set_default_card(&customer, &discover).await.unwrap();
    let cards = gateway.cards(&customer).await.unwrap();
    assert_eq!(cards.default, Some(discover.clone()));
    assert_eq!(cards.cards.iter().map(|c| c.brand.as_str()).collect::<Vec<_>>(), ["Visa", "Discover"]);

    gateway.delete_card(&customer, &visa).await.unwrap();
    let cards = gateway.cards(&customer).await.unwrap();
    assert_eq!(cards.cards.iter().map(|c| &c.id).collect::<Vec<_>>(), [&discover]);
    assert_eq!(cards.default, Some(discover.clone()));

    // Deleting it again (a double click): it is already gone.
    let err = gateway.delete_card(&customer, &visa).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");

    // Deleting the default leaves the customer without cards and without a default.
    gateway.delete_card(&customer, &discover).await.unwrap();
    assert_eq!(gateway.cards(&customer).await.unwrap(), CustomerCards::default());
}

#[tokio::test]
async fn another_customers_card_can_be_neither_made_default_nor_deleted() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let taro = customer(&gateway, &ns, 3).await;
    let hanako = customer(&gateway, &ns, 4).await;
    let taros_card = card(&gateway, &taro, "4242424242424242").await;
    card(&gateway, &hanako, "5555555555554444").await;

    let err = gateway.set_default_card(&hanako, &taros_card).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
    let err = gateway.delete_card(&hanako, &taros_card).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
    assert_eq!(gateway.cards(&taro).await.unwrap().cards.len(), 1);

    // An id that is not a Stripe id never reaches another endpoint.
    let err = gateway.delete_card(&hanako, &PaymentMethodId::new("../../charges")).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
}

#[tokio::test]
async fn a_card_the_issuer_refuses_cannot_be_attached() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 5).await;
    let refused = raw_ok(
        "POST",
        "/v1/payment_methods",
        &[
            ("type", "card"),
            ("card[number]", "4000000000000002"),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"),
            ("card[cvc]", "123"),
        ],
    )
    .await;
    let err = gateway.attach_card(&customer, &PaymentMethodId::new(refused["id"].as_str().unwrap())).await.unwrap_err();
    let GatewayError::Declined { code, payment, .. } = &err else { panic!("{err:?}") };
    assert_eq!((code.as_deref(), payment), (Some("card_declined"), &None));
    assert_eq!(gateway.cards(&customer).await.unwrap(), CustomerCards::default());
}

#[tokio::test]
async fn cards_of_an_unknown_customer_are_not_found() {
    let gateway = gateway("whsec_unused");
    let err = gateway.cards(&CustomerId::new("cus_nobody")).await.unwrap_err();
    assert!(matches!(err, GatewayError::NotFound(_)), "{err:?}");
}

#[tokio::test]
async fn a_saved_card_pays_a_sale_once_and_a_paid_sale_cannot_be_cancelled() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 6).await;
    let visa = card(&gateway, &customer, "4242424242424242").await;
    let request = CardCharge {
        sale_id: SaleId(61),
        amount: Yen(6600),
        payment_method: visa,
        customer: Some(customer.clone()),
        destination: None,
    };
    let key = IdempotencyKey::for_sale(&ns, SaleId(61), KeyPurpose::Confirm);
    let paid = gateway.charge_card(request.clone(), key.clone()).await.unwrap();
    assert_eq!(
        (paid.status, paid.amount_received, paid.sale_id),
        (IntentStatus::Succeeded, Yen(6600), Some(SaleId(61)))
    );
    assert_eq!(gateway.charge_card(request, key).await.unwrap().id, paid.id);
    let charges = raw_ok("GET", &format!("/v1/charges?customer={customer}"), &[]).await;
    assert_eq!(charges["data"].as_array().unwrap().len(), 1, "charged once: {charges:#}");

    // The reconciler cancelling a sale the supporter paid meanwhile: the money stays.
    assert_eq!(gateway.cancel_payment(&paid.id).await.unwrap(), paid);
}
