//! Sponsors: supporters' paid sales turned into the sponsor walls of the
//! project page and the footer (spec 000 §2, §5, §9).

use crate::ids::UserId;
use crate::money::Yen;
use crate::returns::ReturnType;
use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Shown instead of the name of a supporter who asked to stay anonymous.
pub const ANONYMOUS_NAME: &str = "匿名";

/// One paid sale as the sponsor walls need it. Callers pass only sales that
/// count toward totals (`payment::counts_toward_totals`), each with its
/// counted amount (`payment::counted_amount`: paid, tax included, less refunds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SponsorSale {
    /// Groups sales into one sponsor (the user id).
    pub supporter_id: UserId,
    /// The display, company or organisation name given with this sale.
    pub display_name: Option<String>,
    pub anonymous: bool,
    pub amount: Yen,
    pub created_at: NaiveDateTime,
    pub return_type: ReturnType,
    pub logo_url: Option<String>,
    pub link: Option<String>,
}

/// A supporter with their cumulative amount and latest support.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sponsor {
    pub supporter_id: UserId,
    pub name: String,
    pub link: Option<String>,
    /// Logo; only for supporters who bought a company or organisation return.
    pub img: Option<String>,
    pub amount: Yen,
    pub latest: NaiveDateTime,
}

impl Sponsor {
    /// Corporate sponsors are the ones with a logo right.
    pub fn is_corporate(&self) -> bool {
        self.img.is_some()
    }
}

/// Sums sales per supporter (amount, latest date) and sorts the result.
///
/// The name is the most recent non-empty name given. A supporter who asked
/// for anonymity on any sale is shown as '匿名' with neither logo nor link:
/// one anonymous purchase must not be unmasked by another. Logo and link
/// come from the most recent company or organisation sale that has them.
pub fn aggregate(sales: &[SponsorSale]) -> Vec<Sponsor> {
    let mut by_supporter: BTreeMap<UserId, Vec<&SponsorSale>> = BTreeMap::new();
    for sale in sales {
        by_supporter.entry(sale.supporter_id).or_default().push(sale);
    }
    let mut sponsors: Vec<Sponsor> = by_supporter.into_values().filter_map(|group| merge(&group)).collect();
    sort_sponsors(&mut sponsors);
    sponsors
}

fn merge(group: &[&SponsorSale]) -> Option<Sponsor> {
    let mut newest_first: Vec<&SponsorSale> = group.to_vec();
    newest_first.sort_by_key(|s| std::cmp::Reverse(s.created_at));
    let latest = newest_first.first()?;
    let amount = Yen(group.iter().fold(0i64, |sum, s| sum.saturating_add(s.amount.0)));
    let anonymous = group.iter().any(|s| s.anonymous);
    let name = newest_first
        .iter()
        .filter_map(|s| s.display_name.as_deref().map(str::trim))
        .find(|n| !n.is_empty())
        .filter(|_| !anonymous)
        .unwrap_or(ANONYMOUS_NAME)
        .to_string();
    let logo_sale =
        newest_first.iter().filter(|_| !anonymous).find(|s| s.return_type.allows_logo() && s.logo_url.is_some());
    Some(Sponsor {
        supporter_id: latest.supporter_id,
        name,
        link: logo_sale.and_then(|s| s.link.clone()),
        img: logo_sale.and_then(|s| s.logo_url.clone()),
        amount,
        latest: latest.created_at,
    })
}

/// Amount descending, then the earlier latest date first (who reached the
/// amount first ranks first), then supporter id so the order is stable.
pub fn sponsor_order(a: &Sponsor, b: &Sponsor) -> Ordering {
    b.amount.cmp(&a.amount).then_with(|| a.latest.cmp(&b.latest)).then_with(|| a.supporter_id.cmp(&b.supporter_id))
}

pub fn sort_sponsors(sponsors: &mut [Sponsor]) {
    sponsors.sort_by(sponsor_order);
}

/// How large a corporate sponsor is shown, by cumulative amount: one type
/// for the project page's logo wall and the footer list, whose lines differ
/// (`on_logo_wall`, `in_footer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SponsorTier {
    /// Footer code LL, logo size tag 3.
    Largest,
    /// Footer code L, logo size tag 3.
    Large,
    /// Footer code M, logo size tag 2.
    Medium,
    /// Footer code S, logo size tag 1.
    Small,
}

impl SponsorTier {
    /// Largest first.
    pub const ALL: [Self; 4] = [Self::Largest, Self::Large, Self::Medium, Self::Small];

