//! The public-site use cases: project lists and pages, paid totals, sponsor
//! walls, news and comments. Owner-written HTML is sanitised again on the
//! way out; the comment edit is allowed to its author only.

use std::collections::HashMap;
use std::sync::Arc;

use domain::account::Email;
use domain::authoring::is_public;
use domain::comment::CommentText;
use domain::discovery::{list_order, relatedness, ListKey, ListSort, Placement, LIST_PAGE_SIZE, MAX_RELATED};
use domain::ids::ProjectId;
use domain::lot::Lot;
use domain::manual_sponsor::{manual_order, Rank};
use domain::money::{PriceBreakdown, TaxMode, TaxRate};
use domain::news::NewsAudience;
use domain::project::{closing_time, days_left, is_achieved, is_open, sort_for_home, Progress};
use domain::returns::{is_listed, purchase_block, Remaining};
use domain::sponsor::{aggregate, sponsor_wall, ManualCourse, SponsorTier, ANONYMOUS_NAME};
use domain::time::tokyo_date;

use super::list::{ListQuery, ProjectPage};
use super::repository::{
    CatalogRepository, CommentRecord, ManualSponsorRecord, PaidSum, ProjectRecord, PublicSaleRecord, ReturnRecord,
    Taxonomy,
};
use super::views::{
    CommentView, FooterSponsors, ManualCourses, ManualLogo, NewsView, ProjectCard, ProjectDetail, PublicSale,
    ReturnView, SponsorList, SumTarget, WallSponsor,
};
use crate::accounts::UserId;
use crate::clock::Clock;
use crate::html::HtmlSanitizer;
use crate::{ConstraintViolation, RepoError};

/// Most sales the public supporter list answers (newest first).
pub const PUBLIC_SALES_LIMIT: i64 = 500;

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// No project (or return) with that slug or id.
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

