// The permission modes as the settings tab and the chat header offer them.
// The modes, their names and words come from the core (src/settings/modes.rs,
// generated into generated/constants.ts); what each mode allows is decided in
// the core (src/policy/mod.rs).

import { DEFAULT_PERMISSION_MODE, PERMISSION_MODES, type PermissionModeText } from "../generated/constants";
import type { PermissionMode } from "../core/types";

export { PERMISSION_MODES, type PermissionModeText };

/** Only the values the core knows; anything else is not sent. */
export function asPermissionMode(value: string): PermissionMode | null {
	return PERMISSION_MODES.find((m) => m.mode === value)?.mode ?? null;
}

/** The words for `mode`; the core's default (Read only) for anything unknown, as the core reads it. */
export function permissionModeText(mode: string): PermissionModeText {
	return PERMISSION_MODES.find((m) => m.mode === mode) ?? DEFAULT_PERMISSION_MODE;
}
