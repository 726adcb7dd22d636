// A generated vault for the hygiene checks: `n` notes whose background
// titles differ only in their numbers ("Note 00042 harbor", never duplicates
// of each other), plus duplicates, similar titles, empty notes, links to
// missing notes and notes that mention a subject without linking, planted at
// known places. Returns (and writes as planted.json beside the vault) what
// was planted, so a test can check every one is found and nothing else.
//
//   node scripts/make-vault.mjs <folder> [notes=10000]
//
// tests/hygiene.rs plants the same things natively (without files).

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PHRASES = [
	"Quarterly budget review", "Kitchen renovation ideas", "Marathon training log", "Reading notes on Stoicism",
	"Tax return checklist", "Conference travel plan", "Café opening hours", "Piano practice routine",
	"Home network setup", "Vendor contract renewal", "Birthday gift ideas", "Podcast episode outline",
	"Sourdough starter care", "Team offsite agenda", "Car maintenance record", "Language learning goals",
	"Photography gear wishlist", "Board game collection", "Investment portfolio notes", "Wedding guest list",
	"Hiking trail journal", "Server migration runbook", "Bathroom tile options", "Newsletter draft topics",
];
const WORDS = ["harbor", "meadow", "copper", "lantern", "orchid", "glacier", "velvet", "thunder", "pepper", "quartz", "willow", "falcon", "maple", "cobalt", "saffron", "tundra", "ember", "juniper", "marble", "nectar"];
const FOLDERS = ["Projects", "Areas", "Resources", "Journal", "People", "Meetings", "Ideas", "Notes"];
export const SUBJECT = "Projects/Solar panel maintenance.md";

/** Writes the vault into `folder` (which must not hold one yet) and returns what was planted. */
export function makeVault(folder, n = 10_000) {
	const notes = new Map();
	const planted = { exact: [], similar: [], empty: [], missing: {}, mentions: [], linked: [], subject: SUBJECT };
	PHRASES.slice(0, 12).forEach((phrase, k) => {
		const variant = [phrase.toLowerCase().replaceAll(" ", "-"), phrase.toUpperCase(), `${phrase.replaceAll("é", "e").replaceAll(" ", "_")}!`][k % 3];
		const group = [`Projects/${phrase}.md`, `Archive/${variant}.md`];
		notes.set(group[0], `# ${phrase}\nFirst copy.\n`);
		notes.set(group[1], `# ${phrase}\nSecond copy.\n`);
		if (k === 0) {
			group.push(`Inbox/${phrase.replaceAll(" ", "  ")}.md`);
			notes.set(group[2], "Third copy.\n");
		}
		planted.exact.push(group.sort());
	});
	PHRASES.slice(12).forEach((phrase, k) => {
		const typo = k % 2 === 0 ? `${phrase}s` : phrase.replace("e", "ee");
		const pair = [`Ideas/${phrase}.md`, `Notes/${typo}.md`];
		notes.set(pair[0], `${phrase}: the first note.\n`);
		notes.set(pair[1], `${typo}: the second note.\n`);
		planted.similar.push(pair.sort());
	});
	for (let k = 0; k < 30; k++) {
		const path = `Empty/Blank ${String(k).padStart(2, "0")}.md`;
		notes.set(path, ["", "\n  \n\t\n", "---\ntags: [draft]\n---\n\n"][k % 3]);
		planted.empty.push(path);
	}
	notes.set(SUBJECT, "# Solar panel maintenance\n#energy\nClean the inverter filters.\n");
	const background = n - notes.size;
	if (background < 900) throw new Error(`at least ${notes.size + 900} notes, please`);
	const title = (i) => `Note ${String(i).padStart(5, "0")} ${WORDS[i % WORDS.length]}`;
	const path = (i) => `${FOLDERS[i % FOLDERS.length]}/${title(i)}.md`;
	for (let i = 0; i < background; i++) {
		const next = (i * 7 + 3) % background;
		notes.set(path(i), `# ${title(i)}\n\nThoughts on ${WORDS[i % WORDS.length]} and ${WORDS[Math.floor(i / 3) % WORDS.length]}. #topic${i % 10}\nSee [[${title(next)}]].\n`);
	}
	for (let k = 0; k < 25; k++) {
		const link = `Unwritten topic ${String(k).padStart(2, "0")}`;
		planted.missing[link] = [];
		for (let s = 0; s < 1 + (k % 3); s++) {
			const source = path((k * 37 + s * 101) % background);
			notes.set(source, `${notes.get(source)}Later: [[${link}]]\n`);
			planted.missing[link].push(source);
		}
		planted.missing[link].sort();
	}
	for (let k = 0; k < 5; k++) {
		const source = path((500 + k * 13) % background);
		notes.set(source, `${notes.get(source)}Remember the solar panel maintenance before summer.\n`);
		planted.mentions.push(source);
	}
	for (let k = 0; k < 3; k++) {
		const source = path((900 + k * 17) % background);
		notes.set(source, `${notes.get(source)}Done: [[Solar panel maintenance]] and solar panel maintenance again.\n`);
		planted.linked.push(source);
	}
	for (const [rel, text] of notes) {
		mkdirSync(dirname(join(folder, rel)), { recursive: true });
		writeFileSync(join(folder, rel), text);
	}
	mkdirSync(join(folder, ".obsidian"), { recursive: true });
	writeFileSync(join(folder, ".obsidian/app.json"), "{}\n");
	writeFileSync(join(dirname(folder), "planted.json"), `${JSON.stringify(planted, null, "\t")}\n`);
	return planted;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [folder, count = "10000"] = process.argv.slice(2);
	if (!folder) {
		console.error("usage: node scripts/make-vault.mjs <folder> [notes=10000]");
		process.exit(2);
	}
	const planted = makeVault(folder, Number(count));
	console.log(`${count} notes in ${folder}; planted: ${planted.exact.length} duplicate groups, ${planted.similar.length} similar pairs, ${planted.empty.length} empty notes, ${Object.keys(planted.missing).length} missing notes`);
}
