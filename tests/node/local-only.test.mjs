// Settings → Safety → Local only through the BUILT main.js: a model server
// whose name resolves to a public address is refused with nothing sent (the
// socket count proves no connection was even tried), loopback works, and a
// name on the private network is connected to at the address that was
// checked (this machine has no private address, so the listener on loopback
// stands in for 10.0.0.7: the test redirects that one address, after the
// plugin chose it). The connection log lists each.
import assert from "node:assert/strict";
import dns from "node:dns";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

/** The private address the test's resolver gives `nas.lan`, and the loopback one that stands in for it. */
const PRIVATE = "10.0.0.7";

describe("Local only (the built main.js, real sockets)", () => {
	const vaults = [];
	let server;
	let realLookup;
	let connects = 0;
	let realConnect;
	/** The addresses sockets were asked to reach through the plugin's pinned lookup. */
	const reached = [];
	before(async () => {
		server = await startModelServer();
		// The plugin's resolver answers a public address for this name.
		realLookup = dns.lookup;
		dns.lookup = (host, options, callback) => {
			if (host === "models.example.com") return callback(null, [{ address: "93.184.215.14", family: 4 }]);
			if (host === "nas.lan") return callback(null, [{ address: PRIVATE, family: 4 }]);
			return realLookup(host, options, callback);
		};
		realConnect = net.Socket.prototype.connect;
		net.Socket.prototype.connect = function (...args) {
			connects++;
			// Node's http hands connect() its normalised arguments: [options, callback].
			const normalised = Array.isArray(args[0]) ? args[0] : args;
			const options = normalised[0];
			if (options && typeof options === "object" && typeof options.lookup === "function") {
				const pinned = options.lookup;
				normalised[0] = {
					...options,
					lookup: (hostname, lookupOptions, callback) =>
						pinned(hostname, lookupOptions, (error, address, family) => {
							const first = Array.isArray(address) ? address[0].address : address;
							reached.push(first);
							if (first !== PRIVATE) return callback(error, address, family);
							return Array.isArray(address) ? callback(error, [{ address: "127.0.0.1", family: 4 }]) : callback(error, "127.0.0.1", 4);
						}),
				};
			}
			return realConnect.apply(this, args);
		};
	});
	after(async () => {
		dns.lookup = realLookup;
		net.Socket.prototype.connect = realConnect;
		await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(baseUrl) {
		const vault = copySampleVault();
		vaults.push(vault);
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl, model: "test-model", contextWindow: 8192 }], activeProfile: "p" };
		return (await loadPlugin(vault, { data: { cliPath: emulator, localOnly: true, chat } })).plugin;
	}

	async function turn(plugin) {
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), "hi", (event) => events.push(event));
		return { ...result, error: events.find((e) => e.type === "error") };
	}

	it("refuses a server whose name is a public address, before any socket is opened", async () => {
		const port = new URL(server.url).port;
		const plugin = await setup(`http://models.example.com:${port}/v1`);
		const before = connects;
		const requests = server.requests.length;
		const { end, error } = await turn(plugin);
		assert.equal(end, "failed");
		assert.equal(error.code, "local_only", error.message);
		assert.match(error.message, /models\.example\.com is 93\.184\.215\.14/);
		assert.match(error.message, /Settings → Vault Agent → Safety → Local only/);
		assert.equal(error.retryable, false, "Retry cannot help while the setting refuses");
		assert.equal(connects, before, "no connection was tried");
		assert.equal(server.requests.length, requests, "the listener standing in saw nothing");
		const log = plugin.core.connectionLog();
		assert.ok(log.length > 0 && log.every((e) => e.refused && e.destination === `models.example.com:${port}`), JSON.stringify(log));
	});

	it("refuses a public address that a backslash hides behind a local one, before any socket is opened", async () => {
		const port = new URL(server.url).port;
		for (const tail of [`\\@127.0.0.1:${port}/v1`, `\\\\@localhost:${port}/v1`]) {
			const plugin = await setup(`http://93.184.215.14:${port}${tail}`);
			const before = connects;
			const requests = server.requests.length;
			const { end, error } = await turn(plugin);
			assert.equal(end, "failed", tail);
			assert.equal(error.code, "local_only", error.message);
			assert.match(error.message, /93\.184\.215\.14 is 93\.184\.215\.14/);
			assert.equal(connects, before, "no connection was tried");
			assert.equal(server.requests.length, requests);
			const log = plugin.core.connectionLog();
			assert.ok(log.length > 0 && log.every((e) => e.refused && e.destination === `93.184.215.14:${port}`), JSON.stringify(log));
		}
	});

	it("refuses the cloud's metadata service, though it is link-local", async () => {
		const plugin = await setup("http://169.254.169.254/latest/v1");
		const before = connects;
		const { end, error } = await turn(plugin);
		assert.equal(end, "failed");
		assert.equal(error.code, "local_only", error.message);
		assert.match(error.message, /metadata service/);
		assert.equal(connects, before, "no connection was tried");
	});

	it("reaches a server on this computer, at the address it checked", async () => {
		const port = new URL(server.url).port;
		const plugin = await setup(`http://localhost:${port}/v1`);
		server.script({ stream: openaiStream({ text: "Local." }) });
		const { end, error } = await turn(plugin);
		assert.equal(end, "done", error?.message);
		const last = plugin.core.connectionLog().at(-1);
		assert.deepEqual([last.refused, last.purpose, last.destination], [false, "chat answer", `localhost:${port}`]);
		assert.match(last.address, /^(127\.0\.0\.1|::1)$/);
	});

	it("reaches a name on the private network at the address it checked, never looking it up again", async () => {
		const port = new URL(server.url).port;
		const plugin = await setup(`http://nas.lan:${port}/v1`);
		server.script({ stream: openaiStream({ text: "Private." }) });
		reached.length = 0;
		const { end, error } = await turn(plugin);
		assert.equal(end, "done", error?.message);
		assert.deepEqual(reached, [PRIVATE], "the socket went to the address the core checked");
		// The log names where the socket really went (remoteAddress): here the
		// loopback listener this test redirected 10.0.0.7 to, not the address expected.
		const last = plugin.core.connectionLog().at(-1);
		assert.deepEqual([last.refused, last.address, last.destination], [false, "127.0.0.1", `nas.lan:${port}`]);
	});
});
