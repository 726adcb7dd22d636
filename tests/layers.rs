//! The layers of `src/` (ARCHITECTURE.md, "Layers"), enforced: every
//! `crate::`/`super::` path in the code is read (comments, strings and
//! `#[cfg(test)]` modules left out: tests may build their inputs from any
//! layer), and the test fails when a file imports a layer above its own or
//! a sibling door, when two top-level folders or files of `src/` import
//! each other round a circle, when the files of one folder do so among
//! themselves, or when one does so with its folder's `mod.rs` without
//! ARCHITECTURE.md saying why.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level folder or file of `src/`, and its layer (0 at the bottom).
const LAYERS: &[(&str, u8)] = &[
    ("base", 0),
    ("settings", 1),
    ("notes", 1),
    ("cli", 1),
    ("policy", 1),
    ("hygiene", 1),
    ("search", 1),
    ("tools", 2),
    ("engine", 3),
    ("doors", 4),
    ("vault_agent", 5),
    ("wasm", 5),
    ("ts_types", 5),
    ("testing", 5),
    ("lib", 5),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// One source file: its module path (`["doors", "chat", "turn"]`) and its
/// code without comments, strings or test modules.
struct Source {
    path: String,
    module: Vec<String>,
    code: String,
}

fn sources() -> Vec<Source> {
    let src = root().join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    // Files declared as `#[cfg(test)] mod name;` are test modules too.
    let mut test_modules = BTreeSet::new();
    let mut out = Vec::new();
    for file in &files {
        let relative = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(file).unwrap();
        let module = module_of(&relative);
        for name in cfg_test_children(&text) {
            let mut child = module.clone();
            child.push(name);
            test_modules.insert(child);
        }
        out.push(Source {
            path: format!("src/{relative}"),
            module,
            code: without_test_modules(&code_only(&text)),
        });
    }
    out.retain(|s| !test_modules.contains(&s.module));
    out
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// `doors/chat/mod.rs` → `["doors", "chat"]`; `lib.rs` → `[]`.
fn module_of(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The top-level folder or file a module belongs to (`lib` for lib.rs).
fn unit(module: &[String]) -> &str {
    module.first().map_or("lib", String::as_str)
}

/// The door a module belongs to (`chat` for `doors::chat::turn`).
fn door(module: &[String]) -> Option<&str> {
    (module.first().map(String::as_str) == Some("doors"))
        .then(|| module.get(1).map(String::as_str))
        .flatten()
}

fn layer(unit: &str) -> u8 {
    LAYERS
        .iter()
        .find(|(name, _)| *name == unit)
        .map(|(_, layer)| *layer)
        .unwrap_or_else(|| panic!("src/{unit} has no layer: add it to LAYERS here and to the layer table in ARCHITECTURE.md"))
}

/// The text with comments, string and char literals blanked out.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            i += end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            i += end;
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = &rest[hashes + 2..];
            let end = body.find(&close).map_or(body.len(), |e| e + close.len());
            i += hashes + 2 + end;
            out.push_str("\"\"");
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() {
                match rest.as_bytes()[j] {
                    b'\\' => j += 2,
                    b'"' => break,
                    _ => j += 1,
                }
            }
            i += j + 1;
            out.push_str("\"\"");
        } else if rest.starts_with('\'') && char_literal_len(rest).is_some() {
            i += char_literal_len(rest).unwrap();
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `r"…"` or `r#"…"#`: how many `#`.
fn raw_string_start(rest: &str) -> Option<usize> {
    let after = rest.strip_prefix('r')?;
    let hashes = after.bytes().take_while(|b| *b == b'#').count();
    after[hashes..].starts_with('"').then_some(hashes)
}

/// The length of a char literal at the start of `rest` (not a lifetime).
fn char_literal_len(rest: &str) -> Option<usize> {
    let body = &rest[1..];
    if let Some(escaped) = body.strip_prefix('\\') {
        let end = escaped.find('\'')?;
        return Some(end + 3);
    }
    let c = body.chars().next()?;
    body[c.len_utf8()..]
        .starts_with('\'')
        .then(|| 2 + c.len_utf8())
}

/// Names of child modules declared `#[cfg(test)] mod name;`.
fn cfg_test_children(text: &str) -> Vec<String> {
    let code = code_only(text);
    let mut names = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let next = rest.trim_start();
        let next = next.strip_prefix("pub ").unwrap_or(next);
        if let Some(decl) = next.strip_prefix("mod ") {
            let name: String = decl
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                names.push(name);
            }
        }
    }
    names
}

/// The code with every `#[cfg(test)] mod … { … }` block taken out.
fn without_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_block = trimmed.starts_with("mod ")
            && trimmed
                .find(['{', ';'])
                .is_some_and(|i| trimmed.as_bytes()[i] == b'{');
        if !is_block {
            rest = after;
            continue;
        }
        let open = after.find('{').unwrap();
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every module path the code names through `crate::`, `super::`,
/// `self::` or one of its own child modules (`mod name;` then `name::…`),
/// as absolute module paths.
fn imports(source: &Source) -> Vec<Vec<String>> {
    let code = &source.code;
    let mut found = Vec::new();
    let mut roots = vec![
        ("crate".to_string(), Vec::new()),
        ("super".to_string(), parent(&source.module)),
        ("self".to_string(), source.module.clone()),
    ];
    for child in child_modules(code) {
        let mut module = source.module.clone();
        module.push(child.clone());
        roots.push((child, module));
    }
    for (root, prefix) in roots {
        let pattern = format!("{root}::");
        let mut at = 0;
        while let Some(i) = code[at..].find(&pattern) {
            let start = at + i;
            at = start + pattern.len();
            let before = code[..start].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base = prefix.clone();
            let mut rest = &code[at..];
            if prefix.len() > source.module.len() {
                // A child module's own path: `name::x` is `self::name::x`.
                base.truncate(source.module.len());
                rest = &code[start..];
            }
            // `super::super::…`
            while let Some(more) = rest.strip_prefix("super::") {
                base.pop();
                rest = more;
            }
            for path in paths_at(rest) {
                let mut full = base.clone();
                full.extend(path);
                found.push(full);
            }
        }
    }
    found
}

/// The child modules a file declares (`mod name;`, `pub mod name;`).
fn child_modules(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        let line = line.trim();
        let line = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        if let Some(name) = line.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
            names.push(name.trim().to_string());
        }
    }
    names
}

