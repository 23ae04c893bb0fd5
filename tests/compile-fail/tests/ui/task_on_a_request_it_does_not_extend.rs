// The tasks extension extends tools/call only: a proof of it grants nothing another request
// (prompts/get) can answer with.
use mcp_runtime::Respond;
use mcp_runtime::extension::Advertised;
use mcp_compile_fail::tasks as mcp;

fn answer(request: &mcp::GetPromptRequest, created: mcp::CreateTaskResult) {
    let caps = &request.params.meta.client_capabilities;
    let Some(tasks) = Advertised::<mcp::TasksExtension>::check(caps) else { return };
    let _ = request.respond(tasks.grant(created));
}

fn main() {}
