// esbuild inlines .wasm files as bytes (loader "binary").
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}

// The core's module, Brotli-compressed at build time and inlined as Z85 text
// (esbuild.config.mjs; decoded by z85.ts).
declare module "*.wasm.br" {
	const packed: { z85: string; bytes: number };
	export default packed;
}
