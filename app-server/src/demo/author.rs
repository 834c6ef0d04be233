//! The demo's projects written by the operators' use cases, as the admin screens write them: the project form
//! (`Projects`: terms, returns, their order, publication), the page content (`ProjectContents`: honour link,
//! slider texts, owner profile and links, FAQ), the settings (`ProjectSettingsUseCases`: additional question,
//! bank account, sponsor switches) and the news (`ProjectNews`), each with the real adapters, the real HTML
//! sanitiser and the demo administrator as the audit actor. Every rule those screens enforce applies here.
//!
//! Idempotent the same way an operator would be: what is stored already as the demo wants it is not written
//! again (a second run writes no use case and no audit entry), so the locks of a published project (goal,
//! funding model, tax, a backed return's price) never meet a second run.

use std::collections::{HashMap, HashSet};

use adapters_http::html::AmmoniaSanitizer;
use adapters_postgres::demo::{self as store, DemoProject, DemoReturn, DemoReturnImages};
use adapters_postgres::PgPool;
use anyhow::Context;
use chrono::NaiveDate;
use domain::authoring::{check_return, ProjectTerms, ReturnTerms, TaxHandling};
use domain::ids::{ProjectId, ReturnId, UserId};
use domain::manual_sponsor::{check_manual_sponsor, Logo, ManualSponsorForm};
use domain::money::Yen;
use domain::news::{NewsAudience, NewsTerms};
use domain::project::FundingModel;
use domain::project_content::{check_content, ContentTexts, FaqEntry, OwnerLink, OwnerTexts, SliderEdit};
use domain::project_settings::{check_settings, AdditionalQuestion, BankDetails, ProjectSettings};
use domain::returns::ReturnType;
use ports::admin::content::{ProjectContent, ProjectContents};
use ports::admin::news::{NewsForm, ProjectNews};
use ports::admin::projects::{ProjectView, Projects};
use ports::admin::settings::ProjectSettingsUseCases;
use ports::admin::sponsors::ManualSponsors;
use ports::html::HtmlSanitizer;

use crate::config::Settings;
use crate::editing::ProjectEditing;
use crate::media::ObjectMediaStorage;

/// The operators' use cases, wired as `startup` wires them, acting as the demo administrator.
pub(super) struct Authors {
    pool: PgPool,
    admin: UserId,
    editing: ProjectEditing,
}

/// A use case's refusal with every refused field (the errors' `Display` names only the first).
fn refused(what: &str, slug: &str, error: impl std::fmt::Debug) -> anyhow::Error {
    anyhow::anyhow!("demo project {slug}: {what} refused: {error:?}")
}

