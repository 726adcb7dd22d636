// A DOM-backed double of the Obsidian UI classes the plugin uses.
//
// obsidian-test-mocks models state only: a Setting is a few unclassed divs, a
// ButtonComponent keeps its click handler without listening to the DOM, a
// Modal closes itself on the next tick and never reaches document.body. That
// is enough to load a plugin, not to click it. The classes here build the
// elements and class names Obsidian builds (so real clicks, keys and the
// plugin's styles.css work on them), wired the way Obsidian wires them.
// Everything else (App, Vault, adapters, Platform, Component, Events...)
// stays obsidian-test-mocks: `createObsidianModule(mocks)` returns the mocks'
// module object with the UI classes replaced.
//
// It runs in Node on happy-dom (tests/support/harness.mjs) and, bundled, in
// Chromium (tests/support/browser-entry.mjs). Both must have called
// obsidian-test-mocks' `setup()`, which adds Obsidian's DOM helpers
// (createDiv, createEl, addClass, empty, setText, detach...) used below.
// Nothing touches the DOM at import time. No HTML is ever parsed: every node is
// built with DOM APIs, so text from the plugin can never become markup.

import { defineMarkdownView } from "./markdown-view-double.mjs";
import { pdfjsDouble } from "./pdf-double.mjs";

const SVG_NS = "http://www.w3.org/2000/svg";

/** The obsidian-test-mocks module in use (for Scope and the components we delegate). */
let mocksModule = null;
/** One double per mocks module, so class identity is stable across plugin loads. */
const modules = new WeakMap();
/** Per double module: the classes that extend mocks classes (needed by createApp). */
const internals = new WeakMap();

// ---------------------------------------------------------------------------
// Icons and tooltips

/** Obsidian's setIcon: replaces the element's content with the icon's <svg>.
 * The double has no icon set, so it draws a small placeholder that names the
 * icon in `data-icon` (tests can check which icon a control shows). */
export function setIcon(parent, iconId) {
	parent.empty();
	const svg = getIcon(iconId);
	if (svg) parent.appendChild(svg);
}

/** Obsidian's getIcon: a fresh <svg> for the icon id. */
export function getIcon(iconId) {
	const svg = document.createElementNS(SVG_NS, "svg");
	svg.setAttribute("width", "24");
	svg.setAttribute("height", "24");
	svg.setAttribute("viewBox", "0 0 24 24");
	svg.setAttribute("fill", "none");
	svg.setAttribute("stroke", "currentColor");
	svg.setAttribute("stroke-width", "2");
	svg.setAttribute("class", `svg-icon lucide-${iconId}`);
	svg.setAttribute("data-icon", String(iconId));
	const box = document.createElementNS(SVG_NS, "rect");
	for (const [key, value] of Object.entries({ x: "4", y: "4", width: "16", height: "16", rx: "4" })) box.setAttribute(key, value);
	const dot = document.createElementNS(SVG_NS, "circle");
	for (const [key, value] of Object.entries({ cx: "12", cy: "12", r: "2" })) dot.setAttribute(key, value);
	svg.append(box, dot);
	return svg;
}

/** Obsidian shows tooltips from aria-label; the double only sets the attributes. */
export function setTooltip(el, tooltip, options = {}) {
	el.setAttribute("aria-label", tooltip);
	if (options.placement) el.setAttribute("data-tooltip-position", options.placement);
}

/** Puts a string or a DocumentFragment into an element, replacing what was there. */
function setContent(el, content) {
	el.empty();
	if (content === undefined || content === null) return;
	if (typeof content === "string") el.appendText(content);
	else el.appendChild(content);
}

// ---------------------------------------------------------------------------
// Components (BaseComponent and its subclasses)

export class BaseComponent {
	disabled = false;

	/** Facilitates chaining, as in Obsidian. */
	then(cb) {
		cb(this);
		return this;
	}

	setDisabled(disabled) {
		this.disabled = disabled;
		return this;
	}
}

export class ValueComponent extends BaseComponent {
	/** Obsidian's option listener: the listener sets (when given a value) and reads. */
	registerOptionListener(listeners, key) {
		listeners[key] = (value) => {
			if (value !== undefined) this.setValue(value);
			return this.getValue();
		};
		return this;
	}
}

export class AbstractTextComponent extends ValueComponent {
	inputEl;
	changeCallback = null;

	constructor(inputEl) {
		super();
		this.inputEl = inputEl;
		// Obsidian reports every keystroke ("input"), not only blur ("change").
		inputEl.addEventListener("input", () => this.onChanged());
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.inputEl.disabled = disabled;
		return this;
	}

	getValue() {
		return this.inputEl.value;
	}

	/** Sets the value without calling onChange (as in Obsidian). */
	setValue(value) {
		this.inputEl.value = value;
		return this;
	}

	setPlaceholder(placeholder) {
		this.inputEl.placeholder = placeholder;
		return this;
	}

	onChanged() {
		this.changeCallback?.(this.getValue());
	}

	onChange(callback) {
		this.changeCallback = callback;
		return this;
	}
}

export class TextComponent extends AbstractTextComponent {
	constructor(containerEl) {
		super(containerEl.createEl("input", { type: "text", attr: { spellcheck: "false" } }));
	}
}

export class TextAreaComponent extends AbstractTextComponent {
	constructor(containerEl) {
		super(containerEl.createEl("textarea", { attr: { spellcheck: "false" } }));
	}
}

export class SearchComponent extends AbstractTextComponent {
	containerEl;
	clearButtonEl;

	constructor(containerEl) {
		const wrapper = containerEl.createDiv("search-input-container");
		super(wrapper.createEl("input", { type: "search", attr: { enterkeyhint: "search", spellcheck: "false" } }));
		this.containerEl = wrapper;
		this.clearButtonEl = wrapper.createDiv({ cls: "search-input-clear-button", attr: { "aria-label": "Clear search" } });
		this.clearButtonEl.addEventListener("click", () => {
			this.setValue("");
			this.onChanged();
			this.inputEl.focus();
		});
	}

	setClass(cls) {
		this.containerEl.addClass(cls);
		return this;
	}
}

/** A switch: div.checkbox-container (is-enabled when on) around a hidden checkbox. */
export class ToggleComponent extends ValueComponent {
	toggleEl;
	on = false;
	changeCallback = null;
	#inputEl;

	constructor(containerEl) {
		super();
		this.toggleEl = containerEl.createDiv("checkbox-container");
		this.#inputEl = this.toggleEl.createEl("input", { type: "checkbox", attr: { tabindex: "0" } });
		// A click anywhere on the switch flips it, unless it is disabled. No
		// preventDefault: the browser would then undo the checkbox's own flip.
		this.toggleEl.addEventListener("click", () => this.onClick());
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.toggleEl.toggleClass("is-disabled", disabled);
		this.#inputEl.disabled = disabled;
		return this;
	}

	getValue() {
		return this.on;
	}

	/** Calls onChange only when the value really changes (as in Obsidian). */
	setValue(on) {
		const changed = this.on !== on;
		this.on = on;
		this.toggleEl.toggleClass("is-enabled", on);
		this.#inputEl.checked = on;
		if (changed) this.changeCallback?.(on);
		return this;
	}

	setTooltip(tooltip, options) {
		setTooltip(this.toggleEl, tooltip, options);
		return this;
	}

	onClick() {
		if (this.disabled) return;
		this.setValue(!this.getValue());
	}

	onChange(callback) {
		this.changeCallback = callback;
		return this;
	}
}

export class ButtonComponent extends BaseComponent {
	buttonEl;
	clickCallback = null;

	constructor(containerEl) {
		super();
		this.buttonEl = containerEl.createEl("button");
		this.buttonEl.addEventListener("click", (evt) => {
			if (this.disabled) return;
			const result = this.clickCallback?.(evt);
			// Obsidian does not await the handler; a rejection must still be seen.
			if (result && typeof result.then === "function") result.then(undefined, (error) => console.error(error));
		});
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.buttonEl.disabled = disabled;
		this.buttonEl.toggleClass("is-disabled", disabled);
		return this;
	}

	setCta() {
		this.buttonEl.addClass("mod-cta");
		return this;
	}

	removeCta() {
		this.buttonEl.removeClass("mod-cta");
		return this;
	}

