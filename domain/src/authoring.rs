//! Operators author projects: what a project and a return must hold, when a
//! project is public, and what may change once supporters rely on it
//! (docs/decisions.md, "Authoring projects").
//!
//! Decisions, after Kickstarter and Catarse: a project is a draft until it
//! is published (now or at a chosen time); once published its goal,
//! funding model and tax handling are locked (its address may change: the
//! old one redirects to the new), and its end may only
//! move later, at most [`MAX_END_EXTENSIONS`] times, never before today.
//! A return someone holds or bought keeps its price and type, cannot be
//! deleted (pause or hide it instead) and its stock never drops below what
//! is taken.

use chrono::{DateTime, NaiveDate, Utc};

use crate::account::Email;
use crate::money::Yen;
use crate::project::FundingModel;
use crate::returns::ReturnType;
use crate::text::{has_forbidden_character, TextError, TextRule};

/// How many times a published project's end may be moved later.
pub const MAX_END_EXTENSIONS: u8 = 2;
/// The highest goal and return price an operator may set (one billion yen).
pub const MAX_YEN: i64 = 1_000_000_000;
/// The most lots a return may offer.
pub const MAX_STOCK: i32 = 1_000_000;

pub const TITLE: TextRule = TextRule::new("title", "タイトル", 100).required();
pub const LEAD: TextRule = TextRule::new("lead", "リード文", 200);
pub const RETURN_TITLE: TextRule = TextRule::new("title", "リターン名", 100).required();
pub const RETURN_DESCRIPTION: TextRule = TextRule::new("description", "リターンの内容", 2000).required().multiline();
pub const ADDRESS_LABEL: TextRule = TextRule::new("addressLabel", "住所欄の見出し", 50).required();
pub const DISABLED_COMMENT: TextRule = TextRule::new("disabledComment", "停止中の表示文", 100);
/// The course a return belongs to (shown as コース{course}, and in the sales list).
pub const RETURN_COURSE: TextRule = TextRule::new("course", "コース", 20);
/// The story is sanitised HTML; this bounds what is stored.
pub const MAX_STORY_BYTES: usize = 200_000;

pub const MSG_SLUG_REQUIRED: &str = "URLを入力してください。";
pub const MSG_SLUG_FORMAT: &str = "URLは半角英小文字・数字・ハイフン（3〜60文字）で入力してください。";
pub const MSG_SLUG_TAKEN: &str = "このURLは既に使われています。";
pub const MSG_GOAL: &str = "目標金額は1円以上10億円以下で入力してください。";
pub const MSG_END_PAST: &str = "終了日は今日以降の日付を入力してください。";
pub const MSG_NO_PAYMENT_METHOD: &str = "支払い方法を1つ以上選んでください。";
pub const MSG_STORY_TOO_LONG: &str = "本文が長すぎます。画像や文章を減らしてください。";
pub const MSG_STORY_CHARACTER: &str = "本文に使用できない文字が含まれています。";
pub const MSG_END_TOO_FAR: &str = "終了日は1年以内の日付を入力してください。";
/// A donation project is published only with its payout date (terms §9).
pub const MSG_DONATION_PAYOUT_REQUIRED: &str = "寄附の支払日を入力してください。";
/// The payout date of a donation project lies after its end, within a year.
pub const MSG_DONATION_PAYOUT_RANGE: &str = "寄附の支払日は終了日の翌日から1年以内の日付を入力してください。";
/// The latest end a project may have, in days from today (campaigns on the
/// best platforms run 30 to 90 days; a year leaves room for slow towns).
pub const MAX_DAYS_AHEAD: i64 = 365;
pub const MSG_PRICE: &str = "金額は0円以上10億円以下で入力してください。";
pub const MSG_STOCK: &str = "在庫数は1以上100万以下で入力してください（空欄は無制限）。";
pub const MSG_NO_RETURN: &str = "リターンを1つ以上登録してください。";
pub const MSG_END_ONLY_LATER: &str = "公開後の終了日は延長のみできます。";
pub const MSG_TOO_MANY_EXTENSIONS: &str = "終了日の延長は2回までです。";
pub const MSG_BACKED_PRICE: &str = "支援のあるリターンの金額は変更できません。";
pub const MSG_BACKED_TYPE: &str = "支援のあるリターンの種類は変更できません。";
pub const MSG_BACKED_MONTHLY: &str = "支援のあるリターンの月額・一回の別は変更できません。";
/// Shown when the one address a return is offered to is not an address.
pub const MSG_ONLY_FOR: &str = "公開先のメールアドレスを正しい形式（254文字以内）で入力してください。";
/// A monthly support charges the price every month: it cannot be free.
pub const MSG_MONTHLY_FREE: &str = "月額リターンの金額は1円以上にしてください。";
/// Each paid month takes a lot, so a monthly return has no stock (the schema's `returns_monthly_unlimited`).
pub const MSG_MONTHLY_STOCK: &str = "月額リターンの在庫数は無制限にしてください。";
pub const MSG_BACKED_DELETE: &str = "支援のあるリターンは削除できません。受付停止または非表示にしてください。";
pub const MSG_ALREADY_PUBLISHED: &str = "このプロジェクトは既に公開されています。";
pub const MSG_PUBLISH_AFTER_END: &str = "公開日時は終了日までの日時を指定してください。";
pub const MSG_NOT_SCHEDULED: &str =
    "公開予約中のプロジェクトではありません。公開済みのプロジェクトは下書きに戻せません。";

