//! Connects to a protected MCP server as a desktop host does: the first 401 runs the OAuth
//! flow, the authorization URL is printed for the user to open, and the browser's return is
//! read on a loopback port; then the server's tools are listed with the token.
//!
//! `cargo run -p mcp-client --example authorize -- https://mcp.example.com/mcp`
//!
//! The README's "Authorization" section shows the lines between the `readme-fence` marks
//! (tests/tests/readme.rs keeps its copy equal to them).

use mcp_client_test_types::mcp;

mcp_client::bind!(Mcp = mcp);

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: authorize <server-url>");
        std::process::exit(2);
    };
    let info = mcp::Implementation::new("authorize-example", "1.0.0");
    let decline =
        |_: &mcp::InputRequest| mcp::ElicitResult::new(mcp::ElicitResultAction::Decline).into();
    let config = mcp_client::Config::<Mcp>::new(mcp::ClientCapabilities::new(), info, decline);
    // readme-fence: auth-client
    use mcp_client::auth::{Authorizer, Loopback, Settings};

    // The user-agent step: print the URL (a host opens the browser), read the return on
    // http://127.0.0.1:<free port>/callback.
    let browser = Loopback::bind(0, |url| eprintln!("open {url} to authorize"))?;
    let settings = Settings::new("my-host", browser)
        .with_client_metadata_url("https://my-host.example/oauth/client.json");
    let config = config.with_authorizer(Authorizer::new(settings)?);
    let mut client = mcp_client::Client::new(&url, config)?;
    client.connect().await?; // a 401 runs the flow, then the request goes again with the token
    // end of readme-fence
    for tool in client.list_all_tools().await? {
        println!("{}", tool.name);
    }
    client.close().await;
    Ok(())
}
