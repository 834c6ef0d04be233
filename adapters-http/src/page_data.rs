//! The API responses a public page carries in its HTML, so the app paints its
//! first screen without waiting for a second round trip (docs/architecture.md,
//! "First paint"). Each entry is the exact body of the `/v1` response a
//! logged-out visitor would get, keyed by the request the app makes for it.

use ports::catalog::{Catalog, CatalogError, ProjectDetail, SumTarget};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::project::{DetailResponse, MasterResponse};
use crate::sales::SumResponse;
use crate::SiteEnv;

/// API responses keyed by their path under `/v1` plus query string, and the
/// image the first screen shows largest (worth a preload hint).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PageData {
    pub responses: Map<String, Value>,
    pub lcp_image: Option<String>,
}

impl PageData {
    fn push(&mut self, key: impl Into<String>, body: impl Serialize) {
        // Our DTOs always serialise; a failure would only drop the shortcut.
        if let Ok(value) = serde_json::to_value(body) {
            self.responses.insert(key.into(), value);
        }
    }
}

/// Home: the project cards (`/helper/get/master`) and the site totals
/// (`/sales/get/allSum`); the first card's image is the largest paint.
pub async fn home(catalog: &dyn Catalog, env: &SiteEnv) -> Result<PageData, CatalogError> {
    let cards = catalog.master().await?;
    let all = catalog.paid_sum(SumTarget::All).await?;
    let mut data = PageData { lcp_image: cards.first().and_then(|c| c.main_image_url.clone()), ..PageData::default() };
    data.push("/helper/get/master", MasterResponse::new(cards, env));
    data.push("/sales/get/allSum", SumResponse::from(all));
    Ok(data)
}

/// A project page: its detail as the anonymous visitor sees it. The hero is
/// the first slider image, or the main image when there is no slider.
pub fn project(detail: ProjectDetail) -> PageData {
    let mut data = PageData {
        lcp_image: detail.slider.first().map(|s| s.src.clone()).or_else(|| detail.card.main_image_url.clone()),
        ..PageData::default()
    };
    // Slugs are URL-safe by the project rules; anything else just skips the shortcut.
    if detail.card.slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        let key = format!("/project/get/detail?slug={}", detail.card.slug);
        data.push(key, DetailResponse::from(detail));
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;
    use ports::catalog::{MockCatalog, PaidSum};

    #[tokio::test]
    async fn home_carries_the_master_and_the_totals_exactly_as_the_api_sends_them() {
        let mut catalog = MockCatalog::new();
        catalog.expect_master().returning(|| Ok(vec![]));
        catalog.expect_paid_sum().returning(|_| Ok(PaidSum { amount: domain::money::Yen(12_000), supports: 3 }));
        let data = home(&catalog, &SiteEnv { name: "local".into(), payment: crate::project::PaymentClient::local() })
            .await
            .unwrap();
        let json = Value::Object(data.responses);
        assert_eq!(json["/sales/get/allSum"], serde_json::json!({ "result": { "amount": 12000, "lot": 3 } }));
        assert_eq!(json["/helper/get/master"]["master"]["projects"], serde_json::json!([]));
        assert_eq!(json["/helper/get/master"]["master"]["env"]["name"], "local");
        assert_eq!(data.lcp_image, None);
    }
}
