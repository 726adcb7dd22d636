// A generated vault for the ranked search's evaluation: background notes on
// a dozen topics, and planted notes each holding one fact made of four
// words that also appear, one at a time, all over the background. A
// question names three of the fact's words in another form (plural or
// singular, -ing, capitals, no accents) and never a word of the planted
// note's title, so a note is found by what it says, not by its name.
//
//   node scripts/eval-search/make-search-vault.mjs <folder> [notes=2000]
//
// Writes the vault into <folder>/vault and the questions into
// <folder>/questions.json ([{q, expect: [path]}]). Deterministic.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// A small deterministic generator (mulberry32).
function random(seed) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const TOPICS = {
	Garden: "soil compost seedling tomato pruning hedge mulch trellis irrigation greenhouse",
	Kitchen: "oven recipe dough simmer skillet spice pantry marinade broth knife",
	Travel: "passport luggage itinerary ferry hostel visa airport museum border train",
	Finance: "invoice budget ledger pension mortgage receipt dividend audit payroll forecast",
	Health: "physio vitamin appointment stretching posture dentist allergy sleep diet clinic",
	Home: "plumber radiator gutter insulation ladder drywall faucet boiler shelf carpet",
	Work: "deadline meeting stakeholder roadmap sprint retrospective contract vendor hiring onboarding",
	Music: "chord metronome rehearsal tuning amplifier melody rhythm bassline scale choir",
	Reading: "chapter author novel essay footnote library bookmark paperback sequel poetry",
	Cars: "tyre brake clutch mileage windscreen battery engine exhaust dashboard gearbox",
	Pets: "leash kibble veterinarian kennel grooming collar aquarium litter vaccine puppy",
	Tech: "router firmware backup password laptop keyboard monitor server cable printer",
};
const FILLER = "today later again quickly slowly maybe perhaps during weekend morning evening week month small large good bad first last next usual different simple".split(" ");
// Fact words: distinct from the topics' words and the titles.
const FACTS = [
	["cedar", "plank", "shed", "lumber"], ["copper", "fitting", "drain", "sink"], ["sourdough", "starter", "flour", "jar"],
	["ferry", "timetable", "harbour", "ticket"], ["pension", "statement", "employer", "letter"], ["knee", "exercise", "physio", "stair"],
	["violin", "string", "bridge", "rosin"], ["novel", "detective", "lighthouse", "island"], ["winter", "tyre", "garage", "appointment"],
	["cat", "flea", "collar", "vet"], ["router", "channel", "interference", "microwave"], ["budget", "marketing", "quarter", "overspend"],
	["tomato", "blight", "leaf", "spray"], ["passport", "renewal", "photo", "embassy"], ["boiler", "pressure", "valve", "engineer"],
	["sprint", "velocity", "estimate", "backlog"], ["choir", "concert", "cathedral", "ticket"], ["essay", "deadline", "professor", "extension"],
	["battery", "dashboard", "warning", "light"], ["puppy", "crate", "training", "night"], ["laptop", "fan", "noise", "dust"],
	["mortgage", "rate", "fixed", "broker"], ["allergy", "pollen", "tablet", "spring"], ["gutter", "leaf", "ladder", "neighbour"],
	["contract", "clause", "termination", "notice"], ["metronome", "tempo", "scale", "practice"], ["library", "fine", "overdue", "book"],
	["brake", "pad", "squeak", "mechanic"], ["aquarium", "filter", "algae", "fish"], ["printer", "toner", "cartridge", "office"],
	["compost", "worm", "bin", "kitchen"], ["visa", "interview", "consulate", "document"], ["receipt", "expense", "travel", "claim"],
	["dentist", "filling", "tooth", "anaesthetic"], ["radiator", "bleed", "air", "heating"], ["stakeholder", "workshop", "agenda", "slide"],
	["café", "résumé", "interview", "barista"], ["crème", "brûlée", "torch", "sugar"], ["garçon", "façade", "paint", "scaffold"],
	["hostel", "locker", "padlock", "dormitory"],
];
// How a question starts: words every question shares.
const FRAMINGS = ["what did I write about", "anything on", "where was the thing about", "remind me about", "find my notes on"];
const TITLES = [
	"Weekend project", "Saturday chores", "Things to remember", "Open questions", "Loose ends", "Call log",
	"Quick capture", "Follow-ups", "Scratchpad", "Monday list", "Misc", "Inbox zero", "Brain dump", "Later",
	"Small wins", "To check", "Catch-up", "Odds and ends", "Jotted down", "Reminders",
];

