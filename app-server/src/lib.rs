//! Wiring: configuration, telemetry, the concrete adapters and the HTTP server.

pub mod assets;
pub mod config;
pub mod csp;
#[cfg(feature = "demo")]
pub mod demo;
pub mod editing;
pub mod first_screen;
pub mod media;
pub mod startup;
pub mod telemetry;
pub mod workers;
