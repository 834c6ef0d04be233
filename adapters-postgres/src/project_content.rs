//! A project page's content on `projects` (main, honour image and link),
//! `project_slider_images`, `project_owners`, `project_owner_links`,
//! `project_faqs` and `returns.image_src`. Each save runs in one
//! transaction holding the project's row, so two operators' saves follow
//! one another instead of mixing.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_query;
use diesel::sql_types::{Array, BigInt, Nullable, Text};
use diesel::QueryableByName;
use domain::ids::{ProjectId, ReturnId};
use domain::project_content::{ContentTexts, FaqEntry, OwnerLink, MAX_SLIDER_IMAGES};
use ports::admin::content::{
    ImageTarget, OwnerProfile, ProjectContent, ProjectContentRepository, ReturnImage, SliderImage,
};
use ports::RepoError;

use crate::error::{map_diesel, settle, with_conn, Tx};
use crate::rows::IdRow;
use crate::sql_rules::lock_project;
use crate::PgPool;

#[derive(Clone)]
pub struct PgProjectContent {
    pool: PgPool,
}

impl PgProjectContent {
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
    #[diesel(sql_type = Nullable<Text>)]
    main_image_url: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    honor_img_url: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    honor_img_link: Option<String>,
}

#[derive(QueryableByName)]
struct SliderRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    src: String,
    #[diesel(sql_type = Text)]
    alt: String,
}

#[derive(QueryableByName)]
struct OwnerRow {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Nullable<Text>)]
    image_url: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    profile: Option<String>,
}

#[derive(QueryableByName)]
struct PairRow {
    #[diesel(sql_type = Text)]
    a: String,
    #[diesel(sql_type = Text)]
    b: String,
}

#[derive(QueryableByName)]
struct ReturnRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Nullable<Text>)]
    image_src: Option<String>,
}

fn read(conn: &mut PgConnection, id: ProjectId) -> Result<ProjectContent, diesel::result::Error> {
    let project: ProjectRow =
        sql_query("SELECT title, slug, main_image_url, honor_img_url, honor_img_link FROM projects WHERE id = $1")
            .bind::<BigInt, _>(id.get())
            .get_result(conn)?;
    let slider: Vec<SliderRow> =
        sql_query("SELECT id, src, alt FROM project_slider_images WHERE project_id = $1 ORDER BY position, id")
            .bind::<BigInt, _>(id.get())
            .load(conn)?;
    let owner: Option<OwnerRow> =
        sql_query("SELECT name, image_url, profile FROM project_owners WHERE project_id = $1")
            .bind::<BigInt, _>(id.get())
            .get_result(conn)
            .optional()?;
    let links: Vec<PairRow> =
        sql_query("SELECT label AS a, url AS b FROM project_owner_links WHERE project_id = $1 ORDER BY position, id")
            .bind::<BigInt, _>(id.get())
            .load(conn)?;
    let faqs: Vec<PairRow> =
        sql_query("SELECT question AS a, answer AS b FROM project_faqs WHERE project_id = $1 ORDER BY position, id")
            .bind::<BigInt, _>(id.get())
            .load(conn)?;
    let returns: Vec<ReturnRow> =
        sql_query("SELECT id, title, image_src FROM returns WHERE project_id = $1 ORDER BY position, id")
            .bind::<BigInt, _>(id.get())
            .load(conn)?;
    Ok(ProjectContent {
        id,
        title: project.title,
        slug: project.slug,
        main_image_url: project.main_image_url,
        honor_img_url: project.honor_img_url,
        honor_img_link: project.honor_img_link,
        slider: slider.into_iter().map(|s| SliderImage { id: s.id, src: s.src, alt: s.alt }).collect(),
        owner: owner.map(|o| OwnerProfile {
            name: o.name,
            image_url: o.image_url,
            profile: o.profile.unwrap_or_default(),
            links: links.into_iter().map(|l| OwnerLink { label: l.a, url: l.b }).collect(),
        }),
        faqs: faqs.into_iter().map(|f| FaqEntry { question: f.a, answer: f.b }).collect(),
        returns: returns
            .into_iter()
            .map(|r| ReturnImage { id: ReturnId(r.id), title: r.title, image_url: r.image_src })
            .collect(),
    })
}

