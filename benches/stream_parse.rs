//! Native throughput of the stream parsers (SSE + provider assembly), in
//! MB/s, for BENCHMARKS.md. Run: `cargo bench --bench stream_parse`.

use std::time::Instant;

use serde_json::json;
use vault_agent::doors::chat::provider::parse_stream;
use vault_agent::settings::ProviderKind;

/// About `target` bytes of a realistic stream: many small text deltas.
fn openai(target: usize) -> Vec<u8> {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < target {
        let piece = [
            "The ", "vault ", "has ", "notes ", "café ", "日本 ", "and ", "tasks. ",
        ][i % 8];
        out.push_str(&format!("data: {}\n\n", json!({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]})));
        i += 1;
    }
    out.push_str("data: [DONE]\n\n");
    out.into_bytes()
}

fn anthropic(target: usize) -> Vec<u8> {
    let mut out = String::from("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
    let mut i = 0;
    while out.len() < target {
        let piece = [
            "The ", "vault ", "has ", "notes ", "café ", "日本 ", "and ", "tasks. ",
        ][i % 8];
        out.push_str(&format!("event: content_block_delta\ndata: {}\n\n", json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}})));
        i += 1;
    }
    out.into_bytes()
}

fn measure(name: &str, kind: ProviderKind, bytes: &[u8], chunk: usize) {
    let mut rates = Vec::new();
    for _ in 0..7 {
        let started = Instant::now();
        let reply = parse_stream(kind, bytes.chunks(chunk)).unwrap();
        let seconds = started.elapsed().as_secs_f64();
        assert!(!reply.text.is_empty());
        rates.push(bytes.len() as f64 / seconds / 1e6);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "{name:<10} chunks of {chunk:>5} B: {:>7.1} MB/s (median of 7, {} MB)",
        rates[3],
        bytes.len() / 1_000_000
    );
}

fn main() {
    let size = 20_000_000;
    let o = openai(size);
    let a = anthropic(size);
    for chunk in [64, 1024, 16 * 1024] {
        measure("openai", ProviderKind::OpenAi, &o, chunk);
        measure("anthropic", ProviderKind::Anthropic, &a, chunk);
    }
}
