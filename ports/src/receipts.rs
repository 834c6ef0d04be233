//! Receipts (領収書) of paid sales, which a supporter opens and prints: a
//! member from the payment history, anyone holding the signed link of the
//! paid mail. The project owner is the seller and the operator issues the
//! receipt on the owner's behalf, from the issuer data an operator set on
//! the project; without it the receipt names the operator as receiving
//! payment on the owner's behalf, with no registration number
//! (docs/decisions.md, "Receipts"). The figures come from
//! `domain::receipt`: what was kept after refunds, and the tax of each rate
//! rounded once.

use std::fmt;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use domain::authoring::FieldError;
use domain::extra_amount::{kept_parts, EXTRA_AMOUNT_LABEL};
use domain::ids::{ProjectId, SaleId, UserId};
use domain::money::{TaxMode, TaxRate, Yen};
use domain::payment::SaleStatus;
use domain::receipt::{
    addressee_or_default, kept_amount, purpose, receipt_title, refund_note, tax_by_rate, RateTotal, ReceiptIssuer,
    ReceiptKind, ReceiptLine, RegistrationNumber, ADDRESSEE,
};
use domain::time::tokyo_date;
use serde_json::json;

use crate::admin::audit::{AdminActionKind, AuditLog, NewAdminAction};
use crate::clock::Clock;
use crate::RepoError;

/// How long the link of a paid mail opens the receipt: a tax year and the
/// weeks after it in which people file.
pub const RECEIPT_LINK_DAYS: i64 = 400;

/// A sale with everything its receipt prints, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptSale {
    pub id: SaleId,
    pub user: UserId,
    pub status: SaleStatus,
    /// Set once the sale is paid.
    pub paid_at: Option<DateTime<Utc>>,
    pub project: ProjectId,
    pub project_title: String,
    pub return_title: String,
    pub lots: i64,
    /// What the supporter paid, tax included, the extra included.
    pub total: Yen,
    /// Of `total`, the 上乗せ支援 (untaxed); 0 when none.
    pub extra: Yen,
    /// How the sale was priced, and at which rate (kept with the sale).
    pub tax_mode: TaxMode,
    pub tax_rate: TaxRate,
    /// What the provider has paid back so far (refunds still on their way
    /// are not counted until they are paid out).
    pub refunded: Yen,
    /// Names the addressee defaults to, best first (the account's user name
    /// and display name, the delivery name, the sale's display name); blank
    /// ones are skipped.
    pub names: Vec<String>,
    /// The project owner's name, when the project has one.
    pub owner_name: Option<String>,
    /// The issuer an operator set on the project, if any.
    pub issuer: Option<ReceiptIssuer>,
    /// The latest issue, if the receipt was ever issued.
    pub issued: Option<IssueRecord>,
}

/// What was recorded of a receipt's issues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueRecord {
    /// The addressee the latest issue printed.
    pub addressee: String,
    /// 1 for the original; each reissue adds one.
    pub count: u32,
    pub first_at: DateTime<Utc>,
    pub last_at: DateTime<Utc>,
}

/// A project's issuer as the operator's screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectIssuer {
    pub project: ProjectId,
    pub project_title: String,
    pub issuer: Option<ReceiptIssuer>,
    pub updated_at: Option<DateTime<Utc>>,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SaleReceiptStore: Send + Sync {
    /// The project's issuer (`issuer: None` when none is set). MUST return
    /// `NotFound` for an unknown project.
    async fn project_issuer(&self, project: ProjectId) -> Result<ProjectIssuer, RepoError>;

    /// Sets the project's issuer, replacing any. Idempotent. MUST return
    /// `NotFound` for an unknown project.
    async fn set_issuer(&self, project: ProjectId, issuer: &ReceiptIssuer, now: DateTime<Utc>)
        -> Result<(), RepoError>;

    /// One sale, whatever its status. MUST return `NotFound` when no sale has `id`.
    async fn sale(&self, id: SaleId) -> Result<ReceiptSale, RepoError>;

    /// Records one issue with `addressee` and answers the record: the first
    /// writes count 1, every later one adds one and replaces the addressee.
    /// MUST count every call exactly once under any concurrency; MUST write
    /// nothing and return `NotFound` unless the sale is paid (`succeeded`).
    async fn record_issue(&self, sale: SaleId, addressee: &str, now: DateTime<Utc>) -> Result<IssueRecord, RepoError>;
}

