//! The ranked search over a vault folder, natively, for the evaluation
//! (`scripts/eval-search.mjs`) and for trying queries by hand:
//!
//!   cargo run --release --example search_eval -- <vault> --questions q.json [--hygiene]
//!   cargo run --release --example search_eval -- <vault> --questions q.json \
//!       --embeddings http://127.0.0.1:8089/v1 --model all-MiniLM-L6-v2 [--cache vectors.bin]
//!   cargo run --release --example search_eval -- <vault> --query "how do I …"
//!
//! `--language <code>` stands for Obsidian's app language (the default of
//! the notes whose text does not plainly show another; English if absent).
//!
//! With `--questions` (a JSON array of objects with a `q` field) it prints
//! one JSON line per question: the ranked note paths (at most 10). Notes are
//! every `.md` file under the folder outside hidden folders, as Obsidian
//! lists them.
//!
//! With `--embeddings <base url> --model <name>` (an OpenAI-compatible
//! `POST /v1/embeddings`) every section is embedded as the plugin embeds it
//! (`vectors::note_inputs`, requests of `EMBED_BATCH`, the request and the
//! answer's parsing of `search::embedding_api`), each question is embedded
//! as the plugin embeds a query, and each line also holds `fused` (the
//! keyword and meaning rankings fused by `search::fusion::search`, what the
//! plugin's `find` returns with search by meaning on) and `meaning` (the
//! nearest notes by meaning alone, as `Vectors::nearest` gives them to the
//! fusion). `--cache FILE` keeps the vectors between runs (`embeddings.bin`'s
//! format), so only sections not in it are sent.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use vault_agent::engine::embeddings::EMBED_BATCH;
use vault_agent::search::fusion::{self, DEPTH};
use vault_agent::search::ranking::{Field, Ranking};
use vault_agent::search::vectors::{note_inputs, VectorHit, Vectors};
use vault_agent::search::{embedding_api, Index, Language, SearchQuery};
use vault_agent::settings::embeddings::EmbeddingSettings;

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out);
        } else if name.ends_with(".md") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if let Ok(text) = std::fs::read_to_string(&path) {
                out.push((rel, text));
            }
        }
    }
}

/// The value after `name` on the command line.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).map(String::as_str)
}

