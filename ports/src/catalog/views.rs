//! What the public use cases answer: records with the domain's rules
//! applied (days left, progress, prices, availability, sponsor tiers).

use chrono::{DateTime, NaiveDate, Utc};
use domain::ids::{ProjectId, ReturnId};
use domain::money::{PriceBreakdown, Yen};
use domain::project::Progress;
use domain::returns::{PurchaseBlock, Remaining, ReturnType};
use domain::sponsor::{Sponsor, SponsorTier};

use super::repository::{BankAccount, NewsItem, PaidSum, SliderImage, Taxon};
use crate::accounts::UserId;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectCard {
    pub id: ProjectId,
    pub slug: String,
    pub title: String,
    pub description: String,
    pub target: Yen,
    pub period_end: NaiveDate,
    pub main_image_url: Option<String>,
    pub is_donation: bool,
    pub tax_includes: bool,
    pub has_anonymous_bank: bool,
    pub days_left: u32,
    pub is_open: bool,
    pub paid: PaidSum,
    pub progress: Progress,
    /// Raised at least the goal (`domain::project::is_achieved`).
    pub achieved: bool,
    pub area: Option<Taxon>,
    pub category: Option<Taxon>,
    /// How the campaign ended, once the closing sweep decided it (`None` while open or not looked at yet).
    pub outcome: Option<domain::closing::CloseOutcome>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnView {
    pub id: ReturnId,
    pub slug: String,
    pub return_type: ReturnType,
    pub title: String,
    /// Sanitised HTML.
    pub description: String,
    /// Price, tax and total of one lot, with the tax mode they were computed in
    /// (`domain::money::PriceBreakdown::compute`, the same function that prices a sale).
    pub price: PriceBreakdown,
    pub limit: Option<u32>,
    pub remaining: Remaining,
    pub disabled: bool,
    pub disabled_comment: Option<String>,
    /// Why it cannot be bought now; `None` = purchasable.
    pub block: Option<PurchaseBlock>,
    pub course: Option<String>,
    pub image_src: Option<String>,
    pub description_image: Option<String>,
    pub description_comment: Option<String>,
    pub lot_disable: bool,
    /// A monthly return: backing it starts a subscription.
    pub monthly: bool,
    pub address_required: bool,
    pub address_label: Option<String>,
    pub delivery_month: Option<NaiveDate>,
    /// Paid supports of this return.
    pub supporters: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectDetail {
    pub card: ProjectCard,
    /// Sanitised HTML.
    pub content: String,
    pub slider: Vec<SliderImage>,
    pub honor_img_url: Option<String>,
    pub honor_img_link: Option<String>,
    pub anonymous_bank: Option<BankAccount>,
    pub uses_manual_sponsors: bool,
    pub hide_footer_sponsors: bool,
    pub returns: Vec<ReturnView>,
    /// The methods step 2 offers.
    pub payment_types: Vec<domain::payment::PayType>,
    /// Methods the project accepts that step 2 does not offer today, and why.
    pub unavailable_payment_types: Vec<(domain::payment::PayType, domain::payment::MethodUnavailable)>,
    pub additional_data: Option<super::repository::AdditionalData>,
    pub funding_model: domain::project::FundingModel,
    /// The last minute supports are taken, Tokyo wall-clock time.
    pub closes_at: chrono::NaiveDateTime,
    pub owner: Option<super::repository::ProjectOwner>,
    pub faqs: Vec<super::repository::Faq>,
    /// How the campaign ended; `None` while open or not looked at yet.
    pub result: Option<super::repository::CloseResult>,
    /// At most `domain::discovery::MAX_RELATED` open public projects of the
    /// same area or category, closest first (`domain::discovery::relatedness`).
    pub related: Vec<ProjectCard>,
}

/// What `sales/get/sum` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SumTarget {
    All,
    Project(ProjectId),
    Return(ReturnId),
}

/// A paid sale on the public supporter list: no e-mail, user id or amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicSale {
    pub created_at: DateTime<Utc>,
    pub return_type: ReturnType,
    /// The display name, or '匿名'.
    pub displayname: String,
    /// Company details, only for a named company or organisation supporter.
    pub corporatename: Option<String>,
    pub corporateurl: Option<String>,
    pub logo_url: Option<String>,
}

/// A sponsor on a wall, with its tier; the amount stays on the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WallSponsor {
    pub name: String,
    pub link: Option<String>,
    pub img: Option<String>,
    /// The logo wall's tier (also in the footer, whose own tier groups it);
    /// its `size_tag` is the logo size 3, 2 or 1.
    pub tier: SponsorTier,
}

impl WallSponsor {
    pub fn from_sponsor(sponsor: &Sponsor) -> Self {
        Self {
            name: sponsor.name.clone(),
            link: sponsor.link.clone(),
            img: sponsor.img.clone(),
            tier: SponsorTier::on_logo_wall(sponsor.amount),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualLogo {
    pub name: String,
    pub src: Option<String>,
    pub link: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ManualCourses {
    pub a: Vec<ManualLogo>,
    pub b: Vec<ManualLogo>,
    pub c: Vec<ManualLogo>,
    pub supporters: Vec<String>,
}

/// The sponsor block of a project page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SponsorList {
    /// Computed from paid sales: corporate sponsors by logo size (3, 2, 1),
    /// each sorted, then personal sponsors' names.
    Automatic { size3: Vec<WallSponsor>, size2: Vec<WallSponsor>, size1: Vec<WallSponsor>, personal: Vec<String> },
    /// The project's manual list (courses A, B, C and supporters).
    Manual(ManualCourses),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FooterSponsors {
    pub hidden: bool,
    /// Every footer tier from LL to S, each sorted (possibly empty).
    pub tiers: Vec<(SponsorTier, Vec<WallSponsor>)>,
}

/// A news item as one reader sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsView {
    /// The body is empty when `locked`.
    pub item: NewsItem,
    /// A supporters-only item this reader may not read: shown as a teaser.
    pub locked: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentView {
    pub id: i64,
    pub project_id: ProjectId,
    pub user_id: UserId,
    pub comment: String,
    pub updated_at: DateTime<Utc>,
    /// The author's name, '匿名' for an anonymous supporter.
    pub author_name: String,
    /// The author's icon; `None` = default icon (also for anonymous supporters).
    pub author_icon: Option<String>,
    /// The sale's display name ('匿名' when anonymous); `None` without a sale.
    pub sale_name: Option<String>,
}
