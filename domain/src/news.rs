//! A project's news (活動報告): its state (draft, scheduled, published), who
//! may read it in full, what an operator may write, and when its mail is due.
//! Time is an argument.

use chrono::{DateTime, Utc};

use crate::authoring::FieldError;
use crate::ids::ReturnId;
use crate::text::{has_forbidden_character, TextRule};

/// The longest title, in characters.
pub const TITLE_MAX_CHARS: usize = 100;
/// The longest body (HTML from the editor), in characters.
pub const BODY_MAX_CHARS: usize = 100_000;
/// The most returns a supporters-only item may name.
pub const RETURNS_MAX: usize = 100;

pub const MSG_TITLE_REQUIRED: &str = "タイトルを入力してください。";
pub const MSG_TITLE_TOO_LONG: &str = "タイトルは100文字以内で入力してください。";
pub const MSG_BODY_TOO_LONG: &str = "本文は100,000文字以内で入力してください。";
pub const MSG_BODY_FORBIDDEN: &str = "本文に使用できない文字が含まれています。";
/// The title's rule: trimmed, one line, no control characters, required, at most `TITLE_MAX_CHARS`.
pub const TITLE: TextRule = TextRule::new("title", "タイトル", TITLE_MAX_CHARS).required();
pub const MSG_TOO_MANY_RETURNS: &str = "選べるリターンは100件までです。";
pub const MSG_RETURN_UNKNOWN: &str = "このプロジェクトのリターンを選んでください。";
pub const MSG_PUBLIC_WITH_RETURNS: &str = "リターンを選べるのは「支援者のみ」の活動報告だけです。";
/// What a locked teaser says to someone who may not read the item.
pub const MSG_LOCKED: &str = "この活動報告は支援者限定です。";

/// Who may read an item in full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewsAudience {
    /// Everyone.
    Public,
    /// Supporters with a paid support of the project; when `returns` is not
    /// empty, only of one of those returns.
    Supporters { returns: Vec<ReturnId> },
}

impl NewsAudience {
    /// The code `project_news.audience` stores.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Supporters { .. } => "supporters",
        }
    }

    /// From the stored code and return ids; `None` for an unknown code.
    pub fn from_parts(code: &str, returns: Vec<ReturnId>) -> Option<Self> {
        match code {
            "public" => Some(Self::Public),
            "supporters" => Some(Self::Supporters { returns }),
            _ => None,
        }
    }

    /// The returns a supporters-only item is limited to (empty: every supporter, or public).
    pub fn returns(&self) -> &[ReturnId] {
        match self {
            Self::Public => &[],
            Self::Supporters { returns } => returns,
        }
    }

    /// Whether a reader whose paid supports of the project hold `supported`
    /// returns may read the item in full. A guest supports nothing.
    pub fn admits(&self, supported: &[ReturnId]) -> bool {
        match self {
            Self::Public => true,
            Self::Supporters { returns } if returns.is_empty() => !supported.is_empty(),
            Self::Supporters { returns } => returns.iter().any(|r| supported.contains(r)),
        }
    }
}

/// Where an item stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewsState {
    /// Not published; only operators see it.
    Draft,
    /// Published from a future time on.
    Scheduled,
    /// On the public page.
    Published,
}

