#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The HTTP API through the real wiring: each test gets its own database and
//! port. Needs the local services (`app-server/dev/services.sh up`).

mod health;
mod helpers;
mod login;
mod password;
mod profile;
mod signup;
