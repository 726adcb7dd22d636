// Frame times and memory while the chat handles hostile images and PDFs
// (issue 36, item 5), in Chromium from the built main.js, against a
// scripted model server on localhost. Each case is what a user does: paste
// an image into the input (or attach a vault PDF with [[) and send a
// message. For each the page records its longest task (PerformanceObserver
// 'longtask') and its longest gap between animation frames; the JS heap
// (CDP Runtime.getHeapUsage after HeapProfiler.collectGarbage) and the
// renderer's resident memory (VmRSS, sampled every 25 ms) are taken before,
// at the peak and after. A normal small image and a normal 3-page PDF are
// the baseline of the same run. The files come from
// tests/support/hostile-media.mjs.
//
// node scripts/bench-hostile-media.mjs            (after bash scripts/build.sh)
// VAULT_AGENT_BUILD_DIR=<dir> node scripts/...   (another build's main.js)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openChat, outputDir, startBrowserPlugin, turnEnded } from "../tests/support/browser.mjs";
import { emulator, emulatorEnv } from "../tests/support/harness.mjs";
import { cutPdf, encryptedPdf, garbagePdf, HUGE_PNG, manyPagesPdf, PDF_AS_PNG, png, TEXT_AS_PNG, truncated, truncatedJpeg } from "../tests/support/hostile-media.mjs";
import { openaiStream, startModelServer } from "../tests/support/model-servers.mjs";
import { simplePdf } from "../tests/support/pdf-double.mjs";

const PDFS = {
	"Normal.pdf": simplePdf([["Revenue grew 4%"], ["Costs fell"], ["Outlook: steady"]]),
	"Locked.pdf": encryptedPdf(),
	"Noise.pdf": garbagePdf(),
	"Cut.pdf": cutPdf(),
	"Long.pdf": manyPagesPdf(10_000),
};

/** The resident memory (kB) of the renderers this process's Chromium started. */
function rendererRss() {
	const parent = (pid) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[1]);
	let total = 0;
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			if (!readFileSync(`/proc/${name}/cmdline`, "utf8").includes("--type=renderer")) continue;
			let pid = Number(name);
			while (pid > 1 && pid !== process.pid) pid = parent(pid);
			if (pid !== process.pid) continue;
			total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, "utf8"))?.[1] ?? 0);
		} catch {
			// The process ended meanwhile.
		}
	}
	return total;
}

const server = await startModelServer();
const session = await startBrowserPlugin({
	data: {
		cliPath: emulator,
		chat: { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "bench", apiKeySecret: "", contextWindow: 32000, images: true }], activeProfile: "p" },
	},
	env: (vault) => {
		for (const [name, bytes] of Object.entries(PDFS)) writeFileSync(join(vault, name), bytes);
		return emulatorEnv(vault);
	},
	args: ["--js-flags=--expose-gc"],
	viewport: { width: 1100, height: 900 },
});
const { page } = session;
const cdp = await page.context().newCDPSession(page);
await cdp.send("HeapProfiler.enable");
const heapMb = async () => {
	await cdp.send("HeapProfiler.collectGarbage");
	return (await cdp.send("Runtime.getHeapUsage")).usedSize / 1024 / 1024;
};

/** Starts the page's records of long tasks and frame gaps. */
const record = () =>
	page.evaluate(() => {
		const state = { longest: 0, gap: 0, stop: false };
		window.__bench = state;
		performance.mark("vault-agent-bench-start");
		state.observer = new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) state.longest = Math.max(state.longest, entry.duration);
		});
		state.observer.observe({ type: "longtask" });
		let last = performance.now();
		const tick = (now) => {
			state.gap = Math.max(state.gap, now - last);
			last = now;
			if (!state.stop) requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	});
const stop = () =>
	page.evaluate(async () => {
		await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
		const state = window.__bench;
		state.stop = true;
		for (const entry of state.observer.takeRecords()) state.longest = Math.max(state.longest, entry.duration);
		state.observer.disconnect();
		return { longest: state.longest, gap: state.gap };
	});

/** The chat cleared between cases: a new chat, no chips, no banner. */
async function fresh() {
	await page.evaluate(() => {
		for (const button of document.querySelectorAll(".vault-agent-chip-remove")) button.click();
		document.querySelector(".vault-agent-banner")?.remove();
	});
	await page.evaluate(() => window.__harness.runCommand("vault-agent:new-chat")).catch(() => {});
}