fn parent(module: &[String]) -> Vec<String> {
    module[..module.len().saturating_sub(1)].to_vec()
}

/// The paths a `use` tree or a path expression names: `a::b::c` gives
/// one, `a::{b, c::d}` one per item (`self` standing for `a`).
fn paths_at(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start();
    if let Some(inner) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut items = Vec::new();
        let mut current = String::new();
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        items.push(current);
        return items
            .iter()
            .filter(|item| !item.trim().is_empty())
            .flat_map(|item| paths_at(item))
            .collect();
    }
    let mut segments = Vec::new();
    let mut tail = rest;
    loop {
        let name: String = tail
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            break;
        }
        tail = &tail[name.len()..];
        if name != "self" {
            segments.push(name);
        }
        match tail.strip_prefix("::") {
            Some(next) if next.trim_start().starts_with('{') => {
                return paths_at(next)
                    .into_iter()
                    .map(|path| segments.iter().cloned().chain(path).collect())
                    .collect();
            }
            Some(next) => tail = next,
            None => break,
        }
    }
    vec![segments]
}

/// The unit a path leads to, with its door (for `doors::chat::…`).
fn target(path: &[String]) -> (String, Option<String>) {
    let unit = path.first().cloned().unwrap_or_else(|| "lib".into());
    let door = (unit == "doors").then(|| path.get(1).cloned()).flatten();
    (unit, door)
}

struct Edge {
    from: String,
    from_module: Vec<String>,
    to: Vec<String>,
}

fn edges() -> Vec<Edge> {
    let mut edges = Vec::new();
    for source in sources() {
        for to in imports(&source) {
            edges.push(Edge {
                from: source.path.clone(),
                from_module: source.module.clone(),
                to,
            });
        }
    }
    edges
}

