// Images for the chat: pasted ones kept in the plugin's folder
// (<plugin>/chat-images/<chat id>-<stamp>.<ext>, removed with their chat), and
// the bytes of any image handed to the core for one model request, scaled
// down on a canvas to the limits the core names for the provider. What is
// an image, the limits and whether a model takes images are the core's
// (src/doors/chat/images.rs); this file only reads, writes and scales.

import { arrayBufferToBase64, normalizePath, TFile, type App, type DataAdapter } from "obsidian";
import type { HostFunctions } from "../core/host-types";
import { IMAGE_TYPES, MAX_PASTED_BYTES, MAX_PASTED_PER_CHAT } from "../generated/limits";

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
	) {
		this.folder = normalizePath(`${pluginDir}/chat-images`);
	}

	private get adapter(): DataAdapter {
		return this.app.vault.adapter;
	}

	/** A file name's prefix for a chat's images ("chat-1-"). */
	private static prefix(chatId: string): string {
		return `${chatId.replace(/[^\w-]/g, "_")}-`;
	}

	/** Keeps a pasted or dropped image for chat `chatId`; its name, or why it was not kept. */
	async save(chatId: string, blob: Blob): Promise<{ name: string } | Failure> {
		const ext = IMAGE_TYPES.find(([, mime]) => mime === blob.type)?.[0];
		if (!ext) return fail("not_an_image", `A ${blob.type || "file of unknown type"} cannot be sent as an image (PNG, JPEG, GIF or WebP can).`);
		if (blob.size > MAX_PASTED_BYTES) return fail("too_large", `The image is ${mb(blob.size)}; the chat keeps images up to ${mb(MAX_PASTED_BYTES)}.`);
		if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
		const prefix = ChatImages.prefix(chatId);
		const kept = (await this.adapter.list(this.folder)).files.filter((f) => (f.split("/").pop() ?? "").startsWith(prefix));
		if (kept.length >= MAX_PASTED_PER_CHAT) return fail("too_many", `This chat keeps ${MAX_PASTED_PER_CHAT} pasted images at most; start a new chat, or attach the image from the vault.`);
		const name = `${prefix}${Date.now().toString(36)}${kept.length}.${ext}`;
		await this.adapter.writeBinary(this.path(name), await blob.arrayBuffer());
		return { name };
	}

	path(name: string): string {
		return normalizePath(`${this.folder}/${name}`);
	}

	/** A pasted image's file, or every one of chat `chatId` (the chat was deleted). */
	async remove(name: string): Promise<void> {
		if (await this.adapter.exists(this.path(name))) await this.adapter.remove(this.path(name));
	}

	async removeChat(chatId: string): Promise<void> {
		if (!(await this.adapter.exists(this.folder))) return;
		const prefix = ChatImages.prefix(chatId);
		for (const file of (await this.adapter.list(this.folder)).files) if ((file.split("/").pop() ?? "").startsWith(prefix)) await this.adapter.remove(file);
	}

	/** Where a thumbnail's `<img>` loads the image from. */
	src(path: string, pasted: boolean): string | null {
		if (pasted) return this.adapter.getResourcePath(this.path(path));
		const file = this.app.vault.getAbstractFileByPath(path);
		return file instanceof TFile ? this.app.vault.getResourcePath(file) : null;
	}

	/** The host function the core asks for an image's bytes in a request. */
	readonly imageData: HostFunctions["imageData"] = async (path, pasted, maxSide, maxBytes) => {
		const mime = imageMime(path);
		if (!mime) return fail("not_an_image", `${path} is not an image`);
		let bytes: ArrayBuffer;
		try {
			if (pasted) bytes = await this.adapter.readBinary(this.path(path));
			else {
				const file = this.app.vault.getAbstractFileByPath(path);
				if (!(file instanceof TFile)) return fail("not_found", `there is no file ${path} in the vault any more`);
				bytes = await this.app.vault.readBinary(file);
			}
		} catch {
			return fail("not_found", pasted ? "its file in the plugin's folder is gone" : `${path} could not be read`);
		}
		const fitted = await scaled(bytes, mime, maxSide, maxBytes);
		if (!fitted) return fail("too_large", `it is ${mb(bytes.byteLength)}, more than the ${mb(maxBytes)} the provider takes, and could not be scaled down here`);
		return { mime: fitted.mime, base64: arrayBufferToBase64(fitted.bytes) };
	};
}

/**
 * The image within `maxSide` pixels and `maxBytes`: as it is when it fits,
 * else drawn smaller on a canvas (JPEG, lower quality until it fits). Null
 * when it does not fit and there is no canvas (or it cannot be decoded).
 */
async function scaled(bytes: ArrayBuffer, mime: string, maxSide: number, maxBytes: number): Promise<{ mime: string; bytes: ArrayBuffer } | null> {
	const canDraw = typeof createImageBitmap === "function" && typeof activeDocument !== "undefined";
	if (!canDraw) return bytes.byteLength <= maxBytes ? { mime, bytes } : null;
	let bitmap: ImageBitmap;
	try {
		bitmap = await createImageBitmap(new Blob([bytes], { type: mime }));
	} catch {
		return bytes.byteLength <= maxBytes ? { mime, bytes } : null;
	}
	const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
	if (scale === 1 && bytes.byteLength <= maxBytes) return { mime, bytes };
	const canvas = activeDocument.createElement("canvas");
	canvas.width = Math.max(1, Math.round(bitmap.width * scale));
	canvas.height = Math.max(1, Math.round(bitmap.height * scale));
	const context = canvas.getContext("2d");
	if (!context) return null;
	// JPEG has no transparency: what was transparent becomes white, not black.
	context.fillStyle = "#fff";
	context.fillRect(0, 0, canvas.width, canvas.height);
	context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
	bitmap.close();
	for (const quality of [0.9, 0.75, 0.6, 0.45]) {
		const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
		if (blob && blob.size <= maxBytes) return { mime: "image/jpeg", bytes: await blob.arrayBuffer() };
	}
	return null;
}

function fail(code: string, message: string): Failure {
	return { error: { code, message } };
}

function mb(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
