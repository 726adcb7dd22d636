// docs/settings.md from the BUILT plugin: every row of the settings tab (its
// section, name and description, as `getSettingDefinitions()` gives them to
// Obsidian's settings search) with what its control shows on a fresh install,
// and every key the core keeps in data.json with its default and, for
// numbers, the range the core clamps it into (found by handing the core's
// settings code a value below and above, as a hand-edited data.json would).
// Written by scripts/docs.mjs; tests/node/docs.test.mjs checks it is current.
import { closeSettings, copySampleVault, loadPlugin, openSettingTab, removeVault, settle } from "../tests/support/harness.mjs";

/** What the profile kinds are called where a row shows for one kind only. */
const KIND = { openAi: "OpenAI-compatible", anthropic: "Anthropic" };

/** A table cell: `|` would end it, a line break the row. */
const cell = (text) => String(text ?? "").trim().replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
const code = (text) => `\`${text}\``;

/** What a row's controls show, in words. */
function shown(row) {
	const parts = [];
	const controls = [...row.querySelectorAll(".setting-item-control input, .setting-item-control textarea, .setting-item-control select")];
	for (const control of controls) {
		const label = controls.length > 1 && control.placeholder ? `${control.placeholder}: ` : "";
		if (control.type === "checkbox") {
			parts.push(control.closest(".checkbox-container")?.classList.contains("is-enabled") ? "on" : "off");
		} else if (control.tagName === "SELECT") {
			const options = [...control.options].map((o) => o.textContent);
			const picked = control.options[control.selectedIndex]?.textContent ?? "";
			parts.push(options.length > 1 ? `${picked} (choices: ${options.join(", ")})` : picked);
		} else if (control.value !== "") {
			parts.push(`${label}${code(control.value)}`);
		} else {
			parts.push(`${label}empty${controls.length === 1 && control.placeholder ? ` (shows "${control.placeholder}")` : ""}`);
		}
	}
	const buttons = [...row.querySelectorAll(".setting-item-control button, .setting-item-control .clickable-icon[aria-label]")].map(
		(b) => b.textContent.trim() || b.getAttribute("aria-label"),
	);
	if (buttons.length > 0) parts.push(`buttons: ${buttons.join(", ")}`);
	// A tool switched on another page (memory, the web) has no control here: the row says where.
	const elsewhere = row.querySelector(".vault-agent-tool-own-switch");
	if (controls.length === 0 && elsewhere) parts.push(elsewhere.textContent);
	return parts.join("; ");
}

/** The tab's pages as drawn now: each page, its groups, then each row's name, description (and the rest the docs say) and controls. */
async function tabSections(plugin) {
	const tab = plugin.app.setting.pluginTabs.find((t) => t.id === plugin.manifest.id);
	const pages = tab.docsPages();
	const el = openSettingTab(plugin);
	await settle(6);
	const sections = [];
	const values = [];
	for (const page of pages) {
		tab.showPage(page.id);
		await settle(6);
		for (const group of page.groups) {
			const rows = [...el.querySelectorAll(`.${group.cls} .setting-item:not(.setting-item-heading)`)];
			if (rows.length !== group.rows.length) throw new Error(`${group.heading}: ${rows.length} rows drawn, ${group.rows.length} defined`);
			sections.push({
				page: page.name,
				heading: group.heading,
				rows: group.rows.map((row, i) => {
					const drawn = rows[i].querySelector(".setting-item-name")?.textContent;
					if (drawn !== row.name) throw new Error(`${group.heading}: row ${i} is "${drawn}", defined as "${row.name}"`);
					return { name: row.name, desc: row.more || row.desc, shown: shown(rows[i]) };
				}),
			});
		}
		// Every value a dropdown offers: the candidates for a text key's choices.
		values.push(...[...el.querySelectorAll("select option")].map((o) => o.value).filter((v) => v !== ""));
	}
	tab.showPage(pages[0].id);
	closeSettings(plugin.app);
	return { sections, values };
}

/** The rows of both drawings, in order; a row drawn for one profile kind only says so. */
function merge(first, firstKind, second, secondKind) {
	const key = (heading, row) => `${heading}\u0000${row.name}`;
	const inFirst = new Set(first.flatMap((s) => s.rows.map((r) => key(s.heading, r))));
	const inSecond = new Set(second.flatMap((s) => s.rows.map((r) => key(s.heading, r))));
	return first.map((section) => {
		const other = second.find((s) => s.heading === section.heading)?.rows ?? [];
		const rows = section.rows.map((r) => ({ ...r, only: inSecond.has(key(section.heading, r)) ? null : firstKind }));
		// Rows of the second drawing go after the row they follow there.
		other.forEach((row, i) => {
			if (inFirst.has(key(section.heading, row))) return;
			const after = i === 0 ? -1 : rows.findIndex((r) => r.name === other[i - 1].name);
			rows.splice(after + 1, 0, { ...row, only: secondKind });
		});
		return { page: section.page, heading: section.heading, rows };
	});
}

