//! Wiring: configuration, telemetry, the concrete adapters and the HTTP server.

pub mod config;
pub mod media;
pub mod startup;
pub mod telemetry;
