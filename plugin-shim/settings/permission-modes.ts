// The words for the permission modes, shared by the settings tab and the chat
// header. What each mode allows is decided in the core (src/policy/mod.rs);
// these only name and explain it.

import type { PermissionMode } from "../core/types";

export interface PermissionModeText {
	mode: PermissionMode;
	label: string;
	description: string;
}

const READ_ONLY: PermissionModeText = {
	mode: "readOnly",
	label: "Read only",
	description: "The agent reads your vault; every change is refused before anything runs.",
};

/** In the order the dropdowns offer them, the safest first. */
export const PERMISSION_MODES: readonly PermissionModeText[] = [
	READ_ONLY,
	{
		mode: "askEveryChange",
		label: "Ask before every change",
		description: "Every change waits for your approval on a card that shows it, additions included.",
	},
	{
		mode: "askBeforeEdits",
		label: "Ask before edits",
		description:
			"Additions run at once (new notes, text added to a note, new base items, bookmarks); changes to what is already there (edits, properties, tasks) wait for your approval on a card.",
	},
];

/** Only the values the core knows; anything else is not sent. */
export function asPermissionMode(value: string): PermissionMode | null {
	return PERMISSION_MODES.find((m) => m.mode === value)?.mode ?? null;
}

/** The words for `mode`; Read only for anything unknown, as the core reads it. */
export function permissionModeText(mode: string): PermissionModeText {
	return PERMISSION_MODES.find((m) => m.mode === mode) ?? READ_ONLY;
}
