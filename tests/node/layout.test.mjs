// ARCHITECTURE.md's layout table names every file under src/ and
// plugin-shim/, once, and nothing that is not there: a file added, moved or
// removed without its line fails here, naming the file or the line.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { ARCHITECTURE, files, problems, rewritten, tableRows } from "../../scripts/layout.mjs";

it("the layout table in ARCHITECTURE.md has one line for every file under src/ and plugin-shim/, and none for a file that is not there", () => {
	assert.ok(files().some((f) => f === "src/lib.rs") && files().some((f) => f.startsWith("plugin-shim/")), "both folders were walked");
	assert.deepEqual(problems(), []);
});

it("names the file that has no line, the line whose file is gone, and a line said twice", () => {
	const markdown = readFileSync(ARCHITECTURE, "utf8");
	assert.deepEqual(problems(markdown, [...files(), "src/engine/plan_cache.rs"]), ["src/engine/plan_cache.rs has no line in ARCHITECTURE.md's layout table (add one, or run node scripts/layout.mjs --write)"]);
	const [gone] = problems(markdown, files().filter((f) => f !== "src/engine/gate.rs"));
	assert.match(gone, /^ARCHITECTURE\.md:\d+: names src\/engine\/gate\.rs, which is not there/);
	const twice = markdown.replace("<!-- layout:end -->", "| `src/lib.rs` | Again. |\n| `src/base/host.rs` | TODO |\n<!-- layout:end -->");
	assert.deepEqual(
		problems(twice).map((p) => p.replace(/^ARCHITECTURE\.md:\d+: /, "")),
		[`src/lib.rs has a row already (line ${markdown.split("\n").findIndex((l) => l.startsWith("| `src/lib.rs`")) + 1})`, "src/base/host.rs has a row already (line " + (markdown.split("\n").findIndex((l) => l.startsWith("| `src/base/host.rs`")) + 1) + ")", "src/base/host.rs needs a line saying what it holds"],
	);
	assert.throws(() => problems("| `src/lib.rs` | no markers |"), /no layout table/);
});

it("--write keeps every description, carries one to a file moved under the same name, and starts a new row from the file's first comment", () => {
	const markdown = readFileSync(ARCHITECTURE, "utf8");
	const described = (md, path) => tableRows(md).rows.find((r) => r.path === path)?.text;
	const moved = files().map((f) => (f === "src/engine/confirm.rs" ? "src/doors/confirm.rs" : f));
	const withoutHost = markdown.split("\n").filter((l) => !l.startsWith("| `src/base/host.rs`")).join("\n");
	const written = rewritten(withoutHost, moved);
	assert.equal(described(written, "src/doors/confirm.rs"), described(markdown, "src/engine/confirm.rs"));
	assert.equal(described(written, "src/engine/confirm.rs"), undefined);
	assert.equal(described(written, "src/base/host.rs"), "The `Host` trait: every contact the core has with the outside world.");
	assert.equal(described(written, "src/lib.rs"), described(markdown, "src/lib.rs"));
	assert.deepEqual(problems(written, moved), []);
	assert.equal(rewritten(written, moved), written, "a second --write changes nothing");
});
