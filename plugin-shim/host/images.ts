// Images for the chat: pasted ones kept in the plugin's folder
// (<plugin>/chat-images/<chat id>-<stamp>.<ext>, removed with their chat), and
// the bytes of any image handed to the core for one model request, scaled
// down on a canvas to the limits the core names for the provider. What is
// an image, the limits and whether a model takes images are the core's
// (src/doors/chat/images.rs), and so is whether an image may be decoded at
// all: its first and last bytes go to the core (`imageHeader`) before a
// canvas sees it, so a 20 000 × 20 000 PNG of a few hundred bytes, a file
// cut short or text named .png never reaches the decoder. This file only
// reads, writes and scales.

import { arrayBufferToBase64, normalizePath, TFile, type App, type DataAdapter } from "obsidian";
import type { HostFunctions } from "../core/host-types";
import type { CoreHandle } from "../core/types";
import { IMAGE_HEAD_BYTES, IMAGE_TAIL_BYTES, IMAGE_TYPES, MAX_PASTED_BYTES, MAX_PASTED_PER_CHAT } from "../generated/limits";

type Failure = { error: { code: string; message: string } };

/** The MIME type of an image file name, or null when it is no image the chat sends. */
export function imageMime(name: string): string | null {
	const ext = name.split(".").pop()?.toLowerCase() ?? "";
	return IMAGE_TYPES.find(([e]) => e === ext)?.[1] ?? null;
}

export class ChatImages {
	readonly folder: string;

	constructor(
		private readonly app: App,
		pluginDir: string,
		/** The core, which judges an image's header (null before it started). */
		private readonly core: () => CoreHandle | null,
	) {
		this.folder = normalizePath(`${pluginDir}/chat-images`);
	}

	private get adapter(): DataAdapter {
		return this.app.vault.adapter;
	}

	path(name: string): string {
		return `${this.folder}/${name}`;
	}

	/** The files of chat `chatId`'s pasted images ("chat-1-….png"). */
	private async of(chatId: string): Promise<string[]> {
		const prefix = `${chatId.replace(/[^\w-]/g, "_")}-`;
		if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
		return (await this.adapter.list(this.folder)).files.filter((f) => f.slice(this.folder.length + 1).startsWith(prefix));
	}

	/** Keeps a pasted or dropped image for chat `chatId`; its name, or why it was not kept. */
	async save(chatId: string, blob: Blob): Promise<{ name: string } | Failure> {
		const ext = IMAGE_TYPES.find(([, mime]) => mime === blob.type)?.[0];
		if (!ext) return fail("Only PNG, JPEG, GIF and WebP images can be sent.");
		if (blob.size > MAX_PASTED_BYTES) return fail(`The image is larger than ${mb(MAX_PASTED_BYTES)}.`);
		const header = this.header(new Uint8Array(await blob.slice(0, IMAGE_HEAD_BYTES).arrayBuffer()), new Uint8Array(await blob.slice(-IMAGE_TAIL_BYTES).arrayBuffer()), blob.size);
		if ("refusal" in header) return fail(`The pasted image was not attached: ${header.refusal}.`);
		const kept = (await this.of(chatId)).length;
		if (kept >= MAX_PASTED_PER_CHAT) return fail(`A chat keeps ${MAX_PASTED_PER_CHAT} pasted images at most.`);
		const name = `${chatId.replace(/[^\w-]/g, "_")}-${Date.now().toString(36)}${kept}.${ext}`;
		await this.adapter.writeBinary(this.path(name), await blob.arrayBuffer());
		return { name };
	}

	/** A pasted image's file (its chip was removed before sending). */
	async remove(name: string): Promise<void> {
		if (await this.adapter.exists(this.path(name))) await this.adapter.remove(this.path(name));
	}

	/** Every pasted image of chat `chatId` (the chat was deleted). */
	async removeChat(chatId: string): Promise<void> {
		for (const file of await this.of(chatId)) await this.adapter.remove(file);
	}

	private file(path: string): TFile | null {
		const file = this.app.vault.getAbstractFileByPath(path);
		return file instanceof TFile ? file : null;
	}

	/** The core's word on an image's first and last bytes (no core yet: nothing is decoded). */
	private header(head: Uint8Array, tail: Uint8Array, size: number): { mime: string } | { refusal: string } {
		return this.core()?.imageHeader(head, tail, size) ?? { refusal: "the plugin has not started yet; try again in a moment" };
	}

	/** Where a thumbnail's `<img>` loads the image from. */
	src(path: string, pasted: boolean): string | null {
		const file = pasted ? null : this.file(path);
		return pasted ? this.adapter.getResourcePath(this.path(path)) : file && this.app.vault.getResourcePath(file);
	}

	/** The host function the core asks for an image's bytes in a request. */
	readonly imageData: HostFunctions["imageData"] = async (path, pasted, maxSide, maxBytes) => {
		try {
			const file = pasted ? null : this.file(path);
			if (!pasted && !file) return fail("its file is gone", "not_found");
			const bytes = file ? await this.app.vault.readBinary(file) : await this.adapter.readBinary(this.path(path));
			const all = new Uint8Array(bytes);
			const header = this.header(all.subarray(0, IMAGE_HEAD_BYTES), all.subarray(-IMAGE_TAIL_BYTES), all.length);
			if ("refusal" in header) return fail(header.refusal);
			const fitted = await scaled(bytes, header.mime, maxSide, maxBytes);
			if (fitted === "undecodable") return fail("the image cannot be decoded", "undecodable");
			if (!fitted) return fail(`it is over ${mb(maxBytes)} and cannot be scaled down here`, "too_large");
			return { mime: fitted.mime, base64: arrayBufferToBase64(fitted.bytes) };
		} catch {
			return fail("its file is gone or cannot be read", "not_found");
		}
	};
}

/**
 * The image within `maxSide` pixels and `maxBytes`: as it is when it fits,
 * else drawn smaller on a canvas (JPEG, lower quality until it fits). Null
 * when it does not fit and there is no canvas; "undecodable" when the
 * canvas cannot decode it (the core passed its header).
 */
async function scaled(bytes: ArrayBuffer, mime: string, maxSide: number, maxBytes: number): Promise<{ mime: string; bytes: ArrayBuffer } | "undecodable" | null> {
	const fits = bytes.byteLength <= maxBytes ? { mime, bytes } : null;
	const canvas = createEl("canvas");
	const context = canvas.getContext("2d");
	// No canvas here (Node's test DOM): as it is, if it fits.
	if (typeof createImageBitmap !== "function" || !context) return fits;
	let bitmap: ImageBitmap;
	try {
		bitmap = await createImageBitmap(new Blob([bytes], { type: mime }));
	} catch {
		return "undecodable";
	}
	const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
	if (scale === 1 && fits) {
		bitmap.close();
		return fits;
	}
	canvas.width = Math.round(bitmap.width * scale) || 1;
	canvas.height = Math.round(bitmap.height * scale) || 1;
	// JPEG has no transparency: what was transparent becomes white, not black.
	context.fillStyle = "#fff";
	context.fillRect(0, 0, canvas.width, canvas.height);
	context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
	// The decoded pixels go now, not when the collector finds them.
	bitmap.close();
	for (const quality of [0.9, 0.75, 0.6, 0.45]) {
		const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
		if (blob && blob.size <= maxBytes) return { mime: "image/jpeg", bytes: await blob.arrayBuffer() };
	}
	return null;
}

function fail(message: string, code = "refused"): Failure {
	return { error: { code, message } };
}

function mb(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
