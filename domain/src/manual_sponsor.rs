//! A project's manual sponsor list (`project_manual_sponsors`), as operators
//! edit it: what one entry must hold, the order the walls show a course in,
//! and which entries the operator may move (docs/decisions.md, "Manual
//! sponsor list").
//!
//! The walls rank a course by amount (largest first, undisclosed last), then
//! by the earlier latest date, then by the operator's position: moving an
//! entry only ever changes the order among entries that tie on amount and
//! date, so a move that the walls would not show is refused.

use std::cmp::Ordering;

use chrono::NaiveDate;

use crate::authoring::MAX_YEN;
use crate::money::Yen;
use crate::project_content::ContentFieldError;
use crate::sponsor::ManualCourse;
use crate::text::TextRule;

/// Most entries one project's list holds (all courses together).
pub const MAX_MANUAL_SPONSORS: usize = 200;
/// Longest link kept (`profile::WebUrl::MAX_LEN`).
pub const MAX_LINK_CHARS: usize = crate::profile::WebUrl::MAX_LEN;
/// The earliest latest-support date accepted.
pub const EARLIEST_DATE: NaiveDate = match NaiveDate::from_ymd_opt(2000, 1, 1) {
    Some(day) => day,
    None => NaiveDate::MIN,
};

pub const SPONSOR_NAME: TextRule = TextRule::new("name", "スポンサー名", 100).required();

pub const MSG_COURSE: &str = "コースはA・B・C・個人サポーターのいずれかを選んでください。";
pub const MSG_LOGO_REQUIRED: &str = "A・B・Cコースにはロゴ画像が必要です。画像を選択してください。";
pub const MSG_LOGO_SUPPORTER: &str = "個人サポーターは名前だけを掲載します。ロゴ画像は登録できません。";
/// The longest side of a stored logo: walls show them at most 300 CSS px wide.
pub const LOGO_EDGE: u32 = 800;
pub const MSG_LINK_TOO_LONG: &str = "リンク先は2048文字以内で入力してください。";
pub const MSG_AMOUNT: &str = "金額は0円以上10億円以下の整数（円）で入力してください。";
pub const MSG_DATE_FORMAT: &str = "最新の支援日を正しい日付で入力してください。";
pub const MSG_DATE_RANGE: &str = "最新の支援日は2000年1月1日から今日までの日付を入力してください。";
pub const MSG_TOO_MANY: &str = "スポンサーは1つのプロジェクトにつき200件までです。";
pub const MSG_NOT_MOVABLE: &str =
    "金額と最新の支援日の順に並ぶため、この向きには移動できません。同じ金額・支援日のスポンサーの間でだけ並べ替えられます。";
pub const MSG_LIST_CHANGED: &str = "スポンサー一覧が他の操作で変わりました。画面を読み込み直してください。";

/// An entry as the form sends it: every value as typed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ManualSponsorForm {
    /// `A`, `B`, `C` or `supporter`.
    pub course: String,
    pub name: String,
    /// Blank = no link.
    pub link: String,
    /// Whole yen; blank = not disclosed.
    pub amount: String,
    /// `YYYY-MM-DD`; blank = none.
    pub latest_date: String,
}

/// A checked entry (its logo is stored on its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualSponsor {
    pub course: ManualCourse,
    pub name: String,
    /// An absolute http(s) URL.
    pub link: Option<String>,
    /// `None`: not disclosed (ranked after every amount).
    pub amount: Option<Yen>,
    pub latest_date: Option<NaiveDate>,
}

/// The logo an entry would have after the save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logo {
    None,
    /// The entry keeps the logo it has (a supporter entry drops it).
    Stored,
    /// A file comes with the form.
    Uploaded,
}