	setWarning() {
		this.buttonEl.addClass("mod-warning");
		return this;
	}

	setDestructive() {
		this.buttonEl.addClass("mod-destructive");
		return this;
	}

	removeDestructive() {
		this.buttonEl.removeClass("mod-destructive");
		return this;
	}

	setTooltip(tooltip, options) {
		setTooltip(this.buttonEl, tooltip, options);
		return this;
	}

	setButtonText(name) {
		this.buttonEl.setText(name);
		return this;
	}

	setIcon(icon) {
		setIcon(this.buttonEl, icon);
		return this;
	}

	setClass(cls) {
		this.buttonEl.addClass(cls);
		return this;
	}

	onClick(callback) {
		this.clickCallback = callback;
		return this;
	}
}

/** The small icon button at the end of a setting row. */
export class ExtraButtonComponent extends BaseComponent {
	extraSettingsEl;
	clickCallback = null;

	constructor(containerEl) {
		super();
		this.extraSettingsEl = containerEl.createDiv("clickable-icon extra-setting-button");
		setIcon(this.extraSettingsEl, "gear");
		this.extraSettingsEl.addEventListener("click", () => {
			if (!this.disabled) this.clickCallback?.();
		});
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.extraSettingsEl.toggleClass("is-disabled", disabled);
		return this;
	}

	setTooltip(tooltip, options) {
		setTooltip(this.extraSettingsEl, tooltip, options);
		return this;
	}

	setIcon(icon) {
		setIcon(this.extraSettingsEl, icon);
		return this;
	}

	onClick(callback) {
		this.clickCallback = callback;
		return this;
	}
}

export class DropdownComponent extends ValueComponent {
	selectEl;
	changeCallback = null;

	constructor(containerEl) {
		super();
		this.selectEl = containerEl.createEl("select", "dropdown");
		this.selectEl.addEventListener("change", () => this.changeCallback?.(this.getValue()));
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.selectEl.disabled = disabled;
		return this;
	}

	addOption(value, display) {
		this.selectEl.createEl("option", { value, text: display });
		return this;
	}

	addOptions(options) {
		for (const [value, display] of Object.entries(options)) this.addOption(value, display);
		return this;
	}

	getValue() {
		return this.selectEl.value;
	}

	setValue(value) {
		this.selectEl.value = value;
		return this;
	}

	onChange(callback) {
		this.changeCallback = callback;
		return this;
	}
}

export class SliderComponent extends ValueComponent {
	sliderEl;
	changeCallback = null;
	instant = false;
	#format = null;
	#dynamicTooltip = false;

	constructor(containerEl) {
		super();
		this.sliderEl = containerEl.createEl("input", { cls: "slider", type: "range" });
		// "instant" sliders report while dragging; the others when released.
		this.sliderEl.addEventListener("input", () => {
			this.#updateTooltip();
			if (this.instant) this.onChanged();
		});
		this.sliderEl.addEventListener("change", () => {
			if (!this.instant) this.onChanged();
		});
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.sliderEl.disabled = disabled;
		return this;
	}

	setInstant(instant) {
		this.instant = instant;
		return this;
	}

	setLimits(min, max, step) {
		for (const [name, value] of [["min", min], ["max", max], ["step", step]]) {
			if (value === null || value === undefined) this.sliderEl.removeAttribute(name);
			else this.sliderEl.setAttribute(name, String(value));
		}
		return this;
	}

	getValue() {
		return Number(this.sliderEl.value);
	}

	setValue(value) {
		this.sliderEl.value = String(value);
		this.#updateTooltip();
		return this;
	}

	getValuePretty() {
		return this.#format ? this.#format(this.getValue()) : String(this.getValue());
	}

	setDisplayFormat(format) {
		this.#format = format;
		this.#updateTooltip();
		return this;
	}

	setDynamicTooltip() {
		this.#dynamicTooltip = true;
		this.#updateTooltip();
		return this;
	}

	showTooltip() {
		this.#updateTooltip();
	}

	onChanged() {
		this.changeCallback?.(this.getValue());
	}

	onChange(callback) {
		this.changeCallback = callback;
		return this;
	}

	#updateTooltip() {
		if (this.#dynamicTooltip) this.sliderEl.setAttribute("aria-label", this.getValuePretty());
	}
}

/**
 * Picks the name of a secret in app.secretStorage (Obsidian 1.11.4+). The real
 * control is a picker whose DOM Obsidian does not document; the double uses a
 * text field (div.secret-component > input) offering the stored names, so a
 * test can type a name. onChange gets the name, never the secret.
 */
export class SecretComponent extends BaseComponent {
	containerEl;
	inputEl;
	changeCallback = null;

	constructor(app, containerEl) {
		super();
		this.containerEl = containerEl.createDiv("secret-component");
		const listId = `secret-names-${Math.random().toString(36).slice(2)}`;
		this.inputEl = this.containerEl.createEl("input", { type: "text", placeholder: "Secret name", attr: { spellcheck: "false", list: listId } });
		const names = this.containerEl.createEl("datalist", { attr: { id: listId } });
		const storage = app && "secretStorage" in app ? app.secretStorage : null;
		for (const name of storage?.listSecrets?.() ?? []) names.createEl("option", { value: name });
		this.inputEl.addEventListener("change", () => this.changeCallback?.(this.inputEl.value));
	}

	setDisabled(disabled) {
		super.setDisabled(disabled);
		this.inputEl.disabled = disabled;
		return this;
	}

	setValue(value) {
		this.inputEl.value = value ?? "";
		return this;
	}

	getValue() {
		return this.inputEl.value;
	}

	onChange(callback) {
		this.changeCallback = callback;
		return this;
	}
}

// ---------------------------------------------------------------------------
// Setting rows

/**
 * One row of a settings page, as Obsidian builds it:
 * div.setting-item > div.setting-item-info (div.setting-item-name,
 * div.setting-item-description) + div.setting-item-control.
 */
export class Setting {
	settingEl;
	infoEl;
	nameEl;
	descEl;
	controlEl;
	components = [];
	errorEl = null;

	constructor(containerEl) {
		this.settingEl = containerEl.createDiv("setting-item");
		this.infoEl = this.settingEl.createDiv("setting-item-info");
		this.nameEl = this.infoEl.createDiv("setting-item-name");
		this.descEl = this.infoEl.createDiv("setting-item-description");
		this.controlEl = this.settingEl.createDiv("setting-item-control");
	}

	setName(name) {
		setContent(this.nameEl, name);
		return this;
	}

	setDesc(desc) {
		setContent(this.descEl, desc);
		return this;
	}

	setClass(cls) {
		this.settingEl.addClass(cls);
		return this;
	}

	setTooltip(tooltip, options) {
		setTooltip(this.nameEl, tooltip, options);
		return this;
	}

	setHeading() {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}

	setDisabled(disabled) {
		this.settingEl.toggleClass("is-disabled", disabled);
		for (const component of this.components) component.setDisabled?.(disabled);
		return this;
	}

	/** Shows (or with null, clears) an error under the description. The class
	 * names are the double's choice; Obsidian does not document them. */
	setErrorMessage(message) {
		this.errorEl?.detach();
		this.errorEl = null;
		this.settingEl.toggleClass("has-error", message !== null && message !== undefined);
		if (message !== null && message !== undefined) this.errorEl = this.infoEl.createDiv({ cls: "setting-item-error", text: message });
		return this;
	}

	then(cb) {
		cb(this);
		return this;
	}

	clear() {
		this.controlEl.empty();
		this.components = [];
		return this;
	}

	#add(component, cb) {
		this.components.push(component);
		cb(component);
		return this;
	}

	addButton(cb) {
		return this.#add(new ButtonComponent(this.controlEl), cb);
	}

	addExtraButton(cb) {
		return this.#add(new ExtraButtonComponent(this.controlEl), cb);
	}

	addToggle(cb) {
		return this.#add(new ToggleComponent(this.controlEl), cb);
	}

	addText(cb) {
		return this.#add(new TextComponent(this.controlEl), cb);
	}

	addTextArea(cb) {
		return this.#add(new TextAreaComponent(this.controlEl), cb);
	}

	addSearch(cb) {
		return this.#add(new SearchComponent(this.controlEl), cb);
	}

	addDropdown(cb) {
		return this.#add(new DropdownComponent(this.controlEl), cb);
	}

	addSlider(cb) {
		return this.#add(new SliderComponent(this.controlEl), cb);
	}

	addComponent(cb) {
		this.components.push(cb(this.controlEl));
		return this;
	}

	// Controls the plugin does not use: obsidian-test-mocks' versions, in this row.
	addColorPicker(cb) {
		return this.#add(mocksModule.ColorComponent.create__(this.controlEl), cb);
	}

	addMomentFormat(cb) {
		return this.#add(mocksModule.MomentFormatComponent.create2__(this.controlEl), cb);
	}

	addProgressBar(cb) {
		return this.#add(mocksModule.ProgressBarComponent.create__(this.controlEl), cb);
	}

	addDisplayValue(cb) {
		cb(mocksModule.DisplayValueComponent.create__(this.controlEl));
		return this;
	}
}

