//! A project's manual sponsor list as operators edit it
//! (`project_manual_sponsors`). Every write runs in one transaction holding
//! the project's row, so two operators' changes follow one another: the
//! count of `MAX_MANUAL_SPONSORS` and a course's positions stay whole.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_query;
use diesel::sql_types::{Array, BigInt, Bool, Date, Integer, Nullable, Text};
use diesel::QueryableByName;
use domain::ids::ProjectId;
use domain::manual_sponsor::{ManualSponsor, MAX_MANUAL_SPONSORS};
use domain::money::Yen;
use domain::sponsor::ManualCourse;
use ports::admin::sponsors::{LogoChange, ManualSponsorEntry, ManualSponsorList, ManualSponsorRepository};
use ports::RepoError;

use crate::error::{map_diesel, settle, with_conn, Tx};
use crate::rows::IdRow;
use crate::sql_rules::{corrupt, lock_project};
use crate::PgPool;

#[derive(Clone)]
pub struct PgManualSponsors {
    pool: PgPool,
}

impl PgManualSponsors {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[derive(QueryableByName)]
struct ProjectRow {
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    slug: String,
    #[diesel(sql_type = Bool)]
    uses_manual_sponsors: bool,
}

#[derive(QueryableByName)]
struct EntryRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    course: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Nullable<Text>)]
    logo_src: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    link: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    amount: Option<i64>,
    #[diesel(sql_type = Nullable<Date>)]
    latest_date: Option<NaiveDate>,
    #[diesel(sql_type = Integer)]
    position: i32,
}

impl TryFrom<EntryRow> for ManualSponsorEntry {
    type Error = RepoError;

    fn try_from(row: EntryRow) -> Result<Self, RepoError> {
        let course = ManualCourse::from_code(&row.course).map_err(|e| corrupt("project_manual_sponsors.course", e))?;
        Ok(Self {
            id: row.id,
            sponsor: ManualSponsor {
                course,
                name: row.name,
                link: row.link,
                amount: row.amount.map(Yen),
                latest_date: row.latest_date,
            },
            logo_src: row.logo_src,
            position: row.position,
        })
    }
}

fn read(conn: &mut PgConnection, id: ProjectId) -> Result<ManualSponsorList, RepoError> {
    let project: ProjectRow = sql_query("SELECT title, slug, uses_manual_sponsors FROM projects WHERE id = $1")
        .bind::<BigInt, _>(id.get())
        .get_result(conn)
        .map_err(map_diesel)?;
    let rows: Vec<EntryRow> = sql_query(
        "SELECT id, course, name, logo_src, link, amount, latest_date, position \
           FROM project_manual_sponsors WHERE project_id = $1 ORDER BY course, position, id",
    )
    .bind::<BigInt, _>(id.get())
    .load(conn)
    .map_err(map_diesel)?;
    Ok(ManualSponsorList {
        project_id: id,
        title: project.title,
        slug: project.slug,
        uses_manual_sponsors: project.uses_manual_sponsors,
        entries: rows.into_iter().map(ManualSponsorEntry::try_from).collect::<Result<_, _>>()?,
    })
}

/// One past the course's largest position.
const NEXT_POSITION: &str = "(SELECT COALESCE(MAX(position) + 1, 0) FROM project_manual_sponsors \
                              WHERE project_id = $1 AND course = $2)";

fn create(
    conn: &mut PgConnection,
    project: ProjectId,
    sponsor: &ManualSponsor,
    logo_src: Option<String>,
    now: DateTime<Utc>,
) -> Result<i64, Tx> {
    lock_project(conn, project, now)?;
    let count: Vec<IdRow> = sql_query("SELECT id FROM project_manual_sponsors WHERE project_id = $1")
        .bind::<BigInt, _>(project.get())
        .load(conn)?;
    if count.len() >= MAX_MANUAL_SPONSORS {
        return Err(Tx::Refused(RepoError::Conflict("manual_sponsors_full".into())));
    }
    let row: IdRow = sql_query(format!(
        "INSERT INTO project_manual_sponsors (project_id, course, name, logo_src, link, amount, latest_date, position) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, {NEXT_POSITION}) RETURNING id"
    ))
    .bind::<BigInt, _>(project.get())
    .bind::<Text, _>(sponsor.course.code())
    .bind::<Text, _>(&sponsor.name)
    .bind::<Nullable<Text>, _>(logo_src)
    .bind::<Nullable<Text>, _>(sponsor.link.clone())
    .bind::<Nullable<BigInt>, _>(sponsor.amount.map(|a| a.0))
    .bind::<Nullable<Date>, _>(sponsor.latest_date)
    .get_result(conn)?;
    Ok(row.id)
}