/// The entry cleaned (trimmed, blanks dropped) or every refused field, in
/// form order. Courses A, B and C need a logo; a supporter entry takes no
/// new one. `today` is the Tokyo date.
pub fn check_manual_sponsor(
    form: &ManualSponsorForm,
    logo: Logo,
    today: NaiveDate,
) -> Result<ManualSponsor, Vec<ContentFieldError>> {
    let mut errors = Vec::new();
    let course = ManualCourse::from_code(form.course.trim());
    if course.is_err() {
        errors.push(ContentFieldError::new("course", MSG_COURSE));
    }
    let name = SPONSOR_NAME.parse(&form.name).map_err(|e| errors.push(ContentFieldError::new("name", e.to_string())));
    let link = check_sponsor_link(&form.link).map_err(|m| errors.push(ContentFieldError::new("link", m)));
    let amount = parse_amount(&form.amount).map_err(|m| errors.push(ContentFieldError::new("amount", m)));
    let latest_date =
        parse_date(&form.latest_date, today).map_err(|m| errors.push(ContentFieldError::new("latestDate", m)));
    if let Ok(course) = course {
        if course.shows_logo() && logo == Logo::None {
            errors.push(ContentFieldError::new("file", MSG_LOGO_REQUIRED));
        }
        if !course.shows_logo() && logo == Logo::Uploaded {
            errors.push(ContentFieldError::new("file", MSG_LOGO_SUPPORTER));
        }
    }
    match (course, name, link, amount, latest_date) {
        (Ok(course), Ok(name), Ok(link), Ok(amount), Ok(latest_date)) if errors.is_empty() => {
            Ok(ManualSponsor { course, name, link, amount, latest_date })
        }
        _ => Err(errors),
    }
}

fn check_sponsor_link(raw: &str) -> Result<Option<String>, &'static str> {
    if raw.trim().chars().count() > MAX_LINK_CHARS {
        return Err(MSG_LINK_TOO_LONG);
    }
    crate::project_content::check_link(Some(raw))
}

/// Whole yen written with ASCII digits only (no sign, comma or decimal).
fn parse_amount(raw: &str) -> Result<Option<Yen>, &'static str> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    if raw.len() > 10 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(MSG_AMOUNT);
    }
    match raw.parse::<i64>() {
        Ok(yen) if (0..=MAX_YEN).contains(&yen) => Ok(Some(Yen(yen))),
        _ => Err(MSG_AMOUNT),
    }
}

fn parse_date(raw: &str, today: NaiveDate) -> Result<Option<NaiveDate>, &'static str> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    // `%Y` alone would take a five-digit or signed year.
    let shaped = raw.len() == 10
        && raw.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    let day = shaped.then(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()).flatten().ok_or(MSG_DATE_FORMAT)?;
    if day < EARLIEST_DATE || day > today {
        return Err(MSG_DATE_RANGE);
    }
    Ok(Some(day))
}

/// What ranks an entry within its course.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rank {
    pub amount: Option<Yen>,
    pub latest_date: Option<NaiveDate>,
    pub position: i32,
    /// The entry's id: equal positions (never written by the screens) keep a stable order.
    pub id: i64,
}

/// The walls' order within a course: amount descending with undisclosed
/// last, then the earlier latest date (undated last), then position.
pub fn manual_order(a: &Rank, b: &Rank) -> Ordering {
    // `None` orders below every amount, so descending puts it last.
    b.amount
        .cmp(&a.amount)
        .then_with(|| match (a.latest_date, b.latest_date) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
        .then_with(|| a.position.cmp(&b.position))
        .then_with(|| a.id.cmp(&b.id))
}

/// Two entries the walls rank only by their position.
pub fn ties(a: &Rank, b: &Rank) -> bool {
    a.amount == b.amount && a.latest_date == b.latest_date
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
}

/// Why a move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// No entry of the course has this id.
    #[error("unknown entry")]
    Unknown,
    /// The first can't go up, the last can't go down, and an entry can't pass one ranked by amount or date.
    #[error("{}", MSG_NOT_MOVABLE)]
    NotMovable,
}

/// Whether the entry at `index` of a course in wall order may move.
pub fn can_move(course: &[Rank], index: usize, direction: Direction) -> bool {
    let neighbour = match direction {
        Direction::Up => index.checked_sub(1),
        Direction::Down => index.checked_add(1),
    };
    match (course.get(index), neighbour.and_then(|n| course.get(n))) {
        (Some(entry), Some(other)) => ties(entry, other),
        _ => false,
    }
}

