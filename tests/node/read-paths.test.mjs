// Issue 36, items 2 and 4, through the BUILT main.js, the CLI emulator and a
// scripted model server on localhost: a path the user attached, or one a
// stored chat carries, is checked in the form it is read (`..`, `./`, `//`,
// `\` resolved first), one that climbs out of the vault is refused with what
// to do, and a read whose real path a symbolic link carries out of the read
// folders or out of the vault is refused. The model's requests never hold the
// name or the bytes of a note outside the read folders.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const SECRET = "swordfish-in-the-diary";
const PICTURE = Buffer.from("\x89PNG\r\n\x1a\nsecret-picture-bytes", "latin1");

describe("paths from the user, stored chats and symbolic links (the built main.js)", () => {
	let vault;
	let outside;
	let plugin;
	let server;

	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		outside = mkdtempSync(join(tmpdir(), "vault-agent-outside-"));
		writeFileSync(join(vault, "Ideas", "Diary.md"), `# Diary\n\n${SECRET}\n`);
		writeFileSync(join(vault, "Ideas", "pic.png"), PICTURE);
		writeFileSync(join(outside, "Elsewhere.md"), `# Elsewhere\n\n${SECRET}\n\n- [ ] ${SECRET} task\n`);
		mkdirSync(join(vault, "Projects", "Prompts"));
		writeFileSync(join(vault, "Projects", "Prompts", "About.md"), "Summarise {{note}}.\n");
		// Inside the read folder, leading out of it and out of the vault.
		symlinkSync(join(vault, "Ideas", "Diary.md"), join(vault, "Projects", "Linked diary.md"));
		symlinkSync(join(vault, "Ideas"), join(vault, "Projects", "Linked ideas"));
		symlinkSync(join(outside, "Elsewhere.md"), join(vault, "Projects", "Linked elsewhere.md"));
		symlinkSync(outside, join(vault, "Projects", "Linked folder"));
		symlinkSync(join(vault, "Ideas", "pic.png"), join(vault, "Projects", "pic.png"));
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", contextWindow: 32000, apiKeySecret: "", images: true }], activeProfile: "p", promptsFolder: "Projects/Prompts" };
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, readFolders: ["Projects"], chat } }));
	});
	after(async () => {
		plugin.unload();
		await server.close();
		removeVault(vault);
		rmSync(outside, { recursive: true, force: true });
	});

	/** One turn; the model's requests it made, as text. */
	async function turn(conversation, text, attachments, replies = [openaiStream({ text: "Noted." })]) {
		const before = server.requests.length;
		server.script(...replies.map((stream) => ({ stream })));
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event), attachments);
		const requests = server.requests.slice(before).filter((r) => r.method === "POST");
		return { ...result, events, bodies: requests.map((r) => JSON.stringify(r.body)) };
	}

	function assertNothingSecret(bodies) {
		assert.ok(bodies.length > 0, "the model was asked");
		for (const body of bodies) {
			for (const secret of [SECRET, "Diary", "Ideas", "pic.png", PICTURE.toString("base64"), "Elsewhere", ".."]) {
				assert.ok(!body.includes(secret), `${secret} reached the model: ${body.slice(0, 2000)}`);
			}
		}
	}

	it("names an attached note, and sends an attached image, only as resolved inside the read folders", async () => {
		const { end, bodies, conversation } = await turn(plugin.core.newConversation(), "compare these", [
			{ path: "Projects/../Ideas/Diary.md", selection: SECRET },
			{ path: "Projects\\..\\Ideas\\pic.png" },
			{ path: "./Projects//Roadmap.md" },
			{ path: "Projects\\Launch plan.md" },
		]);
		assert.equal(end, "done");
		assertNothingSecret(bodies);
		const user = JSON.parse(bodies[0]).messages.at(-1).content;
		const text = typeof user === "string" ? user : user[0].text;
		assert.match(text, /\n- Projects\/Roadmap\.md/);
		assert.match(text, /\n- Projects\/Launch plan\.md/);
		assert.match(text, /1 more attached note is in a folder the agent may not read/);
		assert.match(text, /1 attached image\(s\) in folders the agent may not read/);
		assert.deepEqual(
			conversation.messages[0].attachments.map((a) => a.path),
			["Ideas/Diary.md", "Ideas/pic.png", "Projects/Roadmap.md", "Projects/Launch plan.md"],
			"kept as checked",
		);
	});

	it("refuses an attachment that climbs out of the vault, says how to fix it, and sends nothing", async () => {
		const before = server.requests.length;
		const events = [];
		const { end, conversation } = await plugin.core.chatSend(plugin.core.newConversation(), "read it", (e) => events.push(e), [{ path: "Projects/../../etc/passwd" }]);
		assert.equal(end, "failed");
		const error = events.find((e) => e.type === "error");
		assert.equal(error.code, "not_sent");
		assert.match(error.message, /climbs out of the vault/);
		assert.match(error.message, /such as "Projects\/Plan\.md"/);
		assert.equal(server.requests.length, before, "nothing reached the model");
		assert.equal(conversation.messages.filter((m) => m.role === "user").length, 0);
	});

	it("names nothing outside the read folders from a stored chat that carries such paths", async () => {
		const stored = plugin.core.newConversation();
		stored.messages.push(
			{ role: "user", text: "earlier", attachments: [{ path: "Projects/../Ideas/Diary.md", selection: SECRET }, { path: "Projects\\..\\Ideas\\pic.png" }, { path: "../../Elsewhere.md" }, { path: "Projects//./Roadmap.md" }] },
			{ role: "assistant", text: "Noted.", toolCalls: [] },
		);
		const { end, bodies } = await turn(stored, "and now?");
		assert.equal(end, "done");
		assertNothingSecret(bodies);
		assert.match(bodies[0], /- Projects\/Roadmap\.md/);
		assert.match(bodies[0], /2 more attached notes are in folders the agent may not read/);
	});

	it("refuses a read that a symbolic link carries out of the read folders or out of the vault", async () => {
		for (const path of ["Projects/Linked diary.md", "Projects/Linked ideas/Diary.md", "Projects/Linked elsewhere.md", "Projects/Linked folder/Elsewhere.md"]) {
			const result = await plugin.core.callTool("obsidianNotes", { command: "read", path });
			assert.equal(result.ok, false, `${path}: ${result.text}`);
			assert.equal(result.error.code, "read_through_link", path);
			assert.match(result.error.message, /symbolic link/);
			assert.ok(!JSON.stringify(result).includes(SECRET), path);
			assert.ok(!result.error.message.includes(outside) && !result.error.message.includes("Ideas"), result.error.message);
		}
		// A plain note beside the links is read as always.
		const plain = await plugin.core.callTool("obsidianNotes", { command: "read", path: "Projects/Roadmap.md" });
		assert.equal(plain.ok, true, JSON.stringify(plain.error));
		// The model asks for a linked note: it is told no, never given the text.
		const { end, bodies } = await turn(plugin.core.newConversation(), "what does the linked note say?", [], [
			openaiStream({ toolCalls: [["obsidianNotes", { command: "read", path: "Projects/Linked elsewhere.md" }]] }),
			openaiStream({ text: "I may not read it." }),
		]);
		assert.equal(end, "done");
		assert.equal(bodies.length, 2);
		assert.ok(!bodies[1].includes(SECRET), bodies[1]);
		assert.match(bodies[1], /read_through_link/);
	});

	it("never sends an attached image whose link leads out of the read folders", async () => {
		const { end, bodies } = await turn(plugin.core.newConversation(), "what is this?", [{ path: "Projects/pic.png" }]);
		assert.equal(end, "done");
		assert.ok(!bodies[0].includes(PICTURE.toString("base64")), "the picture's bytes stayed home");
		assert.match(bodies[0], /1 attached image\(s\) in folders the agent may not read/);
	});

	/** What a listing or search shows must hold nothing that lies behind a link out. */
	function assertNothingLinkedOut(label, result, withheld) {
		assert.equal(result.ok, true, `${label}: ${JSON.stringify(result.error)}`);
		for (const secret of [SECRET, ...withheld]) assert.ok(!result.text.includes(secret), `${label} shows ${secret}: ${result.text}`);
	}

	const listings = [
		["search:context", "obsidianSearch", { command: "search:context", query: "swordfish" }],
		["search", "obsidianSearch", { command: "search", query: "swordfish" }],
		["tasks", "obsidianTasks", { command: "tasks", all: true, todo: true, verbose: true }],
		["files", "obsidianNotes", { command: "files", folder: "Projects" }],
		["find", "obsidianSearch", { command: "find", query: "swordfish in the diary" }],
	];

	it("lists and finds nothing behind a link out of the read folders or the vault", async () => {
		for (const [label, tool, args] of listings) {
			const result = await plugin.core.callTool(tool, args);
			assertNothingLinkedOut(label, result, ["Linked diary", "Linked ideas", "Linked elsewhere", "Linked folder"]);
		}
		const files = await plugin.core.callTool("obsidianNotes", { command: "files", folder: "Projects" });
		assert.match(files.text, /Projects\/Roadmap\.md/, "the rest is listed");
	});

	it("with no read folders, lists nothing behind a link out of the vault and refuses such a note named by name", async () => {
		await plugin.updateSettings({ readFolders: [] });
		try {
			for (const [label, tool, args] of listings) {
				const result = await plugin.core.callTool(tool, args);
				assert.equal(result.ok, true, `${label}: ${JSON.stringify(result.error)}`);
				assert.ok(!result.text.includes("Linked elsewhere") && !result.text.includes("Linked folder"), `${label}: ${result.text}`);
			}
			const read = await plugin.core.callTool("obsidianNotes", { command: "read", file: "Elsewhere" });
			assert.equal(read.ok, false, read.text);
			assert.equal(read.error.code, "read_through_link");
			assert.ok(!JSON.stringify(read).includes(SECRET));
			// A name inside the vault is read as before.
			const plain = await plugin.core.callTool("obsidianNotes", { command: "read", file: "Roadmap" });
			assert.equal(plain.ok, true, JSON.stringify(plain.error));
		} finally {
			await plugin.updateSettings({ readFolders: ["Projects"] });
		}
	});

	it("never names in a saved prompt's {{note}} an open note outside the read folders", async () => {
		for (const note of ["Ideas/Diary.md", "Projects/../Ideas/Diary.md", "Projects/Linked diary.md", "Projects/Linked folder/Elsewhere.md"]) {
			const before = server.requests.length;
			const events = [];
			const { end } = await plugin.core.chatSend(plugin.core.newConversation(), "", (e) => events.push(e), undefined, { prompt: "Projects/Prompts/About.md", values: { note, date: "2026-12-01" } });
			assert.equal(end, "failed", note);
			const error = events.find((e) => e.type === "error");
			assert.match(error.message, /outside the folders the agent may read/);
			assert.match(error.message, /Add its folder to Folders the agent may read/);
			assert.equal(server.requests.length, before, `${note}: nothing reached the model`);
		}
		// A note inside is named as it resolves.
		const before = server.requests.length;
		server.script({ stream: openaiStream({ text: "Done." }) });
		const { end } = await plugin.core.chatSend(plugin.core.newConversation(), "", () => {}, undefined, { prompt: "Projects/Prompts/About.md", values: { note: "Projects/./Roadmap.md", date: "2026-12-01" } });
		assert.equal(end, "done");
		const body = JSON.stringify(server.requests.slice(before).find((r) => r.method === "POST").body);
		assert.match(body, /Summarise Projects\/Roadmap\.md\./);
	});
});