impl From<RepoError> for CatalogError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotFound => Self::NotFound,
            other => Self::Unexpected(other.into()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CommentUpdateError {
    #[error("comment not found")]
    NotFound,
    /// The caller did not write the comment.
    #[error("not the author")]
    NotAuthor,
    /// A storage rule refused the new text.
    #[error(transparent)]
    Constraint(ConstraintViolation),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// The public-site use cases as the HTTP layer sees them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Catalog: Send + Sync {
    /// Every project as a card, open ones first, each group by end date descending.
    async fn master(&self) -> Result<Vec<ProjectCard>, CatalogError>;
    /// One page of the public projects that pass `query`'s filters, in its
    /// order, with how many pass in all (an area or category slug that names
    /// none finds nothing; a page past the last is empty).
    async fn list(&self, query: ListQuery) -> Result<ProjectPage, CatalogError>;
    /// The areas and categories projects are grouped by, each in the operators' order.
    async fn taxonomy(&self) -> Result<Taxonomy, CatalogError>;
    /// One public project page for `viewer` (restricted returns show only to
    /// their address); `NotFound` for an unknown slug and for a project not
    /// public yet (a draft or a scheduled one). Every read here sees public
    /// projects only.
    async fn project_detail(&self, slug: String, viewer: Option<Email>) -> Result<ProjectDetail, CatalogError>;
    /// The address a public project moved to from its former `slug`;
    /// `None` when no public project had it.
    async fn moved_to(&self, slug: String) -> Result<Option<String>, CatalogError>;
    /// The page of any project, public or not, exactly as the public would
    /// see it once published (the operators' preview); `NotFound` for an
    /// unknown id.
    async fn project_preview(&self, project_id: ProjectId) -> Result<ProjectDetail, CatalogError>;
    /// Paid total; `NotFound` for an unknown project or return.
    async fn paid_sum(&self, target: SumTarget) -> Result<PaidSum, CatalogError>;
    /// The newest paid sales of a project (at most `PUBLIC_SALES_LIMIT`),
    /// anonymous supporters masked; `NotFound` for an unknown project.
    async fn public_sales(&self, project_id: ProjectId) -> Result<Vec<PublicSale>, CatalogError>;
    /// The project's sponsor wall (automatic tiers or its manual list);
    /// `NotFound` for an unknown project.
    async fn sponsors(&self, project_id: ProjectId) -> Result<SponsorList, CatalogError>;
    /// Corporate sponsors of every project by footer tier; hidden on a project that hides them.
    async fn footer_sponsors(&self, slug: Option<String>) -> Result<FooterSponsors, CatalogError>;
    /// Published news, newest first, bodies sanitised; an item `viewer` may
    /// not read (`domain::news::NewsAudience::admits`) comes locked, without
    /// its body. `NotFound` for an unknown project.
    async fn news(&self, project_id: ProjectId, viewer: Option<UserId>) -> Result<Vec<NewsView>, CatalogError>;
    /// Shown comments, newest first, anonymous authors masked; `NotFound` for an unknown project.
    async fn comments(&self, project_id: ProjectId) -> Result<Vec<CommentView>, CatalogError>;
    /// Replaces a comment's text; only its author may (`NotAuthor`), and
    /// `NotFound` when no comment has `comment_id`. Idempotent. Every read
    /// above is read-only.
    async fn update_comment(
        &self,
        caller: UserId,
        comment_id: i64,
        text: CommentText,
    ) -> Result<(), CommentUpdateError>;
}

/// The public-site rules over a `CatalogRepository`. It keeps no state: how
/// fresh the reads are is the repository's business (app-server wraps the
/// PostgreSQL one in `adapters_postgres::CachedCatalogRepository`).
pub struct CatalogService<R, C, H> {
    repo: R,
    clock: C,
    html: H,
}

impl<R: CatalogRepository, C: Clock, H: HtmlSanitizer> CatalogService<R, C, H> {
    pub fn new(repo: R, clock: C, html: H) -> Self {
        Self { repo, clock, html }
    }

    /// Every project, shared with the repository's cache (never copied whole).
    async fn all_projects(&self) -> Result<Arc<Vec<ProjectRecord>>, CatalogError> {
        Ok(self.repo.projects().await?)
    }

    /// The public project that `matches`, copied.
    async fn public_project(&self, matches: impl Fn(&ProjectRecord) -> bool) -> Result<ProjectRecord, CatalogError> {
        Ok(self.public_project_among_all(matches).await?.0)
    }

    /// The public project that `matches`, copied, and every project as read to find it.
    async fn public_project_among_all(
        &self,
        matches: impl Fn(&ProjectRecord) -> bool,
    ) -> Result<(ProjectRecord, Arc<Vec<ProjectRecord>>), CatalogError> {
        let now = self.clock.now();
        let projects = self.all_projects().await?;
        let project = projects.iter().find(|p| is_public(p.published_at, now) && matches(p)).cloned();
        Ok((project.ok_or(CatalogError::NotFound)?, projects))
    }

    async fn project_by_id(&self, project_id: ProjectId) -> Result<ProjectRecord, CatalogError> {
        self.public_project(|p| p.id == project_id).await
    }

    /// Up to `MAX_RELATED` open public projects of `projects` sharing
    /// `project`'s area or category: closest first, then newest published,
    /// never `project` itself.
    fn related_to<'p>(&self, project: &ProjectRecord, projects: &'p [ProjectRecord]) -> Vec<&'p ProjectRecord> {
        let now = self.clock.now();
        let today = tokyo_date(now);
        let placement = |p: &ProjectRecord| Placement {
            area: p.area.as_ref().map(|t| t.id),
            category: p.category.as_ref().map(|t| t.id),
        };
        let of = placement(project);
        let mut found: Vec<(u8, &ProjectRecord)> = projects
            .iter()
            .filter(|p| p.id != project.id && is_public(p.published_at, now) && is_open(p.period_end, today))
            .map(|p| (relatedness(of, placement(p)), p))
            .filter(|(closeness, _)| *closeness > 0)
            .collect();
        found.sort_by(|(a_close, a), (b_close, b)| {
            b_close.cmp(a_close).then_with(|| b.published_at.cmp(&a.published_at)).then_with(|| b.id.cmp(&a.id))
        });
        found.into_iter().take(MAX_RELATED).map(|(_, p)| p).collect()
    }

    /// The page of `project`, one of `projects` (as read for this request).
    async fn detail_of(
        &self,
        project: ProjectRecord,
        projects: &[ProjectRecord],
        viewer: Option<Email>,
    ) -> Result<ProjectDetail, CatalogError> {
        let today = tokyo_date(self.clock.now());
        let related = self.related_to(&project, projects);
        // The page's total and its neighbours' in one read.
        let ids = std::iter::once(project.id).chain(related.iter().map(|p| p.id)).collect();
        let sums = self.repo.paid_sums_of(ids).await?;
        let card = self.card(&project, paid_in(&sums, project.id), today);
        let related = related.iter().map(|p| self.card(p, paid_in(&sums, p.id), today)).collect();
        let viewer_address = viewer.as_ref().map(|e| e.as_str().to_string());
        let records = self.returns_for(project.id, viewer).await?;
        let returns = records
            .iter()
            // The repository already filters; the domain rule is applied again so a
            // storage mistake cannot leak a hidden or someone else's return.
            .filter(|r| is_listed(r.flag, r.show_user_email.as_deref(), viewer_address.as_deref()))
            .map(|r| return_view(r, &project, card.is_open))
            .collect::<Result<Vec<_>, _>>()?;
        let accepted: Vec<domain::payment::PayType> = [
            (project.accepts_card, domain::payment::PayType::Card),
            (project.accepts_bank_transfer, domain::payment::PayType::BankTransfer),
            (project.accepts_konbini, domain::payment::PayType::Konbini),
        ]
        .into_iter()
        .filter_map(|(accepted, pay_type)| accepted.then_some(pay_type))
        .collect();
        // Only while the project is open: after the end no method is offered, for the reason the page shows.
        let unavailable: Vec<_> = accepted
            .iter()
            .filter(|_| card.is_open)
            .filter_map(|p| domain::payment::method_unavailable(*p, today, project.period_end).map(|why| (*p, why)))
            .collect();
        Ok(ProjectDetail {
            content: self.html.sanitize(&project.content),
            slider: project.slider,
            honor_img_url: project.honor_img_url,
            honor_img_link: project.honor_img_link,
            anonymous_bank: project.anonymous_bank,
            uses_manual_sponsors: project.uses_manual_sponsors,
            hide_footer_sponsors: project.hide_footer_sponsors,
            returns,
            payment_types: accepted.iter().copied().filter(|p| !unavailable.iter().any(|(u, _)| u == p)).collect(),
            unavailable_payment_types: unavailable,
            additional_data: project.additional_data,
            funding_model: project.funding_model,
            closes_at: closing_time(project.period_end),
            owner: project.owner,
            faqs: project.faqs,
            result: project.closing,
            card,
            related,
        })
    }

    async fn sum(&self, target: SumTarget) -> Result<PaidSum, CatalogError> {
        match target {
            SumTarget::All => Ok(self.repo.paid_sum_all().await?),
            SumTarget::Project(id) => Ok(self.repo.paid_sum_project(id).await?),
            SumTarget::Return(id) => self.repo.paid_sum_return(id).await?.ok_or(CatalogError::NotFound),
        }
    }

    fn card(&self, project: &ProjectRecord, paid: PaidSum, today: chrono::NaiveDate) -> ProjectCard {
        ProjectCard {
            id: project.id,
            slug: project.slug.clone(),
            title: project.title.clone(),
            description: project.description.clone(),
            target: project.target,
            period_end: project.period_end,
            main_image_url: project.main_image_url.clone(),
            is_donation: project.is_donation,
            tax_includes: project.tax_includes,
            has_anonymous_bank: project.anonymous_bank.is_some(),
            days_left: days_left(project.period_end, today),
            is_open: is_open(project.period_end, today),
            paid,
            progress: Progress::new(paid.amount, project.target),
            achieved: is_achieved(paid.amount, project.target),
            area: project.area.clone(),
            category: project.category.clone(),
            outcome: project.closing.map(|c| c.outcome),
        }
    }

    /// The returns `viewer` may see, descriptions sanitised.
    async fn returns_for(
        &self,
        project_id: ProjectId,
        viewer: Option<Email>,
    ) -> Result<Vec<ReturnRecord>, CatalogError> {
        let mut list = self.repo.visible_returns(project_id, viewer).await?;
        for r in &mut list {
            r.description = self.html.sanitize(&r.description);
        }
        Ok(list)
    }
}