/** Every leaf of the stored settings, a list of objects by its first item (`chat.profiles[].model`). */
function leaves(value, path = [], out = []) {
	if (Array.isArray(value) && value.length > 0 && typeof value[0] === "object") leaves(value[0], [...path, 0], out);
	else if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
		for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
	} else out.push({ path, value });
	return out;
}

const at = (object, path) => path.reduce((o, k) => o?.[k], object);
function withValue(object, path, value) {
	const copy = structuredClone(object);
	path.slice(0, -1).reduce((o, k) => o[k], copy)[path.at(-1)] = value;
	return copy;
}

/**
 * data.json's keys: the default; for a number what the core keeps of one too
 * small and one too large; for text the core does not keep as given (a
 * mode, not a name), which of the values the tab's dropdowns offer (and the
 * presets' kinds) it keeps.
 */
function dataJsonKeys(core, stored, candidates) {
	const kept = (path, value) => at(core.setSettings(withValue(stored, path, value)).settings, path);
	return leaves(stored).map(({ path, value }) => {
		const name = path.map((k) => (k === 0 ? "[]" : k)).join(".").replace(/\.\[\]/g, "[]");
		let range = "";
		if (typeof value === "number") range = `${kept(path, -1)} to ${kept(path, 1e12)}`;
		const free = (text) => kept(path, text) === text;
		if (typeof value === "string" && !free("no such choice") && !free("nosuchchoice")) {
			const choices = candidates.filter((c) => kept(path, c) === c);
			if (choices.length > 1) range = `one of ${choices.map(code).join(", ")}`;
		}
		return { name, value: JSON.stringify(value), range };
	});
}

export async function currentSettings() {
	const vault = copySampleVault();
	try {
		const { plugin } = await loadPlugin(vault, { data: null });
		const core = plugin.core;
		const stored = core.settings();
		const firstKind = stored.chat.profiles[0].provider;
		const first = await tabSections(plugin);
		const other = core.providerPresets().find((p) => p.kind !== firstKind);
		await plugin.editModelProfiles({ action: "add", preset: other.id });
		const second = await tabSections(plugin);
		const keys = dataJsonKeys(core, stored, [...new Set([...first.values, ...second.values, ...core.providerPresets().map((p) => p.kind)])]);
		core.setSettings(stored);
		plugin.unload();
		return { firstProfile: stored.chat.profiles[0].name, sections: merge(first.sections, KIND[firstKind], second.sections, KIND[other.kind]), keys };
	} finally {
		removeVault(vault);
	}
}

export function renderSettingsDocs({ firstProfile, sections, keys }) {
	const lines = [
		"# Settings",
		"",
		"<!-- Generated by `node scripts/docs.mjs` (scripts/docs-settings.mjs) from the built plugin's settings tab and settings code. Do not edit by hand. -->",
		"",
		`Settings → Vault Agent, page by page, as the tab shows them on a fresh install (one model profile, ${firstProfile}), each row with the whole of what its short description and its "More" link stand for. Every change goes to the core, which keeps a safe value (a number outside its range is brought into it); the tab then shows what was kept. On Obsidian 1.13 and later every row is found by Obsidian's settings search.`,
		"",
	];
	let page = null;
	for (const section of sections) {
		// A page of the tab is a heading its rows' "More" links point to; a page of several groups names each.
		const several = sections.filter((s) => s.page === section.page).length > 1;
		if (section.page !== page) lines.push(`## ${section.page}`, "");
		page = section.page;
		if (several) lines.push(`### ${section.heading}`, "");
		lines.push("| Setting | What it does | On a fresh install |", "|---|---|---|");
		for (const row of section.rows) {
			const only = row.only ? ` *(${row.only} profiles only)*` : "";
			lines.push(`| **${cell(row.name)}**${only} | ${cell(row.desc)} | ${cell(row.shown)} |`);
		}
		lines.push("");
	}
	lines.push(
		"## In data.json",
		"",
		"The settings are saved in `data.json` in the plugin's folder (`<vault>/.obsidian/plugins/vault-agent/`). API keys and the MCP server's token are not in it, only the names of the secrets that hold them in Obsidian's secret storage. The core reads the file leniently: a wrong type, an unknown key or a number out of range becomes a safe value (logged once), never a failed load, and a wrong type never allows a change (the permission mode falls back to Read only). `chat.profiles[]` is one entry per model profile; `tools` maps a tool's id to `false` to turn it off (a tool not named is on).",
		"",
		"| Key | Default | Kept within |",
		"|---|---|---|",
	);
	for (const key of keys) lines.push(`| ${code(key.name)} | ${code(key.value)} | ${key.range} |`);
	return `${lines.join("\n").trimEnd()}\n`;
}