async function paste(bytes, type) {
	await page.evaluate(
		({ bytes, type }) => {
			const data = new DataTransfer();
			data.items.add(new File([new Uint8Array(bytes)], type === "image/jpeg" ? "photo.jpg" : "image.png", { type }));
			document.querySelector(".vault-agent-input").dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
		},
		{ bytes: [...bytes], type },
	);
	await page.waitForFunction(() => document.querySelector(".vault-agent-banner") || document.querySelector(".vault-agent-attachments .vault-agent-chip img"), null, { timeout: 60_000 });
	// A thumbnail is decoded for drawing: wait for it as the user sees it.
	await page.evaluate(() => document.querySelector(".vault-agent-attachments .vault-agent-chip img")?.decode().catch(() => {}));
}

async function attachPdf(name) {
	const input = page.locator(".vault-agent-input");
	await input.click();
	await input.pressSequentially(`[[${name.replace(".pdf", "")}`);
	const item = page.locator(".suggestion-container .suggestion-item", { hasText: name });
	await item.waitFor({ state: "visible", timeout: 10_000 });
	await item.click();
}

async function send() {
	server.script({ stream: openaiStream({ text: "Seen." }) });
	await page.locator(".vault-agent-input").fill("What is this?");
	await page.locator(".vault-agent-send").click();
	await turnEnded(page, 120_000).catch(() => {});
}

/**
 * How busy the page's main thread and PDF.js's worker were in a Performance
 * trace, and the main thread's tasks over 50 ms, each with
 * what ran in it: the trace's longest inner events (a message's interface
 * among them) and, from the CPU profile's samples in its time, the script
 * functions that held it longest (self time, script and line).
 */
function longTasks(events, profile) {
	// From the page's mark where recording starts (before it: the bench's own GC and profiler start).
	const start = events.find((e) => e.name === "vault-agent-bench-start")?.ts ?? 0;
	const threadOf = new Map(events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
	const runs = events.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && e.ts + e.dur >= start);
	const summary = ["CrRendererMain", "DedicatedWorker thread"].map((thread) => {
		const own = runs.filter((e) => threadOf.get(`${e.pid}:${e.tid}`) === thread);
		return `  ${thread}: ${own.length} tasks, busy ${(own.reduce((sum, e) => sum + e.dur, 0) / 1000).toFixed(0)} ms, longest ${(Math.max(0, ...own.map((e) => e.dur)) / 1000).toFixed(0)} ms`;
	});
	const main = events.filter((e) => e.ph === "X" && threadOf.get(`${e.pid}:${e.tid}`) === "CrRendererMain");
	const tasks = main.filter((e) => e.name === "ThreadControllerImpl::RunTask" && e.dur > 50_000 && e.ts + e.dur >= start);
	// A task can hold a nested one of the same name: keep the outermost.
	const outer = tasks.filter((t, i) => !tasks.some((o, j) => j !== i && o.ts <= t.ts && o.ts + o.dur >= t.ts + t.dur && (o.ts < t.ts || o.dur > t.dur || j < i)));
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const where = ({ callFrame: f }) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}`;
	const top = (map) => [...map].sort((x, y) => y[1] - x[1]).slice(0, 5).map(([k, ms]) => `${ms.toFixed(0)} ms ${k}`).join("; ");

	return summary.concat(outer.map((task) => {
		const inner = new Map();
		for (const e of main) {
			if (e.ts < task.ts || e.ts >= task.ts + task.dur || e.name.includes("RunTask")) continue;
			const mojo = e.args?.chrome_mojo_event_info;
			const key = mojo?.mojo_interface_tag ? `${e.name} (${mojo.mojo_interface_tag}, ${mojo.data_num_bytes} bytes)` : e.name;
			inner.set(key, Math.max(inner.get(key) ?? 0, e.dur / 1000));
		}
		const self = new Map();
		let time = profile.startTime;
		profile.samples.forEach((id, i) => {
			time += profile.timeDeltas[i];
			if (time < task.ts || time >= task.ts + task.dur) return;
			const key = where(nodes.get(id));
			self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
		});
		return `  at ${((task.ts - start) / 1000).toFixed(0)} ms: ${(task.dur / 1000).toFixed(0)} ms (${((task.tdur ?? 0) / 1000).toFixed(0)} ms on the CPU)\n    events: ${top(inner)}\n    script: ${top(self) || "none sampled"}`;
	}));
}

/** One case: its frame figures and memory before, at the peak and after. */
async function measure(name, act) {
	await fresh();
	// VAULT_AGENT_PROFILE=<part of a case's name>: that case runs under a
	// Performance trace and CDP's sampling profiler (files in test-output/).
	const profiling = process.env.VAULT_AGENT_PROFILE && name.includes(process.env.VAULT_AGENT_PROFILE);
	const events = [];
	const collect = ({ value }) => events.push(...value);
	if (profiling) {
		cdp.on("Tracing.dataCollected", collect);
		await cdp.send("Tracing.start", { categories: "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing", transferMode: "ReportEvents" });
		await cdp.send("Profiler.enable");
		await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
		await cdp.send("Profiler.start");
	}
	const heapBefore = await heapMb();
	const rssBefore = rendererRss();
	let rssPeak = rssBefore;
	const sampler = setInterval(() => {
		rssPeak = Math.max(rssPeak, rendererRss());
	}, 25);
	await record();
	const t0 = performance.now();
	await act();
	const ms = performance.now() - t0;
	const frames = await stop();
	clearInterval(sampler);
	if (profiling) {
		const { profile } = await cdp.send("Profiler.stop");
		const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
		await cdp.send("Tracing.end");
		await done;
		cdp.off("Tracing.dataCollected", collect);
		mkdirSync(outputDir, { recursive: true });
		writeFileSync(join(outputDir, "bench-hostile-media.cpuprofile"), JSON.stringify(profile));
		writeFileSync(join(outputDir, "bench-hostile-media.trace.json"), JSON.stringify({ traceEvents: events }));
		console.log(`${name}: busy threads, then the page's main-thread tasks over 50 ms (trace and profile in ${outputDir}):\n${longTasks(events, profile).join("\n")}`);
	}
	const shown = await page.evaluate(() => document.querySelector(".vault-agent-banner")?.textContent ?? "");
	await fresh();
	await new Promise((resolve) => setTimeout(resolve, 500));
	const heapAfter = await heapMb();
	const rssAfter = rendererRss();
	return { name, ms, ...frames, heapBefore, heapAfter, rssBefore: rssBefore / 1024, rssPeak: rssPeak / 1024, rssAfter: rssAfter / 1024, shown };
}

