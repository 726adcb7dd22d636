//! The ranked search over a vault folder, natively, for the evaluation
//! (`scripts/eval-search.mjs`) and for trying queries by hand:
//!
//!   cargo run --release --example search_eval -- <vault> --questions q.json [--hygiene]
//!   cargo run --release --example search_eval -- <vault> --query "how do I …"
//!
//! With `--questions` (a JSON array of objects with a `q` field) it prints
//! one JSON line per question: the ranked note paths (at most 10). Notes are
//! every `.md` file under the folder outside hidden folders, as Obsidian
//! lists them.

use std::path::Path;

use vault_agent::search::ranking::{Field, Ranking};
use vault_agent::search::{Index, Language, SearchQuery};

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(vault) = args.first() else {
        eprintln!("usage: search_eval <vault> (--questions FILE | --query TEXT)");
        std::process::exit(2);
    };
    let mut notes = Vec::new();
    walk(Path::new(vault), Path::new(vault), &mut notes);
    let mut index = Index::new(".obsidian", Language::English);
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
    for (path, text) in &notes {
        index.upsert(path, text).expect("vault paths are indexable");
    }
    let all = |_: &str| true;
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
                println!("{}", serde_json::json!({ "q": text, "hits": hits }));
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