fn save_texts(conn: &mut PgConnection, id: ProjectId, texts: &ContentTexts, now: DateTime<Utc>) -> Result<(), Tx> {
    lock_project(conn, id, now)?;
    let p = id.get();
    sql_query("UPDATE projects SET honor_img_link = $2 WHERE id = $1")
        .bind::<BigInt, _>(p)
        .bind::<Nullable<Text>, _>(texts.honor_img_link.clone())
        .execute(conn)?;

    // The slider: every kept image must still be there; the others go, the kept ones take their new order.
    let stored: Vec<i64> = sql_query("SELECT id FROM project_slider_images WHERE project_id = $1")
        .bind::<BigInt, _>(p)
        .load::<IdRow>(conn)?
        .into_iter()
        .map(|r| r.id)
        .collect();
    let kept: Vec<i64> = texts.slider.iter().map(|s| s.id).collect();
    if kept.iter().any(|id| !stored.contains(id)) {
        return Err(Tx::Refused(RepoError::Conflict("slider_changed".into())));
    }
    let alts: Vec<String> = texts.slider.iter().map(|s| s.alt.clone()).collect();
    sql_query("DELETE FROM project_slider_images WHERE project_id = $1 AND NOT (id = ANY($2))")
        .bind::<BigInt, _>(p)
        .bind::<Array<BigInt>, _>(kept.clone())
        .execute(conn)?;
    // Positions are unique per project: move the kept ones out of the way first.
    sql_query("UPDATE project_slider_images SET position = -1 - position WHERE project_id = $1")
        .bind::<BigInt, _>(p)
        .execute(conn)?;
    sql_query(
        "UPDATE project_slider_images s SET position = o.position::int - 1, alt = o.alt \
           FROM unnest($2::bigint[], $3::text[]) WITH ORDINALITY AS o (id, alt, position) \
          WHERE s.project_id = $1 AND s.id = o.id",
    )
    .bind::<BigInt, _>(p)
    .bind::<Array<BigInt>, _>(kept)
    .bind::<Array<Text>, _>(alts)
    .execute(conn)?;

    // The owner: upserted keeping its image, or deleted with its links.
    sql_query("DELETE FROM project_owner_links WHERE project_id = $1").bind::<BigInt, _>(p).execute(conn)?;
    match &texts.owner {
        None => {
            sql_query("DELETE FROM project_owners WHERE project_id = $1").bind::<BigInt, _>(p).execute(conn)?;
        }
        Some(owner) => {
            let profile = Some(owner.profile.clone()).filter(|t| !t.is_empty());
            sql_query(
                "INSERT INTO project_owners (project_id, name, profile) VALUES ($1, $2, $3) \
                 ON CONFLICT (project_id) DO UPDATE SET name = EXCLUDED.name, profile = EXCLUDED.profile",
            )
            .bind::<BigInt, _>(p)
            .bind::<Text, _>(&owner.name)
            .bind::<Nullable<Text>, _>(profile)
            .execute(conn)?;
            let labels: Vec<String> = owner.links.iter().map(|l| l.label.clone()).collect();
            let urls: Vec<String> = owner.links.iter().map(|l| l.url.clone()).collect();
            sql_query(
                "INSERT INTO project_owner_links (project_id, position, label, url) \
                 SELECT $1, o.position::int - 1, o.label, o.url \
                   FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS o (label, url, position)",
            )
            .bind::<BigInt, _>(p)
            .bind::<Array<Text>, _>(labels)
            .bind::<Array<Text>, _>(urls)
            .execute(conn)?;
        }
    }

    sql_query("DELETE FROM project_faqs WHERE project_id = $1").bind::<BigInt, _>(p).execute(conn)?;
    let questions: Vec<String> = texts.faqs.iter().map(|f| f.question.clone()).collect();
    let answers: Vec<String> = texts.faqs.iter().map(|f| f.answer.clone()).collect();
    sql_query(
        "INSERT INTO project_faqs (project_id, position, question, answer) \
         SELECT $1, o.position::int - 1, o.question, o.answer \
           FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS o (question, answer, position)",
    )
    .bind::<BigInt, _>(p)
    .bind::<Array<Text>, _>(questions)
    .bind::<Array<Text>, _>(answers)
    .execute(conn)?;
    Ok(())
}