const rows = [];
try {
	await openChat(page);
	const images = [
		["normal PNG 320×200 (baseline)", png(320, 200), "image/png"],
		["PNG whose header says 20 000 × 20 000 (312 bytes)", HUGE_PNG, "image/png"],
		["PNG cut short", truncated(png(320, 200)), "image/png"],
		["JPEG cut short", truncatedJpeg(), "image/jpeg"],
		["text named .png", TEXT_AS_PNG, "image/png"],
		["PDF named .png", PDF_AS_PNG, "image/png"],
	];
	for (const [name, bytes, type] of images) {
		rows.push(
			await measure(`paste and send: ${name}`, async () => {
				await paste(bytes, type);
				await send();
			}),
		);
	}
	for (const [file, name] of [
		["Normal.pdf", "3-page PDF (baseline)"],
		["Locked.pdf", "PDF with a password"],
		["Noise.pdf", "damaged PDF (noise after the header)"],
		["Cut.pdf", "PDF cut short after its catalog"],
		["Long.pdf", "PDF of 10 000 pages"],
	]) {
		rows.push(
			await measure(`attach and send: ${name}`, async () => {
				await attachPdf(file);
				await send();
			}),
		);
	}
	// What of the 10 000-page case is PDF.js's own (the real one, parsing in
	// its worker, as Obsidian's loadPdfJs gives it) and not the plugin's.
	rows.push(
		await measure("PDF.js alone: open the 10 000-page PDF, read 500 pages", () =>
			page.evaluate(async () => {
				const { app, obsidian } = window.__harness;
				const pdfjs = await obsidian.loadPdfJs();
				const document = await pdfjs.getDocument({ data: new Uint8Array(await app.vault.readBinary(app.vault.getAbstractFileByPath("Long.pdf"))) }).promise;
				for (let n = 1; n <= 500; n++) await (await document.getPage(n)).getTextContent();
			}),
		),
	);
} finally {
	await session.close();
	await server.close();
}

const base = (name) => rows.find((r) => r.name.startsWith(name) && r.name.includes("baseline"));
const f = (n, d = 0) => n.toFixed(d);
console.log("| Case | Wall (ms) | Longest task (ms) | Longest frame gap (ms) | × baseline's gap | JS heap before → after (MB) | Renderer RSS before → peak → after (MB) |");
console.log("|---|---:|---:|---:|---:|---|---|");
for (const r of rows) {
	const b = base(r.name.startsWith("paste") ? "paste" : "attach");
	console.log(
		`| ${r.name} | ${f(r.ms)} | ${f(r.longest)} | ${f(r.gap)} | ${f(r.gap / b.gap, 1)} | ${f(r.heapBefore, 1)} → ${f(r.heapAfter, 1)} | ${f(r.rssBefore)} → ${f(r.rssPeak)} → ${f(r.rssAfter)} |`,
	);
}
console.log("\nWhat the chat said:");
for (const r of rows) console.log(`- ${r.name}: ${r.shown || "(no banner)"}`);