    /// The logo wall's lines: 500,000 yen or more, 50,000 to 499,999,
    /// 30,000 to 49,999, below 30,000.
    pub fn on_logo_wall(amount: Yen) -> Self {
        match amount.0 {
            500_000.. => Self::Largest,
            50_000.. => Self::Large,
            30_000.. => Self::Medium,
            _ => Self::Small,
        }
    }

    /// The footer's lines: L at 100,000 yen or more, M at 60,000, else S.
    ///
    /// Decision: the seed compares its LL tier with an undefined value; we set
    /// LL at 500,000 yen or more, the same line as the largest logo tier, so the
    /// biggest supporters stand out in the footer as on the project page.
    pub fn in_footer(amount: Yen) -> Self {
        match amount.0 {
            500_000.. => Self::Largest,
            100_000.. => Self::Large,
            60_000.. => Self::Medium,
            _ => Self::Small,
        }
    }

    /// The footer's CSS size label. The one mapping between tiers and
    /// labels; `from_code` reads it backwards.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Largest => "LL",
            Self::Large => "L",
            Self::Medium => "M",
            Self::Small => "S",
        }
    }

    /// The tier of a footer label.
    pub fn from_code(code: &str) -> Result<Self, UnknownTier> {
        Self::ALL.into_iter().find(|tier| tier.code() == code).ok_or_else(|| UnknownTier(code.to_string()))
    }

    /// The logo size tag: 3 at 50,000 yen or more on the logo wall (the two
    /// largest tiers), 2 for medium, 1 for small.
    pub const fn size_tag(self) -> u8 {
        match self {
            Self::Largest | Self::Large => 3,
            Self::Medium => 2,
            Self::Small => 1,
        }
    }
}

/// A footer label that is none of LL, L, M and S.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown sponsor tier {0:?}")]
pub struct UnknownTier(pub String);

/// A course of a project's manual sponsor list
/// (`project_manual_sponsors.course`): logos in courses A, B and C, names
/// only for supporters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum ManualCourse {
    A,
    B,
    C,
    Supporter,
}

/// A course code that is none of A, B, C and supporter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown manual sponsor course {0:?}")]
pub struct UnknownCourse(pub String);

impl ManualCourse {
    pub const ALL: [Self; 4] = [Self::A, Self::B, Self::C, Self::Supporter];

    /// The stored code. The one mapping between courses and codes;
    /// `from_code` reads it backwards.
    pub const fn code(self) -> &'static str {
        match self {
            Self::A => "A",
            Self::B => "B",
            Self::C => "C",
            Self::Supporter => "supporter",
        }
    }

    pub fn from_code(code: &str) -> Result<Self, UnknownCourse> {
        Self::ALL.into_iter().find(|course| course.code() == code).ok_or_else(|| UnknownCourse(code.to_string()))
    }

    /// Courses A, B and C show a logo; supporters only their name.
    pub fn shows_logo(self) -> bool {
        self != Self::Supporter
    }
}

impl TryFrom<String> for ManualCourse {
    type Error = UnknownCourse;

    fn try_from(code: String) -> Result<Self, UnknownCourse> {
        Self::from_code(&code)
    }
}

impl From<ManualCourse> for &'static str {
    fn from(course: ManualCourse) -> Self {
        course.code()
    }
}

/// The project page's sponsor block: corporate sponsors grouped by logo tier
/// (largest first, each group sorted), then personal sponsors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SponsorWall {
    pub corporate: Vec<(SponsorTier, Vec<Sponsor>)>,
    pub personal: Vec<Sponsor>,
}

