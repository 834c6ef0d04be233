//! The public project list (`/projects/`): what its address may ask for,
//! checked once here, and the page it answers. The filtering and ordering
//! run over the public projects in memory (`CatalogService::list`), so a
//! keyword costs a substring scan of the already folded index texts.

use domain::discovery::{is_slug_shaped, ListSort, ListState, MAX_LIST_PAGE};
use domain::search::{QueryError, SearchQuery};

use super::repository::ProjectRecord;
use super::views::ProjectCard;

/// What the list shows: every filter is optional, the default is every
/// public project, newest first, page 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery {
    /// An area's slug; a well-formed slug no area has finds nothing.
    pub area: Option<String>,
    /// A category's slug; a well-formed slug no category has finds nothing.
    pub category: Option<String>,
    pub state: ListState,
    pub sort: ListSort,
    /// `None` = no keyword (a blank one too).
    pub keyword: Option<SearchQuery>,
    /// 1-based, at most `MAX_LIST_PAGE`.
    pub page: u32,
}

impl Default for ListQuery {
    fn default() -> Self {
        Self {
            area: None,
            category: None,
            state: ListState::default(),
            sort: ListSort::default(),
            keyword: None,
            page: 1,
        }
    }
}

/// The list's address as sent; an empty value is the same as none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawListQuery<'a> {
    pub area: Option<&'a str>,
    pub category: Option<&'a str>,
    pub state: Option<&'a str>,
    pub sort: Option<&'a str>,
    pub q: Option<&'a str>,
    pub page: Option<u32>,
}

/// Which parameter of the address was refused, with the message to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ListQueryError {
    #[error("地域の指定が正しくありません。")]
    Area,
    #[error("カテゴリーの指定が正しくありません。")]
    Category,
    #[error("募集状況の指定が正しくありません。")]
    State,
    #[error("並び順の指定が正しくありません。")]
    Sort,
    #[error("ページは1から1000の間で指定してください。")]
    Page,
    #[error("{0}")]
    Keyword(QueryError),
}

impl ListQueryError {
    /// The address parameter it belongs to.
    pub fn field(self) -> &'static str {
        match self {
            Self::Area => "area",
            Self::Category => "category",
            Self::State => "state",
            Self::Sort => "sort",
            Self::Page => "page",
            Self::Keyword(_) => "q",
        }
    }
}

impl ListQuery {
    /// Reads the address: slugs must be slug-shaped (`is_slug_shaped`),
    /// `state` one of `open`, `ended`, `all`, `sort` one of `new`, `raised`,
    /// `backers`, `ending`, `page` within 1..=`MAX_LIST_PAGE`, and the keyword
    /// at most 100 characters (`SearchQuery::parse`).
    pub fn parse(raw: RawListQuery<'_>) -> Result<Self, ListQueryError> {
        let given = |value: Option<&str>| value.filter(|v| !v.is_empty()).map(str::to_string);
        let slug = |value: Option<&str>, error| match given(value) {
            Some(slug) if !is_slug_shaped(&slug) => Err(error),
            other => Ok(other),
        };
        let area = slug(raw.area, ListQueryError::Area)?;
        let category = slug(raw.category, ListQueryError::Category)?;
        let state = match given(raw.state) {
            Some(code) => ListState::parse(&code).ok_or(ListQueryError::State)?,
            None => ListState::default(),
        };
        let sort = match given(raw.sort) {
            Some(code) => ListSort::parse(&code).ok_or(ListQueryError::Sort)?,
            None => ListSort::default(),
        };
        let keyword = SearchQuery::parse(raw.q.unwrap_or_default()).map_err(ListQueryError::Keyword)?;
        let page = raw.page.unwrap_or(1);
        if !(1..=MAX_LIST_PAGE).contains(&page) {
            return Err(ListQueryError::Page);
        }
        Ok(Self { area, category, state, sort, keyword, page })
    }

    /// Whether `project` passes the area, category and keyword filters (the
    /// state depends on the day: `ListState::admits`).
    pub(super) fn places_and_words_admit(&self, project: &ProjectRecord) -> bool {
        let slug_is = |wanted: &Option<String>, taxon: &Option<super::repository::Taxon>| match wanted {
            Some(wanted) => taxon.as_ref().is_some_and(|t| &t.slug == wanted),
            None => true,
        };
        slug_is(&self.area, &project.area)
            && slug_is(&self.category, &project.category)
            && self.keyword.as_ref().is_none_or(|k| k.matches(&project.search_text))
    }
}

/// One page of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectPage {
    /// At most `page_size`, in the asked order.
    pub cards: Vec<ProjectCard>,
    /// How many projects pass the filters (on every page).
    pub total: usize,
    pub page: u32,
    pub page_size: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_address_is_every_project_newest_first_on_page_one() {
        assert_eq!(ListQuery::parse(RawListQuery::default()), Ok(ListQuery::default()));
        let blank =
            RawListQuery { area: Some(""), state: Some(""), sort: Some(""), q: Some("　"), ..Default::default() };
        assert_eq!(ListQuery::parse(blank), Ok(ListQuery::default()));
    }

    #[test]
    fn every_parameter_is_read() {
        let raw = RawListQuery {
            area: Some("maebashi"),
            category: Some("culture-arts"),
            state: Some("open"),
            sort: Some("ending"),
            q: Some("ﾊﾞﾗ 花壇"),
            page: Some(2),
        };
        let query = ListQuery::parse(raw).unwrap();
        assert_eq!((query.area.as_deref(), query.category.as_deref()), (Some("maebashi"), Some("culture-arts")));
        assert_eq!((query.state, query.sort, query.page), (ListState::Open, ListSort::Ending, 2));
        assert_eq!(query.keyword.unwrap().words(), ["ばら", "花壇"]);
    }

    #[test]
    fn each_bad_parameter_is_refused_with_its_name_and_message() {
        let cases = [
            (RawListQuery { area: Some("前橋"), ..Default::default() }, "area", "地域の指定が正しくありません。"),
            (
                RawListQuery { category: Some("A b"), ..Default::default() },
                "category",
                "カテゴリーの指定が正しくありません。",
            ),
            (
                RawListQuery { state: Some("closed"), ..Default::default() },
                "state",
                "募集状況の指定が正しくありません。",
            ),
            (RawListQuery { sort: Some("amount"), ..Default::default() }, "sort", "並び順の指定が正しくありません。"),
            (RawListQuery { page: Some(0), ..Default::default() }, "page", "ページは1から1000の間で指定してください。"),
            (
                RawListQuery { page: Some(MAX_LIST_PAGE + 1), ..Default::default() },
                "page",
                "ページは1から1000の間で指定してください。",
            ),
        ];
        for (raw, field, message) in cases {
            let error = ListQuery::parse(raw.clone()).unwrap_err();
            assert_eq!((error.field(), error.to_string().as_str()), (field, message), "{raw:?}");
        }
        let long = "あ".repeat(101);
        let error = ListQuery::parse(RawListQuery { q: Some(&long), ..Default::default() }).unwrap_err();
        assert_eq!((error.field(), error.to_string()), ("q", domain::search::MSG_QUERY_TOO_LONG.to_string()));
        assert!(ListQuery::parse(RawListQuery { page: Some(MAX_LIST_PAGE), ..Default::default() }).is_ok());
    }
}