/// Where a project stands, derived from its publication time and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProjectState {
    /// Not published; only operators see it.
    Draft,
    /// Publication set for a future time.
    Scheduled,
    /// Public and taking supports.
    Open,
    /// Public, past its end day.
    Ended,
}

impl ProjectState {
    pub const ALL: [Self; 4] = [Self::Draft, Self::Scheduled, Self::Open, Self::Ended];

    /// `published_at` (None for a draft), the end day and today, both in
    /// Asia/Tokyo, and now.
    pub fn of(
        published_at: Option<DateTime<Utc>>,
        period_end: NaiveDate,
        now: DateTime<Utc>,
        today: NaiveDate,
    ) -> Self {
        match published_at {
            None => Self::Draft,
            Some(at) if at > now => Self::Scheduled,
            Some(_) if today > period_end => Self::Ended,
            Some(_) => Self::Open,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Scheduled => "scheduled",
            Self::Open => "open",
            Self::Ended => "ended",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Seen by the public: its page, lists, totals and payments.
    pub const fn is_public(self) -> bool {
        matches!(self, Self::Open | Self::Ended)
    }

    /// What supporters relied on is locked from publication on.
    pub const fn is_published(self) -> bool {
        !matches!(self, Self::Draft)
    }
}

/// Whether a project published at `published_at` is public at `now`.
pub fn is_public(published_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    published_at.is_some_and(|at| at <= now)
}

/// How a project handles consumption tax (税込 / 税別 / 寄附).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaxHandling {
    /// Prices include tax (税込).
    Inclusive,
    /// Tax is added to prices (税別).
    Exclusive,
    /// A donation: no tax (寄附・非課税).
    Donation,
}

impl TaxHandling {
    pub const ALL: [Self; 3] = [Self::Inclusive, Self::Exclusive, Self::Donation];

    pub const fn code(self) -> &'static str {
        match self {
            Self::Inclusive => "inclusive",
            Self::Exclusive => "exclusive",
            Self::Donation => "donation",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.code() == code)
    }

    /// The stored flags (`projects.is_donation`, `projects.tax_includes`).
    pub const fn flags(self) -> (bool, bool) {
        match self {
            Self::Inclusive => (false, true),
            Self::Exclusive => (false, false),
            Self::Donation => (true, true),
        }
    }

    pub const fn from_flags(is_donation: bool, tax_includes: bool) -> Self {
        match (is_donation, tax_includes) {
            (true, _) => Self::Donation,
            (false, true) => Self::Inclusive,
            (false, false) => Self::Exclusive,
        }
    }
}

/// A refused field: the request field's name and the message to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

impl FieldError {
    fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self { field, message: message.into() }
    }
}

impl From<(&'static str, TextError)> for FieldError {
    fn from((field, error): (&'static str, TextError)) -> Self {
        Self::new(field, error.to_string())
    }
}

/// A project's terms as an operator sends them (the story is HTML the
/// caller has sanitised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectTerms {
    pub slug: String,
    pub title: String,
    pub lead: String,
    pub story: String,
    pub goal: Yen,
    pub period_end: NaiveDate,
    pub funding_model: FundingModel,
    pub tax: TaxHandling,
    pub accepts_card: bool,
    pub accepts_bank_transfer: bool,
    /// Konbini (コンビニ決済); operators opt in.
    pub accepts_konbini: bool,
    /// The municipality (`areas.id`); optional, editable at any time.
    pub area_id: Option<i64>,
    /// What the project is about (`categories.id`); optional, editable at any time.
    pub category_id: Option<i64>,
    /// Where the owner (プロジェクト実行者) is told the campaign's result and
    /// payout; optional (no mail without it), at most [`Email::MAX_LEN`].
    pub owner_email: Option<String>,
    /// A donation project's payout date (terms §9: the date set on the
    /// project); always `None` for other projects.
    pub donation_payout_date: Option<NaiveDate>,
}