/// `project`'s paid total among `sums` (`paid_sums_of` leaves out a project with none).
fn paid_in(sums: &HashMap<ProjectId, PaidSum>, project: ProjectId) -> PaidSum {
    sums.get(&project).copied().unwrap_or_default()
}

fn return_view(record: &ReturnRecord, project: &ProjectRecord, open: bool) -> Result<ReturnView, CatalogError> {
    let tax_mode = TaxMode::for_project(project.is_donation, project.tax_includes);
    let price = PriceBreakdown::compute(record.price, Lot::ONE, TaxRate::STANDARD, tax_mode)
        .map_err(|e| CatalogError::Unexpected(anyhow::anyhow!("return {}: {e}", record.id)))?;
    let remaining = Remaining::compute(record.stock_limit, record.lots_taken);
    Ok(ReturnView {
        id: record.id,
        slug: record.slug.clone(),
        return_type: record.return_type,
        title: record.title.clone(),
        description: record.description.clone(),
        price,
        limit: record.stock_limit,
        remaining,
        disabled: record.disabled,
        disabled_comment: record.disabled_comment.clone(),
        block: purchase_block(remaining, record.disabled, open),
        course: record.course.clone(),
        image_src: record.image_src.clone(),
        description_image: record.description_image.clone(),
        description_comment: record.description_comment.clone(),
        lot_disable: record.lot_disable,
        monthly: record.monthly,
        address_required: record.address_required,
        address_label: record.address_label.clone(),
        delivery_month: record.delivery_month,
        supporters: record.supporters,
    })
}

