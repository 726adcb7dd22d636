// esbuild inlines .wasm files as bytes (loader "binary").
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}

// The core's module, Brotli-compressed at build time and inlined as base-122
// text (esbuild.config.mjs; decoded by base122.ts).
declare module "*.wasm.br" {
	const packed: { text: string; bytes: number };
	export default packed;
}
