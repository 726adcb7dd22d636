// Generated from the Rust types by src/ts_types.rs (ts-rs); do not edit.
// Update: VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types

/**
 * The outcome of one tool call.
 */
export type ToolResult = { ok: boolean, 
/**
 * What to show: the CLI's output, or the error message.
 */
text: string, error?: ErrorInfo, 
/**
 * The resolved CLI binary, when the call got that far.
 */
program?: string, 
/**
 * The exact arguments given to the process after the program.
 */
argv?: Array<string>, 
/**
 * True when the output cap cut the text (the text ends with a notice).
 */
truncated?: boolean, 
/**
 * True for the CLI's "No … found." answers and silent successes.
 */
empty?: boolean, 
/**
 * Set when the write waits for the user's click; nothing has run yet.
 */
pending?: PendingConfirmation, 
/**
 * What a change did to the note (or the value), for the tool block to
 * show folded. On `undo_conflict`: what the agent wrote against what the
 * note holds now.
 */
diff?: NoteDiff, 
/**
 * The undo journal's entry of a change that ran (only the plugin's own
 * buttons undo it; neither the model nor the API can).
 */
journal?: JournalRef, 
/**
 * Entries the folder scopes left out of a vault-wide answer.
 */
withheld?: number, 
/**
 * The notes and headings a ranked search answered with: what the chat
 * may show as an answer's sources.
 */
found?: Array<NoteHeading>, 
/**
 * What carried the call out when it was not the CLI (whose `argv`
 * says so): the tool block is labelled by it.
 */
ran?: Ran, 
/**
 * Images an outside tool returned (checked by the core: a known type,
 * base64, capped), shown in the tool block and, when the profile's
 * model reads images, sent to it.
 */
images?: Array<ImageData>, 
/**
 * What an outside server answered, in its own words, for the user: the
 * text less the lines written for the model (an image's line when the
 * image is shown, the note on what to do after an error). The chat
 * shows it apart from the plugin's words, since it may try to speak
 * for the plugin.
 */
reply?: string, durationMs: number, };

/**
 * A stable error code and a message that says what to do next.
 */
export type ErrorInfo = { code: string, message: string, 
/**
 * True when the user, not the model, has to act (a setting, the app,
 * the CLI): the chat shows the message as a banner too.
 */
userFix?: boolean, 
/**
 * True when the user said no to the call (a card's Reject): nothing
 * ran, by their choice, so the chat shows it as rejected, not failed.
 */
rejected?: boolean, };

/**
 * An image as the host hands it over for one model request: its MIME type
 * and its bytes in base64.
 */
export type ImageData = { mime: string, base64: string, };

/**
 * A result's link to its entry in the undo journal.
 */
export type JournalRef = { entry: string, 
/**
 * The chat answer the change belongs to, if it came from the chat.
 */
turn?: string, undoable: boolean, 
/**
 * Why it cannot be undone (the button's tooltip).
 */
reason?: string, 
/**
 * On `undo_conflict`: the hash of the text the user was shown, which
 * "Undo anyway" must send back (if the note changed again, it asks again).
 */
conflictHash?: string, };

/**
 * A note and one of its headings (`Parent::Child`, empty for the text
 * before the first heading).
 */
export type NoteHeading = { path: string, heading: string, };

/**
 * A call carried out by Obsidian's vault or computed by the plugin, as
 * the chat's tool block shows it: the tool's one name (the settings show the
 * same), what ran it instead of the CLI, and the words of its line (the
 * operation and the notes it touched).
 */
export type Ran = { label: string, 
/**
 * What ran it: Obsidian's vault, a computed report, the plugin's index
 * (empty in a chat stored before it was kept apart from the label).
 */
by: string, words: Array<string>, };

/**
 * What the model and other plugins see of a pending confirmation.
 */
export type PendingConfirmation = { id: string, summary: string, preview: ChangePreview, };

/**
 * What the user sees before approving a write.
 */
export type ChangePreview = { 
/**
 * What changes, in words.
 */
target: string, before: string, after: string, 
/**
 * For changes to a note's text: the line diff the card shows (and the
 * model reads as unified text).
 */
diff?: NoteDiff, 
/**
 * Something the user and the model should know before the change (a
 * note with the same or a very similar title exists): never a refusal.
 */
warning?: string, };

/**
 * The change to one note.
 */
export type NoteDiff = { added: number, removed: number, hunks: Array<DiffHunk>, };

export type DiffHunk = { 
/**
 * `@@ -a,b +c,d @@`, for the model and the journal.
 */
header: string, 
/**
 * Where the hunk starts, as a person reads it: "Line 18" (the first
 * line shown, in the note after the change).
 */
label: string, lines: Array<DiffLine>, };

export type DiffLine = { kind: LineKind, 
/**
 * 1-based line numbers in the note before and after.
 */
oldLine: number | null, newLine: number | null, segments: Array<Segment>, };

export type LineKind = "context" | "added" | "removed";

/**
 * A piece of a line; `changed` pieces are the words that differ.
 */
export type Segment = { text: string, changed: boolean, };

/**
 * How a tool is described to callers (`api.listTools()`).
 */
export type ToolDescriptor = { id: string, displayName: string, description: string, 
/**
 * What it does in the user's words, for the settings (`tools::user_summary`).
 */
summary: string, guidance: string, inputSchema: JsonValue, 
/**
 * The command allowlist.
 */
commands: Array<string>, commandDetails: Array<CommandDescriptor>, 
/**
 * A typical read-only call.
 */
example: JsonValue, enabled: boolean, 
/**
 * Where it is turned on and off when not on the Tools page (memory on
 * the Model page, the web on its own): the Tools page shows no switch
 * for it and its "All tools" leaves it alone.
 */
ownSwitch: OwnSwitch | null, };

/**
 * Where a tool with a switch of its own is turned on and off: a row on
 * another settings page than Tools. Memory and the web are opt-ins with
 * their own settings (a folder, a provider), so each has one switch, beside
 * them, and the Tools page's switches (its "All tools" among them) leave
 * them alone.
 */
export type OwnSwitch = { 
/**
 * The settings page, as its nav names it.
 */
page: string, 
/**
 * The row's name on that page.
 */
setting: string, };

export type CommandDescriptor = { name: string, access: CommandAccess, summary: string, };

/**
 * What a command does to the vault.
 */
export type CommandAccess = "read" | "directWrite" | "confirmedWrite";

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;
