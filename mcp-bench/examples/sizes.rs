//! Prints the sizes of the generated types on the benchmarks' paths (moves cost their size).
use mcp_bench::mcp::*;

macro_rules! sizes {
    ($($t:ty),* $(,)?) => { $( println!("{:>6} {}", std::mem::size_of::<$t>(), stringify!($t)); )* };
}

fn main() {
    sizes!(
        ContentBlock,
        TextContent,
        ImageContent,
        ResourceLink,
        EmbeddedResource,
        CallToolResult,
        InputRequiredResult,
        CallToolOutcome,
        CallToolResultResponse,
        ResultMetaObject,
        MetaObject,
        Annotations,
        mcp_runtime::Extra,
        serde_json::Value,
        Tool,
        ListToolsResultResponse,
        CallToolRequest,
        CallToolRequestParams,
        RequestMetaObject,
        ClientCapabilities,
        InputRequest,
        ElicitRequest,
        CreateMessageRequest,
        Implementation,
        RequestId,
    );
}
