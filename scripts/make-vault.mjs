// A generated vault for the hygiene checks: `n` notes whose background
// titles differ only in their numbers ("Note 00042 harbor", never duplicates
// of each other), plus duplicates, similar titles, empty notes, links to
// missing notes and notes that mention a subject without linking, planted at
// known places. Returns (and writes as planted.json beside the vault) what
// was planted, so a test can check every one is found and nothing else.
//
//   node scripts/make-vault.mjs <folder> [notes=10000]
//   node scripts/make-vault.mjs --typical <folder> [notes=10000]
//
// tests/hygiene.rs plants the same things natively (without files).
// `--typical` (makeTypicalVault) writes notes of a typical length instead,
// as examples/search_bench.rs generates them: properties with tags, 2-4
// sections, about 300 words drawn from a 6 000-word vocabulary by a Zipf
// law, about 2.5 KB a note; nothing planted (for the search benchmarks).

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

/** A small deterministic generator (xorshift64, as in examples/search_bench.rs). */
function xorshift(seed) {
	let x = BigInt(seed);
	const mask = (1n << 64n) - 1n;
	return () => {
		x ^= (x << 13n) & mask;
		x ^= x >> 7n;
		x ^= (x << 17n) & mask;
		return x;
	};
}

/** `n` made-up words of 2-4 syllables, some with an English ending. */
export function vocabulary(n = 6000) {
	const C = ["k", "r", "t", "m", "s", "l", "n", "p", "d", "v", "b", "g", "ch", "st"];
	const V = ["a", "e", "i", "o", "u", "ai", "ou"];
	const next = xorshift(7);
	const below = (k) => Number(next() % BigInt(k));
	const words = new Set();
	while (words.size < n) {
		let w = "";
		for (let s = 2 + below(3); s > 0; s--) w += C[below(C.length)] + V[below(V.length)];
		if (below(4) === 0) w += ["s", "ing", "ed", "er"][below(4)];
		words.add(w);
	}
	return [...words];
}

/** Writes `n` notes of typical length into `folder`; returns their paths and the vocabulary. */
export function makeTypicalVault(folder, n = 10_000, seed = 11) {
	const words = vocabulary();
	let sum = 0;
	const cumulative = words.map((_, k) => (sum += 1 / (k + 1)));
	const next = xorshift(seed);
	const below = (k) => Number(next() % BigInt(k));
	const zipf = () => {
		const x = (below(1_000_000) / 1_000_000) * sum;
		let lo = 0;
		let hi = cumulative.length - 1;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (cumulative[mid] < x) lo = mid + 1;
			else hi = mid;
		}
		return words[lo];
	};
	const paths = [];
	for (let i = 0; i < n; i++) {
		const lines = ["---", `tags: [${words[below(200)]}, ${words[below(200)]}]`, `status: ${["draft", "done", "idea"][i % 3]}`, "---"];
		const sections = 2 + below(3);
		for (let s = 0; s < sections; s++) {
			lines.push("", `## ${zipf()} ${zipf()}`);
			let line = [];
			for (let w = 0; w < Math.floor(300 / sections); w++) {
				line.push(zipf());
				if (line.length === 12) lines.push(line.splice(0).join(" "));
			}
			if (line.length) lines.push(line.join(" "));
			if (s === 0) lines.push(`See [[${words[below(words.length)]}]].`);
		}
		const path = `${["Projects", "Areas", "Journal", "People", "Ideas"][i % 5]}/${zipf()} ${zipf()} ${i}.md`;
		mkdirSync(dirname(join(folder, path)), { recursive: true });
		writeFileSync(join(folder, path), `${lines.join("\n")}\n`);
		paths.push(path);
	}
	return { paths, words };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--typical") {
	const [folder, count = "10000"] = process.argv.slice(3);
	const { paths } = makeTypicalVault(folder, Number(count));
	console.log(`${paths.length} notes of typical length in ${folder}`);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [folder, count = "10000"] = process.argv.slice(2);
	if (!folder) {
		console.error("usage: node scripts/make-vault.mjs <folder> [notes=10000]");
		process.exit(2);
	}
	const planted = makeVault(folder, Number(count));
	console.log(`${count} notes in ${folder}; planted: ${planted.exact.length} duplicate groups, ${planted.similar.length} similar pairs, ${planted.empty.length} empty notes, ${Object.keys(planted.missing).length} missing notes`);
}