/// Shown when the owner's address is not an address.
pub const MSG_OWNER_EMAIL: &str = "プロジェクト実行者のメールアドレスを正しい形式（254文字以内）で入力してください。";

/// Shown when the chosen area is not on the list (any more).
pub const MSG_AREA_UNKNOWN: &str = "地域を選び直してください。";
/// Shown when the chosen category is not on the list (any more).
pub const MSG_CATEGORY_UNKNOWN: &str = "カテゴリーを選び直してください。";

/// `slug` is a project address: 3 to 60 of `a-z`, `0-9` and inner hyphens.
pub fn is_valid_slug(slug: &str) -> bool {
    let bytes = slug.as_bytes();
    (3..=60).contains(&bytes.len())
        && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
}

/// The terms cleaned (texts trimmed) or every refused field, in form order.
/// `today` is Asia/Tokyo's; an end before it is refused only for a project
/// not yet published (a published one is checked by [`check_change`]).
pub fn check_terms(
    mut terms: ProjectTerms,
    published: bool,
    today: NaiveDate,
) -> Result<ProjectTerms, Vec<FieldError>> {
    let mut errors = Vec::new();
    match TITLE.parse(&terms.title) {
        Ok(title) => terms.title = title,
        Err(e) => errors.push(FieldError::from((TITLE.field, e))),
    }
    terms.slug = terms.slug.trim().to_string();
    if terms.slug.is_empty() {
        errors.push(FieldError::new("slug", MSG_SLUG_REQUIRED));
    } else if !is_valid_slug(&terms.slug) {
        errors.push(FieldError::new("slug", MSG_SLUG_FORMAT));
    }
    match LEAD.parse(&terms.lead) {
        Ok(lead) => terms.lead = lead,
        Err(e) => errors.push(FieldError::from((LEAD.field, e))),
    }
    if terms.story.len() > MAX_STORY_BYTES {
        errors.push(FieldError::new("story", MSG_STORY_TOO_LONG));
    } else if has_forbidden_character(&terms.story, true) {
        errors.push(FieldError::new("story", MSG_STORY_CHARACTER));
    }
    if !(1..=MAX_YEN).contains(&terms.goal.0) {
        errors.push(FieldError::new("goal", MSG_GOAL));
    }
    if !published && terms.period_end < today {
        errors.push(FieldError::new("periodEnd", MSG_END_PAST));
    } else if (terms.period_end - today).num_days() > MAX_DAYS_AHEAD {
        errors.push(FieldError::new("periodEnd", MSG_END_TOO_FAR));
    }
    if !terms.accepts_card && !terms.accepts_bank_transfer && !terms.accepts_konbini {
        errors.push(FieldError::new("acceptsCard", MSG_NO_PAYMENT_METHOD));
    }
    // Blank means none; anything else must be one plausible address (trimmed).
    match terms.owner_email.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
        None => terms.owner_email = None,
        Some(raw) => match Email::parse(raw) {
            Ok(email) => terms.owner_email = Some(email.as_str().to_string()),
            Err(_) => errors.push(FieldError::new("ownerEmail", MSG_OWNER_EMAIL)),
        },
    }
    if terms.tax != TaxHandling::Donation {
        terms.donation_payout_date = None;
    } else if let Some(date) = terms.donation_payout_date {
        let days_after_end = (date - terms.period_end).num_days();
        if !(1..=MAX_DAYS_AHEAD).contains(&days_after_end) {
            errors.push(FieldError::new("donationPayoutDate", MSG_DONATION_PAYOUT_RANGE));
        }
    }
    if errors.is_empty() {
        Ok(terms)
    } else {
        Err(errors)
    }
}

/// What a change to a published project did to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndChange {
    Unchanged,
    /// Moved later: counts as one more extension.
    Extended,
}