#[test]
fn no_module_imports_a_layer_above_it_or_a_sibling_door() {
    let mut wrong = BTreeSet::new();
    for edge in edges() {
        let from = unit(&edge.from_module).to_string();
        let (to, to_door) = target(&edge.to);
        // `crate::Foo` of lib.rs's own re-exports, or a std path: not a module of ours.
        if !LAYERS.iter().any(|(name, _)| *name == to) {
            continue;
        }
        if layer(&to) > layer(&from) {
            wrong.insert(format!(
                "{} (layer {}) imports {} (layer {})",
                edge.from,
                layer(&from),
                edge.to.join("::"),
                layer(&to)
            ));
        }
        if let (Some(mine), Some(theirs)) = (door(&edge.from_module), to_door.as_deref()) {
            if mine != theirs {
                wrong.insert(format!(
                    "{} (door {mine}) imports the door {theirs} ({}): doors meet only in the engine",
                    edge.from,
                    edge.to.join("::")
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        lines(&wrong)
    );
}

#[test]
fn every_top_level_folder_and_file_has_a_layer() {
    let mut units = BTreeSet::new();
    for source in sources() {
        units.insert(unit(&source.module).to_string());
    }
    for unit in &units {
        layer(unit);
    }
    // And the table names nothing that is gone.
    for (name, _) in LAYERS {
        assert!(
            units.contains(*name),
            "LAYERS names src/{name}, which is gone"
        );
    }
}

#[test]
fn no_import_cycle_between_top_level_folders_and_files() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for edge in edges() {
        let from = unit(&edge.from_module).to_string();
        let (to, _) = target(&edge.to);
        if from != to && LAYERS.iter().any(|(name, _)| *name == to) {
            graph.entry(from).or_default().insert(to);
        }
    }
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "import cycles between top-level folders/files of src/: {cycles:?}"
    );
}

#[test]
fn a_cycle_inside_a_folder_is_said_and_justified_in_architecture_md() {
    // Files of one folder, and the imports between them.
    let mut folders: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let modules: BTreeSet<Vec<String>> = sources().into_iter().map(|s| s.module).collect();
    for edge in edges() {
        let Some(folder) = folder_of(&edge.from_module, &modules) else {
            continue;
        };
        // The file the path leads to: the longest module path it starts with.
        let Some(to) = (1..=edge.to.len())
            .rev()
            .map(|n| edge.to[..n].to_vec())
            .find(|m| modules.contains(m))
        else {
            continue;
        };
        if folder_of(&to, &modules).as_ref() != Some(&folder) || to == edge.from_module {
            continue;
        }
        folders
            .entry(folder.join("/"))
            .or_default()
            .entry(edge.from_module.join("::"))
            .or_default()
            .insert(to.join("::"));
    }
    let mut with_cycles = BTreeSet::new();
    let mut between_children = Vec::new();
    for (folder, graph) in &folders {
        if !cycles(graph).is_empty() {
            with_cycles.insert(format!("src/{folder}/"));
        }
        // Without the folder's own mod.rs: its children never import each
        // other round a circle (what they share goes in one of them, or in mod.rs).
        let own = folder.replace('/', "::");
        let children: BTreeMap<String, BTreeSet<String>> = graph
            .iter()
            .filter(|(from, _)| **from != own)
            .map(|(from, to)| {
                (
                    from.clone(),
                    to.iter().filter(|t| **t != own).cloned().collect(),
                )
            })
            .collect();
        between_children.extend(cycles(&children));
    }
    assert!(
        between_children.is_empty(),
        "files of one folder that import each other round a circle: {between_children:?}"
    );
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let said = section(&architecture, "## Cycles inside a folder");
    let listed: BTreeSet<String> = said
        .lines()
        .filter(|line| line.trim_start().starts_with("- `src/"))
        .filter_map(|line| line.split('`').nth(1).map(String::from))
        .collect();
    let unsaid: Vec<&String> = with_cycles.difference(&listed).collect();
    assert!(
        unsaid.is_empty(),
        "folders whose files import each other round a circle, not said in ARCHITECTURE.md's \"Cycles inside a folder\": {unsaid:?}"
    );
    let stale: Vec<&String> = listed.difference(&with_cycles).collect();
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md's \"Cycles inside a folder\" lists folders without one: {stale:?}"
    );
}

#[test]
fn architecture_md_shows_the_same_layers() {
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let table = section(&architecture, "## Layers");
    for (name, layer) in LAYERS {
        if *name == "lib" {
            continue;
        }
        let row = table
            .lines()
            .find(|line| line.starts_with(&format!("| {layer} ")))
            .unwrap_or_else(|| {
                panic!("ARCHITECTURE.md's layer table has no row for layer {layer}")
            });
        let shown = [format!("`src/{name}/`"), format!("`src/{name}.rs`")];
        assert!(
            shown.iter().any(|s| row.contains(s.as_str())),
            "ARCHITECTURE.md's layer {layer} row does not name src/{name}: {row}"
        );
    }
}

/// The folder a module's file sits in, when it sits in one (its own
/// `mod.rs` counts as inside).
fn folder_of(module: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    if module.is_empty() {
        return None;
    }
    let is_folder = |m: &[String]| root().join("src").join(m.join("/")).join("mod.rs").exists();
    if is_folder(module) {
        return Some(module.to_vec());
    }
    let parent = parent(module);
    (!parent.is_empty() && modules.contains(&parent) && is_folder(&parent)).then_some(parent)
}

/// The text from `heading` to the next heading of the same level.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(&format!("{heading}\n"))
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no \"{heading}\" section"));
    let body = &text[start + heading.len()..];
    let end = body.find("\n## ").unwrap_or(body.len());
    &body[..end]
}