fn public_sale(record: PublicSaleRecord) -> PublicSale {
    let name = record.displayname.as_deref().map(str::trim).filter(|n| !n.is_empty());
    match name {
        Some(name) if !record.anonymous => {
            let corporate = record.return_type.allows_logo();
            PublicSale {
                created_at: record.created_at,
                return_type: record.return_type,
                displayname: name.to_string(),
                corporatename: record.corporatename.filter(|_| corporate),
                corporateurl: record.corporateurl.filter(|_| corporate),
                logo_url: record.logo_url.filter(|_| corporate),
            }
        }
        // Anonymous (or nameless) supporters show nothing that could identify them.
        _ => PublicSale {
            created_at: record.created_at,
            return_type: record.return_type,
            displayname: ANONYMOUS_NAME.to_string(),
            corporatename: None,
            corporateurl: None,
            logo_url: None,
        },
    }
}

fn comment_view(record: CommentRecord) -> CommentView {
    let named = |name: Option<String>| name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
    let sale_name = named(record.sale_displayname);
    let (author_name, author_icon, sale_name) = if record.author_anonymous {
        (ANONYMOUS_NAME.to_string(), None, sale_name.map(|_| ANONYMOUS_NAME.to_string()))
    } else {
        let author = named(record.author_displayname)
            .or_else(|| sale_name.clone())
            .unwrap_or_else(|| ANONYMOUS_NAME.to_string());
        (author, record.author_icon, sale_name)
    };
    CommentView {
        id: record.id,
        project_id: record.project_id,
        user_id: record.user_id,
        comment: record.comment,
        updated_at: record.updated_at,
        author_name,
        author_icon,
        sale_name,
    }
}

/// The manual courses, each in the walls' order
/// (`domain::manual_sponsor::manual_order`: amount descending with
/// undisclosed last, earlier latest date, then the operator's position).
fn manual_courses(mut entries: Vec<ManualSponsorRecord>) -> ManualCourses {
    let rank =
        |e: &ManualSponsorRecord| Rank { amount: e.amount, latest_date: e.latest_date, position: e.position, id: e.id };
    entries.sort_by(|a, b| manual_order(&rank(a), &rank(b)));
    let mut courses = ManualCourses::default();
    for entry in entries {
        let logo = ManualLogo { name: entry.name.clone(), src: entry.logo_src.clone(), link: entry.link.clone() };
        match entry.course {
            ManualCourse::A => courses.a.push(logo),
            ManualCourse::B => courses.b.push(logo),
            ManualCourse::C => courses.c.push(logo),
            ManualCourse::Supporter => courses.supporters.push(entry.name),
        }
    }
    courses
}

