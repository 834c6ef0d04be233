//! Receipts: a signed, expiring proof that the holder placed a sale, so the
//! complete page can read it back (guests have no session). Knowing a sale's
//! number is not enough to read it.

use chrono::{Duration, Utc};
use domain::ids::SaleId;
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// How long the complete page can be reloaded (a transfer's instructions are
/// also in the mail and, for members, in the payment history).
const RECEIPT_LIFETIME_DAYS: i64 = 30;
/// Tells receipts apart from session tokens signed with the same secret.
const RECEIPT_AUDIENCE: &str = "receipt";

#[derive(Clone)]
pub struct Receipts {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

#[derive(Debug, Serialize, Deserialize)]
struct ReceiptClaims {
    sale: i64,
    aud: String,
    exp: i64,
}

impl Receipts {
    pub fn new(secret: &[u8]) -> Self {
        Self { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret) }
    }

    pub fn issue(&self, sale: SaleId) -> anyhow::Result<String> {
        let exp = (Utc::now() + Duration::days(RECEIPT_LIFETIME_DAYS)).timestamp();
        let claims = ReceiptClaims { sale: sale.get(), aud: RECEIPT_AUDIENCE.into(), exp };
        Ok(encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?)
    }

    /// The sale of a genuine, unexpired receipt.
    pub fn verify(&self, receipt: &str) -> Option<SaleId> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_audience(&[RECEIPT_AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "aud"]);
        decode::<ReceiptClaims>(receipt, &self.decoding, &validation).ok().map(|data| SaleId(data.claims.sale))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_names_its_sale_and_nothing_else_passes_for_one() {
        let receipts = Receipts::new(b"secret");
        let receipt = receipts.issue(SaleId(41)).unwrap();
        assert_eq!(receipts.verify(&receipt), Some(SaleId(41)));
        assert_eq!(Receipts::new(b"other").verify(&receipt), None, "signed with another secret");
        assert_eq!(receipts.verify("41"), None);
        let mut forged = receipt.clone();
        forged.replace_range(forged.len() - 4.., "AAAA");
        assert_eq!(receipts.verify(&forged), None);
    }
}
