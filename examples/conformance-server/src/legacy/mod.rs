//! This server's legacy (2025-11-25) sessions: `mcp_server::legacy` serves them (the era of a
//! POST, `initialize`, a session's messages converted and answered by the same handlers
//! through the bridge, its resumable streams, `DELETE`, the stdio session, and on a session's
//! `GET` stream, or over stdio its output, the list changes and the updates of the resources
//! it subscribed to); what is this server's own is its session table, its configuration and
//! its changes.

use crate::{App, Mcp};
use mcp_server::changes::Changes;
use mcp_server::legacy::LegacyService;

/// This server's legacy sessions (`mcp_server::legacy::Sessions`).
pub type Sessions = mcp_server::legacy::Sessions<Mcp>;

impl LegacyService<Mcp> for App {
    fn sessions(&self) -> &Sessions {
        &self.sessions
    }

    fn config(&self) -> &mcp_server::Config {
        &self.config
    }

    fn changes(&self) -> Option<&Changes> {
        Some(&self.changes)
    }
}