#[async_trait::async_trait]
impl<R: CatalogRepository, C: Clock, H: HtmlSanitizer> Catalog for CatalogService<R, C, H> {
    async fn master(&self) -> Result<Vec<ProjectCard>, CatalogError> {
        // Cards carry no body, so nothing here needs sanitising.
        let now = self.clock.now();
        let today = tokyo_date(now);
        let projects = self.all_projects().await?;
        let public: Vec<&ProjectRecord> = projects.iter().filter(|p| is_public(p.published_at, now)).collect();
        let sums = self.repo.paid_sums_of(public.iter().map(|p| p.id).collect()).await?;
        let mut cards: Vec<ProjectCard> =
            public.into_iter().map(|p| self.card(p, paid_in(&sums, p.id), today)).collect();
        sort_for_home(&mut cards, today, |c| c.period_end);
        Ok(cards)
    }

    async fn list(&self, query: ListQuery) -> Result<ProjectPage, CatalogError> {
        let now = self.clock.now();
        let today = tokyo_date(now);
        let projects = self.all_projects().await?;
        // One read for every total: the filters may pass thousands of projects.
        let sums = self.repo.paid_sums().await?;
        let mut found: Vec<(ListKey, PaidSum, &ProjectRecord)> = projects
            .iter()
            .filter(|p| is_public(p.published_at, now) && query.state.admits(p.period_end, today))
            .filter(|p| query.places_and_words_admit(p))
            .map(|p| {
                let paid = sums.get(&p.id).copied().unwrap_or_default();
                let key = ListKey {
                    id: p.id.get(),
                    published_at: p.published_at.unwrap_or_default(),
                    raised: paid.amount,
                    backers: paid.supports,
                    period_end: p.period_end,
                };
                (key, paid, p)
            })
            .collect();
        let sort: ListSort = query.sort;
        found.sort_unstable_by(|a, b| list_order(sort, &a.0, &b.0, today));
        let start = (query.page as usize - 1).saturating_mul(LIST_PAGE_SIZE);
        let cards =
            found.iter().skip(start).take(LIST_PAGE_SIZE).map(|(_, paid, p)| self.card(p, *paid, today)).collect();
        Ok(ProjectPage { cards, total: found.len(), page: query.page, page_size: LIST_PAGE_SIZE })
    }

    async fn taxonomy(&self) -> Result<Taxonomy, CatalogError> {
        Ok(self.repo.taxonomy().await?)
    }

    async fn project_detail(&self, slug: String, viewer: Option<Email>) -> Result<ProjectDetail, CatalogError> {
        let (project, projects) = self.public_project_among_all(|p| p.slug == slug).await?;
        self.detail_of(project, &projects, viewer).await
    }

