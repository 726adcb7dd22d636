// One reading of an address (issue: Local only was passed by
// `http://public\@127.0.0.1/`, which the core read as 127.0.0.1 and Node as
// the public host). Thousands of generated addresses, in the shapes the
// WHATWG URL standard normalises, are read by the BUILT main.js's core and
// by Node's own `new URL()` (what the shim connects with): the core names
// the same host and port, or refuses the address. The address the core
// hands on reads the same again.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";

/** A small seeded generator, so a failure names an address that comes back. */
function generator(seed) {
	let state = seed >>> 0;
	const next = () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
	const below = (n) => Math.floor(next() * n);
	return { below, pick: (list) => list[below(list.length)], chance: (p) => next() < p };
}

const SCHEMES = ["http", "https", "HTTP", "HtTpS", "ftp", "file", "ws"];
const SLASHES = ["//", "/", "\\\\", "\\", "/\\", "", "///"];
const HOSTS = [
	"127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.1", "0x7F.0.0.1", "127.1", "127.0.1", "0x7f000001",
	"%31%32%37.0.0.1", "1\t27.0.0.1", "127.0.0.1\n", "localhost", "LOCALHOST", "localhost.", "%6c%6fcalhost",
	"93.184.215.14", "1572394766", "0x5d.0xb8.0xd7.0x0e", "0135.0270.0327.016", "93.184.55054",
	"169.254.169.254", "0xa9fea9fe", "10.0.0.7", "192.168.1.5", "172.16.0.1", "256.1.1.1", "1.2.3.4.5",
	"[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:93.184.215.14]", "[::ffff:127.0.0.1]", "[fd00:ec2::254]", "[fe80::1]",
	"[2606:4700::1111]", "[::1", "::1", "models.example.com", "Models.Example.COM", "evil.example", "nas.lan",
	"xn--nxasmq6b.example", "a b", "", "%00", "%zz", "ex%2Eample", "[v1.x]",
];
const AUTHS = ["", "", "", "user@", "user:pw@", "@", "a@b@", "93.184.215.14\\@", "evil.example\\\\@", "[::1]\\@", "x%40y@"];
const PORTS = ["", "", ":8080", ":11434", ":0", ":65535", ":65536", ":", ":08080", ":80a"];
const TAILS = ["", "/", "/v1", "/v1/chat/completions", "\\v1", "?q=1", "#f", "\\@127.0.0.1:8080/v1", "\\\\@localhost/v1", "@127.0.0.1/"];

function address(g) {
	const parts = [g.pick(SCHEMES), ":", g.pick(SLASHES), g.pick(AUTHS), g.pick(HOSTS), g.pick(PORTS), g.pick(TAILS)];
	if (g.chance(0.15)) parts.splice(1 + g.below(6), 0, g.pick(["\t", "\n", "\r", " "]));
	const text = parts.join("");
	return g.chance(0.1) ? `  ${text}\n` : text;
}

describe("an address read once (the built main.js against Node's URL)", () => {
	let vault;
	let core;
	before(async () => {
		vault = copySampleVault();
		core = (await loadPlugin(vault, { data: { cliPath: emulator } })).plugin.core;
	});
	after(() => removeVault(vault));

	it("names the host Node connects to, or refuses the address", () => {
		const g = generator(20261207);
		let agreed = 0;
		let refused = 0;
		for (let i = 0; i < 4000; i++) {
			const text = address(g);
			const reading = core.destinationOf(text);
			if ("error" in reading) {
				assert.ok(reading.error.length > 20, `a refusal says why: ${JSON.stringify(text)}`);
				refused++;
				continue;
			}
			const node = new URL(text);
			assert.equal(reading.hostname, node.hostname, `host of ${JSON.stringify(text)}`);
			const port = Number(node.port || (node.protocol === "https:" ? 443 : 80));
			assert.equal(reading.port, port, `port of ${JSON.stringify(text)}`);
			assert.match(node.protocol, /^https?:$/, `only http(s): ${JSON.stringify(text)}`);
			// What the shim opens is the core's written form: it must read the same.
			const handed = new URL(reading.url);
			assert.equal(handed.hostname, reading.hostname, `handed on: ${reading.url}`);
			assert.equal(handed.href, reading.url, `written as Node writes it: ${JSON.stringify(text)}`);
			agreed++;
		}
		// The mix must exercise both sides, or the test proves nothing.
		assert.ok(agreed > 1000 && refused > 500, `agreed ${agreed}, refused ${refused}`);
	});

	it("reads the round-three attack as the public host it is", () => {
		for (const text of ["http://93.184.215.14:8080\\@127.0.0.1:8080/v1", "https://93.184.215.14\\\\@127.0.0.1/v1", "http://[2606:4700::1111]\\@localhost/v1"]) {
			const reading = core.destinationOf(text);
			assert.equal(reading.hostname, new URL(text).hostname, text);
			assert.doesNotMatch(reading.hostname, /^(127\.|localhost|\[::1\])/, text);
		}
	});
});
