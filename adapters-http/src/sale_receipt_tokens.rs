//! The signed tokens of the receipt links in the paid mails
//! (`/receipt/{token}`): they open one sale's printable receipt (領収書)
//! without logging in, for [`RECEIPT_LINK_DAYS`]. Not to be confused with
//! [`crate::receipt`], the order token of the complete page; each has its
//! own audience, so neither passes for the other (nor for a session).

use chrono::{Duration, Utc};
use domain::ids::SaleId;
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use ports::receipts::{ReceiptTokens, RECEIPT_LINK_DAYS};
use serde::{Deserialize, Serialize};

/// Tells receipt links apart from sessions, order tokens and opt-out links signed with the same secret.
const SALE_RECEIPT_AUDIENCE: &str = "sale_receipt";

#[derive(Clone)]
pub struct JwtReceiptTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

#[derive(Debug, Serialize, Deserialize)]
struct SaleReceiptClaims {
    sale: i64,
    aud: String,
    exp: i64,
}

impl JwtReceiptTokens {
    pub fn new(secret: &[u8]) -> Self {
        Self { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret) }
    }

    fn sign(&self, claims: &SaleReceiptClaims) -> Option<String> {
        encode(&Header::new(Algorithm::HS256), claims, &self.encoding).ok()
    }
}

impl ReceiptTokens for JwtReceiptTokens {
    fn issue(&self, sale: SaleId) -> Option<String> {
        let exp = (Utc::now() + Duration::days(RECEIPT_LINK_DAYS)).timestamp();
        self.sign(&SaleReceiptClaims { sale: sale.get(), aud: SALE_RECEIPT_AUDIENCE.into(), exp })
    }

    fn verify(&self, token: &str) -> Option<SaleId> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_audience(&[SALE_RECEIPT_AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "aud"]);
        let claims = decode::<SaleReceiptClaims>(token, &self.decoding, &validation).ok()?.claims;
        SaleId::try_from(claims.sale).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_token_names_its_sale_and_nothing_else_passes_for_one() {
        let tokens = JwtReceiptTokens::new(b"secret");
        let token = tokens.issue(SaleId(41)).unwrap();
        assert_eq!(tokens.verify(&token), Some(SaleId(41)));
        assert_eq!(JwtReceiptTokens::new(b"other").verify(&token), None, "signed with another secret");
        assert_eq!(tokens.verify("41"), None);
        let mut forged = token.clone();
        forged.replace_range(forged.len() - 4.., "AAAA");
        assert_eq!(tokens.verify(&forged), None);
    }

    #[test]
    fn an_order_token_is_no_receipt_link_and_a_receipt_link_is_no_order_token() {
        let tokens = JwtReceiptTokens::new(b"secret");
        let order = crate::receipt::Receipts::new(b"secret");
        assert_eq!(tokens.verify(&order.issue(SaleId(41)).unwrap()), None);
        assert_eq!(order.verify(&tokens.issue(SaleId(41)).unwrap()), None);
    }

    #[test]
    fn a_link_lasts_four_hundred_days_and_not_a_day_more() {
        let tokens = JwtReceiptTokens::new(b"secret");
        let day = 24 * 60 * 60;
        let issued_at = |days_ago: i64| {
            let exp = Utc::now().timestamp() + RECEIPT_LINK_DAYS * day - days_ago * day;
            tokens.sign(&SaleReceiptClaims { sale: 41, aud: SALE_RECEIPT_AUDIENCE.into(), exp }).unwrap()
        };
        assert_eq!(tokens.verify(&issued_at(399)), Some(SaleId(41)));
        assert_eq!(tokens.verify(&issued_at(401)), None);
        let claims = decode::<SaleReceiptClaims>(&tokens.issue(SaleId(41)).unwrap(), &tokens.decoding, &{
            let mut v = Validation::new(Algorithm::HS256);
            v.set_audience(&[SALE_RECEIPT_AUDIENCE]);
            v
        })
        .unwrap()
        .claims;
        let days = (claims.exp - Utc::now().timestamp() + 60) / day;
        assert_eq!(days, RECEIPT_LINK_DAYS);
    }
}
