//! A project's settings on its `projects` row: `additional_data_*`, the five
//! `bank_*` columns, `connected_account_id`, `uses_manual_sponsors` and
//! `hide_footer_sponsors`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_query;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use diesel::QueryableByName;
use domain::ids::ProjectId;
use domain::project_settings::{AdditionalQuestion, BankDetails, ProjectSettings};
use ports::admin::settings::{ProjectSettingsRepository, StoredSettings};
use ports::RepoError;

use crate::error::{map_diesel, with_conn};
use crate::sql_rules::fee_schedule_from_db;
use crate::PgPool;

#[derive(Clone)]
pub struct PgProjectSettings {
    pool: PgPool,
}

impl PgProjectSettings {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    published_at: Option<DateTime<Utc>>,
    #[diesel(sql_type = Nullable<Text>)]
    additional_data_label: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    additional_data_text: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    additional_data_description: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    additional_data_alert: Option<String>,
    #[diesel(sql_type = Nullable<Integer>)]
    additional_data_form_line: Option<i32>,
    #[diesel(sql_type = Nullable<Text>)]
    bank_account: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    bank_branch: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    bank_kinds: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    bank_number: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    bank_nominee: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    connected_account_id: Option<String>,
    #[diesel(sql_type = Text)]
    fee_schedule: String,
    #[diesel(sql_type = Bool)]
    uses_manual_sponsors: bool,
    #[diesel(sql_type = Bool)]
    hide_footer_sponsors: bool,
}

const SELECT: &str = "SELECT p.title, pp.published_at, p.additional_data_label, p.additional_data_text, \
    p.additional_data_description, p.additional_data_alert, p.additional_data_form_line, p.bank_account, \
    p.bank_branch, p.bank_kinds, p.bank_number, p.bank_nominee, p.connected_account_id, p.fee_schedule, \
    p.uses_manual_sponsors, p.hide_footer_sponsors \
    FROM projects p LEFT JOIN project_publications pp ON pp.project_id = p.id WHERE p.id = $1";

impl Row {
    fn into_stored(self, id: ProjectId) -> Result<StoredSettings, RepoError> {
        let additional = self.additional_data_label.filter(|l| !l.trim().is_empty()).map(|label| AdditionalQuestion {
            label,
            text: self.additional_data_text,
            description: self.additional_data_description,
            alert: self.additional_data_alert,
            form_line: self.additional_data_form_line.unwrap_or(1),
        });
        let bank = match (self.bank_account, self.bank_branch, self.bank_kinds, self.bank_number, self.bank_nominee) {
            (Some(bank), Some(branch), Some(kinds), Some(number), Some(nominee)) => {
                Some(BankDetails { bank, branch, kinds, number, nominee })
            }
            _ => None,
        };
        Ok(StoredSettings {
            id,
            title: self.title,
            published_at: self.published_at,
            settings: ProjectSettings {
                additional,
                bank,
                connected_account_id: self.connected_account_id.filter(|a| !a.is_empty()),
                fee_schedule: fee_schedule_from_db(&self.fee_schedule)?,
                uses_manual_sponsors: self.uses_manual_sponsors,
                hide_footer_sponsors: self.hide_footer_sponsors,
            },
        })
    }
}

#[async_trait]
impl ProjectSettingsRepository for PgProjectSettings {
    async fn settings(&self, id: ProjectId) -> Result<StoredSettings, RepoError> {
        with_conn(&self.pool, move |conn| {
            let row: Row = sql_query(SELECT).bind::<BigInt, _>(id.get()).get_result(conn).map_err(map_diesel)?;
            row.into_stored(id)
        })
        .await
    }

    async fn save(
        &self,
        id: ProjectId,
        current: &ProjectSettings,
        next: &ProjectSettings,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let next = next.clone();
        let (current_account, current_fees) = (current.connected_account_id.clone(), current.fee_schedule.code());
        with_conn(&self.pool, move |conn| {
            let q = next.additional.as_ref();
            let b = next.bank.as_ref();
            // A published project's connected account and fee schedule are the ones the rule was checked against,
            // or nothing is written.
            let updated = sql_query(
                "UPDATE projects p SET additional_data_label = $2, additional_data_text = $3, \
                   additional_data_description = $4, additional_data_alert = $5, additional_data_form_line = $6, \
                   bank_account = $7, bank_branch = $8, bank_kinds = $9, bank_number = $10, bank_nominee = $11, \
                   connected_account_id = $12, uses_manual_sponsors = $13, hide_footer_sponsors = $14, updated_at = $15, \
                   fee_schedule = $17 \
                 WHERE p.id = $1 AND (NOT EXISTS (SELECT 1 FROM project_publications pp \
                                                   WHERE pp.project_id = p.id AND pp.published_at IS NOT NULL) \
                                      OR (p.connected_account_id IS NOT DISTINCT FROM $16 AND p.fee_schedule = $18))",
            )
            .bind::<BigInt, _>(id.get())
            .bind::<Nullable<Text>, _>(q.map(|q| q.label.clone()))
            .bind::<Nullable<Text>, _>(q.and_then(|q| q.text.clone()))
            .bind::<Nullable<Text>, _>(q.and_then(|q| q.description.clone()))
            .bind::<Nullable<Text>, _>(q.and_then(|q| q.alert.clone()))
            .bind::<Nullable<Integer>, _>(q.map(|q| q.form_line))
            .bind::<Nullable<Text>, _>(b.map(|b| b.bank.clone()))
            .bind::<Nullable<Text>, _>(b.map(|b| b.branch.clone()))
            .bind::<Nullable<Text>, _>(b.map(|b| b.kinds.clone()))
            .bind::<Nullable<Text>, _>(b.map(|b| b.number.clone()))
            .bind::<Nullable<Text>, _>(b.map(|b| b.nominee.clone()))
            .bind::<Nullable<Text>, _>(next.connected_account_id.clone())
            .bind::<Bool, _>(next.uses_manual_sponsors)
            .bind::<Bool, _>(next.hide_footer_sponsors)
            .bind::<Timestamptz, _>(now)
            .bind::<Nullable<Text>, _>(current_account)
            .bind::<Text, _>(next.fee_schedule.code())
            .bind::<Text, _>(current_fees)
            .execute(conn)
            .map_err(map_diesel)?;
            if updated == 1 {
                return Ok(());
            }
            let exists: i64 = sql_query("SELECT count(*) AS n FROM projects WHERE id = $1")
                .bind::<BigInt, _>(id.get())
                .get_result::<Count>(conn)
                .map_err(map_diesel)?
                .n;
            Err(if exists == 0 { RepoError::NotFound } else { RepoError::Conflict("project_changed".into()) })
        })
        .await
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}
