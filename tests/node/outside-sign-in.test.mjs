// An outside MCP server that asks for an OAuth sign-in, through the BUILT
// main.js: the SDK's sign-in code is left out of the bundle
// (scripts/mcp-sdk-unused.mjs), so the transport's own 401 path must still end
// in the core's "not supported yet" message, with nothing but the one request
// sent and no crash of the chat.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream as stream, startModelServer } from "../support/model-servers.mjs";

describe("an outside MCP server that asks for a sign-in", () => {
	let vault;
	let plugin;
	let model;
	let server;
	const requests = [];

	before(async () => {
		// What an OAuth-protected MCP server answers without a token (the MCP authorization specification).
		server = createServer((request, response) => {
			requests.push(`${request.method} ${request.url} ${request.headers.authorization ?? "no authorization"}`);
			request.resume();
			response.writeHead(401, { "www-authenticate": `Bearer resource_metadata="http://127.0.0.1:${server.address().port}/.well-known/oauth-protected-resource"`, "content-type": "application/json" });
			response.end(JSON.stringify({ error: "invalid_token" }));
		});
		await new Promise((done) => server.listen(0, "127.0.0.1", done));
		model = await startModelServer();
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, permissionMode: "askBeforeEdits", chat: { provider: "openAi", openai: { baseUrl: `${model.url}/v1`, model: "test-model", apiKeySecret: "" } } },
		}));
		await plugin.updateSettings({ mcpServers: [{ id: "locked", kind: "http", url: `http://127.0.0.1:${server.address().port}/mcp`, trust: "askEveryCall" }] });
	});
	after(async () => {
		plugin.unload();
		server.close();
		await model.close();
		removeVault(vault);
	});

	it("Test says the server needs a sign-in, having sent no OAuth request", async () => {
		const listing = await plugin.core.outsideTest("locked");
		assert.equal(listing.ok, false);
		assert.equal(listing.needsSignIn, true, JSON.stringify(listing));
		assert.ok(requests.length >= 1 && requests.every((line) => line.startsWith("POST /mcp ")), requests.join("\n"));
	});

	it("the chat goes on with our tools and says the sign-in is not supported yet", async () => {
		model.script({ stream: stream({ text: "Hello." }) });
		const from = model.requests.length;
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), "hi", (event) => events.push(event));
		assert.equal(result.end, "done");
		const names = model.requests[from].body.tools.map((tool) => tool.function.name);
		assert.ok(names.includes("obsidianNotes") && !names.some((name) => name.startsWith("mcp_locked")), names.join());
		const said = JSON.stringify(events);
		assert.match(said, /asks for a sign-in \(OAuth\), which Vault Agent does not support yet/);
	});
});
