// What real vaults hold (Obsidian's help vault, kepano's template vault, the
// Obsidian Hub; see docs/real-vaults.md), in small notes written for this test
// in the same shapes and added to a copy of the sample vault: links with the
// escaped pipe tables need, CSS colours in a callout's code block, HTML
// comments, empty properties, Markdown links, and bases that use link(),
// `this`, list() and formulas. Through the built main.js and the CLI emulator:
// the emulator must read them as Obsidian does, and so must the plugin's own
// readers (hygiene, tag edits).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../support/harness.mjs";

const notes = {
	"Shapes/Syntax table.md": [
		"---",
		"aliases:",
		"topics:",
		"---",
		"# Syntax table",
		"",
		"| Link | Image |",
		"| ---- | ----- |",
		"| [[Welcome\\|Start here]] | ![[diagram.png\\|200]] |",
		"",
		"> [!tip] Colours",
		"> ```css",
		"> .callout { color: #ff0000; } /* [[Not a link]] */",
		"> ```",
		"",
		"<!-- [[Commented out]] #draft -->",
		"",
		"Plain text #shapes",
		"",
	].join("\n"),
	"Shapes/Palette.md": "# Palette\n\nThe brand red is #ff0000 in prose, so here it is a tag. #shapes\n",
	"Shapes/Map.md": "# Map\n\nSee the [palette](Palette.md) first.\n",
	"Shapes/Dune.md": "---\ncategories:\n  - \"[[Books]]\"\nauthor: \"[[Frank Herbert]]\"\nrating: 5\n---\n",
	"Shapes/Book Template.md": "---\ncategories:\n  - \"[[Books]]\"\n---\n",
	"Shapes/Frank Herbert.md": "---\nborn: 1920-10-08\n---\n",
	"Shapes/Books.md": "Every book: ![[Books.base]]\n",
	"Shapes/Books.base": [
		"filters:",
		"  and:",
		'    - categories.contains(link("Books"))',
		"    - '!file.name.contains(\"Template\")'",
		"formulas:",
		"  Stars: rating * 2",
		"  Born: list(author)[0].asFile().properties.born",
		"  Here: file.inFolder(this.file.folder)",
		"views:",
		"  - type: table",
		"    name: Books",
		"    order: [file.basename, formula.Stars, formula.Born, formula.Here]",
		"",
	].join("\n"),
	"Shapes/Settings.md": "## Sync settings\nA\n## Selective syncing\n### Always excluded\n#### Sync settings\nB\n",
	"Shapes/Ada.md": [
		"---",
		"tags:",
		"- ",
		"---",
		"# Ada (@ada)",
		"",
		"- GitHub: [ada](https://github.com/ada) ^github",
		"<!-- - [[Publish sites|Publish site]]: <https://> ^publish-->",
		"",
		"%% Feel free to add a bio below this comment %%",
		"",
		"## Author of",
		"",
		"<!--",
		"### Unlisted plugins",
		"",
		"### Others",
		"-->",
		"",
		"## Follow",
		"",
	].join("\n"),
	"Shapes/Theme colours.md": "# Theme colours #theme\n\n<table>\n<tr><td>--background-primary: #202020</td>\n    <td style=\"background-color: #ffffff; color: #202020\">[[Foreground]]</td></tr>\n</table>\n",
	"Shapes/Evergreen.md": "---\ntags:\n  - evergreen\n  - 0🌲\n---\nAn idea that grows. #☕\n",
	"Shapes/Mixed.md": "# Mixed\n\n> [!example]\n> ```css\n> a { color: #ff0000; }\n> ```\n\nAlso #ff0000 here\n",
};

