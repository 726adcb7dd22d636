// The plugin over the CLI formats that public captures of the real app show
// (the emulator prints them): a task change is previewed from the note itself,
// list properties read one item per line, and Windows line endings change
// nothing the user sees.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../support/harness.mjs";

describe("captured CLI formats through the built main.js", () => {
	let vault;
	let plugin;

	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits" } }));
	});
	after(() => removeVault(vault));

	const approve = (pending) => plugin.confirmations.approve(plugin.core.confirmationCard(pending.id));
	// The undo journal reads the target after a write; the write is the last thing that is not a read.
	const reads = new Set(["read", "file", "property:read", "properties", "daily:path", "daily:read"]);
	const lastWrite = (log) => readLog(log).filter((e) => !reads.has(e.argv[0])).at(-1).argv;

	for (const platform of ["linux", "windows"]) {
		describe(`on ${platform}`, () => {
			it("previews a task change from the note itself, never from `task`'s output", async () => {
				const log = useEmulator(vault, { OBSIDIAN_EMULATOR_PLATFORM: platform });
				const result = await plugin.api.callTool("obsidianTasks", { command: "task", ref: "Projects/Launch plan.md:31", done: true });
				assert.ok(result.pending, result.text);
				assert.deepEqual(result.pending.preview, {
					target: "the task at Projects/Launch plan.md:31",
					before: "- [ ] Draft press release",
					after: "- [x] Draft press release",
				});
				assert.deepEqual(
					readLog(log).map((e) => e.argv),
					[["read", "path=Projects/Launch plan.md"]],
					"only the note was read",
				);
				const done = await approve(result.pending);
				assert.equal(done.ok, true, done.text);
				assert.deepEqual(lastWrite(log), ["task", "ref=Projects/Launch plan.md:31", "done"]);
				const line = readFileSync(join(vault, "Projects/Launch plan.md"), "utf8").split("\n")[30];
				assert.match(line, /^- \[x\] Draft press release/);
				// Put it back for the next platform.
				const undo = await plugin.api.callTool("obsidianTasks", { command: "task", path: "Projects/Launch plan.md", line: 31, todo: true });
				assert.equal(undo.pending.preview.before, "- [x] Draft press release");
				assert.equal((await approve(undo.pending)).ok, true);
			});

			it("previews a task in today's daily note from daily:read", async () => {
				const log = useEmulator(vault, { OBSIDIAN_EMULATOR_PLATFORM: platform });
				const result = await plugin.api.callTool("obsidianTasks", { command: "task", daily: true, line: 9, status: "/" });
				assert.ok(result.pending, result.text);
				assert.deepEqual([result.pending.preview.before, result.pending.preview.after], ["- [ ] Review PR #2181", "- [/] Review PR #2181"]);
				assert.deepEqual(readLog(log).map((e) => e.argv), [["daily:read"]]);
				plugin.core.reject(result.pending.id);
			});

			it("says so when there is no task to preview, and opens no card", async () => {
				const log = useEmulator(vault, { OBSIDIAN_EMULATOR_PLATFORM: platform });
				for (const [line, why] of [
					[999, /the note has \d+ lines/],
					[1, /line 1 is not a task/],
				]) {
					const result = await plugin.api.callTool("obsidianTasks", { command: "task", file: "Launch plan", line, done: true });
					assert.equal(result.pending, undefined);
					assert.equal(result.error?.code, "cli_error", result.text);
					assert.match(result.text, why);
				}
				assert.ok(
					readLog(log).every((e) => e.argv[0] === "read"),
					"nothing but reads ran",
				);
			});

			it("shows list properties one item per line, now and after", async () => {
				const log = useEmulator(vault, { OBSIDIAN_EMULATOR_PLATFORM: platform });
				const read = await plugin.api.callTool("obsidianProperties", { command: "property:read", name: "aliases", file: "Launch plan" });
				assert.equal(read.ok, true, read.text);
				assert.equal(read.text.replace(/\r\n/g, "\n"), "Launch");
				const result = await plugin.api.callTool("obsidianProperties", {
					command: "property:set",
					name: "tags",
					value: "project, launch, q2",
					type: "list",
					file: "Launch plan",
				});
				assert.ok(result.pending, result.text);
				assert.deepEqual([result.pending.preview.before, result.pending.preview.after], ["project\nlaunch", "project\nlaunch\nq2"]);
				const done = await approve(result.pending);
				assert.equal(done.ok, true, done.text);
				assert.equal(done.text, "Set tags: project, launch, q2");
				assert.deepEqual(lastWrite(log), ["property:set", "name=tags", "value=project, launch, q2", "type=list", "file=Launch plan"]);
				const now = await plugin.api.callTool("obsidianProperties", { command: "property:read", name: "tags", file: "Launch plan" });
				assert.equal(now.text.replace(/\r\n/g, "\n"), "project\nlaunch\nq2");
				// And back, previewed the same way.
				const back = await plugin.api.callTool("obsidianProperties", { command: "property:set", name: "tags", value: "project, launch", file: "Launch plan" });
				assert.deepEqual([back.pending.preview.before, back.pending.preview.after], ["project\nlaunch\nq2", "project\nlaunch"]);
				assert.equal((await approve(back.pending)).ok, true);
			});
		});
	}

	it("reports the app not running from stderr", async () => {
		useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "app-not-running", OBSIDIAN_EMULATOR_PLATFORM: "windows" });
		const result = await plugin.api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
		assert.equal(result.error?.code, "app_not_running", result.text);
		assert.match(result.text, /unable to find Obsidian/);
	});

	it("drops an old installer's log lines before reading the answer, on Linux and Windows", async () => {
		for (const platform of ["linux", "windows"]) {
			useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "old-installer", OBSIDIAN_EMULATOR_PLATFORM: platform });
			const read = await plugin.api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
			assert.equal(read.ok, true, read.text);
			assert.match(read.text, /^# Welcome/, "the banner is not part of the note");
			assert.ok(!read.text.includes("\r"), "CRLF reads as LF");
			const missing = await plugin.api.callTool("obsidianNotes", { command: "read", file: "Nope" });
			assert.equal(missing.error?.code, "cli_error", `${platform}: ${missing.text}`);
			const vaultMissing = await plugin.api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
			assert.equal(vaultMissing.ok, true);
		}
	});

	it("reads a note that quotes the CLI's own status lines exactly", async () => {
		useEmulator(vault);
		const text = "Error: this note starts like an error\nThe CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.\nVault not found.\n";
		writeFileSync(join(vault, "Quotes.md"), text);
		const read = await plugin.api.callTool("obsidianNotes", { command: "read", path: "Quotes.md" });
		assert.equal(read.ok, true, read.text);
		assert.equal(read.text, text.trimEnd());
		const found = await plugin.api.callTool("obsidianSearch", { command: "search:context", query: "unable to find Obsidian" });
		assert.equal(found.ok, true, found.text);
		assert.match(found.text, /Quotes\.md:2:/);
	});

	it("reads the captured error and empty-result wordings", async () => {
		useEmulator(vault);
		const tag = await plugin.api.callTool("obsidianTags", { command: "tag", name: "nosuchtag" });
		assert.equal(tag.error?.code, "cli_error");
		assert.match(tag.text, /Tag "#nosuchtag" not found\./);
		const search = await plugin.api.callTool("obsidianSearch", { command: "search", query: "zzzz-nothing" });
		assert.equal(search.ok, true, search.text);
		assert.equal(search.text.trim(), "No matches found.");
		assert.equal(search.empty, true, "a successful, empty result");
		const links = await plugin.api.callTool("obsidianLinks", { command: "links", file: "Launch plan" });
		assert.match(links.text, /^Nonexistent Note \(unresolved\)$/m);
		const file = await plugin.api.callTool("obsidianNotes", { command: "file", file: "Welcome" });
		assert.match(file.text, /^path\tWelcome\.md$/m);
	});
});