/** The question's form of a fact word: plural, capitals, no accents. */
function variant(word, k) {
	const plain = word.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace("ç", "c");
	const plural = plain.endsWith("s") ? plain : plain.endsWith("y") ? `${plain.slice(0, -1)}ies` : `${plain}s`;
	switch (k % 4) {
		case 0: return plural;
		case 1: return plain.toUpperCase();
		case 2: return `${plural[0].toUpperCase()}${plural.slice(1)}`;
		default: return plain;
	}
}

/** Writes the vault and returns the questions. */
export function makeSearchVault(folder, n = 2000) {
	const rand = random(42);
	const pick = (list) => list[Math.floor(rand() * list.length)];
	const topics = Object.entries(TOPICS).map(([name, words]) => [name, words.split(" ")]);
	const factWords = FACTS.flat();
	const notes = new Map();
	const sentence = (words) => {
		const parts = [];
		for (let i = 0; i < 9; i++) parts.push(i % 3 === 1 ? pick(words) : pick(FILLER));
		parts.push(pick(factWords));
		parts.sort(() => rand() - 0.5);
		const text = parts.join(" ");
		return `${text[0].toUpperCase()}${text.slice(1)}.`;
	};
	// A background note never holds two of the words a question asks
	// together, so each question has one right answer.
	const asked = FACTS.map((f) => [f[0], f[1], f[3]]);
	const ambiguous = (text) => {
		const held = new Set(text.toLowerCase().split(/[^\p{L}]+/u));
		return asked.some((triple) => triple.filter((w) => held.has(w)).length >= 2);
	};
	const background = n - FACTS.length;
	for (let i = 0; i < background; i++) {
		const [topic, words] = topics[i % topics.length];
		const title = `${topic} ${String(i).padStart(5, "0")} ${pick(words)}`;
		const lines = [`# ${title}`, ""];
		const count = 3 + Math.floor(rand() * 5);
		for (let s = 0; s < count; s++) {
			let next = sentence(words);
			for (let tries = 0; tries < 100 && ambiguous(`${title} ${lines.join(" ")} ${next}`); tries++) next = sentence(words);
			lines.push(next);
		}
		if (i % 5 === 0) lines.splice(2, 0, "## Details");
		notes.set(`${topic}/${title}.md`, `${lines.join("\n")}\n`);
	}
	const questions = [];
	FACTS.forEach((fact, k) => {
		const [topic, words] = topics[k % topics.length];
		const title = `${TITLES[k % TITLES.length]} ${k + 1}`;
		const path = `Planted/${title}.md`;
		const lines = [`# ${title}`, ""];
		for (let s = 0; s < 4; s++) lines.push(sentence(words));
		lines.push(`Remember: the ${fact[0]} and the ${fact[1]} near the ${fact[2]}, then the ${fact[3]}.`);
		for (let s = 0; s < 3; s++) lines.push(sentence(words));
		notes.set(path, `${lines.join("\n")}\n`);
		const asked = [fact[0], fact[1], fact[3]].map((w, i) => variant(w, k + i));
		const framing = FRAMINGS[k % FRAMINGS.length];
		const q = [framing, ...asked].join(" ");
		const titleWords = title.toLowerCase().split(/\W+/);
		if (asked.some((w) => titleWords.includes(w.toLowerCase()))) throw new Error(`question uses a title word: ${q}`);
		questions.push({ q, expect: [path] });
	});
	mkdirSync(join(folder, "vault", ".obsidian"), { recursive: true });
	for (const [path, text] of notes) {
		mkdirSync(dirname(join(folder, "vault", path)), { recursive: true });
		writeFileSync(join(folder, "vault", path), text);
	}
	writeFileSync(join(folder, "questions.json"), `${JSON.stringify(questions, null, 1)}\n`);
	return questions;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [folder, n] = process.argv.slice(2);
	if (!folder) {
		console.error("usage: node scripts/eval-search/make-search-vault.mjs <folder> [notes=2000]");
		process.exit(2);
	}
	const questions = makeSearchVault(folder, n ? Number(n) : 2000);
	console.log(`${questions.length} questions, vault in ${join(folder, "vault")}`);
}