/// Signed tokens that open one sale's receipt without logging in (the link
/// of the paid mails).
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait ReceiptTokens: Send + Sync {
    /// A token naming `sale`, valid for [`RECEIPT_LINK_DAYS`]; `None` when
    /// it cannot be made (the mail then goes without the link).
    fn issue(&self, sale: SaleId) -> Option<String>;
    /// The sale of a genuine, unexpired token; `None` for anything else.
    fn verify(&self, token: &str) -> Option<SaleId>;
}

impl<T: ReceiptTokens + ?Sized> ReceiptTokens for Arc<T> {
    fn issue(&self, sale: SaleId) -> Option<String> {
        (**self).issue(sale)
    }

    fn verify(&self, token: &str) -> Option<SaleId> {
        (**self).verify(token)
    }
}

/// The receipt links the paid mails carry: `{public_url}/receipt/{token}`.
/// Empty (no links) where no signer is wired, as in the payment core's tests.
#[derive(Clone, Default)]
pub struct ReceiptLinks(Option<Arc<dyn ReceiptTokens>>);

impl ReceiptLinks {
    pub fn new(tokens: Arc<dyn ReceiptTokens>) -> Self {
        Self(Some(tokens))
    }

    /// No links.
    pub fn none() -> Self {
        Self(None)
    }

    /// The page of `sale`'s receipt under `public_url` (no trailing slash).
    pub fn link(&self, public_url: &str, sale: SaleId) -> Option<String> {
        let token = self.0.as_ref()?.issue(sale)?;
        Some(format!("{public_url}/receipt/{token}"))
    }
}

impl fmt::Debug for ReceiptLinks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ReceiptLinks").field(&self.0.as_ref().map(|_| "signer")).finish()
    }
}

/// Who the receipt names as receiving the money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptIssuerView {
    pub name: String,
    /// Only a registered issuer's receipt is a qualified invoice (適格請求書).
    pub registration_number: Option<RegistrationNumber>,
    /// Set when the operator receives on the owner's behalf (no issuer set on
    /// the project): the owner's name, or the project's title without one.
    pub on_behalf_of: Option<String>,
}

/// A receipt as the page prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaleReceipt {
    pub sale: SaleId,
    pub kind: ReceiptKind,
    /// 領収書, 領収書（再発行）, 寄附金受領証明書, ...: the latest issue's title,
    /// the original's before any issue.
    pub title: &'static str,
    /// 0 while never issued.
    pub issued_count: u32,
    /// The latest issue's addressee, else the default.
    pub addressee: String,
    /// What a blank addressee prints (the supporter's name; may be empty).
    pub default_addressee: String,
    /// The transaction date: the day it was paid, in Tokyo.
    pub paid_on: NaiveDate,
    /// The latest issue's day, in Tokyo.
    pub issued_on: Option<NaiveDate>,
    /// 但し書き.
    pub purpose: String,
    /// What was received and kept: the total less refunds paid out.
    pub amount: Yen,
    pub paid_total: Yen,
    pub refunded: Yen,
    pub refund_note: Option<&'static str>,
    pub lines: Vec<ReceiptLine>,
    pub rates: Vec<RateTotal>,
    pub issuer: ReceiptIssuerView,
}

