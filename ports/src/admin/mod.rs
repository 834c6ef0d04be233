//! The administrators' side: the audit log every admin action writes to
//! (refunds, mass mail, resent registration mails) and the dashboard reads,
//! and the dashboard's figures, the authoring of projects and the moderation of
//! what supporters post.

pub mod audit;
pub mod content;
pub mod dashboard;
pub mod deliveries;
pub mod mass_mail;
pub mod moderation;
pub mod news;
pub mod projects;
pub mod refunds;
pub mod settings;
pub mod sponsors;
pub mod supporter_names;
