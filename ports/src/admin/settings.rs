//! Operators set a project's additional question, the bank account shown to
//! anonymous transfers, the connected account and the sponsor walls'
//! switches (`domain::project_settings`); every change is logged with what
//! changed from what to what.

use chrono::{DateTime, Utc};
use domain::ids::{ProjectId, UserId};
use domain::project_settings::{check_settings, ProjectSettings, SettingsFieldError, MSG_BANK_ALL_OR_NONE};
use serde_json::{json, Value};

use super::audit::{changes, AdminActionKind, AuditLog, NewAdminAction};
use crate::clock::Clock;
use crate::RepoError;

/// The settings as stored, with what the rules need to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSettings {
    pub id: ProjectId,
    pub title: String,
    /// Set once published (now or scheduled): the connected account is then locked.
    pub published_at: Option<DateTime<Utc>>,
    pub settings: ProjectSettings,
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectSettingsRepository: Send + Sync {
    /// MUST return `NotFound` for an unknown project.
    async fn settings(&self, id: ProjectId) -> Result<StoredSettings, RepoError>;

    /// Writes `next`. MUST write nothing and return
    /// `Conflict("project_changed")` when the project was published with
    /// another connected account or fee schedule than `current`'s meanwhile;
    /// `Constraint` for a row the table's checks refuse; `NotFound` for an
    /// unknown project.
    async fn save(
        &self,
        id: ProjectId,
        current: &ProjectSettings,
        next: &ProjectSettings,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("not found")]
    NotFound,
    #[error("{}", .0.first().map_or("", |e| e.message.as_str()))]
    Invalid(Vec<SettingsFieldError>),
    #[error(transparent)]
    Repo(RepoError),
}

/// Shown when another operator's change (or the publication) came between.
pub const MSG_SETTINGS_CHANGED: &str =
    "保存する間に他の変更がありました。画面を読み込み直して、もう一度お試しください。";

impl From<RepoError> for SettingsError {
    fn from(error: RepoError) -> Self {
        let invalid = |field: &str, message: &str| Self::Invalid(vec![SettingsFieldError::new(field, message)]);
        match error {
            RepoError::NotFound => Self::NotFound,
            RepoError::Conflict(_) => invalid("form", MSG_SETTINGS_CHANGED),
            RepoError::Constraint(v) if v.name == "projects_bank_all_or_none" => invalid("bank", MSG_BANK_ALL_OR_NONE),
            RepoError::Constraint(v) if v.name.starts_with("projects_additional_data") => {
                invalid("additional.label", "質問の見出しを入力してください。")
            }
            other => Self::Repo(other),
        }
    }
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectSettingsUseCases: Send + Sync {
    /// `NotFound` for an unknown project.
    async fn settings(&self, id: ProjectId) -> Result<StoredSettings, SettingsError>;
    /// Checks (`domain::project_settings::check_settings`), writes and logs.
    async fn save(&self, admin: UserId, id: ProjectId, next: ProjectSettings) -> Result<StoredSettings, SettingsError>;
}

pub struct SettingsService<R, A, C> {
    repo: R,
    audit: A,
    clock: C,
}

impl<R, A, C> SettingsService<R, A, C> {
    pub fn new(repo: R, audit: A, clock: C) -> Self {
        Self { repo, audit, clock }
    }
}

/// The bank number is shown to the public anyway; the log keeps it whole.
fn fields(s: &ProjectSettings) -> Vec<(&'static str, Value)> {
    let q = s.additional.as_ref();
    let b = s.bank.as_ref();
    vec![
        ("additionalLabel", json!(q.map(|q| &q.label))),
        ("additionalText", json!(q.and_then(|q| q.text.as_ref()))),
        ("additionalDescription", json!(q.and_then(|q| q.description.as_ref()))),
        ("additionalAlert", json!(q.and_then(|q| q.alert.as_ref()))),
        ("additionalFormLine", json!(q.map(|q| q.form_line))),
        ("bank", json!(b.map(|b| [&b.bank, &b.branch, &b.kinds, &b.number, &b.nominee]))),
        ("connectedAccountId", json!(s.connected_account_id)),
        ("feeSchedule", json!(s.fee_schedule.code())),
        ("usesManualSponsors", json!(s.uses_manual_sponsors)),
        ("hideFooterSponsors", json!(s.hide_footer_sponsors)),
    ]
}

#[async_trait::async_trait]
impl<R: ProjectSettingsRepository, A: AuditLog, C: Clock> ProjectSettingsUseCases for SettingsService<R, A, C> {
    async fn settings(&self, id: ProjectId) -> Result<StoredSettings, SettingsError> {
        Ok(self.repo.settings(id).await?)
    }