impl SaleReceipt {
    /// The receipt of a paid sale; `None` for a sale not paid.
    pub fn of(sale: &ReceiptSale, operator_name: &str) -> Option<Self> {
        if sale.status != SaleStatus::Succeeded {
            return None;
        }
        let paid_at = sale.paid_at?;
        let kind = ReceiptKind::for_tax_mode(sale.tax_mode);
        let amount = kept_amount(sale.total, sale.refunded);
        let (kept_return, kept_extra) = kept_parts(sale.total, sale.extra, sale.refunded);
        let mut lines = vec![ReceiptLine {
            description: format!("{}（{}）", sale.project_title, sale.return_title),
            lots: sale.lots,
            amount: kept_return,
            rate: kind.line_rate(sale.tax_rate),
        }];
        // The extra buys nothing: its own line, outside consumption tax (対象外) on every receipt.
        if sale.extra.is_positive() {
            lines.push(ReceiptLine {
                description: EXTRA_AMOUNT_LABEL.to_owned(),
                // Not sold in lots.
                lots: 0,
                amount: kept_extra,
                rate: None,
            });
        }
        let default_addressee = default_addressee(&sale.names);
        let issued_count = sale.issued.as_ref().map_or(0, |i| i.count);
        let issuer = match &sale.issuer {
            Some(issuer) => ReceiptIssuerView {
                name: issuer.name.clone(),
                registration_number: issuer.registration_number.clone(),
                on_behalf_of: None,
            },
            None => ReceiptIssuerView {
                name: operator_name.to_owned(),
                registration_number: None,
                on_behalf_of: Some(sale.owner_name.clone().unwrap_or_else(|| sale.project_title.clone())),
            },
        };
        Some(Self {
            sale: sale.id,
            kind,
            title: receipt_title(kind, issued_count > 1),
            issued_count,
            addressee: sale.issued.as_ref().map_or_else(|| default_addressee.clone(), |i| i.addressee.clone()),
            default_addressee,
            paid_on: tokyo_date(paid_at),
            issued_on: sale.issued.as_ref().map(|i| tokyo_date(i.last_at)),
            purpose: purpose(kind, &sale.project_title),
            amount,
            paid_total: sale.total,
            refunded: sale.refunded,
            refund_note: refund_note(sale.total, sale.refunded),
            rates: tax_by_rate(&lines),
            lines,
            issuer,
        })
    }
}

/// The first name that is a valid addressee; empty when there is none.
fn default_addressee(names: &[String]) -> String {
    names.iter().find_map(|name| ADDRESSEE.parse_optional(Some(name)).ok().flatten()).unwrap_or_default()
}

#[derive(Debug, thiserror::Error)]
pub enum ReceiptError {
    /// No such sale, not the caller's, not paid, or a token that is not
    /// genuine: all alike, so nothing tells one from another.
    #[error("not found")]
    NotFound,
    /// Refused fields, in form order.
    #[error("{}", .0.first().map_or("", |e| e.message.as_str()))]
    Invalid(Vec<FieldError>),
    #[error(transparent)]
    Repo(RepoError),
}

impl From<RepoError> for ReceiptError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            other => Self::Repo(other),
        }
    }
}

/// Whose receipt: a member's own sale, or whichever sale a token names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiptAccess {
    Member(UserId, SaleId),
    Token(String),
}

/// The receipt use cases, as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait SaleReceipts: Send + Sync {
    /// A project's issuer; `NotFound` for an unknown project.
    async fn project_issuer(&self, project: ProjectId) -> Result<ProjectIssuer, ReceiptError>;
    /// Sets a project's issuer (audit log: `receipt_issuer_updated`);
    /// `Invalid` with every refused field.
    async fn set_issuer(
        &self,
        admin: UserId,
        project: ProjectId,
        name: String,
        registration_number: Option<String>,
    ) -> Result<ProjectIssuer, ReceiptError>;
    /// The receipt of a paid sale; `NotFound` for anything else.
    async fn receipt(&self, access: ReceiptAccess) -> Result<SaleReceipt, ReceiptError>;
    /// Records an issue (the first is the original, every later one a
    /// reissue) with `addressee`, blank for the default, and answers the
    /// receipt as issued.
    async fn issue(&self, access: ReceiptAccess, addressee: Option<String>) -> Result<SaleReceipt, ReceiptError>;
}