/// The strongly connected parts of more than one node (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g str) {
        state.index.insert(node, state.next);
        state.low.insert(node, state.next);
        state.next += 1;
        state.stack.push(node);
        state.on_stack.insert(node);
        if let Some(targets) = state.graph.get(node) {
            for target in targets {
                let target = target.as_str();
                if !state.index.contains_key(target) {
                    visit(state, target);
                    let low = state.low[node].min(state.low[target]);
                    state.low.insert(node, low);
                } else if state.on_stack.contains(target) {
                    let low = state.low[node].min(state.index[target]);
                    state.low.insert(node, low);
                }
            }
        }
        if state.low[node] == state.index[node] {
            let mut part = Vec::new();
            while let Some(top) = state.stack.pop() {
                state.on_stack.remove(top);
                part.push(top.to_string());
                if top == node {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                state.found.push(part);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

fn lines(items: &BTreeSet<String>) -> String {
    items.iter().map(|s| format!("  {s}\n")).collect()
}

/// The checks above can fail: a made-up upward import and a made-up cycle
/// are caught by the same functions.
#[test]
fn the_checks_catch_what_they_are_for() {
    let source = Source {
        path: "src/base/x.rs".into(),
        module: vec!["base".into(), "x".into()],
        code: code_only(
            "// crate::engine in a comment\nuse crate::{engine::Engine, base::error};\nfn f() { \"crate::doors\"; super::y::z(); }",
        ),
    };
    let found: Vec<String> = imports(&source).iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["engine::Engine", "base::error", "base::y::z"]);
    let folder = Source {
        path: "src/doors/chat/mod.rs".into(),
        module: vec!["doors".into(), "chat".into()],
        code: code_only(
            "mod turn;\npub use self::events::E;\nfn f() { turn::run(); x::turn::no(); }",
        ),
    };
    let found: Vec<String> = imports(&folder).iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["doors::chat::events::E", "doors::chat::turn::run"]);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    graph.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(cycles(&graph), [vec!["a".to_string(), "b".to_string()]]);
    let test_module =
        without_test_modules("a\n#[cfg(test)]\nmod tests {\n use crate::engine; { }\n}\nb");
    assert_eq!(test_module.trim(), "a\n\nb");
}
