// For agents without HTTP MCP: our MCP server as a stdio server the agent
// starts itself. The command is the app's own runtime (Obsidian's Electron as
// Node, or Node) running this small script, which posts each JSON-RPC line to
// the loopback listener with the session's token (from its environment, not
// its arguments) and prints the answers, one per line. Only Node built-ins.

export const STDIO_BRIDGE_SCRIPT = `
const http = require("http");
const url = new URL(process.env.VAULT_AGENT_MCP_URL);
const auth = process.env.VAULT_AGENT_MCP_AUTH;
let session = null;
let chain = Promise.resolve();
let buffer = "";
const out = (text) => process.stdout.write(text + "\\n");
function post(line) {
	return new Promise((done) => {
		const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: auth };
		if (session) headers["mcp-session-id"] = session;
		const request = http.request(url, { method: "POST", headers }, (response) => {
			if (response.headers["mcp-session-id"]) session = response.headers["mcp-session-id"];
			let text = "";
			response.setEncoding("utf8");
			response.on("data", (chunk) => (text += chunk));
			response.on("end", () => {
				if (String(response.headers["content-type"] || "").includes("event-stream")) {
					for (const l of text.split("\\n")) if (l.startsWith("data: ")) out(l.slice(6));
				} else if (text.trim()) out(text.trim());
				done();
			});
		});
		request.on("error", (error) => {
			try {
				const message = JSON.parse(line);
				if (message.id !== undefined) out(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: String(error.message) } }));
			} catch {}
			done();
		});
		request.end(line);
	});
}
process.stdin.setEncoding("utf8");
process.stdin.on("data", (data) => {
	buffer += data;
	let end;
	while ((end = buffer.indexOf("\\n")) >= 0) {
		const line = buffer.slice(0, end).trim();
		buffer = buffer.slice(end + 1);
		if (!line) continue;
		// Until initialize has answered (and named the session) one at a time; then side by side.
		if (session) void post(line);
		else chain = chain.then(() => post(line));
	}
});
process.stdin.on("end", () => chain.then(() => process.exit(0)));
`;