pub struct SaleReceiptService<R, T, A, C> {
    store: R,
    tokens: T,
    audit: A,
    clock: C,
    /// Who receives the money on an owner's behalf when a project has no issuer.
    operator_name: String,
}

impl<R: SaleReceiptStore, T: ReceiptTokens, A: AuditLog, C: Clock> SaleReceiptService<R, T, A, C> {
    pub fn new(store: R, tokens: T, audit: A, clock: C, operator_name: String) -> Self {
        Self { store, tokens, audit, clock, operator_name }
    }

    /// The sale `access` may read, paid; `NotFound` otherwise.
    async fn paid_sale(&self, access: ReceiptAccess) -> Result<(ReceiptSale, SaleReceipt), ReceiptError> {
        let (id, member) = match access {
            ReceiptAccess::Member(user, sale) => (sale, Some(user)),
            ReceiptAccess::Token(token) => (self.tokens.verify(&token).ok_or(ReceiptError::NotFound)?, None),
        };
        let sale = self.store.sale(id).await?;
        if member.is_some_and(|user| user != sale.user) {
            return Err(ReceiptError::NotFound);
        }
        let receipt = SaleReceipt::of(&sale, &self.operator_name).ok_or(ReceiptError::NotFound)?;
        Ok((sale, receipt))
    }
}

fn issuer_fields(issuer: Option<&ReceiptIssuer>) -> serde_json::Value {
    json!({
        "issuerName": issuer.map(|i| i.name.as_str()),
        "registrationNumber": issuer.and_then(|i| i.registration_number.as_ref()).map(RegistrationNumber::as_str),
    })
}

#[async_trait::async_trait]
impl<R: SaleReceiptStore, T: ReceiptTokens, A: AuditLog, C: Clock> SaleReceipts for SaleReceiptService<R, T, A, C> {
    async fn project_issuer(&self, project: ProjectId) -> Result<ProjectIssuer, ReceiptError> {
        Ok(self.store.project_issuer(project).await?)
    }

    async fn set_issuer(
        &self,
        admin: UserId,
        project: ProjectId,
        name: String,
        registration_number: Option<String>,
    ) -> Result<ProjectIssuer, ReceiptError> {
        let issuer = ReceiptIssuer::parse(&name, registration_number.as_deref()).map_err(ReceiptError::Invalid)?;
        let before = self.store.project_issuer(project).await?;
        let detail = json!({
            "projectTitle": before.project_title,
            "before": issuer_fields(before.issuer.as_ref()),
            "after": issuer_fields(Some(&issuer)),
        });
        let action = NewAdminAction {
            project_id: Some(project),
            detail,
            ..NewAdminAction::new(admin, AdminActionKind::ReceiptIssuerUpdated)
        };
        self.audit.record(action).await?;
        self.store.set_issuer(project, &issuer, self.clock.now()).await?;
        Ok(self.store.project_issuer(project).await?)
    }

    async fn receipt(&self, access: ReceiptAccess) -> Result<SaleReceipt, ReceiptError> {
        Ok(self.paid_sale(access).await?.1)
    }

    async fn issue(&self, access: ReceiptAccess, addressee: Option<String>) -> Result<SaleReceipt, ReceiptError> {
        let (mut sale, receipt) = self.paid_sale(access).await?;
        let addressee = addressee_or_default(addressee.as_deref(), &receipt.default_addressee)
            .map_err(|e| ReceiptError::Invalid(vec![FieldError { field: ADDRESSEE.field, message: e.to_string() }]))?;
        sale.issued = Some(self.store.record_issue(sale.id, &addressee, self.clock.now()).await?);
        SaleReceipt::of(&sale, &self.operator_name).ok_or(ReceiptError::NotFound)
    }
}

#[cfg(test)]
#[path = "receipts_tests.rs"]
mod tests;