pub fn sponsor_wall(sales: &[SponsorSale]) -> SponsorWall {
    let mut tiers: BTreeMap<SponsorTier, Vec<Sponsor>> = BTreeMap::new();
    let mut personal = Vec::new();
    for sponsor in aggregate(sales) {
        if sponsor.is_corporate() {
            tiers.entry(SponsorTier::on_logo_wall(sponsor.amount)).or_default().push(sponsor);
        } else {
            personal.push(sponsor);
        }
    }
    SponsorWall { corporate: tiers.into_iter().collect(), personal }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use proptest::prelude::*;

    fn at(day: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 5, day).unwrap().and_hms_opt(12, 0, 0).unwrap()
    }

    fn sale(supporter_id: i64, amount: i64, day: u32) -> SponsorSale {
        SponsorSale {
            supporter_id: UserId(supporter_id),
            display_name: Some(format!("支援者{supporter_id}")),
            anonymous: false,
            amount: Yen(amount),
            created_at: at(day),
            return_type: ReturnType::Individual,
            logo_url: None,
            link: None,
        }
    }

    fn company(supporter_id: i64, amount: i64, day: u32) -> SponsorSale {
        SponsorSale {
            return_type: ReturnType::Company,
            logo_url: Some(format!("https://cdn.example/logo{supporter_id}.png")),
            link: Some("https://example.co.jp".into()),
            ..sale(supporter_id, amount, day)
        }
    }

    #[test]
    fn sales_of_one_supporter_are_summed_with_the_latest_date() {
        let sponsors = aggregate(&[sale(7, 10_000, 3), sale(7, 5_000, 9), sale(7, 1_000, 1)]);
        assert_eq!(sponsors.len(), 1);
        assert_eq!((sponsors[0].amount, sponsors[0].latest), (Yen(16_000), at(9)));
    }

    #[test]
    fn sponsors_sort_by_amount_then_earlier_latest_date() {
        let sponsors = aggregate(&[sale(1, 30_000, 9), sale(2, 50_000, 5), sale(3, 30_000, 2)]);
        let ids: Vec<UserId> = sponsors.iter().map(|s| s.supporter_id).collect();
        assert_eq!(ids, vec![UserId(2), UserId(3), UserId(1)]);
    }

    #[test]
    fn anonymous_supporter_is_shown_as_tokumei_without_logo() {
        let mut s = company(4, 100_000, 1);
        s.anonymous = true;
        let sponsors = aggregate(&[s, company(4, 1, 2)]);
        assert_eq!(sponsors[0].name, "匿名");
        assert_eq!((sponsors[0].img.as_deref(), sponsors[0].link.as_deref()), (None, None));
    }

    #[test]
    fn supporter_without_a_name_is_shown_as_tokumei() {
        let mut s = sale(5, 1_000, 1);
        s.display_name = Some("  ".into());
        assert_eq!(aggregate(&[s])[0].name, ANONYMOUS_NAME);
    }

    #[test]
    fn logos_only_for_company_or_organisation_returns() {
        let mut individual_with_logo = sale(1, 80_000, 1);
        individual_with_logo.logo_url = Some("https://cdn.example/x.png".into());
        let wall = sponsor_wall(&[individual_with_logo, company(2, 80_000, 1)]);
        assert_eq!(wall.personal.len(), 1);
        assert_eq!(wall.personal[0].img, None);
        assert_eq!(wall.corporate.len(), 1);
        assert_eq!(wall.corporate[0].1[0].supporter_id, UserId(2));
    }

    #[test]
    fn logo_tiers_follow_the_spec_lines() {
        assert_eq!(SponsorTier::on_logo_wall(Yen(500_000)), SponsorTier::Largest);
        assert_eq!(SponsorTier::on_logo_wall(Yen(499_999)), SponsorTier::Large);
        assert_eq!(SponsorTier::on_logo_wall(Yen(50_000)), SponsorTier::Large);
        assert_eq!(SponsorTier::on_logo_wall(Yen(49_999)), SponsorTier::Medium);
        assert_eq!(SponsorTier::on_logo_wall(Yen(30_000)), SponsorTier::Medium);
        assert_eq!(SponsorTier::on_logo_wall(Yen(29_999)), SponsorTier::Small);
    }

    #[test]
    fn logo_size_tag_is_three_two_or_one() {
        let tag = |amount| SponsorTier::on_logo_wall(Yen(amount)).size_tag();
        assert_eq!(tag(500_000), 3);
        assert_eq!(tag(50_000), 3);
        assert_eq!(tag(49_999), 2);
        assert_eq!(tag(30_000), 2);
        assert_eq!(tag(29_999), 1);
    }

    #[test]
    fn footer_tiers_are_ll_l_m_s() {
        assert_eq!(SponsorTier::in_footer(Yen(500_000)).code(), "LL");
        assert_eq!(SponsorTier::in_footer(Yen(499_999)).code(), "L");
        assert_eq!(SponsorTier::in_footer(Yen(100_000)).code(), "L");
        assert_eq!(SponsorTier::in_footer(Yen(99_999)).code(), "M");
        assert_eq!(SponsorTier::in_footer(Yen(60_000)).code(), "M");
        assert_eq!(SponsorTier::in_footer(Yen(59_999)).code(), "S");
    }

    #[test]
    fn every_tier_reads_back_from_its_footer_label() {
        for tier in SponsorTier::ALL {
            assert_eq!(SponsorTier::from_code(tier.code()), Ok(tier));
        }
        for unknown in ["", "XL", "l", "LL ", "3"] {
            assert_eq!(SponsorTier::from_code(unknown), Err(UnknownTier(unknown.to_string())));
        }
    }

    #[test]
    fn every_course_reads_back_from_its_stored_code() {
        for course in ManualCourse::ALL {
            assert_eq!(ManualCourse::from_code(course.code()), Ok(course));
        }
        assert_eq!(ManualCourse::ALL.map(ManualCourse::code), ["A", "B", "C", "supporter"]);
        for unknown in ["", "D", "a", "supporters", "Supporter"] {
            assert_eq!(ManualCourse::from_code(unknown), Err(UnknownCourse(unknown.to_string())));
        }
    }

    #[test]
    fn only_courses_a_b_and_c_show_a_logo() {
        let with_logo: Vec<ManualCourse> = ManualCourse::ALL.into_iter().filter(|c| c.shows_logo()).collect();
        assert_eq!(with_logo, vec![ManualCourse::A, ManualCourse::B, ManualCourse::C]);
    }

    #[test]
    fn a_course_crosses_json_as_its_code() {
        assert_eq!(serde_json::to_string(&ManualCourse::Supporter).unwrap(), r#""supporter""#);
        assert_eq!(serde_json::from_str::<ManualCourse>(r#""B""#).unwrap(), ManualCourse::B);
        assert!(serde_json::from_str::<ManualCourse>(r#""D""#).is_err());
    }

    #[test]
    fn corporate_groups_run_from_the_largest_tier_down() {
        let wall = sponsor_wall(&[company(1, 10_000, 1), company(2, 600_000, 1), company(3, 40_000, 1)]);
        let tiers: Vec<SponsorTier> = wall.corporate.iter().map(|(t, _)| *t).collect();
        assert_eq!(tiers, vec![SponsorTier::Largest, SponsorTier::Medium, SponsorTier::Small]);
    }

    fn any_sale() -> impl Strategy<Value = SponsorSale> {
        (0i64..8, 0i64..1_000_000, 1u32..28, any::<bool>(), any::<bool>()).prop_map(|(id, amount, day, corp, anon)| {
            let mut s = if corp { company(id, amount, day) } else { sale(id, amount, day) };
            s.anonymous = anon;
            s
        })
    }

    proptest! {
        #[test]
        fn aggregation_keeps_the_grand_total(sales in proptest::collection::vec(any_sale(), 0..40)) {
            let sponsors = aggregate(&sales);
            let total: i64 = sales.iter().map(|s| s.amount.0).sum();
            prop_assert_eq!(sponsors.iter().map(|s| s.amount.0).sum::<i64>(), total);
            let mut ids: Vec<UserId> = sponsors.iter().map(|s| s.supporter_id).collect();
            ids.dedup();
            prop_assert_eq!(ids.len(), sponsors.len());
            prop_assert!(sponsors.windows(2).all(|w| sponsor_order(&w[0], &w[1]) != Ordering::Greater));
        }

        #[test]
        fn every_logo_belongs_to_a_named_company_or_organisation_supporter(
            sales in proptest::collection::vec(any_sale(), 0..40)
        ) {
            for sponsor in aggregate(&sales) {
                if sponsor.img.is_some() {
                    prop_assert_ne!(sponsor.name.as_str(), ANONYMOUS_NAME);
                    prop_assert!(sales.iter().any(|s| s.supporter_id == sponsor.supporter_id && s.return_type.allows_logo()));
                }
            }
        }

        #[test]
        fn tiers_never_shrink_as_the_amount_grows(a in 0i64..2_000_000, b in 0i64..2_000_000) {
            let (lo, hi) = (Yen(a.min(b)), Yen(a.max(b)));
            prop_assert!(SponsorTier::on_logo_wall(hi) <= SponsorTier::on_logo_wall(lo));
            prop_assert!(SponsorTier::in_footer(hi) <= SponsorTier::in_footer(lo));
            prop_assert!(SponsorTier::on_logo_wall(hi).size_tag() >= SponsorTier::on_logo_wall(lo).size_tag());
        }

        #[test]
        fn only_the_stored_codes_read_back_and_they_read_back_to_themselves(code in "(A|B|C|D|LL|L|M|S|XL|supporter|[a-zA-Z ]{0,3})") {
            if let Ok(course) = ManualCourse::from_code(&code) {
                prop_assert_eq!(course.code(), code.as_str());
            } else {
                prop_assert!(!["A", "B", "C", "supporter"].contains(&code.as_str()));
            }
            if let Ok(tier) = SponsorTier::from_code(&code) {
                prop_assert_eq!(tier.code(), code.as_str());
            } else {
                prop_assert!(!["LL", "L", "M", "S"].contains(&code.as_str()));
            }
        }

        #[test]
        fn the_footer_never_ranks_a_sponsor_above_the_logo_wall(amount in 0i64..2_000_000) {
            prop_assert!(SponsorTier::in_footer(Yen(amount)) >= SponsorTier::on_logo_wall(Yen(amount)));
        }
    }
}
