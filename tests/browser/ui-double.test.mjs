// The DOM-backed Obsidian double itself, checked in Chromium with real
// clicks and keys: modal, notice, controls, Markdown, component cleanups,
// views in the right sidebar, ribbon icons and commands. A small test plugin
// (defined in the page) exercises the workspace; the Vault Agent plugin is
// loaded too, and its ribbon icon must open its view.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startBrowserPlugin } from "../support/browser.mjs";
import { emulator } from "../support/harness.mjs";

describe("the Obsidian UI double in Chromium", () => {
	let session;
	let page;

	before(async () => {
		session = await startBrowserPlugin({ data: { cliPath: emulator } });
		({ page } = session);
		page.setDefaultTimeout(10_000);
	});

	after(async () => {
		await session?.close();
	});

	it("Modal: on body while open; Escape, the close button and the background close it", async () => {
		await page.evaluate(() => {
			const { Modal } = window.__harness.obsidian;
			window.modalLog = [];
			window.testModal = new (class extends Modal {
				onOpen() {
					window.modalLog.push("open");
					this.setTitle("A title");
					this.contentEl.createEl("p", { text: "Body" });
				}
				onClose() {
					window.modalLog.push("close");
					this.contentEl.empty();
				}
			})(window.__harness.app);
		});
		const open = () =>
			page.evaluate(() => {
				window.testModal.open();
			});
		const container = page.locator("body > .modal-container.mod-dim");

		await open();
		assert.equal(await container.count(), 1);
		assert.equal(await container.locator(":scope > .modal-bg").count(), 1);
		assert.equal(await container.locator(".modal > .modal-title").textContent(), "A title");
		assert.equal(await container.locator(".modal > .modal-content").textContent(), "Body");
		await page.keyboard.press("Escape");
		assert.equal(await container.count(), 0, "Escape closed it");

		await open();
		await container.locator(".modal-close-button").click();
		assert.equal(await container.count(), 0, "the close button closed it");

		await open();
		await page.mouse.click(5, 5); // the dimmed background, outside the modal
		assert.equal(await container.count(), 0, "a background click closed it");
		assert.deepEqual(await page.evaluate(() => window.modalLog), ["open", "close", "open", "close", "open", "close"]);
	});

	it("AbstractInputSuggest: suggests on input under the box; arrows move, Enter and a click pick, Escape and blur close", async () => {
		await page.evaluate(() => {
			const { AbstractInputSuggest } = window.__harness.obsidian;
			const input = document.body.createEl("input", { cls: "suggest-test-input", attr: { type: "text" } });
			window.picked = [];
			window.testSuggest = new (class extends AbstractInputSuggest {
				getSuggestions(query) {
					return ["apple", "apricot", "banana"].filter((fruit) => query && fruit.startsWith(query));
				}
				renderSuggestion(value, el) {
					el.setText(value);
				}
			})(window.__harness.app, input).onSelect((value) => window.picked.push(value));
		});
		const input = page.locator("input.suggest-test-input");
		const items = page.locator("body > .suggestion-container > .suggestion > .suggestion-item");
		await input.pressSequentially("ap");
		assert.deepEqual(await items.allTextContents(), ["apple", "apricot"]);
		assert.equal(await page.locator(".suggestion-item.is-selected").textContent(), "apple");
		await input.press("ArrowDown");
		assert.equal(await page.locator(".suggestion-item.is-selected").textContent(), "apricot");
		await input.press("Enter");
		assert.deepEqual(await page.evaluate(() => window.picked), ["apricot"], "Enter picks the highlighted one (onSelect)");
		await input.press("Escape");
		assert.equal(await page.locator(".suggestion-container").count(), 0, "Escape closed it");
		await input.pressSequentially("x");
		assert.equal(await page.locator(".suggestion-container").count(), 0, "no suggestions: no list");
		await input.fill("b");
		await items.first().click();
		assert.deepEqual(await page.evaluate(() => window.picked), ["apricot", "banana"], "a click picks, and the box kept the focus");
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("suggest-test-input")), true);
		await page.evaluate(() => document.activeElement.blur());
		assert.equal(await page.locator(".suggestion-container").count(), 0, "blur closed it");
		await page.evaluate(() => document.querySelector("input.suggest-test-input").remove());
	});

	it("Notice: shown in .notice-container, updated by setMessage, gone after its duration or a click", async () => {
		await page.evaluate(() => {
			const { Notice } = window.__harness.obsidian;
			window.shortNotice = new Notice("First", 400);
			window.stickyNotice = new Notice("Sticky", 0);
			window.shortNotice.setMessage("Updated");
		});
		assert.deepEqual(await page.locator("body > .notice-container > .notice > .notice-message").allTextContents(), ["Updated", "Sticky"]);
		await page.waitForFunction(() => document.querySelectorAll(".notice").length === 1, null, { timeout: 3000 });
		await page.locator(".notice", { hasText: "Sticky" }).click();
		assert.equal(await page.locator(".notice-container").count(), 0, "the container goes with the last notice");
	});

	it("controls: real clicks and typing reach the callbacks; disabled ones ignore clicks", async () => {
		await page.evaluate(() => {
			const { Modal, Setting } = window.__harness.obsidian;
			// In a modal, as a plugin's form would be (the workspace covers the body).
			window.controlsModal = new Modal(window.__harness.app);
			window.controlsModal.open();
			const root = window.controlsModal.contentEl.createDiv("test-controls");
			window.controlLog = [];
			const log = (entry) => window.controlLog.push(entry);
			new Setting(root)
				.setName("Button row")
				.setDesc("Has buttons")
				.addButton((b) => b.setButtonText("Go").setCta().onClick(() => log("go")))
				.addButton((b) => {
					window.disabledButton = b.setButtonText("Never").setWarning().onClick(() => log("never"));
				})
				.addExtraButton((b) => b.setIcon("trash").setTooltip("Remove").onClick(() => log("extra")));
			new Setting(root).setName("Switch row").addToggle((t) => {
				window.testToggle = t.setValue(true).onChange((v) => log(`toggle:${v}`));
			});
			new Setting(root).setName("Text row").addText((t) => t.setPlaceholder("type").onChange((v) => log(`text:${v}`)));
			new Setting(root).setName("Choice row").addDropdown((d) => d.addOptions({ a: "A", b: "B" }).setValue("a").onChange((v) => log(`pick:${v}`)));
			window.disabledButton.setDisabled(true);
		});
		const root = page.locator(".test-controls");
		assert.equal(await root.locator(".setting-item > .setting-item-info > .setting-item-name").first().textContent(), "Button row");
		assert.equal(await root.locator(".setting-item > .setting-item-info > .setting-item-description").first().textContent(), "Has buttons");
		const go = root.locator("button.mod-cta", { hasText: "Go" });
		await go.click();
		assert.equal(await root.locator("button.mod-warning").isDisabled(), true);
		await root.locator("button.mod-warning").click({ force: true });
		await root.locator('.extra-setting-button[aria-label="Remove"]').click();
		assert.equal(await root.locator('.extra-setting-button svg[data-icon="trash"]').count(), 1);

		const toggle = root.locator(".checkbox-container");
		assert.equal(await toggle.evaluate((el) => el.classList.contains("is-enabled")), true);
		await toggle.click();
		assert.equal(await toggle.evaluate((el) => el.classList.contains("is-enabled")), false);
		// (Braces: page.evaluate must not return the component, which is not plain data.)
		await page.evaluate(() => {
			window.testToggle.setValue(false); // unchanged: no onChange
			window.testToggle.setValue(true); // changed: onChange
		});

		const text = root.locator('input[type="text"][spellcheck="false"]');
		await text.fill("hi");
		await root.locator("select.dropdown").selectOption("b");
		assert.deepEqual(await page.evaluate(() => window.controlLog), ["go", "extra", "toggle:false", "toggle:true", "text:hi", "pick:b"]);
		await page.evaluate(() => window.controlsModal.close());
	});

	it("MarkdownRenderer.render builds DOM nodes and never links javascript:", async () => {
		const result = await page.evaluate(async () => {
			const { MarkdownRenderer, Component } = window.__harness.obsidian;
			const el = document.body.createDiv("test-markdown");
			const markdown = [
				"# Title",
				"",
				"Some **bold**, *italic*, `code` and [a link](https://example.org) and [[Note|a note]].",
				"[bad](javascript:alert(1)) <img src=x onerror=alert(1)>",
				"",
				"- one",
				"  - nested",
				"- [x] done",
				"",
				"1. first",
				"2. second",
				"",
				"```js",
				"const x = '<b>';",
				"```",
			].join("\n");
			await MarkdownRenderer.render(window.__harness.app, markdown, el, "Note.md", new Component());
			const summary = {
				h1: el.querySelector("h1")?.textContent,
				strong: el.querySelector("p strong")?.textContent,
				em: el.querySelector("p em")?.textContent,
				code: el.querySelector("p code")?.textContent,
				external: el.querySelector("a.external-link")?.getAttribute("href"),
				internal: el.querySelector("a.internal-link")?.getAttribute("data-href"),
				links: el.querySelectorAll("a").length,
				nested: el.querySelectorAll("ul > li > ul > li").length,
				task: el.querySelector("li.task-list-item input.task-list-item-checkbox")?.checked,
				ordered: el.querySelectorAll("ol > li").length,
				pre: el.querySelector("pre > code.language-js")?.textContent,
				elements: el.querySelectorAll("img, script, b").length,
			};
			el.remove();
			return summary;
		});
		assert.deepEqual(result, {
			h1: "Title",
			strong: "bold",
			em: "italic",
			code: "code",
			external: "https://example.org",
			internal: "Note",
			links: 2,
			nested: 1,
			task: true,
			ordered: 2,
			pre: "const x = '<b>';",
			elements: 0,
		});
	});

	it("Component: unload runs register, registerDomEvent and registerInterval cleanups", async () => {
		const result = await page.evaluate(async () => {
			const { Component } = window.__harness.obsidian;
			const component = new Component();
			const seen = { clicks: 0, ticks: 0, cleanups: 0 };
			component.load();
			component.registerDomEvent(document, "click", () => seen.clicks++);
			component.registerInterval(window.setInterval(() => seen.ticks++, 10));
			component.register(() => seen.cleanups++);
			document.body.click();
			await new Promise((resolve) => setTimeout(resolve, 50));
			component.unload();
			const after = { ...seen };
			document.body.click();
			await new Promise((resolve) => setTimeout(resolve, 50));
			return { before: after, later: seen };
		});
		assert.equal(result.before.clicks, 1);
		assert.ok(result.before.ticks > 0, "the interval ran while loaded");
		assert.equal(result.before.cleanups, 1);
		assert.deepEqual(result.later, result.before, "nothing ran after unload");
	});

	it("views: ribbon icon and command open a registered view in the right sidebar; unload cleans up", async () => {
		await page.evaluate(async () => {
			const { ItemView, Plugin } = window.__harness.obsidian;
			const app = window.__harness.app;
			window.viewLog = [];
			class TestView extends ItemView {
				getViewType() {
					return "test-view";
				}
				getDisplayText() {
					return "Test view";
				}
				getIcon() {
					return "dice";
				}
				async onOpen() {
					window.viewLog.push("open");
					this.contentEl.createDiv({ cls: "test-view-body", text: "Hello" });
					this.registerDomEvent(document, "keydown", () => window.viewLog.push("key"));
					this.addAction("refresh-cw", "Refresh", () => window.viewLog.push("action"));
				}
				async onClose() {
					window.viewLog.push("close");
				}
			}
			class TestPlugin extends Plugin {
				async onload() {
					this.registerView("test-view", (leaf) => new TestView(leaf));
					this.addRibbonIcon("dice", "Open test view", () => this.openView());
					this.addCommand({ id: "open", name: "Open view", callback: () => this.openView() });
				}
				async openView() {
					let leaf = app.workspace.getLeavesOfType("test-view")[0];
					if (!leaf) {
						leaf = app.workspace.getRightLeaf(false);
						await leaf.setViewState({ type: "test-view", active: true });
					}
					await app.workspace.revealLeaf(leaf);
				}
			}
			window.testPlugin = new TestPlugin(app, { id: "test-plugin", name: "Test plugin", version: "1.0.0" });
			window.testPlugin.load();
		});
		const ribbon = page.locator('body .side-dock-ribbon .side-dock-ribbon-action[aria-label="Open test view"]');
		await ribbon.click();
		const view = page.locator('.mod-right-split .workspace-leaf-content[data-type="test-view"]');
		await view.waitFor({ state: "visible", timeout: 3000 });
		assert.equal(await page.locator(".mod-right-split").evaluate((el) => el.classList.contains("is-collapsed")), false);
		assert.equal(await view.locator(".view-header .view-header-title").textContent(), "Test view");
		assert.equal(await view.locator(".view-content .test-view-body").textContent(), "Hello");
		await view.locator('.view-actions .view-action[aria-label="Refresh"]').click();
		await page.keyboard.press("a");

		assert.equal(await page.evaluate(() => window.__harness.runCommand("test-plugin:open")), true);
		assert.equal(await page.evaluate(() => window.__harness.app.workspace.getLeavesOfType("test-view").length), 1, "the command reuses the leaf");

		await page.evaluate(() => window.testPlugin.unload());
		await page.waitForFunction(() => window.viewLog.includes("close"), null, { timeout: 3000 });
		await page.keyboard.press("b"); // the view's keydown listener is gone
		assert.deepEqual(await page.evaluate(() => window.viewLog), ["open", "action", "key", "close"]);
		assert.equal(await view.count(), 0, "the view's leaf is detached");
		assert.equal(await ribbon.count(), 0, "the ribbon icon is removed");
		await assert.rejects(page.evaluate(() => window.__harness.runCommand("test-plugin:open")), /no single command/);
	});

	it("the Vault Agent ribbon icon opens one of its registered views in the right sidebar", async () => {
		const types = await page.evaluate(() => [...window.__harness.plugin.views__.keys()]);
		const icons = page.locator(".side-dock-ribbon .side-dock-ribbon-action");
		if (types.length === 0) {
			assert.equal(await icons.count(), 0, "no views, no ribbon icon");
			return;
		}
		assert.equal(await icons.count(), 1, "one ribbon icon");
		await icons.click();
		const leaf = page.locator(".mod-right-split .workspace-leaf-content[data-type]").filter({ visible: true });
		await leaf.first().waitFor({ state: "visible", timeout: 5000 });
		assert.ok(types.includes(await leaf.first().getAttribute("data-type")), `a view of type ${types.join(" or ")}`);
	});
});