/// Whether a published project may change from `current` to `next`: the
/// locked fields are unchanged, and the end moves only later, not before
/// today, within the extensions left. Before publication anything goes.
pub fn check_change(
    current: &ProjectTerms,
    next: &ProjectTerms,
    state: ProjectState,
    extensions_used: u8,
    today: NaiveDate,
) -> Result<EndChange, Vec<FieldError>> {
    if !state.is_published() {
        return Ok(if next.period_end > current.period_end { EndChange::Extended } else { EndChange::Unchanged });
    }
    let mut errors = Vec::new();
    let locked =
        |field: &'static str, label: &str| FieldError::new(field, format!("公開後は{label}を変更できません。"));
    if next.goal != current.goal {
        errors.push(locked("goal", "目標金額"));
    }
    if next.funding_model != current.funding_model {
        errors.push(locked("fundingModel", "実施方式"));
    }
    if next.tax != current.tax {
        errors.push(locked("taxHandling", "税の扱い"));
    }
    let mut end = EndChange::Unchanged;
    if next.period_end != current.period_end {
        if next.period_end < current.period_end {
            errors.push(FieldError::new("periodEnd", MSG_END_ONLY_LATER));
        } else if next.period_end < today {
            errors.push(FieldError::new("periodEnd", MSG_END_PAST));
        } else if extensions_used >= MAX_END_EXTENSIONS {
            errors.push(FieldError::new("periodEnd", MSG_TOO_MANY_EXTENSIONS));
        } else {
            end = EndChange::Extended;
        }
    }
    if errors.is_empty() {
        Ok(end)
    } else {
        Err(errors)
    }
}

/// The extensions a project still has.
pub fn extensions_left(state: ProjectState, used: u8) -> u8 {
    if state.is_published() {
        MAX_END_EXTENSIONS.saturating_sub(used)
    } else {
        MAX_END_EXTENSIONS
    }
}

/// Why a project cannot be published (on `publish_day`, Tokyo) yet, in form
/// order; empty when it can.
pub fn publish_problems(
    terms: &ProjectTerms,
    returns: usize,
    today: NaiveDate,
    publish_day: NaiveDate,
) -> Vec<FieldError> {
    let mut problems = Vec::new();
    if publish_day > terms.period_end {
        problems.push(FieldError::new("publishAt", MSG_PUBLISH_AFTER_END));
    }
    if returns == 0 {
        problems.push(FieldError::new("returns", MSG_NO_RETURN));
    }
    if terms.period_end < today {
        problems.push(FieldError::new("periodEnd", MSG_END_PAST));
    }
    if !terms.accepts_card && !terms.accepts_bank_transfer && !terms.accepts_konbini {
        problems.push(FieldError::new("acceptsCard", MSG_NO_PAYMENT_METHOD));
    }
    if terms.tax == TaxHandling::Donation && terms.donation_payout_date.is_none() {
        problems.push(FieldError::new("donationPayoutDate", MSG_DONATION_PAYOUT_REQUIRED));
    }
    problems
}

/// A return's terms as an operator sends them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnTerms {
    pub title: String,
    pub description: String,
    pub price: Yen,
    pub return_type: ReturnType,
    /// `None`: unlimited.
    pub stock_limit: Option<i32>,
    pub lot_fixed: bool,
    pub address_required: bool,
    pub address_label: Option<String>,
    pub disabled: bool,
    pub disabled_comment: Option<String>,
    pub hidden: bool,
    /// The first day of the month of delivery.
    pub delivery_month: Option<NaiveDate>,
    /// Charged every month (a subscription) instead of once.
    pub monthly: bool,
    /// The course it belongs to; `None`: none.
    pub course: Option<String>,
    /// Offered to this one address only (see `returns::is_visible_to`);
    /// `None`: to everyone.
    pub only_for: Option<String>,
}