/// One request to the embedding server, as the plugin makes it
/// (`embedding_api::request`), sent over plain HTTP/1.0 (the evaluation's
/// server is on this computer); the answer parsed as the plugin parses it.
fn embed(config: &EmbeddingSettings, inputs: &[String], for_query: bool) -> Vec<Vec<f32>> {
    let request = embedding_api::request(config, None, inputs, for_query);
    let rest = request
        .url
        .strip_prefix("http://")
        .expect("an http:// address of a server on this computer");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let address = if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    let body = request.body.unwrap_or_default();
    let mut head = format!(
        "POST {path} HTTP/1.0\r\nHost: {authority}\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in &request.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = TcpStream::connect(&address)
        .unwrap_or_else(|e| panic!("the embedding server at {address}: {e}"));
    stream
        .set_read_timeout(Some(Duration::from_millis(request.timeout_ms.into())))
        .expect("a timeout");
    stream.write_all(head.as_bytes()).expect("request sent");
    stream.write_all(body.as_bytes()).expect("request sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("answer read");
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    if status != 200 {
        panic!("{}", embedding_api::failure(config, status, &body));
    }
    embedding_api::parse(&body, inputs.len()).unwrap_or_else(|why| panic!("{why}"))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// Every note's sections with a vector, as the plugin would hold them after
/// "Embed now"; the cache's vectors are reused, the rest embedded.
fn embed_notes(
    config: &EmbeddingSettings,
    notes: &[(String, String)],
    cache: Option<&str>,
) -> Vectors {
    let identity = format!("search_eval {}", config.model);
    let mut vectors = Vectors::new(&identity);
    for (path, text) in notes {
        vectors.set_note(path, text);
    }
    if let Some(bytes) = cache.and_then(|file| std::fs::read(file).ok()) {
        if let Err(why) = vectors.load(&bytes, &identity) {
            eprintln!("search_eval: the cache was not used: {why}");
        }
    }
    let mut queue: Vec<(u64, String)> = Vec::new();
    for (path, text) in notes {
        for (chunk, input) in note_inputs(path, text) {
            if !vectors.has_vector(chunk.key) && !queue.iter().any(|(k, _)| *k == chunk.key) {
                queue.push((chunk.key, input));
            }
        }
    }
    let started = Instant::now();
    for (done, batch) in queue.chunks(EMBED_BATCH).enumerate() {
        let inputs: Vec<String> = batch.iter().map(|(_, text)| text.clone()).collect();
        for ((key, _), vector) in batch.iter().zip(embed(config, &inputs, false)) {
            vectors
                .insert(*key, &vector)
                .unwrap_or_else(|why| panic!("{why}"));
        }
        if done % 20 == 19 {
            eprintln!(
                "search_eval: embedded {} of {} sections",
                (done + 1) * EMBED_BATCH,
                queue.len()
            );
        }
    }
    eprintln!(
        "search_eval: {} sections embedded now ({:.1} s), {} from the cache, {} dimensions",
        queue.len(),
        started.elapsed().as_secs_f64(),
        vectors.counts(&|_| true).embedded - queue.len(),
        vectors.dims()
    );
    if let Some(file) = cache {
        std::fs::write(file, vectors.encode()).expect("cache written");
    }
    vectors
}

fn paths(hits: &[VectorHit]) -> Vec<String> {
    hits.iter().take(10).map(|h| h.path.clone()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(vault) = args.first() else {
        eprintln!("usage: search_eval <vault> (--questions FILE | --query TEXT)");
        std::process::exit(2);
    };
    let mut notes = Vec::new();
    walk(Path::new(vault), Path::new(vault), &mut notes);
    let language = option(&args, "--language").map_or(Language::English, |code| {
        Language::parse(code).unwrap_or_else(|| panic!("--language {code}: not a language"))
    });
    let mut index = Index::new(".obsidian", language);
    // For trying other weights: k1,name,b,headings,b,meta,b,body,b,rest.
    if let Ok(spec) = std::env::var("SEARCH_RANKING") {
        let v: Vec<f64> = spec
            .split(',')
            .map(|x| x.parse().expect("numbers"))
            .collect();
        let field = |i: usize| Field {
            weight: v[i],
            b: v[i + 1],
        };
        index.set_ranking(Ranking {
            k1: v[0],
            name: field(1),
            headings: field(3),
            meta: field(5),
            body: field(7),
            rest: v[9],
        });
    }
    let started = Instant::now();
    for (path, text) in &notes {
        index.upsert(path, text).expect("vault paths are indexable");
    }
    index.shrink();
    // The build's cost, for scripts/bench-search-minisearch.mjs.
    eprintln!(
        "{}",
        serde_json::json!({ "build_ms": started.elapsed().as_secs_f64() * 1e3, "heap_bytes": index.stats().bytes })
    );
    let all = |_: &str| true;
    let meaning = option(&args, "--embeddings").map(|url| {
        let config = EmbeddingSettings {
            enabled: true,
            base_url: url.to_string(),
            model: option(&args, "--model")
                .expect("--model NAME with --embeddings")
                .to_string(),
            ..EmbeddingSettings::default()
        };
        let vectors = embed_notes(&config, &notes, option(&args, "--cache"));
        (config, vectors)
    });
    match args.get(1).map(String::as_str) {
        Some("--questions") => {
            let file = std::fs::read_to_string(&args[2]).expect("questions file");
            let questions: Vec<serde_json::Value> =
                serde_json::from_str(&file).expect("JSON array");
            for q in questions {
                let text = q["q"].as_str().expect("each question has q");
                let mut query = SearchQuery::new(text);
                query.limit = 10;
                // `--hygiene`: the backlink suggestions' ranking of a topic
                // (obsidianHygiene suggest topic=…), for comparison.
                let asked = Instant::now();
                let hits: Vec<String> = if args.iter().any(|a| a == "--hygiene") {
                    use vault_agent::hygiene::suggest::{candidates, suggest, Subject};
                    let subject = Subject::Topic(text);
                    let picked = candidates(&subject, &index, &all);
                    let read: Vec<(String, String)> = notes
                        .iter()
                        .filter(|(p, _)| picked.iter().any(|r| &r.path == p))
                        .cloned()
                        .collect();
                    suggest(&subject, &index, &picked, &read, 10)
                        .into_iter()
                        .map(|s| s.path)
                        .collect()
                } else {
                    match index.search(&query, &all) {
                        Ok(ranked) => ranked.hits.into_iter().map(|h| h.path).collect(),
                        Err(_) => Vec::new(),
                    }
                };
                match &meaning {
                    None => {
                        let ms = asked.elapsed().as_secs_f64() * 1e3;
                        println!(
                            "{}",
                            serde_json::json!({ "q": text, "hits": hits, "ms": ms })
                        );
                    }
                    Some((config, vectors)) => {
                        // As the plugin: the query embedded alone, its nearest
                        // notes (at most DEPTH) fused with the words' ranking.
                        let vector = embed(config, &[text.to_string()], true).remove(0);
                        let near = vectors.nearest(&vector, &all, DEPTH);
                        let fused: Vec<String> =
                            match fusion::search(&index, &query, &all, &near, 0) {
                                Ok(fused) => {
                                    fused.ranked.hits.into_iter().map(|h| h.path).collect()
                                }
                                Err(_) => Vec::new(),
                            };
                        let mut line = serde_json::json!({ "q": text, "hits": hits, "fused": fused, "meaning": paths(&near) });
                        // `--dump`: both rankings with their scores (the words'
                        // first DEPTH with the words each matched, every note by
                        // meaning) and the query's terms with their weights, to
                        // study fusions.
                        if args.iter().any(|a| a == "--dump") {
                            let first = SearchQuery {
                                text,
                                limit: DEPTH,
                                cursor: None,
                            };
                            let ranked = index.search(&first, &all).ok();
                            let words: Vec<(String, f64, Vec<String>)> = ranked
                                .as_ref()
                                .map(|r| {
                                    r.hits
                                        .iter()
                                        .map(|h| (h.path.clone(), h.score, h.matched.clone()))
                                        .collect()
                                })
                                .unwrap_or_default();
                            let terms: Vec<(String, f64)> = ranked
                                .map(|r| r.terms.into_iter().map(|t| (t.word, t.weight)).collect())
                                .unwrap_or_default();
                            let similar: Vec<(String, f32)> = vectors
                                .similarities(&vector, &all)
                                .into_iter()
                                .map(|h| (h.path, h.similarity))
                                .collect();
                            line["words"] = serde_json::json!(words);
                            line["terms"] = serde_json::json!(terms);
                            line["similar"] = serde_json::json!(similar);
                        }
                        println!("{line}");
                    }
                }
            }
        }
        Some("--query") => {
            let text = args[2..].join(" ");
            let mut read = |p: &str| std::fs::read_to_string(Path::new(vault).join(p)).ok();
            match index.find(&SearchQuery::new(&text), &all, 600, &mut read) {
                Ok(page) => {
                    for p in page.passages {
                        println!(
                            "== {:.3} {} # {} (line {}) {:?} also {:?}\n{}\n",
                            p.score, p.path, p.heading, p.line, p.matched, p.also, p.text
                        );
                    }
                    println!(
                        "total {} more {} next {:?}",
                        page.total, page.more, page.next
                    );
                }
                Err(e) => println!("{e}"),
            }
        }
        _ => {
            eprintln!("usage: search_eval <vault> (--questions FILE | --query TEXT)");
            std::process::exit(2);
        }
    }
}
