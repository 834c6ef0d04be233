#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use chrono::TimeZone;

use super::*;
use crate::admin::mass_mail::MockOptOutTokens;
use crate::clock::MockClock;

/// 2027-03-01 12:00 in Tokyo.
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 3, 1, 3, 0, 0).unwrap()
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2027, 3, d).unwrap()
}

fn candidate(project: i64, user: i64, period_end: NaiveDate) -> EndNoticeCandidate {
    EndNoticeCandidate {
        project: ProjectId(project),
        user: UserId(user),
        email: format!("m{user}@example.jp"),
        title: "桐生の織機".into(),
        slug: "kiryu-looms".into(),
        period_end,
    }
}

fn service(
    store: MockFollowMailStore,
) -> (FollowMailService<MockFollowMailStore, MockOptOutTokens, MockClock>, Arc<AtomicU32>) {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    let mut tokens = MockOptOutTokens::new();
    tokens.expect_issue().returning(|user| format!("tok{}", user.get()));
    let woken = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&woken);
    let service =
        FollowMailService::new(store, tokens, clock, "ぐんまCF".into(), "https://example.jp".into(), move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
    (service, woken)
}

#[tokio::test]
async fn a_kept_project_ending_within_48_hours_is_mailed_with_its_link_and_the_opt_out_link() {
    let mut store = MockFollowMailStore::new();
    // Asked for today through the day 48 hours from now.
    store
        .expect_end_notice_candidates()
        .withf(|from, to, _, _| *from == day(1) && *to == day(3))
        .returning(|_, _, _, _| Ok(vec![candidate(7, 2, day(2)), candidate(8, 2, day(3))]));
    store
        .expect_queue_end_notice()
        .withf(|project, user, mail, _| {
            *project == ProjectId(7)
                && *user == UserId(2)
                && mail.to.as_str() == "m2@example.jp"
                && mail.text_body.contains("3月2日 23:59")
                && mail.text_body.contains("https://example.jp/projects/kiryu-looms/")
                && mail.text_body.contains("https://example.jp/mail/optout/?token=tok2")
        })
        .times(1)
        .returning(|_, _, _, _| Ok(true));
    let (service, woken) = service(store);

    // Day 3 closes at 23:59 on 3 March, more than 48 hours after noon on 1 March: not yet.
    assert_eq!(service.send_end_notices().await.unwrap(), 1);
    assert_eq!(woken.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_notice_recorded_before_is_not_counted_and_wakes_nobody() {
    let mut store = MockFollowMailStore::new();
    store.expect_end_notice_candidates().returning(|_, _, _, _| Ok(vec![candidate(7, 2, day(2))]));
    store.expect_queue_end_notice().times(1).returning(|_, _, _, _| Ok(false));
    let (service, woken) = service(store);

    assert_eq!(service.send_end_notices().await.unwrap(), 0);
    assert_eq!(woken.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn the_setting_answers_what_is_stored() {
    let mut store = MockFollowMailStore::new();
    store.expect_set_opted_in().withf(|user, on, _| *user == UserId(2) && *on).times(1).returning(|_, _, _| Ok(()));
    store.expect_opted_in().returning(|_| Ok(true));
    let (service, _) = service(store);

    assert!(service.set_opted_in(UserId(2), true).await.unwrap());
}