impl NewsState {
    pub fn of(published_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> Self {
        match published_at {
            None => Self::Draft,
            Some(at) if at > now => Self::Scheduled,
            Some(_) => Self::Published,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Scheduled => "scheduled",
            Self::Published => "published",
        }
    }
}

/// The publication time an operator's save gives an item: `None` keeps it a
/// draft (or takes it back); publishing without a time (or with a past one)
/// keeps the time of an item already public and is now otherwise; a future
/// time schedules it.
pub fn publication_time(
    publish: bool,
    requested: Option<DateTime<Utc>>,
    stored: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    if !publish {
        return None;
    }
    match requested {
        Some(at) if at > now => Some(at),
        _ => Some(stored.filter(|at| *at <= now).unwrap_or(now)),
    }
}

/// Whether an item's mail should be queued now: asked for, not queued yet,
/// and the item is public.
pub fn mail_due(mail_asked: bool, mail_queued: bool, published_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    mail_asked && !mail_queued && NewsState::of(published_at, now) == NewsState::Published
}

/// What an operator writes (the body sanitised before it is checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsTerms {
    pub title: String,
    /// Sanitised HTML; may be empty.
    pub body: String,
    pub audience: NewsAudience,
    /// 支援者にメールで知らせる.
    pub mail_supporters: bool,
}

