//! The binding the tests use, and a headless client's answers: accept an elicitation with the
//! form's defaults (`mcp_client::elicit`), a canned sampling reply, one root.

use mcp_client_test_types::mcp;

use crate::{Client, Config};

#[cfg(not(feature = "skills"))]
crate::bind!(Mcp = mcp);
#[cfg(feature = "skills")]
crate::bind!(Mcp = mcp, skills);

/// The name the test client gives itself.
pub(crate) const CLIENT_NAME: &str = "mcp-client-tests";

/// The answer to one input request, in either era.
pub(crate) fn respond(request: &mcp::InputRequest) -> mcp::InputResponse {
    match request {
        mcp::InputRequest::ElicitRequest(e) => crate::elicit::accept_with_defaults::<Mcp>(e).into(),
        mcp::InputRequest::CreateMessageRequest(_) => {
            let content = mcp::SamplingMessageContentBlock::from(mcp::TextContent::new("canned"));
            mcp::CreateMessageResult::new(content, CLIENT_NAME, mcp::Role::Assistant)
                .with_stop_reason("endTurn")
                .into()
        }
        mcp::InputRequest::ListRootsRequest(_) => mcp::ListRootsResult::new(vec![
            mcp::Root::new("file:///workspace").with_name("workspace"),
        ])
        .into(),
    }
}

/// Form and URL elicitation, sampling, roots.
fn capabilities() -> mcp::ClientCapabilities {
    mcp::ClientCapabilities::new()
        .with_elicitation(
            mcp::ClientCapabilitiesElicitation::new()
                .with_form(mcp::JSONObject::new())
                .with_url(mcp::JSONObject::new()),
        )
        .with_roots(serde_json::Map::new())
        .with_sampling(mcp::ClientCapabilitiesSampling::new())
}

/// The tests' configuration.
pub(crate) fn config() -> Config<Mcp> {
    Config::new(
        capabilities(),
        mcp::Implementation::new(CLIENT_NAME, "0.1.0"),
        respond,
    )
    .with_log(|line| eprintln!("{line}"))
}

/// A client of `url` with the tests' configuration.
pub(crate) fn client(url: &str) -> Client<Mcp> {
    Client::new(url, config()).unwrap()
}
