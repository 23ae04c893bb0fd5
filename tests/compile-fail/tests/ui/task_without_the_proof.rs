// A server cannot answer tools/call with a task without the proof that the client advertised
// the tasks extension on that request: the outcome's Task variant holds a Granted result, which
// only Advertised::grant builds.
use mcp_runtime::Respond;
use mcp_compile_fail::tasks as mcp;

fn answer(request: &mcp::CallToolRequest, created: mcp::CreateTaskResult) {
    let _ = request.respond(created.clone());
    let _ = mcp::CallToolOutcome::Task(created);
}

fn main() {}