/// The slug `PgProjectAuthoring::add_return` gives a new return ("r" and 12 hex digits): one left by a run that
/// stopped before naming it.
fn unnamed(slug: &str) -> bool {
    slug.len() == 13 && slug.starts_with('r') && slug[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// A demo project's terms as the project form would send them.
pub fn project_terms(
    p: &DemoProject,
    period_end: NaiveDate,
    area_id: Option<i64>,
    category_id: Option<i64>,
) -> ProjectTerms {
    ProjectTerms {
        slug: p.slug.clone(),
        title: p.title.clone(),
        lead: p.description.clone(),
        story: p.content.clone(),
        goal: Yen(p.target),
        period_end,
        funding_model: if p.all_or_nothing { FundingModel::AllOrNothing } else { FundingModel::AllIn },
        tax: TaxHandling::from_flags(p.is_donation, p.tax_includes),
        accepts_card: true,
        accepts_bank_transfer: !p.card_only,
        accepts_konbini: !p.card_only,
        area_id,
        category_id,
        owner_email: None,
        donation_payout_date: p.donation_payout_date,
    }
}

/// A demo return's terms as the return form would send them.
pub fn return_terms(r: &DemoReturn) -> anyhow::Result<ReturnTerms> {
    Ok(ReturnTerms {
        title: r.title.clone(),
        description: r.description.clone(),
        price: Yen(r.price),
        return_type: ReturnType::from_code(i32::from(r.return_type))
            .map_err(|e| anyhow::anyhow!("demo return {}: {e}", r.slug))?,
        stock_limit: r.stock_limit,
        lot_fixed: r.lot_disable,
        address_required: r.address_required,
        address_label: r.address_label.clone(),
        disabled: r.disabled,
        disabled_comment: r.disabled_comment.clone(),
        hidden: r.flag >= 900,
        delivery_month: r.delivery_month,
        monthly: r.monthly,
        course: r.course.clone(),
        only_for: r.show_user_email.clone(),
    })
}

/// Whether the stored content already holds `texts` (as the content rules clean them).
fn content_holds(stored: &ProjectContent, texts: &ContentTexts) -> bool {
    let stored_owner = stored.owner.as_ref().map(|o| OwnerTexts {
        name: o.name.clone(),
        profile: o.profile.clone(),
        links: o.links.clone(),
    });
    let alts: Vec<&str> = stored.slider.iter().map(|s| s.alt.as_str()).collect();
    let wanted_alts: Vec<&str> = texts.slider.iter().map(|s| s.alt.as_str()).collect();
    stored.honor_img_link == texts.honor_img_link
        && alts == wanted_alts
        && stored_owner == texts.owner
        && stored.faqs == texts.faqs
}

impl Authors {
    pub(super) fn new(pool: PgPool, admin: UserId, settings: &Settings) -> anyhow::Result<Self> {
        let media = ObjectMediaStorage::new(&settings.media, &settings.media_dir)?;
        // No demo item asks to be mailed, so nothing is queued and no sender needs waking.
        let editing = ProjectEditing::new(&pool, media, settings.public_url.clone(), || {});
        Ok(Self { pool, admin, editing })
    }

    /// Writes one demo project through the use cases, then what no screen writes (`store`), and answers its id.
    pub(super) async fn project(&self, p: &DemoProject, today: NaiveDate) -> anyhow::Result<ProjectId> {
        let view = self.terms(p, today).await?;
        let id = view.project.id;
        let view = self.returns(p, view).await?;
        self.settings(p, id).await?;
        if !view.state.is_published() {
            self.editing
                .projects
                .publish(self.admin, id, None)
                .await
                .map_err(|e| refused("publication", &p.slug, e))?;
        }
        self.content(p, id).await?;
        self.news(p, id).await?;
        self.manual_sponsors(p, id, today).await?;

        let view = self.editing.projects.get(id).await.map_err(|e| refused("reading", &p.slug, e))?;
        let by_slug: HashMap<&str, &ports::admin::projects::AuthoredReturn> =
            view.project.returns.iter().map(|r| (r.slug.as_str(), r)).collect();
        let mut images = Vec::new();
        let mut returns = HashMap::new();
        for r in &p.returns {
            let stored =
                by_slug.get(r.slug.as_str()).with_context(|| format!("{}: return {} missing", p.slug, r.slug))?;
            images.push(DemoReturnImages {
                id: stored.id,
                image_src: r.image_src.clone(),
                description_image: r.description_image.clone(),
                description_comment: r.description_comment.clone(),
            });
            returns.insert(r.slug.clone(), (stored.id.get(), stored.terms.price.0));
        }
        let owner_image = p.owner.as_ref().and_then(|o| o.image_url.clone());
        store::attach_images(
            &self.pool,
            id,
            Some(p.main_image_url.clone()),
            p.honor_img_url.clone(),
            owner_image,
            images,
        )
        .await?;
        store::history(&self.pool, id, p.clone(), returns).await?;
        Ok(id)
    }

    /// Creates the project (a draft, as the form does) or brings its terms up to date. A new project ending in
    /// the past is created open until today: the form refuses a past end, and `store::history` then sets the
    /// demo's end. A stored project keeps its stored end here for the same reason (the demo's calendar moves
    /// with today, which the screens' end rules are not about).
    async fn terms(&self, p: &DemoProject, today: NaiveDate) -> anyhow::Result<ProjectView> {
        let (area, category) = store::listed_ids(&self.pool, p.area.clone(), p.category.clone()).await?;
        match store::project_id(&self.pool, &p.slug).await? {
            None => {
                let terms = project_terms(p, p.period_end.max(today), area, category);
                self.editing.projects.create(self.admin, terms).await.map_err(|e| refused("creation", &p.slug, e))
            }
            Some(id) => {
                let current = self.editing.projects.get(id).await.map_err(|e| refused("reading", &p.slug, e))?;
                let stored = &current.project.terms;
                let next = ProjectTerms {
                    owner_email: stored.owner_email.clone(),
                    ..project_terms(p, stored.period_end, area, category)
                };
                if next == *stored {
                    return Ok(current);
                }
                self.editing.projects.update(self.admin, id, next).await.map_err(|e| refused("update", &p.slug, e))
            }
        }
    }

    /// Adds the returns the project lacks (then gives each its fixed slug), updates those that differ, and puts
    /// them in the demo's order; returns of the project that the demo does not name stay, after the demo's.
    async fn returns(&self, p: &DemoProject, mut view: ProjectView) -> anyhow::Result<ProjectView> {
        let id = view.project.id;
        for r in &p.returns {
            let wanted = return_terms(r)?;
            let stored = view
                .project
                .returns
                .iter()
                .find(|s| s.slug == r.slug)
                .or_else(|| view.project.returns.iter().find(|s| unnamed(&s.slug) && s.terms.title == wanted.title))
                .map(|s| {
                    (s.id, s.slug.clone(), check_return(wanted.clone(), s.lots_taken).is_ok_and(|c| c == s.terms))
                });
            let ret = match stored {
                Some((ret, _, true)) => ret,
                Some((ret, _, false)) => {
                    view = self
                        .editing
                        .projects
                        .update_return(self.admin, id, ret, wanted)
                        .await
                        .map_err(|e| refused(&format!("return {}", r.slug), &p.slug, e))?;
                    ret
                }
                None => {
                    let before: HashSet<ReturnId> = view.project.returns.iter().map(|s| s.id).collect();
                    view = self
                        .editing
                        .projects
                        .add_return(self.admin, id, wanted)
                        .await
                        .map_err(|e| refused(&format!("return {}", r.slug), &p.slug, e))?;
                    view.project
                        .returns
                        .iter()
                        .map(|s| s.id)
                        .filter(|ret| !before.contains(ret))
                        .max_by_key(|ret| ret.get())
                        .with_context(|| format!("{}: the new return {} is not listed", p.slug, r.slug))?
                }
            };
            if view.project.returns.iter().any(|s| s.id == ret && s.slug != r.slug) {
                store::name_return(&self.pool, id, ret, r.slug.clone()).await?;
                for s in &mut view.project.returns {
                    if s.id == ret {
                        s.slug.clone_from(&r.slug);
                    }
                }
            }
        }
        let stored: Vec<ReturnId> = view.project.returns.iter().map(|s| s.id).collect();
        let mut order: Vec<ReturnId> = p
            .returns
            .iter()
            .filter_map(|r| view.project.returns.iter().find(|s| s.slug == r.slug).map(|s| s.id))
            .collect();
        order.extend(stored.iter().filter(|ret| !order.contains(ret)).copied().collect::<Vec<_>>());
        if order == stored {
            return Ok(view);
        }
        self.editing
            .projects
            .reorder_returns(self.admin, id, order)
            .await
            .map_err(|e| refused("return order", &p.slug, e))
    }

    /// The additional question, the bank account for anonymous transfers and the sponsor switches; the
    /// connected account and fee schedule stay as stored.
    async fn settings(&self, p: &DemoProject, id: ProjectId) -> anyhow::Result<()> {
        let stored = self.editing.settings.settings(id).await.map_err(|e| refused("settings", &p.slug, e))?;
        let next = ProjectSettings {
            additional: p.additional_data.as_ref().map(|(label, text, alert)| AdditionalQuestion {
                label: label.clone(),
                text: Some(text.clone()),
                description: None,
                alert: Some(alert.clone()),
                form_line: 1,
            }),
            bank: p.bank.as_ref().map(|b| BankDetails {
                bank: b.bank.clone(),
                branch: b.branch.clone(),
                kinds: b.kinds.clone(),
                number: b.number.clone(),
                nominee: b.nominee.clone(),
            }),
            uses_manual_sponsors: p.uses_manual_sponsors,
            hide_footer_sponsors: p.hide_footer_sponsors,
            ..stored.settings.clone()
        };
        let locked = stored.published_at.map(|_| &stored.settings);
        if check_settings(next.clone(), locked).is_ok_and(|checked| checked == stored.settings) {
            return Ok(());
        }
        self.editing.settings.save(self.admin, id, next).await.map_err(|e| refused("settings", &p.slug, e))?;
        Ok(())
    }

    /// The honour link, the slider's alternative texts, the owner's profile and links and the FAQ. The slider's
    /// images themselves are attached by URL first (`store::attach_slider`).
    async fn content(&self, p: &DemoProject, id: ProjectId) -> anyhow::Result<()> {
        store::attach_slider(&self.pool, id, p.slider.iter().map(|(src, _)| src.clone()).collect()).await?;
        let stored = self.editing.contents.content(id).await.map_err(|e| refused("content", &p.slug, e))?;
        let texts = ContentTexts {
            honor_img_link: p.honor_img_link.clone(),
            slider: stored
                .slider
                .iter()
                .zip(&p.slider)
                .map(|(image, (_, alt))| SliderEdit { id: image.id, alt: alt.clone() })
                .collect(),
            owner: p.owner.as_ref().map(|o| OwnerTexts {
                name: o.name.clone(),
                profile: o.profile.clone().unwrap_or_default(),
                links: o
                    .links
                    .iter()
                    .map(|(label, url)| OwnerLink { label: label.clone(), url: url.clone() })
                    .collect(),
            }),
            faqs: p.faqs.iter().map(|(q, a)| FaqEntry { question: q.clone(), answer: a.clone() }).collect(),
        };
        let ids: Vec<i64> = stored.slider.iter().map(|s| s.id).collect();
        if check_content(texts.clone(), &ids).is_ok_and(|checked| content_holds(&stored, &checked)) {
            return Ok(());
        }
        self.editing.contents.save(self.admin, id, texts).await.map_err(|e| refused("content", &p.slug, e))?;
        Ok(())
    }

    /// The news, public and not mailed. When the stored items are not the demo's (by title and body), they are
    /// deleted and the demo's written again; their dates are the demo's calendar (`store::history`).
    async fn news(&self, p: &DemoProject, id: ProjectId) -> anyhow::Result<()> {
        let html = AmmoniaSanitizer::default();
        let mut wanted: Vec<(String, String)> =
            p.news.iter().map(|n| (n.title.clone(), html.sanitize(&n.description))).collect();
        let stored = self.editing.news.list(id).await.map_err(|e| refused("news", &p.slug, e))?;
        let mut have: Vec<(String, String)> = stored
            .iter()
            .filter(|v| {
                v.news.published_at.is_some()
                    && v.news.terms.audience == NewsAudience::Public
                    && !v.news.terms.mail_supporters
            })
            .map(|v| (v.news.terms.title.clone(), v.news.terms.body.clone()))
            .collect();
        wanted.sort();
        have.sort();
        if have == wanted && stored.len() == wanted.len() {
            return Ok(());
        }
        for item in &stored {
            self.editing.news.delete(self.admin, id, item.news.id).await.map_err(|e| refused("news", &p.slug, e))?;
        }
        // Oldest first, as they were written.
        let mut items: Vec<_> = p.news.iter().collect();
        items.sort_by_key(|n| std::cmp::Reverse(n.days_ago));
        for n in items {
            let form = NewsForm {
                terms: NewsTerms {
                    title: n.title.clone(),
                    body: n.description.clone(),
                    audience: NewsAudience::Public,
                    mail_supporters: false,
                },
                publish: true,
                publish_at: None,
            };
            self.editing.news.create(self.admin, id, form).await.map_err(|e| refused("news", &p.slug, e))?;
        }
        Ok(())
    }

    /// The manual sponsor list, in the demo's order within each course. When the stored list is not the demo's,
    /// every entry is deleted and the demo's written again: supporters (names only) through the sponsor screen's
    /// use case, course A to C entries (SVG logos, which its upload refuses) checked by the same rule and added
    /// with their logo by URL (`store::add_manual_sponsor`).
    async fn manual_sponsors(&self, p: &DemoProject, id: ProjectId, today: NaiveDate) -> anyhow::Result<()> {
        let mut wanted = Vec::new();
        for s in &p.manual_sponsors {
            let form = ManualSponsorForm {
                course: s.course.code().to_string(),
                name: s.name.clone(),
                link: s.link.clone().unwrap_or_default(),
                amount: s.amount.map(|a| a.to_string()).unwrap_or_default(),
                latest_date: String::new(),
            };
            let logo = if s.logo_src.is_some() { Logo::Stored } else { Logo::None };
            let sponsor =
                check_manual_sponsor(&form, logo, today).map_err(|e| refused("manual sponsor", &p.slug, e))?;
            wanted.push((form, sponsor, s.logo_src.clone()));
        }
        let stored = self.editing.sponsors.list(id).await.map_err(|e| refused("manual sponsors", &p.slug, e))?;
        let same = stored.entries.len() == wanted.len()
            && stored
                .entries
                .iter()
                .zip(&wanted)
                .all(|(e, (_, sponsor, logo))| e.sponsor == *sponsor && e.logo_src == *logo);
        if same {
            return Ok(());
        }
        for entry in &stored.entries {
            self.editing
                .sponsors
                .delete(self.admin, id, entry.id)
                .await
                .map_err(|e| refused("manual sponsors", &p.slug, e))?;
        }
        for (form, sponsor, logo) in wanted {
            if sponsor.course.shows_logo() {
                store::add_manual_sponsor(&self.pool, id, sponsor, logo).await?;
            } else {
                self.editing
                    .sponsors
                    .create(self.admin, id, form, None)
                    .await
                    .map_err(|e| refused("manual sponsor", &p.slug, e))?;
            }
        }
        Ok(())
    }
}
