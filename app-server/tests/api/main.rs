//! The HTTP API through the real wiring: each test gets its own database and
//! port. Needs the local services (`app-server/dev/services.sh up`).
// Helpers outside #[test] functions panic on purpose: a failed setup is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod access;
mod admin;
mod admin_content;
mod admin_projects;
mod backing;
mod campaign;
mod cards;
mod catalog;
mod comments;
mod deliveries;
mod demo;
mod discovery;
mod email_change;
mod extra_amount;
mod favourites;
mod follow_mail;
mod headers;
mod health;
mod helpers;
mod inputs;
mod integrity;
mod konbini;
mod late_transfers;
mod login;
mod mail_queue;
mod manual_sponsors;
mod mass_mail;
mod monthly;
mod news;
mod pages;
mod password;
mod profile;
mod project_page;
mod provider;
mod rate_limits;
mod receipts;
mod refunds;
mod seo;
mod signup;
mod sponsors;