    async fn save(&self, admin: UserId, id: ProjectId, next: ProjectSettings) -> Result<StoredSettings, SettingsError> {
        let current = self.repo.settings(id).await?;
        let locked = current.published_at.map(|_| &current.settings);
        let next = check_settings(next, locked).map_err(SettingsError::Invalid)?;
        self.repo.save(id, &current.settings, &next, self.clock.now()).await?;
        let detail = json!({ "changes": changes(Some(&fields(&current.settings)), &fields(&next)), "projectTitle": current.title });
        let action = NewAdminAction {
            project_id: Some(id),
            detail,
            ..NewAdminAction::new(admin, AdminActionKind::ProjectSettingsUpdated)
        };
        self.audit.record(action).await?;
        Ok(self.repo.settings(id).await?)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use chrono::TimeZone;
    use domain::money::FeeSchedule;
    use domain::project_settings::{BankDetails, MSG_ACCOUNT_LOCKED};

    use super::*;
    use crate::admin::audit::MockAuditLog;
    use crate::clock::MockClock;

    const ID: ProjectId = ProjectId(7);

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().returning(|| Utc.with_ymd_and_hms(2026, 12, 1, 3, 0, 0).unwrap());
        clock
    }

    fn plain() -> ProjectSettings {
        ProjectSettings {
            additional: None,
            bank: None,
            connected_account_id: Some("acct_1".into()),
            fee_schedule: FeeSchedule::Standard,
            uses_manual_sponsors: false,
            hide_footer_sponsors: false,
        }
    }

    fn stored(published: bool) -> StoredSettings {
        StoredSettings {
            id: ID,
            title: "桐生の織機".into(),
            published_at: published.then(|| Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap()),
            settings: plain(),
        }
    }

    #[tokio::test]
    async fn saved_settings_are_written_and_logged_with_before_and_after() {
        let mut repo = MockProjectSettingsRepository::new();
        repo.expect_settings().returning(|_| Ok(stored(true)));
        repo.expect_save()
            .withf(|id, current, next, _| {
                *id == ID && current.connected_account_id.as_deref() == Some("acct_1") && next.hide_footer_sponsors
            })
            .times(1)
            .returning(|_, _, _, _| Ok(()));
        let mut audit = MockAuditLog::new();
        audit
            .expect_record()
            .withf(|a| {
                a.kind == AdminActionKind::ProjectSettingsUpdated
                    && a.detail["changes"] == json!({"hideFooterSponsors": [false, true]})
            })
            .times(1)
            .returning(|_| Ok(1));
        let service = SettingsService::new(repo, audit, clock());

        service.save(UserId(1), ID, ProjectSettings { hide_footer_sponsors: true, ..plain() }).await.unwrap();
    }

    #[tokio::test]
    async fn a_published_project_keeps_its_connected_account_and_nothing_is_written() {
        let mut repo = MockProjectSettingsRepository::new();
        repo.expect_settings().returning(|_| Ok(stored(true)));
        repo.expect_save().never();
        let mut audit = MockAuditLog::new();
        audit.expect_record().never();
        let service = SettingsService::new(repo, audit, clock());

        let next = ProjectSettings { connected_account_id: Some("acct_2".into()), ..plain() };
        let Err(SettingsError::Invalid(errors)) = service.save(UserId(1), ID, next).await else { panic!("refused") };

        assert_eq!(errors, vec![SettingsFieldError::new("connectedAccountId", MSG_ACCOUNT_LOCKED)]);
    }

    #[tokio::test]
    async fn a_draft_changes_its_fee_schedule_and_the_log_says_from_what_to_what() {
        let mut repo = MockProjectSettingsRepository::new();
        repo.expect_settings().returning(|_| Ok(stored(false)));
        repo.expect_save()
            .withf(|_, current, next, _| {
                current.fee_schedule == FeeSchedule::Standard && next.fee_schedule == FeeSchedule::Internal
            })
            .times(1)
            .returning(|_, _, _, _| Ok(()));
        let mut audit = MockAuditLog::new();
        audit
            .expect_record()
            .withf(|a| a.detail["changes"] == json!({"feeSchedule": ["standard", "internal"]}))
            .times(1)
            .returning(|_| Ok(1));
        let service = SettingsService::new(repo, audit, clock());

        service.save(UserId(1), ID, ProjectSettings { fee_schedule: FeeSchedule::Internal, ..plain() }).await.unwrap();
    }

    #[tokio::test]
    async fn the_bank_check_of_the_table_becomes_the_bank_field_s_message() {
        let mut repo = MockProjectSettingsRepository::new();
        repo.expect_settings().returning(|_| Ok(stored(false)));
        repo.expect_save().returning(|_, _, _, _| {
            Err(RepoError::Constraint(crate::ConstraintViolation {
                kind: crate::ConstraintKind::Check,
                name: "projects_bank_all_or_none".into(),
            }))
        });
        let mut audit = MockAuditLog::new();
        audit.expect_record().never();
        let service = SettingsService::new(repo, audit, clock());
        let bank = BankDetails {
            bank: "群馬銀行".into(),
            branch: "本店".into(),
            kinds: "普通".into(),
            number: "1".into(),
            nominee: "カイ".into(),
        };

        let result = service.save(UserId(1), ID, ProjectSettings { bank: Some(bank), ..plain() }).await;

        let Err(SettingsError::Invalid(errors)) = result else { panic!("refused") };
        assert_eq!(errors, vec![SettingsFieldError::new("bank", MSG_BANK_ALL_OR_NONE)]);
    }
}
