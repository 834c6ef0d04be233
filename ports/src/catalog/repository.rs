//! What the public pages read from storage. Records are plain data; the
//! rules (availability, tiers, anonymity) are applied by the use case with
//! `domain`.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use domain::account::Email;
use domain::ids::{ProjectId, ReturnId};
use domain::money::Yen;
use domain::returns::ReturnType;
use domain::sponsor::{ManualCourse, SponsorSale};

use crate::accounts::UserId;
use crate::RepoError;

/// Paid total of a project, a return or the whole site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PaidSum {
    /// Sum of the paid sales' counted amounts (`domain::payment::counted_amount`: paid, tax included, less refunds).
    pub amount: Yen,
    /// Number of paid sales (supports).
    pub supports: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliderImage {
    pub src: String,
    pub alt: String,
}

/// Who runs a project, as its page introduces them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectOwner {
    pub name: String,
    /// Photo or logo; `None` = a default icon.
    pub image_url: Option<String>,
    /// A short introduction (plain text).
    pub profile: Option<String>,
    /// In the operator's order.
    pub links: Vec<OwnerLink>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerLink {
    pub label: String,
    /// An absolute http(s) URL (checked by the database).
    pub url: String,
}

/// A question the operator answers on the project page (plain text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

/// The project's own account for anonymous bank transfers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankAccount {
    pub bank: String,
    pub branch: String,
    pub kinds: String,
    pub number: String,
    pub nominee: String,
}

/// An area (a municipality) or a category: what projects are grouped by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taxon {
    pub id: i64,
    /// The list's address value (`?area=maebashi`).
    pub slug: String,
    pub name: String,
}

/// The areas and the categories, each in the operators' order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Taxonomy {
    pub areas: Vec<Taxon>,
    pub categories: Vec<Taxon>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRecord {
    pub id: ProjectId,
    pub slug: String,
    pub title: String,
    pub description: String,
    /// HTML as stored (sanitised again by the use case before it leaves).
    pub content: String,
    pub target: Yen,
    pub period_end: NaiveDate,
    pub main_image_url: Option<String>,
    pub honor_img_url: Option<String>,
    pub honor_img_link: Option<String>,
    pub is_donation: bool,
    pub tax_includes: bool,
    pub anonymous_bank: Option<BankAccount>,
    pub uses_manual_sponsors: bool,
    pub hide_footer_sponsors: bool,
    /// In slider order; empty = single main image.
    pub slider: Vec<SliderImage>,
    /// Payment methods the project takes (at least one).
    pub accepts_card: bool,
    pub accepts_bank_transfer: bool,
    pub accepts_konbini: bool,
    /// The question supporters answer at payment step 1, if any.
    pub additional_data: Option<AdditionalData>,
    pub funding_model: domain::project::FundingModel,
    /// `None` = the page shows no owner box.
    pub owner: Option<ProjectOwner>,
    /// In the operator's order; empty = no FAQ section.
    pub faqs: Vec<Faq>,
    /// When the project is (or becomes) public; `None` for a draft
    /// (`domain::authoring::is_public`).
    pub published_at: Option<DateTime<Utc>>,
    /// How the campaign ended, once the closing sweep looked at it.
    pub closing: Option<CloseResult>,
    /// The municipality; `None` = not set.
    pub area: Option<Taxon>,
    /// What it is about; `None` = not set.
    pub category: Option<Taxon>,
    /// Title, lead, story (without markup), owner's name and the public
    /// returns' titles and descriptions as keyword search reads them:
    /// `domain::search::index_text`, made when the projects are read.
    pub search_text: String,
    /// Addresses the project had while published; each redirects to `slug`.
    pub former_slugs: Vec<String>,
}

/// A project's result as its page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CloseResult {
    pub outcome: domain::closing::CloseOutcome,
    /// Paid sales not refunded yet (a failed all-or-nothing project refunds them all).
    pub refunds_left: i64,
}