/// The return's terms cleaned, or every refused field. `lots_taken` is what
/// supports hold now (0 for a new return).
pub fn check_return(mut terms: ReturnTerms, lots_taken: i32) -> Result<ReturnTerms, Vec<FieldError>> {
    let mut errors = Vec::new();
    match RETURN_TITLE.parse(&terms.title) {
        Ok(title) => terms.title = title,
        Err(e) => errors.push(FieldError::from((RETURN_TITLE.field, e))),
    }
    match RETURN_DESCRIPTION.parse(&terms.description) {
        Ok(text) => terms.description = text,
        Err(e) => errors.push(FieldError::from((RETURN_DESCRIPTION.field, e))),
    }
    if !(0..=MAX_YEN).contains(&terms.price.0) {
        errors.push(FieldError::new("price", MSG_PRICE));
    }
    match terms.stock_limit {
        Some(limit) if !(1..=MAX_STOCK).contains(&limit) => errors.push(FieldError::new("stockLimit", MSG_STOCK)),
        Some(limit) if limit < lots_taken => errors
            .push(FieldError::new("stockLimit", format!("在庫数は支援済みの数（{lots_taken}）より少なくできません。"))),
        _ => {}
    }
    if terms.address_required {
        match ADDRESS_LABEL.parse(terms.address_label.as_deref().unwrap_or_default()) {
            Ok(label) => terms.address_label = Some(label),
            Err(e) => errors.push(FieldError::from((ADDRESS_LABEL.field, e))),
        }
    } else {
        terms.address_label = None;
    }
    match DISABLED_COMMENT.parse_optional(terms.disabled_comment.as_deref()) {
        Ok(comment) => terms.disabled_comment = if terms.disabled { comment } else { None },
        Err(e) => errors.push(FieldError::from((DISABLED_COMMENT.field, e))),
    }
    if terms.monthly && terms.price.0 == 0 {
        errors.push(FieldError::new("price", MSG_MONTHLY_FREE));
    }
    if terms.monthly && terms.stock_limit.is_some() {
        errors.push(FieldError::new("stockLimit", MSG_MONTHLY_STOCK));
    }
    match RETURN_COURSE.parse_optional(terms.course.as_deref()) {
        Ok(course) => terms.course = course,
        Err(e) => errors.push(FieldError::from((RETURN_COURSE.field, e))),
    }
    match terms.only_for.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
        None => terms.only_for = None,
        Some(raw) => match Email::parse(raw) {
            // Stored as compared: `returns::is_visible_to` ignores case.
            Ok(email) => terms.only_for = Some(email.normalized()),
            Err(_) => errors.push(FieldError::new("onlyFor", MSG_ONLY_FOR)),
        },
    }
    if errors.is_empty() {
        Ok(terms)
    } else {
        Err(errors)
    }
}