fn set_image(
    conn: &mut PgConnection,
    id: ProjectId,
    target: &ImageTarget,
    url: Option<String>,
    now: DateTime<Utc>,
) -> Result<(), Tx> {
    lock_project(conn, id, now)?;
    let p = id.get();
    let column = match target {
        ImageTarget::Main => Some("UPDATE projects SET main_image_url = $2 WHERE id = $1"),
        ImageTarget::Honor => Some("UPDATE projects SET honor_img_url = $2 WHERE id = $1"),
        ImageTarget::Owner => Some("UPDATE project_owners SET image_url = $2 WHERE project_id = $1"),
        ImageTarget::Return(_) | ImageTarget::Slider { .. } => None,
    };
    if let Some(sql) = column {
        let touched = sql_query(sql).bind::<BigInt, _>(p).bind::<Nullable<Text>, _>(url.clone()).execute(conn)?;
        if touched == 0 {
            return Err(Tx::Refused(RepoError::Conflict("owner_missing".into())));
        }
        return Ok(());
    }
    match target {
        ImageTarget::Main | ImageTarget::Honor | ImageTarget::Owner => {}
        ImageTarget::Return(ret) => {
            let touched = sql_query("UPDATE returns SET image_src = $3 WHERE project_id = $1 AND id = $2")
                .bind::<BigInt, _>(p)
                .bind::<BigInt, _>(ret.get())
                .bind::<Nullable<Text>, _>(url)
                .execute(conn)?;
            if touched == 0 {
                return Err(Tx::Refused(RepoError::NotFound));
            }
        }
        ImageTarget::Slider { alt } => {
            let Some(src) = url else { return Ok(()) };
            let count: Vec<IdRow> = sql_query("SELECT id FROM project_slider_images WHERE project_id = $1")
                .bind::<BigInt, _>(p)
                .load(conn)?;
            if count.len() >= MAX_SLIDER_IMAGES {
                return Err(Tx::Refused(RepoError::Conflict("slider_full".into())));
            }
            sql_query(
                "INSERT INTO project_slider_images (project_id, position, src, alt) \
                 SELECT $1, COALESCE(MAX(position) + 1, 0), $2, $3 FROM project_slider_images WHERE project_id = $1",
            )
            .bind::<BigInt, _>(p)
            .bind::<Text, _>(src)
            .bind::<Text, _>(alt)
            .execute(conn)?;
        }
    }
    Ok(())
}

#[async_trait]
impl ProjectContentRepository for PgProjectContent {
    async fn content(&self, id: ProjectId) -> Result<ProjectContent, RepoError> {
        with_conn(&self.pool, move |conn| conn.transaction(|conn| read(conn, id)).map_err(map_diesel)).await
    }

    async fn save_texts(&self, id: ProjectId, texts: &ContentTexts, now: DateTime<Utc>) -> Result<(), RepoError> {
        let texts = texts.clone();
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<(), Tx, _>(|conn| save_texts(conn, id, &texts, now)))
        })
        .await
    }

    async fn set_image(
        &self,
        id: ProjectId,
        target: &ImageTarget,
        url: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<(), RepoError> {
        let target = target.clone();
        with_conn(&self.pool, move |conn| {
            settle(conn.transaction::<(), Tx, _>(|conn| set_image(conn, id, &target, url, now)))
        })
        .await
    }
}
