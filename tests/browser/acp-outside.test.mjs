// A coding agent (ACP) calls a tool of the user's own MCP server that asks
// before calls, in Chromium from the built main.js: the scripted SDK agent
// (tests/support/acp-agent.mjs, a real process) finds the tool on Vault
// Agent's MCP server (the page's listener, served for real with `listen`)
// and calls it there; a real Streamable HTTP server written with the official
// SDK (tests/support/outside-mcp-server.mjs) logs what it receives. The card
// shows in the modal with Approve once, Approve for this chat and Reject, and
// the server gets the call only after a real click. Leaves
// test-output/acp-outside-card.png and acp-outside-card-narrow.png.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv, root } from "../support/harness.mjs";

const AGENT = join(root, "tests/support/acp-agent.mjs");
const SERVER = join(root, "tests/support/outside-mcp-server.mjs");

describe("a coding agent's call of the user's MCP server behind our card, in Chromium", () => {
	let session;
	let page;
	let mcp;
	let dir;
	let logPath;
	const deleted = () => (existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []).filter((e) => e.tool === "delete_item").map((e) => e.id);

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), "acp-outside-browser-"));
		logPath = join(dir, "calls.jsonl");
		mcp = spawn(process.execPath, [SERVER, "http"], { env: { ...process.env, OUTSIDE_MCP_LOG: logPath }, stdio: ["ignore", "pipe", "inherit"] });
		const url = await new Promise((done) => mcp.stdout.on("data", (chunk) => done(`http://127.0.0.1:${/port (\d+)/.exec(String(chunk))[1]}/mcp`)));
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				vaultName: "Sample Vault",
				permissionMode: "askEveryChange",
				acpAgents: { custom: { command: process.execPath, args: [AGENT] } },
				mcpServers: [{ id: "tracker", kind: "http", url, trust: "askEveryCall" }],
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1100, height: 900 },
			listen: true,
		});
		({ page } = session);
		await openChat(page);
		await page.locator(".vault-agent-chat-header select.vault-agent-model").selectOption({ value: "agent:custom" });
	});

	after(async () => {
		await session?.close();
		mcp?.kill();
		rmSync(dir, { recursive: true, force: true });
	});

	it("shows the card in the modal, sends nothing before the click, and the call after Approve once", async () => {
		const note = "Closed as a duplicate of issue 12; the reporter confirmed it. ".repeat(8);
		await sendMessage(page, `call mcp_tracker_delete_item ${JSON.stringify({ id: "issue-7", note })}`);
		const card = page.locator(".modal-container .vault-agent-confirm:has(.vault-agent-confirm-outside)");
		await card.waitFor({ state: "visible", timeout: 20_000 });
		assert.equal(await page.locator(".modal-container .modal-title").textContent(), "Approve this call?", "a call, not a change");
		assert.match(await card.textContent(), /Custom agent wants to call delete_item on the MCP server tracker/);
		assert.equal(await card.locator(".vault-agent-confirm-summary").count(), 0, "what is called is said once, not again as a second title");
		assert.match(await card.locator(".vault-agent-confirm-outside-tags").textContent(), /may be destructive/);
		assert.match(await card.locator("pre").textContent(), /"id": "issue-7"[\s\S]*more characters\)/, "the long note is folded");
		assert.deepEqual(await card.locator(".vault-agent-confirm-buttons button").allTextContents(), ["Approve once", "Approve for this chat", "Reject"]);
		assert.deepEqual(deleted(), [], "nothing is sent before the click");
		await session.screenshot("acp-outside-card");
		// The modal at a narrow window, as beside a sidebar on a small screen.
		await page.setViewportSize({ width: 420, height: 800 });
		const width = await card.evaluate((el) => el.closest(".modal").scrollWidth - el.closest(".modal").clientWidth);
		assert.ok(width <= 0, `nothing in the modal is wider than it: ${width} px over`);
		assert.ok(await card.locator("button", { hasText: "Approve once" }).evaluate((button) => {
			const box = button.getBoundingClientRect();
			const modal = button.closest(".modal").getBoundingClientRect();
			return box.bottom <= modal.bottom && box.top >= modal.top;
		}), "the buttons show without scrolling past the arguments");
		await session.screenshot("acp-outside-card-narrow");
		assert.deepEqual(deleted(), [], "still nothing");
		await card.locator("button", { hasText: "Approve once" }).click();
		await turnEnded(page, 20_000);
		assert.deepEqual(deleted(), ["issue-7"], "the server got the call once, after the click");
		const said = await page.locator(".vault-agent-msg.is-assistant").last().textContent();
		assert.match(said, /Called: <outside-data server="tracker" tool="delete_item">/);
		assert.match(said, /Deleted issue-7\./);
		assert.equal(await page.locator(".modal-container .vault-agent-confirm").count(), 0, "the modal closed");
		assert.deepEqual(session.errors, []);
	});
});