    async fn moved_to(&self, slug: String) -> Result<Option<String>, CatalogError> {
        match self.public_project(|p| p.former_slugs.contains(&slug)).await {
            Ok(project) => Ok(Some(project.slug)),
            Err(CatalogError::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn project_preview(&self, project_id: ProjectId) -> Result<ProjectDetail, CatalogError> {
        let projects = self.all_projects().await?;
        let project = projects.iter().find(|p| p.id == project_id).cloned().ok_or(CatalogError::NotFound)?;
        self.detail_of(project, &projects, None).await
    }

    async fn paid_sum(&self, target: SumTarget) -> Result<PaidSum, CatalogError> {
        if let SumTarget::Project(id) = target {
            self.project_by_id(id).await?;
        }
        self.sum(target).await
    }

    async fn public_sales(&self, project_id: ProjectId) -> Result<Vec<PublicSale>, CatalogError> {
        self.project_by_id(project_id).await?;
        let records = self.repo.public_sales(project_id, PUBLIC_SALES_LIMIT).await?;
        Ok(records.into_iter().map(public_sale).collect())
    }

    async fn sponsors(&self, project_id: ProjectId) -> Result<SponsorList, CatalogError> {
        let project = self.project_by_id(project_id).await?;
        if project.uses_manual_sponsors {
            return Ok(SponsorList::Manual(manual_courses(self.repo.manual_sponsors(project_id).await?)));
        }
        let wall = sponsor_wall(&self.repo.sponsor_sales(Some(project_id)).await?);
        let (mut size3, mut size2, mut size1) = (Vec::new(), Vec::new(), Vec::new());
        for (_tier, sponsors) in &wall.corporate {
            for sponsor in sponsors {
                let shown = WallSponsor::from_sponsor(sponsor);
                match shown.tier.size_tag() {
                    3 => size3.push(shown),
                    2 => size2.push(shown),
                    _ => size1.push(shown),
                }
            }
        }
        let personal = wall.personal.iter().map(|s| s.name.clone()).collect();
        Ok(SponsorList::Automatic { size3, size2, size1, personal })
    }

    async fn footer_sponsors(&self, slug: Option<String>) -> Result<FooterSponsors, CatalogError> {
        if let Some(slug) = slug.filter(|s| !s.is_empty()) {
            let now = self.clock.now();
            let projects = self.all_projects().await?;
            if projects.iter().any(|p| p.slug == slug && is_public(p.published_at, now) && p.hide_footer_sponsors) {
                return Ok(FooterSponsors { hidden: true, tiers: Vec::new() });
            }
        }
        let mut tiers: HashMap<SponsorTier, Vec<WallSponsor>> = HashMap::new();
        // Sorted once by the domain order; each tier keeps that order.
        for sponsor in aggregate(&self.repo.sponsor_sales(None).await?).iter().filter(|s| s.is_corporate()) {
            tiers.entry(SponsorTier::in_footer(sponsor.amount)).or_default().push(WallSponsor::from_sponsor(sponsor));
        }
        let tiers = SponsorTier::ALL.into_iter().map(|tier| (tier, tiers.remove(&tier).unwrap_or_default())).collect();
        Ok(FooterSponsors { hidden: false, tiers })
    }

    async fn news(&self, project_id: ProjectId, viewer: Option<UserId>) -> Result<Vec<NewsView>, CatalogError> {
        self.project_by_id(project_id).await?;
        let items = self.repo.news(project_id, self.clock.now()).await?;
        let restricted = items.iter().any(|item| item.audience != NewsAudience::Public);
        // Only a signed-in reader of a page with a restricted item costs a query.
        let supported = match viewer {
            Some(user) if restricted => self.repo.supported_returns(project_id, user).await?,
            _ => Vec::new(),
        };
        Ok(items
            .into_iter()
            .map(|mut item| {
                let locked = !item.audience.admits(&supported);
                item.description = if locked { String::new() } else { self.html.sanitize(&item.description) };
                NewsView { item, locked }
            })
            .collect())
    }

    async fn comments(&self, project_id: ProjectId) -> Result<Vec<CommentView>, CatalogError> {
        self.project_by_id(project_id).await?;
        Ok(self.repo.comments(project_id).await?.into_iter().map(comment_view).collect())
    }

    async fn update_comment(
        &self,
        caller: UserId,
        comment_id: i64,
        text: CommentText,
    ) -> Result<(), CommentUpdateError> {
        let unexpected = |e: RepoError| match e.violation() {
            Some(violation) => CommentUpdateError::Constraint(violation),
            None => CommentUpdateError::Unexpected(e.into()),
        };
        let (author, _project_id) = match self.repo.comment_author(comment_id).await {
            Ok(owner) => owner,
            Err(RepoError::NotFound) => return Err(CommentUpdateError::NotFound),
            Err(other) => return Err(unexpected(other)),
        };
        if author != caller {
            return Err(CommentUpdateError::NotAuthor);
        }
        match self.repo.update_comment(comment_id, caller, text.as_str().to_string(), self.clock.now()).await {
            Ok(()) => {}
            Err(RepoError::NotFound) => return Err(CommentUpdateError::NotFound),
            Err(other) => return Err(unexpected(other)),
        }
        Ok(())
    }
}