/// Trims and checks the terms; `project_returns` are the project's returns,
/// which the named ones must be among. Every refused field, in form order.
pub fn check_news(terms: NewsTerms, project_returns: &[ReturnId]) -> Result<NewsTerms, Vec<FieldError>> {
    let mut errors = Vec::new();
    // A control character (a NUL above all, which PostgreSQL refuses in text) is the field's error, not a 500.
    let title = TITLE.parse(&terms.title).unwrap_or_else(|e| {
        errors.push(FieldError::from((TITLE.field, e)));
        String::new()
    });
    if terms.body.chars().count() > BODY_MAX_CHARS {
        errors.push(FieldError { field: "body", message: MSG_BODY_TOO_LONG.into() });
    } else if has_forbidden_character(&terms.body, true) {
        errors.push(FieldError { field: "body", message: MSG_BODY_FORBIDDEN.into() });
    }
    let audience = match terms.audience {
        NewsAudience::Public => NewsAudience::Public,
        NewsAudience::Supporters { returns } => {
            let mut unique: Vec<ReturnId> = Vec::with_capacity(returns.len());
            for r in returns {
                if !unique.contains(&r) {
                    unique.push(r);
                }
            }
            if unique.len() > RETURNS_MAX {
                errors.push(FieldError { field: "returnIds", message: MSG_TOO_MANY_RETURNS.into() });
            } else if unique.iter().any(|r| !project_returns.contains(r)) {
                errors.push(FieldError { field: "returnIds", message: MSG_RETURN_UNKNOWN.into() });
            }
            NewsAudience::Supporters { returns: unique }
        }
    };
    if errors.is_empty() {
        Ok(NewsTerms { title, body: terms.body, audience, mail_supporters: terms.mail_supporters })
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn at(hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2027, 3, 1, hour, 0, 0).unwrap()
    }

    fn terms(title: &str, audience: NewsAudience) -> NewsTerms {
        NewsTerms { title: title.into(), body: "<p>本文</p>".into(), audience, mail_supporters: false }
    }

    #[test]
    fn a_public_item_is_read_by_everyone_including_guests() {
        assert!(NewsAudience::Public.admits(&[]));
    }

    #[test]
    fn a_supporters_item_is_locked_for_a_reader_without_a_paid_support() {
        let audience = NewsAudience::Supporters { returns: vec![] };
        assert!(!audience.admits(&[]));
        assert!(audience.admits(&[ReturnId(7)]));
    }

    #[test]
    fn an_item_for_chosen_returns_admits_only_their_supporters() {
        let audience = NewsAudience::Supporters { returns: vec![ReturnId(1), ReturnId(2)] };
        assert!(audience.admits(&[ReturnId(9), ReturnId(2)]));
        assert!(!audience.admits(&[ReturnId(9)]));
    }

    #[test]
    fn an_item_without_a_time_is_a_draft_a_future_one_scheduled_a_past_one_published() {
        assert_eq!(NewsState::of(None, at(10)), NewsState::Draft);
        assert_eq!(NewsState::of(Some(at(11)), at(10)), NewsState::Scheduled);
        assert_eq!(NewsState::of(Some(at(10)), at(10)), NewsState::Published);
        assert_eq!(NewsState::of(Some(at(9)), at(10)), NewsState::Published);
    }

    #[test]
    fn publishing_without_a_time_is_now_and_keeps_the_time_of_an_item_already_public() {
        assert_eq!(publication_time(true, None, None, at(10)), Some(at(10)));
        assert_eq!(publication_time(true, None, Some(at(8)), at(10)), Some(at(8)));
        // A scheduled item published now is public from now, not from its planned time.
        assert_eq!(publication_time(true, None, Some(at(12)), at(10)), Some(at(10)));
        assert_eq!(publication_time(true, Some(at(12)), None, at(10)), Some(at(12)));
        assert_eq!(publication_time(false, Some(at(12)), Some(at(8)), at(10)), None);
    }

    #[test]
    fn the_mail_is_due_once_when_asked_for_and_the_item_is_public() {
        assert!(mail_due(true, false, Some(at(9)), at(10)));
        assert!(!mail_due(true, true, Some(at(9)), at(10)));
        assert!(!mail_due(false, false, Some(at(9)), at(10)));
        assert!(!mail_due(true, false, Some(at(11)), at(10)));
        assert!(!mail_due(true, false, None, at(10)));
    }

    #[test]
    fn a_blank_title_is_refused_and_a_long_one_too() {
        let errors = check_news(terms("  ", NewsAudience::Public), &[]).unwrap_err();
        assert_eq!(errors[0].message, MSG_TITLE_REQUIRED);
        let long = "あ".repeat(TITLE_MAX_CHARS + 1);
        assert_eq!(check_news(terms(&long, NewsAudience::Public), &[]).unwrap_err()[0].message, MSG_TITLE_TOO_LONG);
    }

    #[test]
    fn a_control_character_in_the_title_or_the_body_is_refused_by_its_field() {
        let nul = check_news(terms("\u{0}\u{8e}d", NewsAudience::Public), &[]).unwrap_err();
        assert_eq!((nul[0].field, nul[0].message.as_str()), ("title", "タイトルに使用できない文字が含まれています。"));
        let body = NewsTerms { body: "<p>a\u{0}b</p>".into(), ..terms("t", NewsAudience::Public) };
        assert_eq!(check_news(body, &[]).unwrap_err()[0].message, MSG_BODY_FORBIDDEN);
    }

    #[test]
    fn a_return_of_another_project_is_refused_and_repeats_are_dropped() {
        let other = NewsAudience::Supporters { returns: vec![ReturnId(5)] };
        assert_eq!(check_news(terms("t", other), &[ReturnId(1)]).unwrap_err()[0].field, "returnIds");
        let twice = NewsAudience::Supporters { returns: vec![ReturnId(1), ReturnId(1)] };
        let checked = check_news(terms(" t ", twice), &[ReturnId(1)]).unwrap();
        assert_eq!(checked.title, "t");
        assert_eq!(checked.audience.returns(), &[ReturnId(1)]);
    }

    proptest! {
        #[test]
        fn a_reader_admitted_to_a_returns_item_is_admitted_to_the_all_supporters_item(
            chosen in proptest::collection::vec(1i64..20, 1..5),
            supported in proptest::collection::vec(1i64..20, 0..5),
        ) {
            let supported: Vec<ReturnId> = supported.into_iter().map(ReturnId).collect();
            let limited = NewsAudience::Supporters { returns: chosen.into_iter().map(ReturnId).collect() };
            let everyone = NewsAudience::Supporters { returns: vec![] };
            if limited.admits(&supported) {
                prop_assert!(everyone.admits(&supported));
            }
        }

        #[test]
        fn publishing_never_gives_a_time_in_the_past_of_a_scheduled_request(offset in 1i64..100_000) {
            let now = at(10);
            let later = now + chrono::Duration::seconds(offset);
            prop_assert_eq!(publication_time(true, Some(later), Some(at(1)), now), Some(later));
        }
    }
}