// ---------------------------------------------------------------------------
// Settings tabs

export class SettingTab {
	app;
	icon = "";
	containerEl;
	settingItems = [];

	constructor(app) {
		this.app = app;
		// Obsidian's tab content element; the settings window moves it in and out.
		this.containerEl = createDiv("vertical-tab-content");
	}

	display() {}

	/** Called when the tab is left or the settings close. */
	hide() {
		this.containerEl.empty();
	}

	getSettingDefinitions() {
		return [];
	}

	update() {
		this.settingItems = this.getSettingDefinitions();
	}

	getControlValue() {
		return undefined;
	}

	setControlValue() {}

	refreshDomState() {}
}

export class PluginSettingTab extends SettingTab {
	plugin;
	id;
	name;

	constructor(app, plugin) {
		super(app);
		this.plugin = plugin;
		// Obsidian lists the tab under the plugin's name and opens it by the plugin id.
		this.id = plugin?.manifest?.id ?? "";
		this.name = plugin?.manifest?.name ?? this.id;
	}
}

// ---------------------------------------------------------------------------
// Modal

/** Open modals, topmost last: Escape closes only the topmost. */
const openModals = [];
const escapeListeningDocs = new WeakSet();

function listenForEscape(doc) {
	if (escapeListeningDocs.has(doc)) return;
	escapeListeningDocs.add(doc);
	doc.addEventListener(
		"keydown",
		(evt) => {
			if (evt.key !== "Escape" || openModals.length === 0) return;
			evt.preventDefault();
			evt.stopPropagation();
			openModals[openModals.length - 1].close();
		},
		true,
	);
}

/**
 * div.modal-container.mod-dim > div.modal-bg + div.modal > div.modal-close-button,
 * div.modal-title, div.modal-content. open() attaches it to document.body and
 * calls onOpen; close() detaches it and calls onClose. Escape, the close
 * button and a click on the dimmed background close it.
 */
export class Modal {
	app;
	scope;
	containerEl;
	modalEl;
	titleEl;
	contentEl;
	shouldRestoreSelection = true;
	#bgEl;
	#closeButtonEl;
	#isOpen = false;
	#closeCallback = null;

	constructor(app) {
		this.app = app;
		this.scope = mocksModule ? new mocksModule.Scope() : null;
		this.containerEl = createDiv("modal-container mod-dim");
		this.#bgEl = this.containerEl.createDiv("modal-bg");
		this.modalEl = this.containerEl.createDiv("modal");
		this.#closeButtonEl = this.modalEl.createDiv({ cls: "modal-close-button", attr: { "aria-label": "Close" } });
		this.titleEl = this.modalEl.createDiv("modal-title");
		this.contentEl = this.modalEl.createDiv("modal-content");
		this.#bgEl.addEventListener("click", () => this.close());
		this.#closeButtonEl.addEventListener("click", () => this.close());
	}

	/** True while the modal is on screen (not part of Obsidian's API). */
	get isOpen__() {
		return this.#isOpen;
	}

	open() {
		if (this.#isOpen) return;
		this.#isOpen = true;
		openModals.push(this);
		listenForEscape(document);
		document.body.appendChild(this.containerEl);
		try {
			const result = this.onOpen();
			if (result && typeof result.then === "function") result.then(undefined, (error) => console.error(error));
		} catch (error) {
			console.error(error);
		}
	}

	close() {
		if (!this.#isOpen) return;
		this.#isOpen = false;
		openModals.splice(openModals.indexOf(this), 1);
		this.containerEl.detach();
		try {
			this.onClose();
		} finally {
			this.#closeCallback?.();
		}
	}

	onOpen() {}

	onClose() {}

	setTitle(title) {
		this.titleEl.setText(title);
		return this;
	}

	setContent(content) {
		setContent(this.contentEl, content);
		return this;
	}

	setCloseCallback(callback) {
		this.#closeCallback = callback;
		return this;
	}
}

/**
 * Obsidian's SuggestModal: div.modal-container > div.prompt holding
 * div.prompt-input-container > input.prompt-input, div.prompt-results with
 * one div.suggestion-item per suggestion (the chosen one .is-selected) or
 * div.suggestion-empty with emptyStateText, and div.prompt-instructions.
 * Typing asks getSuggestions (a value or a promise; an answer that comes
 * after a newer query is dropped); ArrowUp/ArrowDown move the selection,
 * Enter and a click choose (selectSuggestion: onChooseSuggestion, then close).
 */
export class SuggestModal extends Modal {
	emptyStateText = "No results found.";
	limit = 100;
	inputEl;
	resultContainerEl;
	#instructionsEl;
	#values = [];
	#items = [];
	#selected = 0;
	#asked = 0;

	constructor(app) {
		super(app);
		this.modalEl.addClass("prompt");
		this.modalEl.empty();
		const inputBox = this.modalEl.createDiv("prompt-input-container");
		this.inputEl = inputBox.createEl("input", { cls: "prompt-input", attr: { type: "text", enterkeyhint: "done" } });
		this.resultContainerEl = this.modalEl.createDiv("prompt-results");
		this.#instructionsEl = this.modalEl.createDiv("prompt-instructions");
		this.inputEl.addEventListener("input", () => void this.#update());
		this.inputEl.addEventListener("keydown", (evt) => {
			if (evt.key === "ArrowDown" || evt.key === "ArrowUp") {
				evt.preventDefault();
				if (this.#items.length) this.#select((this.#selected + (evt.key === "ArrowDown" ? 1 : -1) + this.#items.length) % this.#items.length);
			} else if (evt.key === "Enter") {
				evt.preventDefault();
				this.selectActiveSuggestion(evt);
			}
		});
	}

	open() {
		super.open();
		this.inputEl.focus();
		void this.#update();
	}

	setPlaceholder(placeholder) {
		this.inputEl.placeholder = placeholder;
	}

	setInstructions(instructions) {
		this.#instructionsEl.empty();
		for (const { command, purpose } of instructions) {
			const row = this.#instructionsEl.createDiv("prompt-instruction");
			row.createSpan({ cls: "prompt-instruction-command", text: command });
			row.createSpan({ text: purpose });
		}
	}

	selectActiveSuggestion(evt) {
		if (this.#values.length) this.selectSuggestion(this.#values[this.#selected], evt);
	}

	selectSuggestion(value, evt) {
		this.onChooseSuggestion(value, evt);
		this.close();
	}

	onNoSuggestion() {}

	async #update() {
		const asked = ++this.#asked;
		const values = await this.getSuggestions(this.inputEl.value);
		if (asked !== this.#asked || !this.isOpen__) return;
		this.#values = (values ?? []).slice(0, this.limit);
		this.resultContainerEl.empty();
		this.#items = this.#values.map((value, index) => {
			const item = this.resultContainerEl.createDiv("suggestion-item");
			this.renderSuggestion(value, item);
			item.addEventListener("mousemove", () => this.#select(index));
			item.addEventListener("click", (evt) => this.selectSuggestion(value, evt));
			return item;
		});
		if (this.#items.length === 0) {
			this.resultContainerEl.createDiv({ cls: "suggestion-empty", text: this.emptyStateText });
			this.onNoSuggestion();
		}
		this.#select(0);
	}

	#select(index) {
		this.#items[this.#selected]?.removeClass("is-selected");
		this.#selected = index;
		this.#items[index]?.addClass("is-selected");
	}
}

/**
 * The settings window (Obsidian's app.setting): a sidebar of tabs and the
 * open tab's containerEl. Only plugin tabs are listed; Obsidian's own pages
 * are not part of the double.
 */
class SettingsModal extends Modal {
	pluginTabs = [];
	activeTab = null;
	#navEl;
	#tabContentContainer;

	constructor(app) {
		super(app);
		this.modalEl.addClass("mod-settings", "mod-sidebar-layout");
		this.contentEl.addClass("vertical-tabs-container");
		const header = this.contentEl.createDiv("vertical-tab-header");
		const group = header.createDiv("vertical-tab-header-group");
		group.createDiv({ cls: "vertical-tab-header-group-title", text: "Community plugins" });
		this.#navEl = group.createDiv("vertical-tab-header-group-items");
		this.#tabContentContainer = this.contentEl.createDiv("vertical-tab-content-container");
	}

	addSettingTab(tab) {
		if (!this.pluginTabs.includes(tab)) this.pluginTabs.push(tab);
		this.#renderNav();
	}

	removeSettingTab(tab) {
		if (this.activeTab === tab) this.#leaveTab();
		this.pluginTabs = this.pluginTabs.filter((t) => t !== tab);
		this.#renderNav();
	}

	onOpen() {
		this.#renderNav();
		if (!this.activeTab && this.pluginTabs.length > 0) this.openTab(this.pluginTabs[0]);
	}

	onClose() {
		this.#leaveTab();
	}

	openTabById(id) {
		const tab = this.pluginTabs.find((t) => t.id === id);
		if (!tab) return null;
		if (!this.isOpen__) this.open();
		this.openTab(tab);
		return tab;
	}

	/** As Obsidian: the previous tab is hidden, the new one's element goes in, then display(). */
	openTab(tab) {
		if (this.activeTab === tab) return;
		this.#leaveTab();
		this.activeTab = tab;
		this.#tabContentContainer.appendChild(tab.containerEl);
		this.#renderNav();
		tab.display();
	}

	#leaveTab() {
		const tab = this.activeTab;
		if (!tab) return;
		this.activeTab = null;
		tab.hide();
		tab.containerEl.detach();
		this.#renderNav();
	}

	#renderNav() {
		this.#navEl.empty();
		for (const tab of this.pluginTabs) {
			const item = this.#navEl.createDiv({ cls: "vertical-tab-nav-item", text: tab.name ?? tab.id ?? "" });
			item.toggleClass("is-active", tab === this.activeTab);
			item.addEventListener("click", () => this.openTab(tab));
		}
	}
}

// ---------------------------------------------------------------------------
// Suggest popovers

/**
 * Obsidian's PopoverSuggest: body > div.suggestion-container >
 * div.suggestion > div.suggestion-item (the highlighted one `is-selected`).
 * While it is open, ArrowUp/ArrowDown move the highlight, Enter picks
 * (selectSuggestion) and Escape closes it, ahead of the page's own key
 * handlers (Obsidian's keymap scope); a pressed mouse on the list keeps the
 * focus in the text box.
 */
export class PopoverSuggest {
	app;
	scope;
	/** div.suggestion-container (not part of Obsidian's typed API). */
	suggestEl__;
	#listEl;
	#values = [];
	#selected = 0;
	#open = false;
	#keys = (evt) => this.#onKey(evt);