/// A backed return (`lots_taken > 0`: someone holds or bought it) keeps its
/// price, type and interval (monthly or once).
pub fn check_return_change(current: &ReturnTerms, next: &ReturnTerms, lots_taken: i32) -> Result<(), Vec<FieldError>> {
    if lots_taken == 0 {
        return Ok(());
    }
    let mut errors = Vec::new();
    if next.price != current.price {
        errors.push(FieldError::new("price", MSG_BACKED_PRICE));
    }
    if next.return_type != current.return_type {
        errors.push(FieldError::new("returnType", MSG_BACKED_TYPE));
    }
    if next.monthly != current.monthly {
        errors.push(FieldError::new("monthly", MSG_BACKED_MONTHLY));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// A return may be deleted only while nobody holds or bought it.
pub fn check_return_delete(lots_taken: i32) -> Result<(), FieldError> {
    if lots_taken > 0 {
        Err(FieldError::new("returns", MSG_BACKED_DELETE))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};
    use proptest::prelude::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn the_owner_address_is_optional_trimmed_and_refused_when_not_an_address() {
        let blank = check_terms(ProjectTerms { owner_email: Some("  ".into()), ..terms() }, false, TODAY()).unwrap();
        assert_eq!(blank.owner_email, None);
        let set = ProjectTerms { owner_email: Some(" owner@example.jp ".into()), ..terms() };
        assert_eq!(check_terms(set, false, TODAY()).unwrap().owner_email.as_deref(), Some("owner@example.jp"));
        for bad in ["owner".to_string(), format!("{}@example.jp", "a".repeat(250))] {
            let errors = check_terms(ProjectTerms { owner_email: Some(bad), ..terms() }, false, TODAY()).unwrap_err();
            assert_eq!(errors, vec![FieldError::new("ownerEmail", MSG_OWNER_EMAIL)]);
        }
    }

    fn terms() -> ProjectTerms {
        ProjectTerms {
            slug: "maebashi-roses".into(),
            title: " 前橋のバラ園 ".into(),
            lead: "街の真ん中にバラを。".into(),
            story: "<p>物語</p>".into(),
            goal: Yen(1_000_000),
            period_end: d(2027, 1, 31),
            funding_model: FundingModel::AllIn,
            tax: TaxHandling::Inclusive,
            accepts_card: true,
            accepts_bank_transfer: false,
            accepts_konbini: false,
            area_id: None,
            category_id: None,
            owner_email: None,
            donation_payout_date: None,
        }
    }

    #[test]
    fn a_donation_project_is_published_with_its_payout_date_after_the_end() {
        let donation = ProjectTerms { tax: TaxHandling::Donation, ..terms() };
        let problems = publish_problems(&donation, 1, TODAY(), TODAY());
        assert_eq!(
            problems.iter().map(|p| (p.field, p.message.as_str())).collect::<Vec<_>>(),
            [("donationPayoutDate", MSG_DONATION_PAYOUT_REQUIRED)]
        );
        for (date, ok) in
            [(d(2027, 1, 31), false), (d(2027, 2, 1), true), (d(2028, 1, 31), true), (d(2028, 2, 1), false)]
        {
            let dated = ProjectTerms { donation_payout_date: Some(date), ..donation.clone() };
            let checked = check_terms(dated.clone(), false, TODAY());
            assert_eq!(checked.is_ok(), ok, "{date}");
            if ok {
                assert!(publish_problems(&dated, 1, TODAY(), TODAY()).is_empty());
            } else {
                assert_eq!(checked.unwrap_err()[0].message, MSG_DONATION_PAYOUT_RANGE);
            }
        }
    }

    #[test]
    fn only_a_donation_project_keeps_a_payout_date() {
        let sale = ProjectTerms { donation_payout_date: Some(d(2027, 3, 1)), ..terms() };
        assert_eq!(check_terms(sale, false, TODAY()).unwrap().donation_payout_date, None);
    }

    fn a_return() -> ReturnTerms {
        ReturnTerms {
            title: "お礼のメール".into(),
            description: "活動報告をメールでお届けします。".into(),
            price: Yen(3000),
            return_type: ReturnType::Individual,
            stock_limit: Some(30),
            lot_fixed: false,
            address_required: false,
            address_label: Some("ignored".into()),
            disabled: false,
            disabled_comment: Some("ignored".into()),
            hidden: false,
            delivery_month: None,
            monthly: false,
            course: None,
            only_for: None,
        }
    }

    const TODAY: fn() -> NaiveDate = || d(2026, 12, 1);

    #[test]
    fn a_project_is_a_draft_until_published_then_scheduled_open_and_ended() {
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap();
        let end = d(2026, 12, 31);
        assert_eq!(ProjectState::of(None, end, now, TODAY()), ProjectState::Draft);
        assert_eq!(ProjectState::of(Some(now + Duration::hours(1)), end, now, TODAY()), ProjectState::Scheduled);
        assert_eq!(ProjectState::of(Some(now), end, now, TODAY()), ProjectState::Open);
        assert_eq!(ProjectState::of(Some(now), d(2026, 11, 30), now, TODAY()), ProjectState::Ended);
        assert!(!ProjectState::Draft.is_public() && !ProjectState::Scheduled.is_public());
        assert!(ProjectState::Open.is_public() && ProjectState::Ended.is_public());
        for state in ProjectState::ALL {
            assert_eq!(ProjectState::parse(state.code()), Some(state));
        }
    }

    #[test]
    fn good_terms_are_trimmed_and_kept() {
        let checked = check_terms(terms(), false, TODAY()).unwrap();
        assert_eq!(checked.title, "前橋のバラ園");
    }

    #[test]
    fn konbini_alone_is_a_payment_method() {
        let konbini_only =
            ProjectTerms { accepts_card: false, accepts_bank_transfer: false, accepts_konbini: true, ..terms() };
        assert!(check_terms(konbini_only, false, TODAY()).is_ok());
        let none =
            ProjectTerms { accepts_card: false, accepts_bank_transfer: false, accepts_konbini: false, ..terms() };
        let errors = check_terms(none, false, TODAY()).unwrap_err();
        assert!(errors.iter().any(|e| e.field == "acceptsCard" && e.message == MSG_NO_PAYMENT_METHOD));
    }

    #[test]
    fn every_bad_field_is_named_with_its_message() {
        let bad = ProjectTerms {
            slug: "Bad Slug".into(),
            title: "　".into(),
            goal: Yen(0),
            period_end: d(2026, 11, 30),
            accepts_card: false,
            ..terms()
        };
        let errors = check_terms(bad, false, TODAY()).unwrap_err();
        let fields: Vec<(&str, &str)> = errors.iter().map(|e| (e.field, e.message.as_str())).collect();
        assert_eq!(
            fields,
            vec![
                ("title", "タイトルを入力してください。"),
                ("slug", MSG_SLUG_FORMAT),
                ("goal", MSG_GOAL),
                ("periodEnd", MSG_END_PAST),
                ("acceptsCard", MSG_NO_PAYMENT_METHOD),
            ]
        );
        let empty = check_terms(ProjectTerms { slug: " ".into(), ..terms() }, false, TODAY()).unwrap_err();
        assert_eq!(empty[0].message, MSG_SLUG_REQUIRED);
        let nul = check_terms(ProjectTerms { story: "<p>a\0b</p>".into(), ..terms() }, false, TODAY()).unwrap_err();
        assert_eq!(nul[0].message, MSG_STORY_CHARACTER);
        let far = ProjectTerms { period_end: TODAY() + chrono::Duration::days(MAX_DAYS_AHEAD + 1), ..terms() };
        assert_eq!(check_terms(far, true, TODAY()).unwrap_err()[0].message, MSG_END_TOO_FAR);
    }

    #[test]
    fn slugs_are_lowercase_words_joined_by_hyphens() {
        for good in ["abc", "maebashi-rose-garden", "tomioka-2027"] {
            assert!(is_valid_slug(good), "{good}");
        }
        for bad in ["ab", "-abc", "abc-", "Abc", "ab_c", "ab c", "前橋", &"a".repeat(61)] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }

    #[test]
    fn before_publication_anything_may_change() {
        let next = ProjectTerms { goal: Yen(5), slug: "other".into(), tax: TaxHandling::Donation, ..terms() };
        assert_eq!(check_change(&terms(), &next, ProjectState::Draft, 0, TODAY()), Ok(EndChange::Unchanged));
    }

    #[test]
    fn after_publication_the_relied_on_terms_are_locked() {
        let next = ProjectTerms {
            goal: Yen(2_000_000),
            funding_model: FundingModel::AllOrNothing,
            tax: TaxHandling::Exclusive,
            ..terms()
        };
        let errors = check_change(&terms(), &next, ProjectState::Open, 0, TODAY()).unwrap_err();
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "公開後は目標金額を変更できません。",
                "公開後は実施方式を変更できません。",
                "公開後は税の扱いを変更できません。"
            ]
        );
        // The address may change: the old one redirects (the adapter keeps it).
        let story =
            ProjectTerms {
                story: "<p>続き</p>".into(), title: "新しい題".into(), slug: "other".into(), ..terms()
            };
        assert_eq!(check_change(&terms(), &story, ProjectState::Open, 0, TODAY()), Ok(EndChange::Unchanged));
    }

    #[test]
    fn a_published_end_moves_only_later_and_at_most_twice() {
        let later = ProjectTerms { period_end: d(2027, 2, 28), ..terms() };
        let earlier = ProjectTerms { period_end: d(2027, 1, 30), ..terms() };
        assert_eq!(check_change(&terms(), &later, ProjectState::Open, 1, TODAY()), Ok(EndChange::Extended));
        assert_eq!(
            check_change(&terms(), &earlier, ProjectState::Open, 0, TODAY()).unwrap_err()[0].message,
            MSG_END_ONLY_LATER
        );
        assert_eq!(
            check_change(&terms(), &later, ProjectState::Open, MAX_END_EXTENSIONS, TODAY()).unwrap_err()[0].message,
            MSG_TOO_MANY_EXTENSIONS
        );
        // An ended project may be reopened only to a day not already past.
        let ended = ProjectTerms { period_end: d(2026, 11, 1), ..terms() };
        let still_past = ProjectTerms { period_end: d(2026, 11, 20), ..terms() };
        assert_eq!(
            check_change(&ended, &still_past, ProjectState::Ended, 0, TODAY()).unwrap_err()[0].message,
            MSG_END_PAST
        );
        assert_eq!(extensions_left(ProjectState::Open, 1), 1);
        assert_eq!(extensions_left(ProjectState::Draft, 0), MAX_END_EXTENSIONS);
    }

    #[test]
    fn a_project_needs_a_return_a_method_and_a_future_end_to_be_published() {
        assert!(publish_problems(&terms(), 1, TODAY(), TODAY()).is_empty());
        assert_eq!(publish_problems(&terms(), 1, TODAY(), d(2027, 2, 1))[0].message, MSG_PUBLISH_AFTER_END);
        let closed = ProjectTerms { period_end: d(2026, 11, 1), accepts_card: false, ..terms() };
        let fields: Vec<&str> = publish_problems(&closed, 0, TODAY(), d(2026, 10, 1)).iter().map(|e| e.field).collect();
        assert_eq!(fields, vec!["returns", "periodEnd", "acceptsCard"]);
    }

    #[test]
    fn tax_handling_round_trips_through_the_stored_flags() {
        for tax in TaxHandling::ALL {
            let (donation, includes) = tax.flags();
            assert_eq!(TaxHandling::from_flags(donation, includes), tax);
            assert_eq!(TaxHandling::parse(tax.code()), Some(tax));
        }
    }

    #[test]
    fn a_return_is_checked_and_unused_options_are_cleared() {
        let checked = check_return(a_return(), 0).unwrap();
        assert_eq!((checked.address_label, checked.disabled_comment), (None, None));
        let needs = ReturnTerms { address_required: true, address_label: Some(" ".into()), ..a_return() };
        assert_eq!(check_return(needs, 0).unwrap_err()[0].message, "住所欄の見出しを入力してください。");
        let bad = ReturnTerms { title: String::new(), price: Yen(-1), stock_limit: Some(0), ..a_return() };
        let fields: Vec<&str> = check_return(bad, 0).unwrap_err().iter().map(|e| e.field).collect();
        assert_eq!(fields, vec!["title", "price", "stockLimit"]);
    }

    #[test]
    fn a_return_may_be_monthly_in_a_course_and_offered_to_one_address() {
        let set = ReturnTerms {
            monthly: true,
            stock_limit: None,
            course: Some(" A ".into()),
            only_for: Some(" VIP@example.jp ".into()),
            ..a_return()
        };
        let checked = check_return(set, 0).unwrap();
        assert_eq!((checked.course.as_deref(), checked.only_for.as_deref()), (Some("A"), Some("vip@example.jp")));
        let blank = check_return(ReturnTerms { course: Some(" ".into()), only_for: Some("".into()), ..a_return() }, 0);
        assert_eq!(blank.map(|t| (t.course, t.only_for)), Ok((None, None)));
        let bad = ReturnTerms {
            monthly: true,
            price: Yen(0),
            course: Some("長".repeat(21)),
            only_for: Some("vip".into()),
            ..a_return()
        };
        let errors = check_return(bad, 0).unwrap_err();
        let fields: Vec<(&str, &str)> = errors.iter().map(|e| (e.field, e.message.as_str())).collect();
        assert_eq!(
            fields,
            vec![
                ("price", MSG_MONTHLY_FREE),
                ("stockLimit", MSG_MONTHLY_STOCK),
                ("course", "コースは20文字以内で入力してください。"),
                ("onlyFor", MSG_ONLY_FOR),
            ]
        );
    }

    #[test]
    fn a_backed_return_keeps_price_and_type_stock_and_existence() {
        let dearer = ReturnTerms { price: Yen(5000), return_type: ReturnType::Company, ..a_return() };
        assert_eq!(check_return_change(&a_return(), &dearer, 0), Ok(()));
        let errors = check_return_change(&a_return(), &dearer, 3).unwrap_err();
        assert_eq!(
            errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(),
            vec![MSG_BACKED_PRICE, MSG_BACKED_TYPE]
        );
        let monthly = ReturnTerms { monthly: true, stock_limit: None, ..a_return() };
        assert_eq!(check_return_change(&a_return(), &monthly, 0), Ok(()));
        assert_eq!(check_return_change(&monthly, &a_return(), 1).unwrap_err()[0].message, MSG_BACKED_MONTHLY);
        let paused = ReturnTerms {
            disabled: true,
            hidden: true,
            title: "改題".into(),
            course: Some("B".into()),
            only_for: Some("vip@example.jp".into()),
            ..a_return()
        };
        assert_eq!(check_return_change(&a_return(), &paused, 3), Ok(()));
        assert_eq!(
            check_return(ReturnTerms { stock_limit: Some(2), ..a_return() }, 3).unwrap_err()[0].message,
            "在庫数は支援済みの数（3）より少なくできません。"
        );
        assert_eq!(check_return_delete(1).unwrap_err().message, MSG_BACKED_DELETE);
        assert_eq!(check_return_delete(0), Ok(()));
    }

    proptest! {
        /// However many times an operator edits a published project, its
        /// end never moves earlier, never lands before today, and it is
        /// extended at most MAX_END_EXTENSIONS times.
        #[test]
        fn edits_never_shorten_a_published_project_or_extend_it_more_than_allowed(
            moves in proptest::collection::vec(-40i64..40, 1..12)
        ) {
            let mut current = terms();
            let mut used = 0u8;
            for days in moves {
                let next = ProjectTerms { period_end: current.period_end + Duration::days(days), ..current.clone() };
                if let Ok(change) = check_change(&current, &next, ProjectState::Open, used, TODAY()) {
                    prop_assert!(next.period_end >= current.period_end && next.period_end >= TODAY());
                    if change == EndChange::Extended {
                        used += 1;
                    }
                    current = next;
                }
            }
            prop_assert!(used <= MAX_END_EXTENSIONS);
        }

        /// A backed return's stock can be set to anything from what is taken
        /// up, and never below.
        #[test]
        fn stock_never_drops_below_what_is_taken(limit in 1i32..100, taken in 0i32..100) {
            let result = check_return(ReturnTerms { stock_limit: Some(limit), ..a_return() }, taken);
            prop_assert_eq!(result.is_ok(), limit >= taken);
        }
    }
}