describe("shapes from real vaults", () => {
	let vault;
	let plugin;
	const call = (tool, args) => plugin.core.callTool(tool, args);
	const lines = (result) => result.text.split("\n").filter(Boolean);
	before(async () => {
		vault = copySampleVault();
		for (const [path, text] of Object.entries(notes)) {
			mkdirSync(join(vault, path, ".."), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askEveryChange" } }));
	});
	after(() => removeVault(vault));

	it("a table's escaped pipe ends the link target; code and HTML comments hold no links", async () => {
		const links = await call("obsidianLinks", { command: "links", path: "Shapes/Syntax table.md" });
		assert.deepEqual(lines(links), ["Attachments/diagram.png", "Welcome.md"]);
		const unresolved = await call("obsidianLinks", { command: "unresolved", counts: true });
		assert.equal(unresolved.ok, true, unresolved.text);
		for (const line of lines(unresolved)) {
			assert.doesNotMatch(line, /\\\t|Not a link|Commented out/, unresolved.text);
		}
	});

	it("a colour in a callout's code block is no tag; the same colour in prose is", async () => {
		const inTable = await call("obsidianTags", { command: "tags", path: "Shapes/Syntax table.md" });
		assert.deepEqual(lines(inTable), ["#shapes"]);
		const inProse = await call("obsidianTags", { command: "tags", path: "Shapes/Palette.md" });
		assert.deepEqual(lines(inProse), ["#ff0000", "#shapes"]);
	});

	it("colours and links inside an HTML table are neither tags nor links", async () => {
		const tags = await call("obsidianTags", { command: "tags", path: "Shapes/Theme colours.md" });
		assert.deepEqual(lines(tags), ["#theme"]);
		const links = await call("obsidianLinks", { command: "links", path: "Shapes/Theme colours.md" });
		assert.equal(links.text.trim(), "No links found.");
		const removal = await call("obsidianTags", { command: "tag:remove", path: "Shapes/Theme colours.md", tag: "ffffff" });
		assert.ok(!removal.pending, `the colour is HTML, not a tag: ${removal.text}`);
	});

	it("an empty property reads as no value, not as an app that did not answer", async () => {
		const empty = await call("obsidianProperties", { command: "property:read", name: "topics", path: "Shapes/Syntax table.md" });
		assert.equal(empty.ok, true, empty.text);
		assert.match(empty.text, /no value/);
	});

	it("suggestions leave out notes that link with a Markdown link, and share no tags from code", async () => {
		// The sample vault's Reading List links to Roadmap with [the roadmap](Projects/Roadmap.md).
		const roadmap = await call("obsidianHygiene", { command: "suggest", path: "Projects/Roadmap.md" });
		assert.equal(roadmap.ok, true, roadmap.text);
		assert.doesNotMatch(roadmap.text, /Reading List\.md/, roadmap.text);
		const palette = await call("obsidianHygiene", { command: "suggest", path: "Shapes/Palette.md" });
		assert.doesNotMatch(palette.text, /Map\.md/, "Map links to Palette already");
		const table = palette.text.split("\n").find((l) => l.includes("Syntax table.md")) ?? "";
		assert.doesNotMatch(table, /shares tags[^;]*#ff0000/, `its #ff0000 is code: ${palette.text}`);
		assert.match(palette.text, /Mixed\.md .*shares tags #ff0000/, "Mixed has it in prose too");
	});

	it("a base that uses link(), list(), this and formulas answers with its rows", async () => {
		const rows = await call("obsidianBases", { command: "base:query", path: "Shapes/Books.base", view: "Books", format: "csv" });
		assert.equal(rows.ok, true, rows.text);
		assert.equal(rows.text.trim(), "file.basename,formula.Stars,formula.Born,formula.Here\nDune,10,1920-10-08,true");
	});

	it("every section path the map shows reads that section, also when its heading recurs deeper down", async () => {
		const map = await call("obsidianNotes", { command: "map", path: "Shapes/Settings.md" });
		const paths = [...map.text.matchAll(/section: "([^"]+)"/g)].map((m) => m[1]);
		assert.deepEqual(paths, ["Sync settings", "Selective syncing", "Selective syncing::Always excluded", "Selective syncing::Always excluded::Sync settings"]);
		for (const heading of paths) {
			const section = await call("obsidianNotes", { command: "section", path: "Shapes/Settings.md", heading });
			assert.equal(section.ok, true, `${heading}: ${section.text}`);
			assert.ok(section.text.includes(`(section "${heading}")`), section.text);
		}
	});

	it("sections commented out with blank lines inside are no headings, for the map and the outline alike", async () => {
		const map = await call("obsidianNotes", { command: "map", path: "Shapes/Ada.md" });
		assert.deepEqual([...map.text.matchAll(/section: "([^"]+)"/g)].map((m) => m[1]), ["Ada (@ada)", "Ada (@ada)::Author of", "Ada (@ada)::Follow"]);
		const outline = await call("obsidianNotes", { command: "outline", path: "Shapes/Ada.md", format: "json" });
		assert.deepEqual(JSON.parse(outline.text).map((h) => h.heading), ["Ada (@ada)", "Author of", "Follow"]);
		const links = await call("obsidianLinks", { command: "links", path: "Shapes/Ada.md" });
		assert.equal(links.text.trim(), "No links found.", "the link is in a comment");
	});

	it("tags with emoji, as kepano's vault has them (0🌲), can be listed and removed", async () => {
		const tags = await call("obsidianTags", { command: "tags", path: "Shapes/Evergreen.md" });
		assert.deepEqual(lines(tags), ["#0🌲", "#evergreen", "#☕"]);
		for (const tag of ["0🌲", "#☕"]) {
			const removal = await call("obsidianTags", { command: "tag:remove", path: "Shapes/Evergreen.md", tag });
			assert.ok(removal.pending, removal.text);
			assert.match(plugin.core.confirmationCard(removal.pending.id).preview.after, new RegExp(`^-.*${tag.replace("#", "")}`, "mu"));
			plugin.core.reject(removal.pending.id);
		}
	});

	it("removing a tag leaves the same text in a callout's code block alone", async () => {
		const mixed = await call("obsidianTags", { command: "tag:remove", path: "Shapes/Mixed.md", tag: "ff0000" });
		assert.ok(mixed.pending, mixed.text);
		const diff = plugin.core.confirmationCard(mixed.pending.id).preview.after;
		assert.match(diff, /^-Also #ff0000 here$/m, diff);
		assert.doesNotMatch(diff, /^[-+]> /m, `the code line stays: ${diff}`);
		const before = readFileSync(join(vault, "Shapes/Syntax table.md"), "utf8");
		const codeOnly = await call("obsidianTags", { command: "tag:remove", path: "Shapes/Syntax table.md", tag: "ff0000" });
		assert.ok(!codeOnly.pending, `nothing to remove, so no card: ${codeOnly.text}`);
		assert.equal(readFileSync(join(vault, "Shapes/Syntax table.md"), "utf8"), before);
	});
});