	constructor(app, scope) {
		this.app = app;
		this.scope = scope ?? (mocksModule ? new mocksModule.Scope() : null);
		this.suggestEl__ = createDiv("suggestion-container");
		this.#listEl = this.suggestEl__.createDiv("suggestion");
		this.suggestEl__.addEventListener("mousedown", (evt) => evt.preventDefault());
	}

	open() {
		if (this.#open) return;
		this.#open = true;
		document.body.appendChild(this.suggestEl__);
		document.addEventListener("keydown", this.#keys, true);
	}

	close() {
		if (!this.#open) return;
		this.#open = false;
		this.suggestEl__.detach();
		document.removeEventListener("keydown", this.#keys, true);
	}

	/** Draws `values` with renderSuggestion (a double helper, as Obsidian's SuggestionContainer). */
	setSuggestions__(values) {
		this.#values = values;
		this.#selected = 0;
		this.#listEl.empty();
		values.forEach((value, index) => {
			const item = this.#listEl.createDiv("suggestion-item");
			this.renderSuggestion(value, item);
			item.addEventListener("mousemove", () => this.#select(index));
			item.addEventListener("click", (evt) => this.selectSuggestion(value, evt));
		});
		this.#select(0);
	}

	#select(index) {
		const items = Array.from(this.#listEl.children);
		if (items.length === 0) return;
		this.#selected = (index + items.length) % items.length;
		items.forEach((item, i) => item.toggleClass("is-selected", i === this.#selected));
	}

	#onKey(evt) {
		if (evt.isComposing) return;
		if (evt.key === "ArrowDown" || evt.key === "ArrowUp") this.#select(this.#selected + (evt.key === "ArrowDown" ? 1 : -1));
		else if (evt.key === "Enter" && this.#values.length > 0) this.selectSuggestion(this.#values[this.#selected], evt);
		else if (evt.key === "Escape") this.close();
		else return;
		evt.preventDefault();
	}
}

/**
 * Obsidian's AbstractInputSuggest on a text box: on each input (and on
 * focus) it asks getSuggestions(getValue()), shows at most `limit` of them
 * under the box, or closes when there are none; it closes when the box loses
 * the focus. The default selectSuggestion calls the onSelect callback.
 */
export class AbstractInputSuggest extends PopoverSuggest {
	limit = 100;
	#textInputEl;
	#selectCallback = null;
	#asked = 0;

	constructor(app, textInputEl) {
		super(app);
		this.#textInputEl = textInputEl;
		textInputEl.addEventListener("input", () => void this.#update());
		textInputEl.addEventListener("focus", () => void this.#update());
		textInputEl.addEventListener("blur", () => this.close());
	}

	async #update() {
		const asked = ++this.#asked;
		const values = await this.getSuggestions(this.getValue());
		if (asked !== this.#asked) return;
		if (!values || values.length === 0) {
			this.close();
			return;
		}
		this.setSuggestions__(this.limit > 0 ? values.slice(0, this.limit) : values);
		this.open();
		// Under the text box, or above it when there is no room below (as Obsidian places it).
		const box = this.#textInputEl.getBoundingClientRect();
		Object.assign(this.suggestEl__.style, { position: "fixed", left: `${box.left}px`, top: `${box.bottom}px`, width: `${box.width}px` });
		const height = this.suggestEl__.offsetHeight;
		if (box.bottom + height > window.innerHeight && box.top - height >= 0) this.suggestEl__.style.top = `${box.top - height}px`;
	}

	setValue(value) {
		if ("value" in this.#textInputEl) this.#textInputEl.value = value;
		else this.#textInputEl.textContent = value;
	}

	getValue() {
		return "value" in this.#textInputEl ? this.#textInputEl.value : (this.#textInputEl.textContent ?? "");
	}

	selectSuggestion(value, evt) {
		this.#selectCallback?.(value, evt);
	}

	onSelect(callback) {
		this.#selectCallback = callback;
		return this;
	}
}

// ---------------------------------------------------------------------------
// Notice

const DEFAULT_NOTICE_MS = 5000;

function noticeContainer() {
	const existing = Array.from(document.body.children).find((el) => el.classList.contains("notice-container"));
	return existing ?? document.body.createDiv("notice-container");
}

/** body > div.notice-container > div.notice (containerEl) > div.notice-message (messageEl). */
export class Notice {
	containerEl;
	messageEl;
	/** Deprecated in Obsidian in favour of messageEl; the same element here. */
	noticeEl;
	#timer = null;

	constructor(message, duration) {
		this.containerEl = noticeContainer().createDiv("notice");
		this.messageEl = this.containerEl.createDiv("notice-message");
		this.noticeEl = this.messageEl;
		this.setMessage(message);
		// A click dismisses a notice, as in Obsidian.
		this.containerEl.addEventListener("click", () => this.hide());
		const ms = duration ?? DEFAULT_NOTICE_MS;
		if (ms > 0) {
			this.#timer = setTimeout(() => this.hide(), ms);
			// In Node, a notice must not keep the test process alive.
			this.#timer?.unref?.();
		}
	}

	setMessage(message) {
		setContent(this.messageEl, message);
		return this;
	}

	hide() {
		clearTimeout(this.#timer);
		const container = this.containerEl.parentElement;
		this.containerEl.detach();
		if (container && container.children.length === 0) container.detach();
	}
}

/** The texts of the notices on screen, oldest first (a test helper). */
export function visibleNotices() {
	return Array.from(document.querySelectorAll(".notice-container > .notice")).map((el) => el.textContent ?? "");
}

// ---------------------------------------------------------------------------
// Markdown → DOM (a small, safe subset for MarkdownRenderer.render)

const SAFE_URL = /^(https?:|mailto:|obsidian:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function appendInline(parent, text, context) {
	let plain = "";
	const flush = () => {
		if (plain) parent.appendText(plain);
		plain = "";
	};
	let i = 0;
	while (i < text.length) {
		const rest = text.slice(i);
		let match;
		if (rest[0] === "\\" && rest.length > 1 && /[\\`*_{}[\]()#+\-.!~=|>]/.test(rest[1])) {
			plain += rest[1];
			i += 2;
			continue;
		}
		if ((match = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
			flush();
			parent.createEl("code", { text: match[2].replace(/^ (.*) $/, "$1") });
		} else if ((match = /^\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/.exec(rest))) {
			flush();
			internalLink(parent, match[1].trim(), (match[2] ?? match[1]).trim(), context);
		} else if ((match = /^\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(rest))) {
			flush();
			markdownLink(parent, match[1], match[2], context);
		} else if ((match = /^<(https?:\/\/[^\s>]+)>/.exec(rest))) {
			flush();
			externalLink(parent, match[1], match[1]);
		} else if ((match = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest)) && wordBoundaryBefore(text, i, match[1])) {
			flush();
			appendInline(parent.createEl("strong"), match[2], context);
		} else if ((match = /^~~(?=\S)([\s\S]*?\S)~~/.exec(rest))) {
			flush();
			appendInline(parent.createEl("del"), match[1], context);
		} else if ((match = /^==(?=\S)([\s\S]*?\S)==/.exec(rest))) {
			flush();
			appendInline(parent.createEl("mark"), match[1], context);
		} else if ((match = /^([*_])(?=[^\s*_])([\s\S]*?[^\s\\])\1(?!\1)/.exec(rest)) && wordBoundaryBefore(text, i, match[1])) {
			flush();
			appendInline(parent.createEl("em"), match[2], context);
		} else {
			plain += rest[0];
			i += 1;
			continue;
		}
		i += match[0].length;
	}
	flush();
}

/** `_` inside a word (snake_case) is not emphasis. */
function wordBoundaryBefore(text, index, delimiter) {
	return !delimiter.startsWith("_") || index === 0 || !/[\p{L}\p{N}]/u.test(text[index - 1]);
}

function internalLink(parent, target, label, context) {
	const a = parent.createEl("a", { cls: "internal-link", text: label, attr: { "data-href": target, href: target, target: "_blank", rel: "noopener nofollow" } });
	a.addEventListener("click", (evt) => {
		evt.preventDefault();
		try {
			void Promise.resolve(context.app?.workspace?.openLinkText?.(target, context.sourcePath, false)).catch(() => {});
		} catch {
			// The mocks' workspace may not know the note; the click stays harmless.
		}
	});
}

function externalLink(parent, href, label) {
	parent.createEl("a", { cls: "external-link", text: label, attr: { href, target: "_blank", rel: "noopener nofollow" } });
}

function markdownLink(parent, label, url, context) {
	if (SAFE_URL.test(url)) externalLink(parent, url, label);
	else if (!HAS_SCHEME.test(url) && url !== "") internalLink(parent, decodeURI(url).replace(/\.md$/, ""), label, context);
	// javascript:, data: and other schemes: the text only, never a link.
	else parent.appendText(label);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;

function indentOf(spaces) {
	return spaces.replace(/\t/g, "    ").length;
}

function startsBlock(line) {
	return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

function renderBlocks(parent, lines, context) {
	let i = 0;
	while (i < lines.length) {
		const line = lines[i];
		let match;
		if (line.trim() === "") {
			i += 1;
		} else if ((match = FENCE.exec(line))) {
			const fence = match[1];
			const code = [];
			i += 1;
			while (i < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[i])) code.push(lines[i++]);
			i += 1;
			const pre = parent.createEl("pre");
			pre.createEl("code", { cls: match[2] ? `language-${match[2]}` : undefined, text: code.join("\n") });
		} else if ((match = HEADING.exec(line))) {
			appendInline(parent.createEl(`h${match[1].length}`), match[2] ?? "", context);
			i += 1;
		} else if (RULE.test(line)) {
			parent.createEl("hr");
			i += 1;
		} else if (QUOTE.test(line)) {
			const quoted = [];
			while (i < lines.length && QUOTE.test(lines[i])) quoted.push(lines[i++].replace(QUOTE, ""));
			renderBlocks(parent.createEl("blockquote"), quoted, context);
		} else if (LIST_ITEM.test(line)) {
			i = renderList(parent, lines, i, context);
		} else {
			const paragraph = [];
			while (i < lines.length && lines[i].trim() !== "" && (paragraph.length === 0 || !startsBlock(lines[i]))) paragraph.push(lines[i++].trim());
			const p = parent.createEl("p");
			// Obsidian's default (no strict line breaks): a single newline is a <br>.
			paragraph.forEach((text, n) => {
				if (n > 0) p.createEl("br");
				appendInline(p, text, context);
			});
		}
	}
}

/** Nested lists by indentation; `- [ ]` / `- [x]` become task items. Returns the next line index. */
function renderList(parent, lines, start, context) {
	const stack = []; // { indent, listEl, lastItem }
	let i = start;
	while (i < lines.length) {
		const line = lines[i];
		const match = LIST_ITEM.exec(line);
		if (!match) {
			if (line.trim() === "") {
				const next = lines.slice(i + 1).find((l) => l.trim() !== "");
				if (next === undefined || !(LIST_ITEM.test(next) || /^\s+\S/.test(next))) break;
				i += 1;
				continue;
			}
			if (!/^\s+\S/.test(line) && startsBlock(line)) break;
			if (!/^\s+\S/.test(line) && stack.length === 0) break;
			// A continuation line belongs to the last item.
			const last = stack[stack.length - 1]?.lastItem;
			if (!last) break;
			last.appendText(" ");
			appendInline(last, line.trim(), context);
			i += 1;
			continue;
		}
		const indent = indentOf(match[1]);
		const ordered = /\d/.test(match[2]);
		while (stack.length > 0 && stack[stack.length - 1].indent > indent) stack.pop();
		let top = stack[stack.length - 1];
		if (!top || indent > top.indent || (top.listEl.tagName === "OL") !== ordered) {
			if (top && indent === top.indent) stack.pop();
			const host = top && indent > top.indent && top.lastItem ? top.lastItem : parent;
			const listEl = host.createEl(ordered ? "ol" : "ul");
			if (ordered) {
				const first = parseInt(match[2], 10);
				if (first !== 1) listEl.setAttribute("start", String(first));
			}
			top = { indent, listEl, lastItem: null };
			stack.push(top);
		}
		const li = top.listEl.createEl("li");
		let content = match[3];
		const task = /^\[([ xX])\]\s+(.*)$/.exec(content);
		if (task) {
			li.addClass("task-list-item");
			li.setAttribute("data-task", task[1].trim());
			if (task[1] !== " ") li.addClass("is-checked");
			const box = li.createEl("input", { cls: "task-list-item-checkbox", type: "checkbox" });
			box.checked = task[1] !== " ";
			box.disabled = true;
			content = task[2];
		}
		appendInline(li, content, context);
		top.lastItem = li;
		i += 1;
	}
	return i;
}

/** Renders Markdown into `el` with DOM APIs (paragraphs, headings, lists, quotes,
 * code blocks, inline code, bold, italic, strikethrough, highlights, links). */
export function renderMarkdownInto(el, markdown, context = {}) {
	const lines = String(markdown ?? "").replace(/\r\n?/g, "\n").split("\n");
	renderBlocks(el, lines, context);
}

// ---------------------------------------------------------------------------
// Classes that extend obsidian-test-mocks classes (views, leaves, workspace,
// plugin). Defined per mocks module because their base classes come from it.

function defineDerivedClasses(mocks) {
	/** A view in a leaf. Lifecycle: open__ (load, onOpen) and close__ (onClose, unload). */
	class View extends mocks.Component {
		app;
		icon = "";
		navigation = true;
		leaf;
		containerEl;
		scope = null;

		constructor(leaf) {
			super();
			this.app = leaf.app;
			this.leaf = leaf;
			this.containerEl = createDiv("workspace-leaf-content");
		}

		getViewType() {
			throw new Error(`${this.constructor.name} must implement getViewType()`);
		}

		getDisplayText() {
			return "";
		}

		getIcon() {
			return this.icon;
		}

		getState() {
			return {};
		}

		async setState() {}

		getEphemeralState() {
			return {};
		}

		setEphemeralState() {}

		onResize() {}

		onPaneMenu() {}

		async onOpen() {}

		async onClose() {}

		async open__() {
			this.containerEl.setAttribute("data-type", this.getViewType());
			this.load();
			await this.onOpen();
		}

		async close__() {
			try {
				await this.onClose();
			} finally {
				this.unload();
			}
		}
	}

	/** containerEl > div.view-header (title, actions) + div.view-content (contentEl). */
	class ItemView extends View {
		contentEl;
		headerEl__;
		titleEl__;
		actionsEl__;

		constructor(leaf) {
			super(leaf);
			this.headerEl__ = this.containerEl.createDiv("view-header");
			const titleContainer = this.headerEl__.createDiv("view-header-title-container");
			this.titleEl__ = titleContainer.createDiv("view-header-title");
			this.actionsEl__ = this.headerEl__.createDiv("view-actions");
			this.contentEl = this.containerEl.createDiv("view-content");
		}

		/** A clickable icon in the view header; the newest comes first, as in Obsidian. */
		addAction(icon, title, callback) {
			const el = createEl("a", { cls: "clickable-icon view-action", attr: { "aria-label": title } });
			setIcon(el, icon);
			el.addEventListener("click", (evt) => callback(evt));
			this.actionsEl__.prepend(el);
			return el;
		}

		async open__() {
			this.titleEl__.setText(this.getDisplayText());
			await super.open__();
		}
	}

	/** What a new leaf shows until a view is set. */
	class EmptyView extends ItemView {
		getViewType() {
			return "empty";
		}

		getDisplayText() {
			return "New tab";
		}

		async onOpen() {
			this.contentEl.empty();
			this.contentEl.createDiv({ cls: "empty-state-title", text: "No file is open" });
		}
	}

	/** div.workspace-leaf holding its view's containerEl, in a side dock or the root. */
	class WorkspaceLeaf extends mocks.WorkspaceLeaf {
		app;
		containerEl;
		tabHeaderEl;
		side__;

		constructor(app, side = "root") {
			super(app);
			this.app = app;
			this.side__ = side;
			this.containerEl = createDiv("workspace-leaf");
			this.tabHeaderEl = createDiv({ cls: "workspace-tab-header clickable-icon" });
			this.tabHeaderEl.addEventListener("click", () => void this.app.workspace.revealLeaf(this));
			this.view = new EmptyView(this);
			this.containerEl.appendChild(this.view.containerEl);
			void this.view.open__();
			this.updateHeader__();
		}

		getViewState() {
			return { type: this.view?.getViewType() ?? "empty", state: this.view?.getState() ?? {}, pinned: this.pinned };
		}

		/** Replaces the view when the type changes, then passes the state on. */
		async setViewState(viewState, eState) {
			const { type, state = {}, active = false, pinned } = viewState;
			if (this.view?.getViewType() !== type) {
				const creator = viewRegistryOf(this.app)?.get(type);
				if (!creator) console.warn(`No view is registered for type "${type}"; the leaf shows an empty view.`);
				await this.open(creator ? creator(this) : new EmptyView(this));
			}
			await this.view.setState(state, { history: false });
			if (pinned !== undefined) this.setPinned(pinned);
			if (eState) this.setEphemeralState(eState);
			if (active) this.app.workspace.setActiveLeaf(this, { focus: true });
			this.updateHeader__();
			this.app.workspace.trigger("layout-change");
		}

		/**
		 * As Obsidian: the note opens in a Markdown view and becomes the active
		 * file and editor. Where the page has CodeMirror that view is the
		 * double's real editor (markdown-view-double.mjs); else the mocks' openFile.
		 */
		async openFile(file, openState = {}) {
			if (!viewRegistryOf(this.app)?.has("markdown")) return super.openFile(file, openState);
			await this.setViewState({ type: "markdown", state: { file: file.path }, active: openState.active ?? false });
			this.file = file;
			const workspace = this.app.workspace;
			workspace.activeFileSet__ = true;
			workspace.activeFile__ = file;
			workspace.activeEditor = this.view;
			workspace.trigger("file-open", file);
		}

		async open(view) {
			const previous = this.view;
			if (previous === view) return view;
			this.view = view;
			if (previous) {
				previous.containerEl.detach();
				await previous.close__();
			}
			this.containerEl.appendChild(view.containerEl);
			await view.open__();
			this.updateHeader__();
			return view;
		}

		/** Closes the view (onClose, then its cleanups) and removes the leaf. */
		detach() {
			const view = this.view;
			this.containerEl.detach();
			this.tabHeaderEl.detach();
			this.app.workspace.removeLeaf__(this);
			if (view) void view.close__();
		}

		getDisplayText() {
			return this.view?.getDisplayText() ?? "";
		}

		getIcon() {
			return this.view?.getIcon() ?? "";
		}

		/** Obsidian's (not in its typings): the tab and the view header read getDisplayText() again. */
		updateHeader() {
			this.updateHeader__();
			this.view?.titleEl__?.setText(this.getDisplayText());
		}

		updateHeader__() {
			setIcon(this.tabHeaderEl, this.getIcon() || "file");
			this.tabHeaderEl.setAttribute("aria-label", this.getDisplayText());
			this.tabHeaderEl.setAttribute("data-type", this.view?.getViewType() ?? "empty");
		}
	}

	/**
	 * The mocks' Workspace with a DOM and real leaves:
	 * div.app-container > div.horizontal-main-container > div.workspace >
	 * (ribbon, left split, root split, right split), then div.status-bar.
	 */
	class Workspace extends mocks.Workspace {
		appContainerEl__;
		ribbonActionsEl__;
		statusBarEl__;
		splits__;
		/** Set by openFile__: the file getActiveFile() answers. */
		activeFileSet__ = false;
		activeFile__ = null;

		constructor(app) {
			super(app, createDiv("workspace"));
			this.appContainerEl__ = createDiv("app-container");
			const main = this.appContainerEl__.createDiv("horizontal-main-container");
			main.appendChild(this.containerEl);
			const ribbon = this.containerEl.createDiv("workspace-ribbon side-dock-ribbon mod-left");
			this.ribbonActionsEl__ = ribbon.createDiv("side-dock-actions");
			const split = (cls) => {
				const el = this.containerEl.createDiv(`workspace-split ${cls}`);
				const tabs = el.createDiv("workspace-tabs");
				return {
					el,
					headersEl: tabs.createDiv("workspace-tab-header-container"),
					leavesEl: tabs.createDiv("workspace-tab-container"),
					shown: null,
				};
			};
			this.splits__ = {
				left: split("mod-horizontal mod-sidedock mod-left-split is-collapsed"),
				root: split("mod-vertical mod-root"),
				right: split("mod-horizontal mod-sidedock mod-right-split is-collapsed"),
			};
			// The root split comes between the side docks.
			this.containerEl.insertBefore(this.splits__.left.el, this.splits__.root.el);
			this.statusBarEl__ = this.appContainerEl__.createDiv("status-bar");
		}

		createLeaf__(side) {
			const leaf = new WorkspaceLeaf(this.app, side);
			const split = this.splits__[side];
			this.leaves.push(leaf);
			split.headersEl.appendChild(leaf.tabHeaderEl);
			split.leavesEl.appendChild(leaf.containerEl);
			if (!split.shown) this.showLeaf__(leaf);
			else leaf.containerEl.hide();
			return leaf;
		}

		/** Makes `leaf` the visible tab of its split. */
		showLeaf__(leaf) {
			const split = this.splits__[leaf.side__];
			for (const other of this.leaves) {
				if (other.side__ !== leaf.side__) continue;
				other.containerEl.toggle(other === leaf);
				other.tabHeaderEl.toggleClass("is-active", other === leaf);
			}
			split.shown = leaf;
		}

		getLeaf(newLeaf) {
			const active = this.activeLeaf;
			if (!newLeaf && active && active.side__ === "root") return active;
			if (!newLeaf) {
				const shown = this.splits__.root.shown;
				if (shown) return shown;
			}
			const leaf = this.createLeaf__("root");
			this.showLeaf__(leaf);
			return leaf;
		}

		getRightLeaf() {
			return this.createLeaf__("right");
		}

		getLeftLeaf() {
			return this.createLeaf__("left");
		}

		getUnpinnedLeaf() {
			return this.getLeaf(false);
		}

		createLeafBySplit() {
			return this.createLeaf__("root");
		}

		createLeafInParent() {
			return this.createLeaf__("root");
		}

		splitActiveLeaf() {
			return this.createLeaf__("root");
		}

		async duplicateLeaf(leaf) {
			const copy = this.createLeaf__(leaf?.side__ ?? "root");
			if (leaf) await copy.setViewState(leaf.getViewState());
			return copy;
		}

		openPopoutLeaf() {
			return this.createLeaf__("root");
		}

		async ensureSideLeaf(type, side, options = {}) {
			const { active = false, split = false, reveal = true, state } = options;
			let leaf = this.getLeavesOfType(type)[0];
			if (!leaf) {
				leaf = side === "left" ? this.getLeftLeaf(split) : this.getRightLeaf(split);
				await leaf.setViewState({ type, active, state });
			}
			if (reveal) await this.revealLeaf(leaf);
			return leaf;
		}

		getLeavesOfType(viewType) {
			return this.leaves.filter((leaf) => leaf.view?.getViewType() === viewType);
		}

		detachLeavesOfType(viewType) {
			for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
		}

		/** Uncollapses the leaf's side dock and brings its tab to the front (no focus change). */
		async revealLeaf(leaf) {
			const split = this.splits__[leaf.side__];
			if (!split) return;
			split.el.removeClass("is-collapsed");
			this.showLeaf__(leaf);
			await leaf.loadIfDeferred();
		}

		getActiveViewOfType(type) {
			const view = this.activeLeaf?.view;
			return view instanceof type ? view : null;
		}

		setActiveLeaf(leaf, params) {
			for (const other of this.leaves) other.containerEl.toggleClass("mod-active", other === leaf);
			super.setActiveLeaf(leaf, params);
		}

		/**
		 * Double helper: the user opened `file` in an editor with `selection`
		 * selected (as Obsidian: getActiveFile() answers it while other views
		 * have the focus, activeEditor is its MarkdownFileInfo, and
		 * "file-open" and "active-leaf-change" fire).
		 */
		openFile__(file, { selection = "" } = {}) {
			this.activeFileSet__ = true;
			this.activeFile__ = file;
			this.activeEditor = file ? { app: this.app, file, editor: { getSelection: () => selection } } : null;
			this.trigger("file-open", file);
			this.trigger("active-leaf-change", this.activeLeaf ?? null);
		}

		getActiveFile() {
			return this.activeFileSet__ ? this.activeFile__ : super.getActiveFile();
		}

		/** As Obsidian: every open editor takes the plugins' editor extensions as they are now. */
		updateOptions() {
			// `in`: the mocks' views are strict proxies, which throw on reading what they lack.
			for (const leaf of this.leaves) if (leaf.view && "reconfigure__" in leaf.view) leaf.view.reconfigure__();
		}

		removeLeaf__(leaf) {
			super.removeLeaf__(leaf);
			const split = this.splits__[leaf.side__];
			if (split && split.shown === leaf) {
				split.shown = null;
				const next = this.leaves.find((other) => other.side__ === leaf.side__);
				if (next) this.showLeaf__(next);
				else if (leaf.side__ !== "root") split.el.addClass("is-collapsed");
			}
		}
	}

	/**
	 * The mocks' Plugin, with the parts that show up on screen made real:
	 * ribbon icons, status bar items, commands, views and settings tabs are
	 * registered with the app and removed again on unload.
	 */
	class Plugin extends mocks.Plugin {
		addRibbonIcon(icon, title, callback) {
			const el = ribbonActionsOf(this.app).createDiv({
				cls: "side-dock-ribbon-action clickable-icon",
				attr: { "aria-label": title, "data-tooltip-position": "right" },
			});
			setIcon(el, icon);
			el.addEventListener("click", (evt) => callback(evt));
			this.ribbonActions__.push(el);
			this.register(() => el.detach());
			return el;
		}

		addStatusBarItem() {
			const workspace = this.app.workspace;
			const parent = workspace instanceof Workspace ? workspace.statusBarEl__ : document.body;
			const el = parent.createDiv(`status-bar-item plugin-${this.manifest.id.replace(/[^\w-]/g, "-")}`);
			this.statusBarItems__.push(el);
			this.register(() => el.detach());
			return el;
		}

		/**
		 * As Obsidian 1.12.2+ documents it: command ids are global, a second
		 * registration of one throws, and `obsidian help` lists each with its
		 * description and flags. The app keeps them in `cli__` (command → {
		 * description, flags, handler }), gone again when the plugin unloads.
		 */
		registerCliHandler(command, description, flags, handler) {
			const registry = this.app.cli__;
			if (registry.has(command)) throw new Error(`CLI command "${command}" is already registered.`);
			registry.set(command, { description, flags, handler });
			super.registerCliHandler(command, description, flags, handler);
			this.register(() => registry.delete(command));
		}

		/** As Obsidian: the id gets the plugin id in front, the name the plugin name. */
		addCommand(command) {
			command.id = `${this.manifest.id}:${command.id}`;
			command.name = `${this.manifest.name}: ${command.name}`;
			this.commands__.set(command.id, command);
			const registry = commandRegistryOf(this.app);
			registry?.addCommand(command);
			this.register(() => {
				this.commands__.delete(command.id);
				registry?.removeCommand(command.id);
			});
			return command;
		}

		removeCommand(commandId) {
			const id = commandId.includes(":") ? commandId : `${this.manifest.id}:${commandId}`;
			this.commands__.delete(id);
			commandRegistryOf(this.app)?.removeCommand(id);
		}

		addSettingTab(settingTab) {
			this.settingTabs__.push(settingTab);
			const settings = settingsOf(this.app);
			settings?.addSettingTab(settingTab);
			this.register(() => settings?.removeSettingTab(settingTab));
		}

		/** As Obsidian: every editor runs the extension, those open now too; unloading takes it out again. */
		registerEditorExtension(extension) {
			super.registerEditorExtension(extension);
			const list = this.app.editorExtensions__;
			if (!list) return;
			list.push(extension);
			this.app.workspace.updateOptions();
			this.register(() => {
				list.splice(list.indexOf(extension), 1);
				this.app.workspace.updateOptions();
			});
		}

		/** Unloading closes the views of this type and forgets the type, as in Obsidian. */
		registerView(type, viewCreator) {
			this.views__.set(type, viewCreator);
			const registry = viewRegistryOf(this.app);
			registry?.set(type, viewCreator);
			this.register(() => {
				this.app.workspace.detachLeavesOfType(type);
				registry?.delete(type);
				this.views__.delete(type);
			});
		}
	}

	class MarkdownRenderer extends mocks.MarkdownRenderChild {
		static async render(app, markdown, el, sourcePath, _component) {
			renderMarkdownInto(el, markdown, { app, sourcePath });
		}

		static async renderMarkdown(markdown, el, sourcePath, component) {
			return MarkdownRenderer.render(globalThis.app, markdown, el, sourcePath, component);
		}
	}

	return { View, ItemView, EmptyView, WorkspaceLeaf, Workspace, Plugin, MarkdownRenderer };
}

// App-level registries live on the app object under the names Obsidian uses
// internally (app.setting, app.commands, app.viewRegistry, app.plugins). The
// mocks' App is a strict proxy that throws on unknown reads, hence the `in`.
function settingsOf(app) {
	return "setting" in app ? app.setting : null;
}

function commandRegistryOf(app) {
	return "commands" in app ? app.commands : null;
}

function viewRegistryOf(app) {
	return "viewRegistry" in app ? app.viewRegistry.viewByType : null;
}

function ribbonActionsOf(app) {
	const workspace = app.workspace;
	if ("ribbonActionsEl__" in workspace) return workspace.ribbonActionsEl__;
	// An app without the double's workspace still gets a ribbon on body.
	let ribbon = document.body.querySelector(".side-dock-ribbon .side-dock-actions");
	if (!ribbon) ribbon = document.body.createDiv("workspace-ribbon side-dock-ribbon mod-left").createDiv("side-dock-actions");
	return ribbon;
}

function createCommandRegistry() {
	return {
		commands: {},
		addCommand(command) {
			this.commands[command.id] = command;
		},
		removeCommand(id) {
			delete this.commands[id];
		},
		listCommands() {
			return Object.values(this.commands);
		},
		findCommand(id) {
			return this.commands[id];
		},
		/** Obsidian's rules: checkCallback(true) decides; editor commands need an editor. */
		executeCommandById(id) {
			const command = this.commands[id];
			if (!command) return false;
			if (command.checkCallback) {
				if (!command.checkCallback(true)) return false;
				command.checkCallback(false);
				return true;
			}
			if (command.callback) {
				command.callback();
				return true;
			}
			return false;
		},
	};
}

// ---------------------------------------------------------------------------
// The module the plugin gets, and the app it runs in

/**
 * The module object for `require("obsidian")`: the mocks with the UI classes
 * replaced. `codemirror` ({ state, view }, where the page has them): Markdown
 * views with a real CodeMirror editor (markdown-view-double.mjs).
 */
export function createObsidianModule(mocks, codemirror = null) {
	const existing = modules.get(mocks);
	if (existing) return existing;
	mocksModule = mocks;
	const derived = defineDerivedClasses(mocks);
	if (codemirror) derived.MarkdownView = defineMarkdownView(derived.ItemView, mocks.editorInfoField, codemirror);
	const ui = {
		BaseComponent,
		ValueComponent,
		AbstractTextComponent,
		TextComponent,
		TextAreaComponent,
		SearchComponent,
		ToggleComponent,
		ButtonComponent,
		ExtraButtonComponent,
		DropdownComponent,
		SliderComponent,
		SecretComponent,
		Setting,
		SettingTab,
		PluginSettingTab,
		Modal,
		SuggestModal,
		PopoverSuggest,
		AbstractInputSuggest,
		Notice,
		setIcon,
		getIcon,
		setTooltip,
		View: derived.View,
		ItemView: derived.ItemView,
		WorkspaceLeaf: derived.WorkspaceLeaf,
		Workspace: derived.Workspace,
		Plugin: derived.Plugin,
		MarkdownRenderer: derived.MarkdownRenderer,
		// Obsidian's PDF.js (tests/support/pdf-double.mjs says what it reads).
		loadPdfJs: async () => pdfjsDouble,
		...(derived.MarkdownView ? { MarkdownView: derived.MarkdownView } : {}),
	};
	const module = {};
	for (const key of Object.keys(mocks)) if (key !== "default") module[key] = mocks[key];
	Object.assign(module, ui);
	Object.defineProperty(module, "__esModule", { value: true });
	modules.set(mocks, module);
	internals.set(module, derived);
	return module;
}

/**
 * An App (obsidian-test-mocks) with the double's workspace, settings window,
 * command and view registries and plugin list, mounted in document.body as
 * the one Obsidian window (an app container left by an earlier app is
 * removed). `theme` is "dark" or "light" (body classes as in Obsidian).
 */
export function createApp(obsidian, { adapter, theme = "dark" } = {}) {
	const derived = internals.get(obsidian);
	if (!derived) throw new Error("createApp needs a module made by createObsidianModule");
	const app = obsidian.App.createConfigured__(adapter ? { adapter } : {});
	app.workspace = new derived.Workspace(app);
	app.setting = new SettingsModal(app);
	app.commands = createCommandRegistry();
	app.viewRegistry = { viewByType: new Map() };
	// The plugins' editor extensions (Plugin.registerEditorExtension), and the
	// Markdown view that runs them, where the module has the real editor.
	app.editorExtensions__ = [];
	if (derived.MarkdownView) app.viewRegistry.viewByType.set("markdown", (leaf) => new derived.MarkdownView(leaf));
	// The CLI commands plugins register (`Plugin.registerCliHandler`).
	app.cli__ = new Map();
	app.plugins = {
		plugins: {},
		getPlugin(id) {
			return this.plugins[id] ?? null;
		},
	};
	app.isDarkMode = () => document.body.classList.contains("theme-dark");
	const body = document.body;
	for (const old of Array.from(body.children).filter((el) => el.classList.contains("app-container"))) old.detach();
	body.removeClass("theme-dark", "theme-light");
	body.addClass("obsidian-app", "mod-linux", "show-view-header", theme === "light" ? "theme-light" : "theme-dark");
	body.prepend(app.workspace.appContainerEl__);
	// Obsidian exposes the app as a global; the mocks' setup() made its own.
	globalThis.app = app;
	return app;
}

/** Runs the workspace's onLayoutReady callbacks, as Obsidian does once the layout is up. */
export function markLayoutReady(app) {
	app.workspace.setLayoutReady__();
	app.workspace.trigger("layout-ready");
}

/** Opens Settings at the tab with this id (a plugin's manifest id); returns the tab's containerEl. */
export function openSettingTab(app, id) {
	const settings = settingsOf(app);
	if (!settings) throw new Error("this app has no settings window (make it with createApp)");
	const tab = settings.openTabById(id);
	if (!tab) throw new Error(`no settings tab "${id}"; there are: ${settings.pluginTabs.map((t) => t.id).join(", ") || "none"}`);
	return tab.containerEl;
}

export function closeSettings(app) {
	settingsOf(app)?.close();
}

/**
 * Runs a command as the command palette would. `id` is the full id
 * ("plugin-id:command") or, when only one plugin has it, the plugin's own id.
 * Resolves to true when it ran (awaiting an async callback), false when its
 * checkCallback said no or it needs an editor.
 */
export async function runCommand(app, id) {
	const registry = commandRegistryOf(app);
	if (!registry) throw new Error("this app has no command registry (make it with createApp)");
	const ids = Object.keys(registry.commands);
	const matches = ids.includes(id) ? [id] : ids.filter((full) => full.endsWith(`:${id}`));
	if (matches.length !== 1) throw new Error(`no single command "${id}"; there are: ${ids.join(", ") || "none"}`);
	const command = registry.commands[matches[0]];
	if (command.checkCallback) {
		if (!command.checkCallback(true)) return false;
		await command.checkCallback(false);
		return true;
	}
	if (command.callback) {
		await command.callback();
		return true;
	}
	return false;
}

// ---------------------------------------------------------------------------
// Finding and clicking things (test helpers)

function label(el) {
	return (el.textContent ?? "").trim() || (el.getAttribute("aria-label") ?? "").trim();
}

/** The <button> (or clickable icon, by aria-label) whose text is `text`; throws listing what is there. */
export function findButton(root, text) {
	const candidates = Array.from(root.querySelectorAll("button, .clickable-icon[aria-label]"));
	const found = candidates.find((el) => label(el) === text);
	if (!found) throw new Error(`no button "${text}"; there are: ${candidates.map(label).map((t) => JSON.stringify(t)).join(", ") || "none"}`);
	return found;
}

/** Clicks the button as a user would (a DOM click event); returns it. */
export function clickButton(root, text) {
	const button = findButton(root, text);
	button.click();
	return button;
}

/** The div.setting-item whose name is `name`; throws listing the names there are. */
export function findSetting(root, name) {
	const rows = Array.from(root.querySelectorAll(".setting-item"));
	const nameOf = (row) => (row.querySelector(".setting-item-name")?.textContent ?? "").trim();
	const found = rows.find((row) => nameOf(row) === name);
	if (!found) throw new Error(`no setting "${name}"; there are: ${rows.map(nameOf).map((t) => JSON.stringify(t)).join(", ")}`);
	return found;
}

/** Clicks the switch in a setting row (or the div.checkbox-container itself); returns the switch. */
export function clickToggle(el) {
	const toggle = el.classList.contains("checkbox-container") ? el : el.querySelector(".checkbox-container");
	if (!toggle) throw new Error("no switch (div.checkbox-container) here");
	toggle.click();
	return toggle;
}