/// The course's ids in their new order after moving `id` one place, given
/// the course in any order. The caller stores the order as positions 0..n.
pub fn move_entry(course: &[Rank], id: i64, direction: Direction) -> Result<Vec<i64>, MoveError> {
    let mut sorted = course.to_vec();
    sorted.sort_by(manual_order);
    let index = sorted.iter().position(|r| r.id == id).ok_or(MoveError::Unknown)?;
    if !can_move(&sorted, index, direction) {
        return Err(MoveError::NotMovable);
    }
    let other = match direction {
        Direction::Up => index - 1,
        Direction::Down => index + 1,
    };
    sorted.swap(index, other);
    Ok(sorted.iter().map(|r| r.id).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 28).unwrap()
    }

    fn form() -> ManualSponsorForm {
        ManualSponsorForm {
            course: "A".into(),
            name: " 上毛電機株式会社 ".into(),
            link: " https://jomo-denki.example.jp ".into(),
            amount: "300000".into(),
            latest_date: "2026-11-01".into(),
        }
    }

    fn fields(errors: &[ContentFieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    fn rank(id: i64, amount: Option<i64>, day: Option<u32>, position: i32) -> Rank {
        Rank {
            amount: amount.map(Yen),
            latest_date: day.map(|d| NaiveDate::from_ymd_opt(2026, 10, d).unwrap()),
            position,
            id,
        }
    }

    #[test]
    fn a_full_entry_is_kept_trimmed() {
        let entry = check_manual_sponsor(&form(), Logo::Stored, today()).unwrap();
        assert_eq!(entry.course, ManualCourse::A);
        assert_eq!(entry.name, "上毛電機株式会社");
        assert_eq!(entry.link.as_deref(), Some("https://jomo-denki.example.jp"));
        assert_eq!(entry.amount, Some(Yen(300_000)));
        assert_eq!(entry.latest_date, NaiveDate::from_ymd_opt(2026, 11, 1));
    }

    #[test]
    fn blank_link_amount_and_date_mean_none() {
        let blank = ManualSponsorForm { link: " ".into(), amount: "".into(), latest_date: " ".into(), ..form() };
        let entry = check_manual_sponsor(&blank, Logo::Stored, today()).unwrap();
        assert_eq!((entry.link, entry.amount, entry.latest_date), (None, None, None));
    }

    #[test]
    fn courses_a_b_and_c_need_a_logo_and_supporters_do_not() {
        for course in ["A", "B", "C"] {
            let errors =
                check_manual_sponsor(&ManualSponsorForm { course: course.into(), ..form() }, Logo::None, today())
                    .unwrap_err();
            assert_eq!(errors, vec![ContentFieldError::new("file", MSG_LOGO_REQUIRED)], "{course}");
        }
        let supporter = ManualSponsorForm { course: "supporter".into(), ..form() };
        assert_eq!(check_manual_sponsor(&supporter, Logo::None, today()).unwrap().course, ManualCourse::Supporter);
        assert!(check_manual_sponsor(&supporter, Logo::Stored, today()).is_ok());
        let errors = check_manual_sponsor(&supporter, Logo::Uploaded, today()).unwrap_err();
        assert_eq!(errors, vec![ContentFieldError::new("file", MSG_LOGO_SUPPORTER)]);
        assert!(check_manual_sponsor(&form(), Logo::Uploaded, today()).is_ok());
    }

    #[test]
    fn the_course_is_one_of_the_four() {
        for bad in ["", "D", "a", "supporters", "個人"] {
            let errors =
                check_manual_sponsor(&ManualSponsorForm { course: bad.into(), ..form() }, Logo::Stored, today())
                    .unwrap_err();
            assert_eq!(errors, vec![ContentFieldError::new("course", MSG_COURSE)], "{bad}");
        }
    }

    #[test]
    fn the_name_is_required_and_at_most_100_characters() {
        let blank = ManualSponsorForm { name: " \u{200b} ".into(), ..form() };
        let errors = check_manual_sponsor(&blank, Logo::Stored, today()).unwrap_err();
        assert_eq!(errors, vec![ContentFieldError::new("name", "スポンサー名を入力してください。")]);
        let long = ManualSponsorForm { name: "あ".repeat(101), ..form() };
        let errors = check_manual_sponsor(&long, Logo::Stored, today()).unwrap_err();
        assert_eq!(errors[0].message, "スポンサー名は100文字以内で入力してください。");
        assert!(check_manual_sponsor(&ManualSponsorForm { name: "あ".repeat(100), ..form() }, Logo::Stored, today())
            .is_ok());
    }

    #[test]
    fn a_link_is_an_http_or_https_url_of_at_most_2048_characters() {
        for bad in ["javascript:alert(1)", "ftp://example.jp", "example.jp", "https://"] {
            let errors = check_manual_sponsor(&ManualSponsorForm { link: bad.into(), ..form() }, Logo::Stored, today())
                .unwrap_err();
            assert_eq!(errors, vec![ContentFieldError::new("link", crate::project_content::MSG_URL)], "{bad}");
        }
        let long = format!("https://example.jp/{}", "a".repeat(2048));
        let errors =
            check_manual_sponsor(&ManualSponsorForm { link: long, ..form() }, Logo::Stored, today()).unwrap_err();
        assert_eq!(errors, vec![ContentFieldError::new("link", MSG_LINK_TOO_LONG)]);
    }

    #[test]
    fn an_amount_is_whole_yen_from_zero_to_one_billion() {
        for ok in ["0", "1", "1000000000", " 5000 "] {
            assert!(
                check_manual_sponsor(&ManualSponsorForm { amount: ok.into(), ..form() }, Logo::Stored, today()).is_ok()
            );
        }
        for bad in ["-1", "1.5", "1,000", "1000000001", "１０００", "+5", "99999999999999999999", "1e3"] {
            let errors =
                check_manual_sponsor(&ManualSponsorForm { amount: bad.into(), ..form() }, Logo::Stored, today())
                    .unwrap_err();
            assert_eq!(errors, vec![ContentFieldError::new("amount", MSG_AMOUNT)], "{bad}");
        }
    }

    #[test]
    fn a_date_is_a_real_day_from_2000_until_today() {
        assert!(check_manual_sponsor(
            &ManualSponsorForm { latest_date: "2026-11-28".into(), ..form() },
            Logo::Stored,
            today()
        )
        .is_ok());
        assert!(check_manual_sponsor(
            &ManualSponsorForm { latest_date: "2000-01-01".into(), ..form() },
            Logo::Stored,
            today()
        )
        .is_ok());
        for (bad, message) in [
            ("2026-02-30", MSG_DATE_FORMAT),
            ("2026/11/01", MSG_DATE_FORMAT),
            ("+2026-11-01", MSG_DATE_FORMAT),
            ("20261-1-01", MSG_DATE_FORMAT),
            ("昨日", MSG_DATE_FORMAT),
            ("2026-11-29", MSG_DATE_RANGE),
            ("1999-12-31", MSG_DATE_RANGE),
        ] {
            let errors =
                check_manual_sponsor(&ManualSponsorForm { latest_date: bad.into(), ..form() }, Logo::Stored, today())
                    .unwrap_err();
            assert_eq!(errors, vec![ContentFieldError::new("latestDate", message)], "{bad}");
        }
    }

    #[test]
    fn every_refused_field_is_reported_in_form_order() {
        let bad = ManualSponsorForm {
            course: "B".into(),
            name: "".into(),
            link: "mailto:a@example.jp".into(),
            amount: "-3".into(),
            latest_date: "x".into(),
        };
        let errors = check_manual_sponsor(&bad, Logo::None, today()).unwrap_err();
        assert_eq!(fields(&errors), vec!["name", "link", "amount", "latestDate", "file"]);
    }

    #[test]
    fn a_course_runs_by_amount_then_earlier_date_then_position_with_undisclosed_last() {
        let mut course = [
            rank(1, None, None, 0),
            rank(2, Some(1_000), Some(5), 0),
            rank(3, Some(9_000), None, 1),
            rank(4, Some(1_000), Some(2), 3),
            rank(5, Some(1_000), Some(2), 2),
            rank(6, Some(9_000), Some(20), 9),
        ];
        course.sort_by(manual_order);
        assert_eq!(course.iter().map(|r| r.id).collect::<Vec<_>>(), vec![6, 3, 5, 4, 2, 1]);
    }

    #[test]
    fn an_entry_moves_only_past_one_that_ties_on_amount_and_date() {
        let course = [rank(1, None, None, 0), rank(2, None, None, 1), rank(3, Some(500), None, 0)];
        // Wall order: 3 (500円), 1, 2.
        assert_eq!(move_entry(&course, 2, Direction::Up), Ok(vec![3, 2, 1]));
        assert_eq!(move_entry(&course, 1, Direction::Down), Ok(vec![3, 2, 1]));
        assert_eq!(move_entry(&course, 1, Direction::Up), Err(MoveError::NotMovable));
        assert_eq!(move_entry(&course, 3, Direction::Up), Err(MoveError::NotMovable));
        assert_eq!(move_entry(&course, 2, Direction::Down), Err(MoveError::NotMovable));
        assert_eq!(move_entry(&course, 9, Direction::Down), Err(MoveError::Unknown));
    }

    fn any_rank() -> impl Strategy<Value = Rank> {
        (0i64..40, proptest::option::of(0i64..3), proptest::option::of(1u32..3), 0i32..3)
            .prop_map(|(id, amount, day, position)| rank(id, amount.map(|a| a * 1_000), day, position))
    }

    proptest! {
        #[test]
        fn whatever_is_accepted_stays_within_its_bounds(
            name in ".{0,120}", link in ".{0,40}", amount in "[-0-9.,]{0,12}", date in "[-0-9]{0,11}",
            course in "(A|B|C|supporter|D)", logo in prop_oneof![Just(Logo::None), Just(Logo::Stored), Just(Logo::Uploaded)],
        ) {
            let form = ManualSponsorForm { course, name, link, amount, latest_date: date };
            if let Ok(entry) = check_manual_sponsor(&form, logo, today()) {
                prop_assert!(!crate::text::is_blank(&entry.name) && entry.name.chars().count() <= 100);
                // A logo wall entry always has a logo; a supporter entry never takes a new one.
                let fits = if entry.course.shows_logo() { logo != Logo::None } else { logo != Logo::Uploaded };
                prop_assert!(fits);
                prop_assert!(entry.amount.is_none_or(|a| (0..=MAX_YEN).contains(&a.0)));
                prop_assert!(entry.latest_date.is_none_or(|d| d >= EARLIEST_DATE && d <= today()));
                if let Some(url) = &entry.link {
                    let lower = url.to_ascii_lowercase();
                    prop_assert!(lower.starts_with("http://") || lower.starts_with("https://"));
                }
            }
        }

        #[test]
        fn a_move_keeps_the_course_and_never_changes_what_the_walls_rank_by_amount_or_date(
            mut course in proptest::collection::vec(any_rank(), 1..8), pick in 0usize..8, up in any::<bool>(),
        ) {
            course.sort_by_key(|r| r.id);
            course.dedup_by_key(|r| r.id);
            let id = course[pick % course.len()].id;
            let direction = if up { Direction::Up } else { Direction::Down };
            if let Ok(order) = move_entry(&course, id, direction) {
                // Store the new order as positions, as the repository does, and read the walls' order back.
                let mut stored: Vec<Rank> = order.iter().enumerate().map(|(i, id)| {
                    let r = course.iter().find(|r| r.id == *id).unwrap();
                    Rank { position: i32::try_from(i).unwrap(), ..*r }
                }).collect();
                stored.sort_by(manual_order);
                prop_assert_eq!(stored.iter().map(|r| r.id).collect::<Vec<_>>(), order.clone());
                // Amounts and dates run in the same sequence as before: only ties changed places.
                let mut before = course.clone();
                before.sort_by(manual_order);
                let key = |rs: &[Rank]| rs.iter().map(|r| (r.amount, r.latest_date)).collect::<Vec<_>>();
                prop_assert_eq!(key(&before), key(&stored));
                prop_assert_ne!(before.iter().map(|r| r.id).collect::<Vec<_>>(), order);
            }
        }
    }
}
