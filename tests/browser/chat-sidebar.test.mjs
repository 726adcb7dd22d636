// The chat at home in Obsidian's sidebar (issue 40), in Chromium from the
// built main.js, at the widths people give a sidebar (280, 320, 420 and
// 600 px) in both themes: an unreachable server's error names the profile
// and the address (broken only after a `/`), says its cause once and offers
// the ways out; the mode picker as an icon with its name where the row is
// short; a coding agent's selects behind one button (two rows still); a
// long message's edit pencil inside the pane; Copy under the final answer
// only; a card's diff marking only changed words and its Undo once; the
// geometry a picky user sees is asserted, and screenshots are kept in
// test-output/ to look at.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv, root } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";
import { axeViolations, overflowing, settled, sidebar, theme, THEMES, WIDTHS } from "../support/sidebar-geometry.mjs";

describe("the chat in Obsidian's sidebar, in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				acpAgents: { custom: { command: process.execPath, args: [join(root, "tests/support/acp-agent.mjs")] } },
				chat: {
					maxToolRounds: 1,
					profiles: [
						// Nothing listens on port 9: the connection is refused.
						{ id: "down", name: "Desk server", provider: "openAi", baseUrl: "http://127.0.0.1:9/v1", model: "qwen2.5-coder-32b-instruct" },
						{ id: "up", name: "OpenRouter · anthropic/claude-sonnet-4.5", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" },
					],
					activeProfile: "down",
				},
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1000, height: 760 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	describe("the header", () => {
		/** The header's rows (distinct middles of its visible parts), and what is cut or sticks out. */
		function headerFacts() {
			return page.evaluate(() => {
				// A select does not report its text overflowing: the chosen option's text as drawn in its font.
				const textWidth = (select) => {
					const context = document.createElement("canvas").getContext("2d");
					context.font = getComputedStyle(select).font;
					return context.measureText(select.selectedOptions[0]?.text ?? "").width;
				};
				const header = document.querySelector(".vault-agent-chat-header");
				const parts = [...header.querySelectorAll(".vault-agent-chat-title, select, .clickable-icon, .vault-agent-mode-icon, .vault-agent-local-only-badge, .vault-agent-outside-badge")].filter((el) => el.getClientRects().length > 0);
				const rows = [];
				for (const el of parts) {
					const box = el.getBoundingClientRect();
					const middle = (box.top + box.bottom) / 2;
					const row = rows.find((r) => middle >= r.top && middle <= r.bottom);
					if (row) row.parts.push(el.className || el.tagName);
					else rows.push({ top: box.top, bottom: box.bottom, parts: [el.className || el.tagName] });
				}
				const outer = header.getBoundingClientRect();
				const model = header.querySelector("select.vault-agent-model");
				const title = header.querySelector(".vault-agent-chat-title");
				return {
					rows: rows.map((r) => r.parts),
					outside: parts.filter((el) => el.getBoundingClientRect().right > outer.right + 1 || el.getBoundingClientRect().left < outer.left - 1).map((el) => el.className),
					model: { text: model.selectedOptions[0]?.text, cut: textWidth(model) > model.clientWidth - parseFloat(getComputedStyle(model).paddingLeft) - parseFloat(getComputedStyle(model).paddingRight) + 1, width: Math.round(model.getBoundingClientRect().width), tooltip: model.getAttribute("title") ?? "", overflow: getComputedStyle(model).textOverflow },
					title: { text: title.textContent, tooltip: title.getAttribute("title") },
				};
			});
		}

		before(async () => {
			await page.evaluate(async () => {
				const plugin = window.__harness.plugin;
				await plugin.updateSettings({ localOnly: true });
				await plugin.editModelProfiles({ action: "select", id: "up" });
			});
		});

		for (const themeName of THEMES) {
			for (const width of WIDTHS) {
				it(`fits two rows, nothing wrapped, with the model readable at ${width} px, ${themeName} theme`, async () => {
					await theme(page, themeName);
					await sidebar(page, width);
					const facts = await headerFacts();
					assert.equal(facts.rows.length, 2, JSON.stringify(facts.rows));
					// The first row: the title, then the icons; the second: the mode and the model. Not a row of wrapped buttons.
					assert.ok(facts.rows[0][0].includes("vault-agent-chat-title") && facts.rows[0].filter((c) => c.includes("clickable-icon")).length === 3, JSON.stringify(facts.rows));
					assert.ok(facts.rows[1].some((c) => c.includes("vault-agent-model")), JSON.stringify(facts.rows));
					assert.deepEqual(facts.outside, [], "nothing past the edge");
					assert.equal(facts.model.text, "OpenRouter · anthropic/claude-sonnet-4.5");
					// Whole from 420 px; narrower, cut at its end only, whole in its tooltip, and still most of the row.
					if (width >= 420) assert.equal(facts.model.cut, false, JSON.stringify(facts.model));
					else {
						assert.equal(facts.model.overflow, "ellipsis");
						assert.ok(facts.model.tooltip.includes(facts.model.text), JSON.stringify(facts.model));
						assert.ok(facts.model.width >= width * 0.45, `the model keeps most of the row: ${JSON.stringify(facts.model)}`);
					}
					// The mode: named with its choice (label and tooltip), described, and where the row is short its
					// icon and a chevron that open it (the select laid over them).
					const mode = await page.evaluate(() => {
						const box = document.querySelector(".vault-agent-chat-header .vault-agent-mode");
						const select = box.querySelector("select");
						const r = box.getBoundingClientRect();
						const shown = (sel) => [...box.querySelectorAll(sel)].some((el) => el.getBoundingClientRect().width > 0);
						return {
							label: select.getAttribute("aria-label"),
							description: select.getAttribute("aria-description") ?? "",
							hit: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === select,
							icon: shown(".vault-agent-mode-icon svg"),
							chevron: shown(".vault-agent-mode-chevron svg"),
						};
					});
					assert.equal(mode.label, "Vault changes: Ask before edits");
					assert.ok(mode.description.length > 20, mode.description);
					if (width <= 320) assert.deepEqual([mode.icon, mode.chevron, mode.hit], [true, true, true], JSON.stringify(mode));
					await page.locator(".vault-agent-chat-header").screenshot({ path: join(outputDir, `chat-header-${width}-${themeName}.png`) });
				});
			}
		}

		it("carries the chat's own title in the header and the tab", async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			const titles = () =>
				page.evaluate(() => {
					const leaf = window.__harness.app.workspace.getLeavesOfType("vault-agent-chat")[0];
					return { header: document.querySelector(".vault-agent-chat-title").textContent, tab: leaf.tabHeaderEl.getAttribute("aria-label"), view: leaf.view.getDisplayText() };
				});
			assert.deepEqual(await titles(), { header: "New chat", tab: "New chat", view: "New chat" });
		});
	});

	describe("the input", () => {
		for (const themeName of THEMES) {
			for (const width of WIDTHS) {
				it(`has Send beside it, its placeholder on one line and its hint in view at ${width} px, ${themeName} theme`, async () => {
					await theme(page, themeName);
					await sidebar(page, width);
					const facts = await page.evaluate(() => {
						const input = document.querySelector(".vault-agent-input");
						const style = getComputedStyle(input);
						const context = document.createElement("canvas").getContext("2d");
						context.font = style.font;
						const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
						const i = input.getBoundingClientRect();
						const send = document.querySelector(".vault-agent-send").getBoundingClientRect();
						const hint = document.querySelector(".vault-agent-composer-hint");
						const attach = document.querySelector(".vault-agent-attach");
						return {
							placeholderFits: context.measureText(input.placeholder).width <= room,
							sendBeside: send.left >= i.right - 1 && send.top < i.bottom && send.bottom > i.top,
							hint: hint.textContent,
							hintCut: hint.scrollWidth > hint.clientWidth + 1,
							attach: attach?.getAttribute("aria-label"),
						};
					});
					assert.equal(facts.placeholderFits, true, `the placeholder on one line at ${width} px`);
					assert.equal(facts.sendBeside, true, `Send beside the input at ${width} px`);
					assert.equal(facts.hint, "/ prompts · [[ notes, images, PDFs");
					assert.equal(facts.hintCut, false, `the hint whole at ${width} px`);
					assert.equal(facts.attach, "Attach a note, image or document");
					assert.deepEqual(await overflowing(page, ".vault-agent-composer, .vault-agent-composer *"), []);
					if (width === 280 || width === 320) await page.locator(".vault-agent-composer").screenshot({ path: join(outputDir, `chat-input-${width}-${themeName}.png`) });
				});
			}
		}

		it("attaches through the same picker as [[ (notes, images, PDFs)", async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			await page.locator(".vault-agent-attach").click();
			assert.equal(await page.locator(".vault-agent-input").inputValue(), "[[");
			await page.locator(".suggestion-container .suggestion-item").first().waitFor({ state: "visible", timeout: 5_000 });
			await page.keyboard.press("Escape");
			await page.locator(".vault-agent-input").fill("");
		});

		it("shows Local only as a status whose click explains it", async () => {
			const badge = page.locator("button.vault-agent-local-only-badge");
			assert.equal(await badge.locator("svg").count(), 1, "an icon");
			await badge.click();
			const modal = page.locator(".modal", { hasText: "Local only is on" });
			await modal.waitFor({ state: "visible", timeout: 5_000 });
			await modal.locator("button", { hasText: "Close" }).click();
		});
	});

	describe("an unreachable model server", () => {
		before(async () => {
			await sidebar(page, 320);
			await page.evaluate(() => window.__harness.plugin.editModelProfiles({ action: "select", id: "down" }));
			await sendMessage(page, "what is in my inbox?");
			await turnEnded(page, 30_000);
			await page.locator(".vault-agent-banner").waitFor({ state: "visible" });
		});

		it("titles the chat by its first question, in the header and the tab", async () => {
			const facts = await page.evaluate(() => {
				const leaf = window.__harness.app.workspace.getLeavesOfType("vault-agent-chat")[0];
				return { header: document.querySelector(".vault-agent-chat-title").textContent, tab: leaf.tabHeaderEl.getAttribute("aria-label") };
			});
			assert.deepEqual(facts, { header: "what is in my inbox?", tab: "what is in my inbox?" });
		});

		it("names the profile and the address, says the cause once, and offers the ways out", async () => {
			const banner = page.locator(".vault-agent-messages > .vault-agent-banner").last();
			const text = await banner.locator(".vault-agent-banner-text").textContent();
			assert.ok(text.includes('"Desk server"'), text);
			assert.ok(text.includes("http://127.0.0.1:9/v1/chat/completions"), text);
			assert.equal(text.split("ECONNREFUSED").length - 1, 1, `the cause once: ${text}`);
			assert.deepEqual(await banner.locator("button").allTextContents(), ["Retry", "Open this profile's settings", "Switch profile"]);
			// The address is its own element, with a <wbr> after each / (made with createEl, not markup).
			const wbrs = await banner.locator(".vault-agent-banner-address wbr").count();
			assert.equal(wbrs, "http://127.0.0.1:9/v1/chat/completions".split("/").length - 1);
		});

		for (const themeName of THEMES) {
			for (const width of WIDTHS) {
				it(`wraps the address only after a / and keeps its buttons inside at ${width} px, ${themeName} theme`, async () => {
					await theme(page, themeName);
					await sidebar(page, width);
					const facts = await page.locator(".vault-agent-banner").last().evaluate((banner) => {
						const address = banner.querySelector(".vault-agent-banner-address");
						// Each piece between two <wbr> is one text node: on one line, never split inside.
						const split = [...address.childNodes]
							.filter((n) => n.nodeType === Node.TEXT_NODE)
							.filter((n) => {
								const range = document.createRange();
								range.selectNodeContents(n);
								const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
								return tops.size > 1;
							})
							.map((n) => n.textContent);
						// And nowhere else in the message does a word break inside (no "compl" / "etions").
						const text = banner.querySelector(".vault-agent-banner-text");
						const words = [];
						const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
						while (walker.nextNode()) {
							const node = walker.currentNode;
							for (const match of node.textContent.matchAll(/\S+/g)) {
								const range = document.createRange();
								range.setStart(node, match.index);
								range.setEnd(node, match.index + match[0].length);
								const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
								if (tops.size > 1) words.push(match[0]);
							}
						}
						const box = banner.getBoundingClientRect();
						const buttons = [...banner.querySelectorAll("button")].map((b) => b.getBoundingClientRect());
						return {
							split,
							words: words.filter((w) => !/[/]/.test(w) || w.length < 12),
							buttonsInside: buttons.every((b) => b.left >= box.left - 0.5 && b.right <= box.right + 0.5),
							buttonsCut: [...banner.querySelectorAll("button")].filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent),
						};
					});
					assert.deepEqual(facts.split, [], `no piece of the address broken inside at ${width} px`);
					assert.deepEqual(facts.words, [], `no word broken inside at ${width} px`);
					assert.equal(facts.buttonsInside, true, `the buttons inside the error at ${width} px`);
					assert.deepEqual(facts.buttonsCut, [], `no button label cut at ${width} px`);
					assert.deepEqual(await overflowing(page, ".vault-agent-banner, .vault-agent-banner *"), []);
					if (width === 280 || width === 420) await page.locator(".vault-agent-banner").last().screenshot({ path: join(outputDir, `chat-error-unreachable-${width}-${themeName}.png`) });
				});
			}
		}

		it("Switch profile opens the header's model picker", async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			await page.locator(".vault-agent-banner-switch").click();
			assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("vault-agent-model")), true);
		});

		it("Open this profile's settings opens Settings → Vault Agent at the Model group", async () => {
			await page.locator(".vault-agent-banner-settings").click();
			const modal = page.locator(".modal.mod-settings");
			await modal.waitFor({ state: "visible", timeout: 5_000 });
			await settled(page);
			const inView = await page.evaluate(() => {
				const model = document.querySelector(".vault-agent-settings .vault-agent-model-settings");
				const container = document.querySelector(".vault-agent-settings").closest(".vertical-tab-content-container") ?? document.querySelector(".vault-agent-settings");
				const a = model.getBoundingClientRect();
				const b = container.getBoundingClientRect();
				return a.top >= b.top - 1 && a.top < b.bottom;
			});
			assert.equal(inView, true, "the Model group in view");
			await page.keyboard.press("Escape");
			await page.evaluate(() => document.querySelector(".modal.mod-settings") && window.__harness.app.setting.close());
		});
	});

	describe("the change card", () => {
		const GOALS = Array.from({ length: 22 }, (_, i) => `- Goal ${i + 1}: keep the first-run experience under ${i + 2} minutes.`).join("\n");

		before(async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			await page.evaluate(() => window.__harness.plugin.editModelProfiles({ action: "select", id: "up" }));
			await page.locator(".vault-agent-new-chat").click();
			server.clear();
			server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "edit", path: "Projects/Launch plan.md", heading: "Launch plan::Goals", content: GOALS }]] }) });
			await sendMessage(page, "rewrite the goals of the launch plan");
			await turnEnded(page, 30_000);
			await page.locator(".vault-agent-inline-card .vault-agent-confirm").last().waitFor({ state: "visible" });
		});

		/** What a user sees of the card with the view at its end (the Approve button in view). */
		function cardFacts() {
			return page.locator(".vault-agent-inline-card .vault-agent-confirm").last().evaluate((card) => {
				const view = document.querySelector(".vault-agent-messages");
				view.scrollTop = view.scrollHeight;
				const port = view.getBoundingClientRect();
				const inView = (el) => {
					const r = el.getBoundingClientRect();
					return r.height > 0 && r.top >= port.top - 1 && r.bottom <= port.bottom + 1;
				};
				const summary = card.querySelector(".vault-agent-confirm-summary");
				const approve = card.querySelector("button.vault-agent-approve");
				// Whatever is drawn at the summary's middle is the summary (not a diff line scrolled over it).
				const s = summary.getBoundingClientRect();
				const top = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
				const lines = [...card.querySelectorAll(".vault-agent-diff-line")].filter((l) => l.getClientRects().length > 0);
				return {
					cardTaller: card.getBoundingClientRect().height > port.height,
					summary: summary.textContent,
					summaryInView: inView(summary) && summary.contains(top),
					approveInView: inView(approve),
					hunks: [...card.querySelectorAll(".vault-agent-diff-hunk")].map((h) => h.textContent),
					text: card.textContent,
					numbers: lines.map((l) => ({ kind: l.className.replace(/.*is-/, ""), old: l.querySelector(".vault-agent-diff-number.is-old")?.textContent, new: l.querySelector(".vault-agent-diff-number.is-new")?.textContent })),
					marked: [...card.querySelectorAll(".vault-agent-diff-line.is-added")].map((l) => [...l.querySelectorAll(".vault-agent-diff-word")].map((w) => w.textContent)),
					added: [...card.querySelectorAll(".vault-agent-diff-line.is-added .vault-agent-diff-text")].map((t) => t.textContent),
				};
			});
		}

		it("keeps its title in view with Approve, labels hunks by line and numbers both sides apart", async () => {
			const facts = await cardFacts();
			assert.equal(facts.cardTaller, true, "a card taller than the view (the case that hid its title)");
			assert.match(facts.summary, /Launch plan\.md.*\+\d+ −\d+/, facts.summary);
			assert.equal(facts.approveInView, true);
			assert.equal(facts.summaryInView, true, "the title in view while Approve is");
			assert.ok(!facts.text.includes("@@"), "no raw hunk header");
			assert.ok(facts.hunks.length > 0 && facts.hunks.every((h) => /^Line \d+$/.test(h)), JSON.stringify(facts.hunks));
			for (const line of facts.numbers) {
				if (line.kind === "added") assert.ok(line.old === "" && /^\d+$/.test(line.new), JSON.stringify(line));
				if (line.kind === "removed") assert.ok(line.new === "" && /^\d+$/.test(line.old), JSON.stringify(line));
				if (line.kind === "context") assert.ok(/^\d+$/.test(line.old) && /^\d+$/.test(line.new), JSON.stringify(line));
			}
			// Changed words are marked as runs, not one block per word (src/notes/diff.rs tests which words);
			// a line paired with an unrelated one is a plain added line, and no line is mostly marked.
			assert.ok(facts.marked.flat().length > 0, JSON.stringify(facts.marked.slice(0, 3)));
			assert.ok(facts.marked.some((words) => words.length === 0), `unrelated pairs unmarked: ${JSON.stringify(facts.marked.slice(0, 3))}`);
			for (const [i, words] of facts.marked.entries()) assert.ok(words.join("").length <= facts.added[i].length / 2, `${JSON.stringify(words)} in ${facts.added[i]}`);
			await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-card-title-with-approve-320.png") });
		});

		for (const themeName of THEMES) {
			for (const width of WIDTHS) {
				it(`shows the card whole at ${width} px, ${themeName} theme`, async () => {
					await theme(page, themeName);
					await sidebar(page, width);
					const facts = await cardFacts();
					assert.equal(facts.summaryInView && facts.approveInView, true, `title and Approve in view at ${width} px`);
					assert.deepEqual(await overflowing(page, ".vault-agent-confirm, .vault-agent-confirm-buttons button, .vault-agent-confirm-summary"), []);
					if (width === 280 || width === 600) await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, `chat-card-${width}-${themeName}.png`) });
				});
			}
		}

		it("folds to one line in the past tense, with Undo, once approved", async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			server.script({ stream: openaiStream({ text: "Rewrote the goals." }) });
			const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
			await card.locator("button.vault-agent-approve").click();
			await page.waitForFunction(() => document.querySelector(".vault-agent-inline-card .vault-agent-confirm.is-done"), null, { timeout: 15_000 });
			await turnEnded(page, 30_000);
			const facts = await card.evaluate((el) => ({
				height: Math.round(el.getBoundingClientRect().height),
				visible: [...el.querySelectorAll("*")].filter((c) => c.getClientRects().length > 0 && c.children.length === 0).map((c) => c.textContent).filter(Boolean),
				lineHeight: parseFloat(getComputedStyle(el.querySelector(".vault-agent-confirm-status")).lineHeight),
			}));
			assert.equal(facts.visible.length, 2, JSON.stringify(facts.visible));
			assert.match(facts.visible[0], /^Done\. Edited "Projects\/Launch plan\.md" \(\+\d+ −\d+ lines?\)\.$/);
			assert.equal(facts.visible[1], "Undo");
			// Once in the chat: the change's tool block does not offer it again.
			assert.equal(await page.locator(".vault-agent-messages button.vault-agent-undo:visible").count(), 1, "Undo once");
			assert.ok(facts.height <= 48, `one line: ${facts.height} px`);
			await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-card-folded-320.png") });
			await card.locator("button.vault-agent-undo").click();
			await page.waitForFunction(() => document.querySelector(".vault-agent-inline-card .vault-agent-confirm.is-undone"), null, { timeout: 15_000 });
			assert.equal(await card.locator(".vault-agent-confirm-status").textContent(), "Undone.");
		});
	});

	describe("a long message, and an answer after a tool", () => {
		const LONG = "Please read every note in my Projects folder and tell me which of them still have open tasks, who owns each of them and when each is due";

		before(async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			await page.locator(".vault-agent-new-chat").click();
			// The card's turn ended at its round limit: what was scripted for after it is not this turn's.
			server.clear();
			server.script(
				{ stream: openaiStream({ text: "Let me look that up first.", toolCalls: [["obsidianSearch", { command: "find", query: "open tasks" }]] }) },
				{ stream: openaiStream({ text: "Three notes have open tasks." }) },
			);
			await sendMessage(page, LONG);
			await turnEnded(page, 30_000);
			// One tool round a message here (maxToolRounds): Continue lets the model answer from the result.
			await page.locator(".vault-agent-continue").click();
			await page.locator(".vault-agent-msg.is-assistant", { hasText: "Three notes have open tasks." }).waitFor({ timeout: 30_000 });
			await turnEnded(page, 30_000);
		});

		for (const themeName of THEMES) {
			for (const width of WIDTHS) {
				it(`keeps a full-width message's edit pencil inside the pane at ${width} px, ${themeName} theme`, async () => {
					await theme(page, themeName);
					await sidebar(page, width);
					const message = page.locator(".vault-agent-msg.is-user").last();
					await message.hover();
					const facts = await message.evaluate((el) => {
						const pane = document.querySelector(".vault-agent-messages").getBoundingClientRect();
						const pencil = el.querySelector(".vault-agent-edit").getBoundingClientRect();
						const box = el.getBoundingClientRect();
						return { inside: pencil.left >= pane.left - 0.5 && pencil.right <= pane.right + 0.5, clear: pencil.right <= box.left + 0.5, full: box.width / pane.width, opacity: getComputedStyle(el.querySelector(".vault-agent-edit")).opacity };
					});
					assert.ok(facts.full > 0.75, `a full-width message: ${JSON.stringify(facts)}`);
					assert.equal(facts.inside, true, `the pencil inside the pane: ${JSON.stringify(facts)}`);
					assert.equal(facts.clear, true, `beside the message, not over it: ${JSON.stringify(facts)}`);
					assert.ok(Number(facts.opacity) > 0, "shown on hover");
					if (width === 280) await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, `chat-edit-pencil-280-${themeName}.png`) });
				});
			}
		}

		it("shows the copy row under the final answer only, not after the lead-in before the tool", async () => {
			const order = await page.evaluate(() =>
				[...document.querySelector(".vault-agent-messages").children].map((el) =>
					el.matches(".vault-agent-msg.is-assistant") ? `answer:${el.textContent.trim()}` : el.matches(".vault-agent-tool-call") ? "tool" : el.querySelector(".vault-agent-copy") ? "copy" : el.className.split(" ")[0],
				),
			);
			const lead = order.indexOf("answer:Let me look that up first.");
			const final = order.indexOf("answer:Three notes have open tasks.");
			assert.ok(lead >= 0 && final > lead, JSON.stringify(order));
			assert.deepEqual(order.slice(lead + 1, final).filter((o) => o === "copy"), [], `no copy row after the lead-in: ${JSON.stringify(order)}`);
			assert.equal(order.filter((o) => o === "copy").length, 1, JSON.stringify(order));
			assert.equal(order[final + 1], "copy", `under the final answer: ${JSON.stringify(order)}`);
		});
	});

	describe("axe-core", () => {
		for (const themeName of THEMES) {
			it(`finds no serious or critical violation in the chat, ${themeName} theme`, async () => {
				await theme(page, themeName);
				await sidebar(page, 320);
				assert.deepEqual(await axeViolations(page, ".vault-agent-chat"), []);
			});

			it(`finds no serious or critical violation in the settings, ${themeName} theme`, async () => {
				await theme(page, themeName);
				await session.openSettings();
				await page.locator(".vault-agent-settings .setting-item").first().waitFor({ state: "visible" });
				const violations = await axeViolations(page, ".vault-agent-settings");
				await page.evaluate(() => window.__harness.app.setting.close());
				assert.deepEqual(violations, []);
			});
		}
	});

	describe("status once, in the header", () => {
		it("says an MCP server that cannot start in the header's status, with its fix, not in the transcript", async () => {
			await theme(page, "dark");
			await sidebar(page, 320);
			await page.evaluate(() => window.__harness.plugin.updateSettings({ mcpServers: [{ id: "notes-search", kind: "stdio", command: "/nonexistent/mcp-server", args: [], enabled: true }] }));
			await page.locator(".vault-agent-new-chat").click();
			server.script({ stream: openaiStream({ text: "Hello." }) });
			await sendMessage(page, "hello");
			await turnEnded(page, 30_000);
			const transcript = await page.locator(".vault-agent-messages").textContent();
			assert.ok(!/could not start/.test(transcript), `not in the transcript: ${transcript}`);
			const badge = page.locator(".vault-agent-outside-badge");
			assert.equal(await badge.isVisible(), true);
			assert.match(await badge.getAttribute("class"), /is-error/);
			await page.locator(".vault-agent-chat-header").screenshot({ path: join(outputDir, "chat-header-status-320.png") });
			await badge.click();
			const modal = page.locator(".modal", { hasText: "Chat status" });
			await modal.waitFor({ state: "visible", timeout: 5_000 });
			const problem = await modal.locator(".vault-agent-status-problem").first().textContent();
			assert.match(problem, /notes-search could not start/);
			assert.match(problem, /Settings → Vault Agent → MCP: your servers in the chat/, "with its fix");
			assert.ok(!problem.includes("`"), `no Markdown punctuation shown raw: ${problem}`);
			await modal.screenshot({ path: join(outputDir, "chat-status-panel.png") });
			await modal.locator("button", { hasText: "Close" }).click();
			// Said once: a second message does not say it again in the transcript either.
			server.script({ stream: openaiStream({ text: "Hello again." }) });
			await sendMessage(page, "hello again");
			await turnEnded(page, 30_000);
			assert.ok(!/could not start/.test(await page.locator(".vault-agent-messages").textContent()));
			await page.evaluate(() => window.__harness.plugin.updateSettings({ mcpServers: [] }));
		});
	});

	describe("a coding agent picked in the header", () => {
		before(async () => {
			await theme(page, "dark");
			await sidebar(page, 420);
			await page.locator(".vault-agent-chat-header select.vault-agent-model").selectOption({ value: "agent:custom" });
			await page.locator(".vault-agent-input").fill("stream");
			await page.locator(".vault-agent-send").click();
			await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running") && document.querySelector(".vault-agent-agent-setting"), null, { timeout: 20_000 });
		});

		/** The header's rows of visible controls, and the agent's button. */
		function agentHeader() {
			return page.evaluate(() => {
				const header = document.querySelector(".vault-agent-chat-header");
				const parts = [...header.querySelectorAll(".vault-agent-chat-title, select, .clickable-icon, .vault-agent-local-only-badge, .vault-agent-outside-badge")].filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().width > 0);
				const middles = [];
				for (const el of parts) {
					const r = el.getBoundingClientRect();
					const middle = (r.top + r.bottom) / 2;
					if (!middles.some((m) => Math.abs(m - middle) < r.height / 2)) middles.push(middle);
				}
				const button = header.querySelector(".vault-agent-agent-settings-button");
				const outer = header.getBoundingClientRect();
				return {
					rows: middles.length,
					button: button && button.getClientRects().length > 0 ? button.getAttribute("aria-label") : null,
					outside: parts.filter((el) => el.getBoundingClientRect().right > outer.right + 1).map((el) => el.className),
				};
			});
		}

		for (const themeName of THEMES) {
			for (const width of WIDTHS) {
				it(`keeps the header in two rows, the agent's selects behind one button, at ${width} px, ${themeName} theme`, async () => {
					await theme(page, themeName);
					await sidebar(page, width);
					const facts = await agentHeader();
					assert.equal(facts.rows, 2, JSON.stringify(facts));
					assert.deepEqual(facts.outside, [], "nothing past the edge");
					assert.match(facts.button ?? "", /^Agent's settings: /, JSON.stringify(facts));
					await page.locator(".vault-agent-agent-settings-button").click();
					const panel = page.locator(".vault-agent-agent-row.is-open");
					await panel.waitFor({ state: "visible", timeout: 5_000 });
					assert.ok((await panel.locator("select:visible").count()) >= 2, "the agent's selects");
					assert.deepEqual(await overflowing(page, ".vault-agent-agent-row, .vault-agent-agent-row select"), []);
					if (width === 280 || width === 420) await page.locator(".vault-agent-chat").screenshot({ path: join(outputDir, `chat-agent-header-${width}-${themeName}.png`), clip: undefined });
					await page.keyboard.press("Escape");
					await page.locator(".vault-agent-agent-row.is-open").waitFor({ state: "detached", timeout: 5_000 });
				});
			}
		}

		it(`finds no serious or critical violation with the agent's settings open`, async () => {
			await page.locator(".vault-agent-agent-settings-button").click();
			assert.deepEqual(await axeViolations(page, ".vault-agent-chat"), []);
			await page.keyboard.press("Escape");
		});
	});
});
