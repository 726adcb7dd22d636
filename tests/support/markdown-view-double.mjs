// Obsidian's Markdown editor for the UI double, backed by a real CodeMirror 6
// EditorView, as Obsidian's is: a note opens in a `MarkdownView` whose
// editor runs every extension plugins registered (registerEditorExtension,
// reconfigured by workspace.updateOptions()), knows its note through
// Obsidian's `editorInfoField`, and answers the `Editor` calls plugins make
// (getValue, offsetToPos, setCursor, scrollIntoView…) on the real view. A
// change to the file on disk (the vault's "modify") is loaded into the
// editor, as Obsidian does for a note without unsaved typing.
//
// Only where the page has CodeMirror (tests/support/browser-entry.mjs passes
// @codemirror/state and @codemirror/view, the same instances the plugin's
// `require` gets); the Node harness keeps the mocks' MarkdownView.

/**
 * The MarkdownView class over the double's ItemView. `cm`: { state, view },
 * the CodeMirror modules; `editorInfoField`: the mocks' StateField, which
 * the plugin reads as Obsidian's.
 */
export function defineMarkdownView(ItemView, editorInfoField, cm) {
	const { Compartment, EditorState } = cm.state;
	const { EditorView } = cm.view;

	/** Obsidian's Editor: positions as { line, ch }, 0-based, over the view's document. */
	class Editor {
		constructor(view) {
			this.cm = view;
		}

		get doc__() {
			return this.cm.state.doc;
		}

		getValue() {
			return this.doc__.toString();
		}

		setValue(text) {
			this.cm.dispatch({ changes: { from: 0, to: this.doc__.length, insert: text } });
		}

		getLine(line) {
			return this.doc__.line(line + 1).text;
		}

		lineCount() {
			return this.doc__.lines;
		}

		posToOffset(pos) {
			const line = this.doc__.line(Math.min(Math.max(pos.line, 0), this.doc__.lines - 1) + 1);
			return Math.min(line.from + pos.ch, line.to);
		}

		offsetToPos(offset) {
			const line = this.doc__.lineAt(Math.min(Math.max(offset, 0), this.doc__.length));
			return { line: line.number - 1, ch: offset - line.from };
		}

		getCursor(which = "head") {
			const range = this.cm.state.selection.main;
			const at = { from: range.from, to: range.to, anchor: range.anchor, head: range.head }[which] ?? range.head;
			return this.offsetToPos(at);
		}

		setCursor(pos, ch) {
			const at = this.posToOffset(typeof pos === "number" ? { line: pos, ch: ch ?? 0 } : pos);
			this.cm.dispatch({ selection: { anchor: at } });
		}

		setSelection(anchor, head = anchor) {
			this.cm.dispatch({ selection: { anchor: this.posToOffset(anchor), head: this.posToOffset(head) } });
		}

		getSelection() {
			const range = this.cm.state.selection.main;
			return this.cm.state.sliceDoc(range.from, range.to);
		}

		somethingSelected() {
			return !this.cm.state.selection.main.empty;
		}

		replaceRange(text, from, to = from) {
			this.cm.dispatch({ changes: { from: this.posToOffset(from), to: this.posToOffset(to), insert: text } });
		}

		scrollIntoView(range, center = false) {
			const at = this.posToOffset(range.from);
			this.cm.dispatch({ effects: EditorView.scrollIntoView(at, { y: center ? "center" : "nearest" }) });
		}

		focus() {
			this.cm.focus();
		}

		hasFocus() {
			return this.cm.hasFocus;
		}
	}

	/** div.view-content > div.markdown-source-view.mod-cm6 > the EditorView's .cm-editor. */
	class MarkdownView extends ItemView {
		// Every field declared: the mocks' Component is a strict proxy that throws on unset reads.
		file = null;
		editor = null;
		cm = null;
		sourceEl__ = null;
		extensions__ = new Compartment();

		constructor(leaf) {
			super(leaf);
			this.sourceEl__ = this.contentEl.createDiv("markdown-source-view cm-s-obsidian mod-cm6 is-live-preview");
		}

		getViewType() {
			return "markdown";
		}

		getDisplayText() {
			return this.file?.basename ?? "No file";
		}

		getIcon() {
			return "document";
		}

		getMode() {
			return "source";
		}

		getState() {
			return { file: this.file?.path ?? null, mode: "source", source: false };
		}

		getViewData() {
			return this.editor?.getValue() ?? "";
		}

		/** `{ file }`: opens that note (Obsidian's setViewState on a Markdown leaf). */
		async setState(state) {
			const file = state?.file ? this.app.vault.getAbstractFileByPath(state.file) : null;
			if (file && file !== this.file && file.path !== this.file?.path) await this.load__(file);
		}

		async load__(file) {
			const text = await this.app.vault.read(file);
			this.file = file;
			this.cm?.destroy();
			const view = this;
			this.cm = new EditorView({
				parent: this.sourceEl__,
				state: EditorState.create({
					doc: text,
					extensions: [EditorView.lineWrapping, editorInfoField.init(() => view), this.extensions__.of(registered(this.app))],
				}),
			});
			this.editor = new Editor(this.cm);
			this.leaf.updateHeader?.();
		}

		/** workspace.updateOptions(): the plugins' extensions as registered now. */
		reconfigure__() {
			this.cm?.dispatch({ effects: this.extensions__.reconfigure(registered(this.app)) });
		}

		onload() {
			super.onload?.();
			// A write through the vault (another plugin's, a sync) shows in the open note.
			this.registerEvent(
				this.app.vault.on("modify", async (file) => {
					if (!this.editor || file.path !== this.file?.path) return;
					const text = await this.app.vault.read(file);
					if (text !== this.editor.getValue()) this.editor.setValue(text);
				}),
			);
		}

		async onClose() {
			this.cm?.destroy();
			this.cm = null;
			this.editor = null;
		}
	}
	MarkdownView.double__ = true;
	return MarkdownView;
}

/** The editor extensions the loaded plugins registered, in order. */
function registered(app) {
	return [...(app.editorExtensions__ ?? [])];
}
