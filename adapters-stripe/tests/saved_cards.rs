//! Saved cards through `StripeGateway` against the local fake Stripe: a card typed in the
//! browser becomes a token (Stripe.js `createToken`), the token becomes one of the
//! customer's cards, and payments charge that card with the customer.
//! Needs `bash app-server/dev/services.sh up` and `.data/services.env` sourced.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use domain::ids::{SaleId, UserId};
use domain::money::Yen;
use domain::payment::IntentStatus;
use ports::payments::gateway::{
    CardCharge, CustomerCards, CustomerId, GatewayError, IdempotencyKey, KeyPurpose, PaymentGateway, PaymentMethodId,
};
use support::{card, customer, gateway, namespace, raw_ok, token};

fn summary(cards: &CustomerCards) -> Vec<(String, String, u8, u16, bool)> {
    cards
        .cards
        .iter()
        .map(|c| (c.brand.clone(), c.last4.clone(), c.exp_month, c.exp_year, cards.default.as_ref() == Some(&c.id)))
        .collect()
}

#[tokio::test]
async fn the_first_card_becomes_the_default_and_the_list_shows_brand_last4_and_expiry() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 1).await;
    assert_eq!(gateway.cards(&customer).await.unwrap(), CustomerCards::default());

    let jcb_token = token("3566002020360505").await;
    let key = IdempotencyKey::for_card(&ns, UserId(1), &jcb_token);
    let jcb = gateway.add_card(&customer, &jcb_token, key.clone()).await.unwrap();
    assert!(jcb.id.as_str().starts_with("card_"), "{jcb:?}");
    assert_eq!((jcb.brand.as_str(), jcb.last4.as_str(), jcb.exp_month, jcb.exp_year), ("JCB", "0505", 12, 2030));
    // The same registration sent twice (a retry): still one card.
    assert_eq!(gateway.add_card(&customer, &jcb_token, key).await.unwrap(), jcb);

    let mastercard = card(&gateway, &ns, 1, &customer, "5555555555554444").await;
    let cards = gateway.cards(&customer).await.unwrap();
    assert_eq!(cards.default, Some(jcb.id.clone()));
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
async fn another_card_can_become_the_default_and_a_deleted_card_is_gone() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 2).await;
    let visa = card(&gateway, &ns, 2, &customer, "4242424242424242").await;
    let discover = card(&gateway, &ns, 2, &customer, "6011111111111117").await;

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
    let taros_card = card(&gateway, &ns, 3, &taro, "4242424242424242").await;
    card(&gateway, &ns, 4, &hanako, "5555555555554444").await;

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
async fn a_card_the_issuer_refuses_is_not_added_and_a_token_serves_once() {
    let (gateway, ns) = (gateway("whsec_unused"), namespace());
    let customer = customer(&gateway, &ns, 5).await;
    let refused = token("4000000000000002").await;
    let err =
        gateway.add_card(&customer, &refused, IdempotencyKey::for_card(&ns, UserId(5), &refused)).await.unwrap_err();
    let GatewayError::Declined { code, payment, .. } = &err else { panic!("{err:?}") };
    assert_eq!((code.as_deref(), payment), (Some("card_declined"), &None));
    assert_eq!(gateway.cards(&customer).await.unwrap(), CustomerCards::default());

    // The same token under another key (a second registration, not a retry) is refused.
    let visa = token("4242424242424242").await;
    gateway.add_card(&customer, &visa, IdempotencyKey::for_card(&ns, UserId(5), &visa)).await.unwrap();
    let other_key = IdempotencyKey::for_sale(&ns, SaleId(5), KeyPurpose::AttachCard);
    let err = gateway.add_card(&customer, &visa, other_key).await.unwrap_err();
    assert!(matches!(err, GatewayError::Rejected(_)), "{err:?}");
    assert_eq!(gateway.cards(&customer).await.unwrap().cards.len(), 1);
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
    let visa = card(&gateway, &ns, 6, &customer, "4242424242424242").await;
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