fn update(
    conn: &mut PgConnection,
    project: ProjectId,
    id: i64,
    sponsor: &ManualSponsor,
    logo: LogoChange,
    now: DateTime<Utc>,
) -> Result<(), Tx> {
    lock_project(conn, project, now)?;
    let (set_logo, logo_src) = match logo {
        LogoChange::Keep => (false, None),
        LogoChange::Set(url) => (true, Some(url)),
        LogoChange::Clear => (true, None),
    };
    // A new course puts the entry at that course's end; the same course keeps its place.
    let touched = sql_query(format!(
        "UPDATE project_manual_sponsors \
            SET position = CASE WHEN course = $2 THEN position ELSE {NEXT_POSITION} END, \
                course = $2, name = $3, link = $4, amount = $5, latest_date = $6, \
                logo_src = CASE WHEN $7 THEN $8 ELSE logo_src END \
          WHERE project_id = $1 AND id = $9"
    ))
    .bind::<BigInt, _>(project.get())
    .bind::<Text, _>(sponsor.course.code())
    .bind::<Text, _>(&sponsor.name)
    .bind::<Nullable<Text>, _>(sponsor.link.clone())
    .bind::<Nullable<BigInt>, _>(sponsor.amount.map(|a| a.0))
    .bind::<Nullable<Date>, _>(sponsor.latest_date)
    .bind::<Bool, _>(set_logo)
    .bind::<Nullable<Text>, _>(logo_src)
    .bind::<BigInt, _>(id)
    .execute(conn)?;
    if touched == 0 {
        return Err(Tx::Refused(RepoError::NotFound));
    }
    Ok(())
}

fn delete(conn: &mut PgConnection, project: ProjectId, id: i64, now: DateTime<Utc>) -> Result<(), Tx> {
    lock_project(conn, project, now)?;
    let touched = sql_query("DELETE FROM project_manual_sponsors WHERE project_id = $1 AND id = $2")
        .bind::<BigInt, _>(project.get())
        .bind::<BigInt, _>(id)
        .execute(conn)?;
    if touched == 0 {
        return Err(Tx::Refused(RepoError::NotFound));
    }
    Ok(())
}

fn reorder(
    conn: &mut PgConnection,
    project: ProjectId,
    course: ManualCourse,
    order: &[i64],
    now: DateTime<Utc>,
) -> Result<(), Tx> {
    lock_project(conn, project, now)?;
    let mut stored: Vec<i64> =
        sql_query("SELECT id FROM project_manual_sponsors WHERE project_id = $1 AND course = $2")
            .bind::<BigInt, _>(project.get())
            .bind::<Text, _>(course.code())
            .load::<IdRow>(conn)?
            .into_iter()
            .map(|r| r.id)
            .collect();
    let mut wanted = order.to_vec();
    stored.sort_unstable();
    wanted.sort_unstable();
    if stored != wanted {
        return Err(Tx::Refused(RepoError::Conflict("manual_sponsors_changed".into())));
    }
    sql_query(
        "UPDATE project_manual_sponsors s SET position = o.position::int - 1 \
           FROM unnest($2::bigint[]) WITH ORDINALITY AS o (id, position) \
          WHERE s.project_id = $1 AND s.id = o.id",
    )
    .bind::<BigInt, _>(project.get())
    .bind::<Array<BigInt>, _>(order.to_vec())
    .execute(conn)?;
    Ok(())
}

#[async_trait]
impl ManualSponsorRepository for PgManualSponsors {
    async fn list(&self, project: ProjectId) -> Result<ManualSponsorList, RepoError> {
        with_conn(&self.pool, move |conn| read(conn, project)).await
    }

    async fn create(
        &self,
        project: ProjectId,
        sponsor: &ManualSponsor,
        logo_src: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<i64, RepoError> {
        let sponsor = sponsor.clone();
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<i64, Tx, _>(|conn| create(conn, project, &sponsor, logo_src, now)))
        })
        .await
    }

    async fn update(
        &self,
        project: ProjectId,
        id: i64,
        sponsor: &ManualSponsor,
        logo: LogoChange,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let sponsor = sponsor.clone();
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<(), Tx, _>(|conn| update(conn, project, id, &sponsor, logo, now)))
        })
        .await
    }

    async fn delete(&self, project: ProjectId, id: i64, now: DateTime<Utc>) -> Result<(), RepoError> {
        with_conn(&self.pool, move |conn| settle(conn.transaction::<(), Tx, _>(|conn| delete(conn, project, id, now))))
            .await
    }

    async fn reorder(
        &self,
        project: ProjectId,
        course: ManualCourse,
        order: &[i64],
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let order = order.to_vec();
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<(), Tx, _>(|conn| reorder(conn, project, course, &order, now)))
        })
        .await
    }
}