/// A project's extra question for its supporters (the seed's `additionalData`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdditionalData {
    pub label: String,
    /// Shown above the field.
    pub text: Option<String>,
    /// Shown below the field.
    pub description: Option<String>,
    /// The message when the answer is missing ('{label}を入力してください' when none).
    pub alert: Option<String>,
    /// Lines of the field (1 = a one-line input).
    pub form_line: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnRecord {
    pub id: ReturnId,
    pub project_id: ProjectId,
    pub slug: String,
    pub return_type: ReturnType,
    pub title: String,
    pub description: String,
    pub price: Yen,
    pub stock_limit: Option<u32>,
    /// Lots held by every sale that is not canceled or failed (pending bank transfers included).
    pub lots_taken: u64,
    pub disabled: bool,
    pub disabled_comment: Option<String>,
    pub flag: i32,
    pub course: Option<String>,
    pub image_src: Option<String>,
    pub description_image: Option<String>,
    pub description_comment: Option<String>,
    pub lot_disable: bool,
    /// Charged every month (`returns.interval = 'month'`).
    pub monthly: bool,
    pub address_required: bool,
    /// Name of the delivery address field ('お届け先').
    pub address_label: Option<String>,
    pub show_user_email: Option<String>,
    /// The month the return is delivered (its first day); `None` = not announced.
    pub delivery_month: Option<NaiveDate>,
    /// Paid supports of this return (the same rule as the project's total).
    pub supporters: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsItem {
    pub id: i64,
    pub title: String,
    /// HTML; empty = none.
    pub description: String,
    pub updated_at: DateTime<Utc>,
    /// Who may read `description` (`domain::news`).
    pub audience: domain::news::NewsAudience,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentRecord {
    pub id: i64,
    pub project_id: ProjectId,
    pub user_id: UserId,
    pub comment: String,
    pub updated_at: DateTime<Utc>,
    /// The author's profile display name.
    pub author_displayname: Option<String>,
    /// The author's newest profile icon.
    pub author_icon: Option<String>,
    /// Display name given with the comment's sale.
    pub sale_displayname: Option<String>,
    /// The author asked for anonymity on a sale of this project.
    pub author_anonymous: bool,
}

/// One paid sale for the public supporter list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicSaleRecord {
    pub created_at: DateTime<Utc>,
    pub return_type: ReturnType,
    pub displayname: Option<String>,
    /// The supporter asked for anonymity on a paid sale of this project.
    pub anonymous: bool,
    pub corporatename: Option<String>,
    pub corporateurl: Option<String>,
    pub logo_url: Option<String>,
}

/// Entry of a manual sponsor list (`project_manual_sponsors`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualSponsorRecord {
    pub id: i64,
    pub course: ManualCourse,
    pub name: String,
    pub logo_src: Option<String>,
    pub link: Option<String>,
    pub amount: Option<Yen>,
    pub latest_date: Option<NaiveDate>,
    pub position: i32,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait CatalogRepository: Send + Sync {
    /// Every project with its slider images, in no particular order (empty
    /// when there is none), shared: a caching decorator hands out the same
    /// list to every caller instead of a copy. Every read below is
    /// read-only, so repeats are harmless, and MAY be a few seconds stale (a
    /// caching decorator may sit in front, docs/decisions.md).
    async fn projects(&self) -> Result<Arc<Vec<ProjectRecord>>, RepoError>;

    /// A number that MUST change (within the transaction that makes the
    /// change) whenever anything `projects` answers may change, so a reader
    /// that holds `projects` and the version it read before them may keep
    /// using them while the version is the same. Costs one small read.
    async fn catalog_version(&self) -> Result<i64, RepoError>;

    /// The areas and categories, each by `position` then id (empty lists when there is none).
    async fn taxonomy(&self) -> Result<Taxonomy, RepoError>;

    /// The paid total of every project that has one (a project missing
    /// from the map has none): the same figures as `paid_sum_project`, in
    /// one read. Shared, not copied: every list request reads them all.
    async fn paid_sums(&self) -> Result<Arc<HashMap<ProjectId, PaidSum>>, RepoError>;

    /// Paid total of every project together: the sum of
    /// `domain::payment::counted_amount` (paid, tax included, less refunds)
    /// over every sale, and as supports the sales that
    /// `domain::payment::counts_toward_totals` (the same rule for every sum
    /// below and for the sponsor and supporter lists).
    async fn paid_sum_all(&self) -> Result<PaidSum, RepoError>;

    /// Paid total of one project (zero when it has no paid sale or does not exist).
    async fn paid_sum_project(&self, project_id: ProjectId) -> Result<PaidSum, RepoError>;

    /// The paid totals of `project_ids` in one read (a project's page and the
    /// cards beside it): the same figures as `paid_sum_project`. A project
    /// missing from the map has none (or does not exist).
    async fn paid_sums_of(&self, project_ids: Vec<ProjectId>) -> Result<HashMap<ProjectId, PaidSum>, RepoError>;

    /// Paid total of one return. MUST return `Ok(None)` when no return has `return_id`.
    async fn paid_sum_return(&self, return_id: ReturnId) -> Result<Option<PaidSum>, RepoError>;

    /// The returns of a project that `viewer` may see, in the operator's
    /// order (`position`, then id; empty for an unknown project), each with
    /// its paid supports. MUST
    /// leave out returns with `flag >= 900` and returns restricted
    /// (`show_user_email`) to an address other than `viewer`'s (all restricted
    /// ones when `viewer` is `None`).
    async fn visible_returns(
        &self,
        project_id: ProjectId,
        viewer: Option<Email>,
    ) -> Result<Vec<ReturnRecord>, RepoError>;

    /// Published news of a project (published at or before `now`), newest
    /// first; empty for an unknown project.
    async fn news(&self, project_id: ProjectId, now: DateTime<Utc>) -> Result<Vec<NewsItem>, RepoError>;

    /// The returns of `user`'s sales of the project that count toward its
    /// totals (paid, not refunded in full), each once; empty when there is
    /// none (or the project or user is unknown). Never cached: a support
    /// opens a supporters-only item at once.
    async fn supported_returns(&self, project_id: ProjectId, user: UserId) -> Result<Vec<ReturnId>, RepoError>;

    /// Shown comments (flag 1) of a project, newest first; empty for an
    /// unknown project.
    async fn comments(&self, project_id: ProjectId) -> Result<Vec<CommentRecord>, RepoError>;

    /// Paid sales of one project (or of all projects for `None`) for the
    /// sponsor walls, at most one entry per supporter, with the accounts a
    /// project excludes (`project_sponsor_exclusions`) left out. Empty for an
    /// unknown project.
    ///
    /// MUST satisfy: `domain::sponsor::aggregate` of the answer equals
    /// `aggregate` of one `SponsorSale` per counting sale, where a sale's
    /// name is its display name, or for a company or organisation sale
    /// without a non-blank one (blank as `str::trim` sees it) the account's
    /// company name; its logo and link are the account's current logo and
    /// non-blank site URL. So each entry carries the summed amount, latest
    /// sale date, newest name, whether any sale asked for anonymity, and a
    /// company or organisation return type when the supporter bought one.
    async fn sponsor_sales(&self, project_id: Option<ProjectId>) -> Result<Vec<SponsorSale>, RepoError>;

    /// The newest `limit` paid sales of a project, newest first; empty for an
    /// unknown project.
    async fn public_sales(&self, project_id: ProjectId, limit: i64) -> Result<Vec<PublicSaleRecord>, RepoError>;

    /// The manual sponsor list of a project, every course; empty for an
    /// unknown project or one without a list.
    async fn manual_sponsors(&self, project_id: ProjectId) -> Result<Vec<ManualSponsorRecord>, RepoError>;

    /// The author and project of a comment. MUST return `RepoError::NotFound`
    /// when no comment has `comment_id`.
    async fn comment_author(&self, comment_id: i64) -> Result<(UserId, ProjectId), RepoError>;

    /// Replaces the text of `comment_id` if `author` wrote it. MUST return
    /// `RepoError::NotFound` when no such comment of `author` exists.
    /// Idempotent: the same text twice leaves the same comment (with the
    /// later `now`).
    async fn update_comment(
        &self,
        comment_id: i64,
        author: UserId,
        text: String,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}
