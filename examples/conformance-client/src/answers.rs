//! What this headless client is and answers: its configuration (capabilities, identity, the
//! handler of input requests: accept with the form's defaults (`mcp_client::elicit`), a canned
//! sampling reply, one root).

use mcp_client::elicit::accept_with_defaults;
use mcp_client::headless::Declared;

use crate::{Mcp, mcp};

/// The answer to one input request, in either era (a legacy server's request is read as the
/// modern input request it stands for): the form's defaults, a canned sampling reply, one root.
pub fn respond(request: &mcp::InputRequest) -> mcp::InputResponse {
    match request {
        mcp::InputRequest::ElicitRequest(e) => accept_with_defaults::<Mcp>(e).into(),
        mcp::InputRequest::CreateMessageRequest(_) => {
            let text = mcp::TextContent::new("A canned answer from the conformance client.");
            let content = mcp::SamplingMessageContentBlock::from(text);
            mcp::CreateMessageResult::new(content, "mcp-conformance-client", mcp::Role::Assistant)
                .with_stop_reason("endTurn")
                .into()
        }
        mcp::InputRequest::ListRootsRequest(_) => {
            let root = mcp::Root::new("file:///workspace").with_name("workspace");
            mcp::ListRootsResult::new(vec![root]).into()
        }
    }
}

/// Who this client is, in `_meta` (modern) and in `initialize` (legacy).
fn client_info() -> mcp::Implementation {
    mcp::Implementation::new("mcp-conformance-client", env!("CARGO_PKG_VERSION"))
        .with_title("mcp-codegen conformance client")
}

/// The client's configuration: its capabilities, its name, [`respond`] for every input
/// request, in either era, and its log on stderr (the interop scripts read it).
pub fn config() -> mcp_client::Config<Mcp> {
    // It answers form and URL elicitations, sampling (no tools) and roots.
    let capabilities = mcp_client::headless::capabilities::<Mcp>(Declared::ALL);
    mcp_client::Config::new(capabilities, client_info(), respond)
        .with_log(|line| eprintln!("{line}"))
}
