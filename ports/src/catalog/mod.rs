//! The public side: project lists and pages, paid totals, sponsor walls,
//! news and comments.

mod list;
mod repository;
mod service;
mod views;

pub use list::{ListQuery, ListQueryError, ProjectPage, RawListQuery};
#[cfg(any(test, feature = "mocks"))]
pub use repository::MockCatalogRepository;
pub use repository::{
    AdditionalData, BankAccount, CatalogRepository, CloseResult, CommentRecord, Faq, ManualSponsorRecord, NewsItem,
    OwnerLink, PaidSum, ProjectOwner, ProjectRecord, PublicSaleRecord, ReturnRecord, SliderImage, Taxon, Taxonomy,
};
#[cfg(any(test, feature = "mocks"))]
pub use service::MockCatalog;
pub use service::{Catalog, CatalogError, CatalogService, CommentUpdateError, PUBLIC_SALES_LIMIT};
pub use views::{
    CommentView, FooterSponsors, ManualCourses, ManualLogo, NewsView, ProjectCard, ProjectDetail, PublicSale,
    ReturnView, SponsorList, SumTarget, WallSponsor,
};

#[cfg(test)]
mod tests;
