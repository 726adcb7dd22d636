//! read, random:read, outline, files, folders, file, search,
//! search:context, tags, tag.

mod common;
use common::Emu;

#[test]
fn read_is_verbatim() {
    let emu = Emu::new();
    assert_eq!(
        emu.ok(&["read", "file=Café ☕"]),
        emu.read("Ideas/Café ☕.md")
    );
    assert_eq!(
        emu.ok(&["read", "path=Canvas/Plan.canvas"]),
        emu.read("Canvas/Plan.canvas")
    );
}

#[test]
fn random_read_includes_the_path_and_is_seeded() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_SEED", "42");
    let first = emu.ok(&["random:read"]);
    assert_eq!(first, emu.ok(&["random:read"]), "same seed, same note");
    let (path, rest) = first.split_once("\n\n").unwrap();
    assert!(path.ends_with(".md"));
    assert_eq!(rest, emu.read(path));
    let people = emu.ok(&["random:read", "folder=People"]);
    assert!(people.starts_with("People/Alice.md\n\n") || people.starts_with("People/Bob.md\n\n"));
    let mut seen = std::collections::BTreeSet::new();
    let mut emu = emu;
    for seed in 0..40 {
        emu.set("OBSIDIAN_EMULATOR_SEED", &seed.to_string());
        seen.insert(
            emu.ok(&["random:read", "folder=People/"])
                .lines()
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(seen.len(), 2, "both people are reachable: {seen:?}");
    assert_eq!(
        emu.line(&["random:read", "folder=Nope"]),
        "No markdown files found."
    );
    assert_eq!(
        emu.line(&["random:read", "folder=Attachments"]),
        "No markdown files found."
    );
}

#[test]
fn outline_formats() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["outline", "file=Launch plan"]),
        "Launch plan\n├── Goals\n│   └── Metrics\n└── Timeline"
    );
    assert_eq!(
        emu.line(&["outline", "file=Roadmap", "format=md"]),
        "# Roadmap\n## Q1\n## Q2\n### Stretch goals"
    );
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["outline", "file=Roadmap", "format=json"])).unwrap();
    assert_eq!(
        v[3],
        serde_json::json!({"level": 3, "heading": "Stretch goals", "line": 21}),
        "line is a number"
    );
    assert_eq!(emu.line(&["outline", "file=Welcome", "total"]), "2");
    assert_eq!(
        emu.line(&["outline", "file=Welcome", "total", "format=json"]),
        "2",
        "total wins over format"
    );
    for extra in [None, Some("format=json"), Some("total")] {
        let mut args = vec!["outline", "file=Unlinked thought"];
        args.extend(extra);
        assert_eq!(emu.line(&args), "No headings found.", "{extra:?}");
    }
    assert_eq!(
        emu.line(&["outline", "file=Roadmap", "format=bogus"]),
        emu.line(&["outline", "file=Roadmap"]),
        "an unknown format falls back to the tree"
    );
    assert_eq!(
        emu.line(&["outline", "path=Canvas/Plan.canvas"]),
        "Error: File is not a markdown file."
    );
    // Headings inside code blocks are ignored.
    emu.write(
        "Code.md",
        "# Real\n```\n# not a heading\n```\n## Also real\n",
    );
    assert_eq!(
        emu.line(&["outline", "file=Code", "format=md"]),
        "# Real\n## Also real"
    );
}

#[test]
fn files_and_folders() {
    let emu = Emu::new();
    let files = emu.lines(&["files"]);
    assert_eq!(files.len(), 21);
    assert_eq!(files[0], "Archive/2025/2025 Retrospective.md");
    assert!(!files.iter().any(|f| f.starts_with(".obsidian")));
    assert_eq!(emu.line(&["files", "total"]), "21");
    assert_eq!(emu.line(&["files", "ext=md", "total"]), "18");
    assert_eq!(emu.line(&["files", "ext=.PNG"]), "Attachments/diagram.png");
    assert_eq!(
        emu.lines(&["files", "folder=Projects"]),
        [
            "Projects/Launch plan.md",
            "Projects/Roadmap.md",
            "Projects/Website Redesign.md"
        ]
    );
    assert_eq!(emu.line(&["files", "folder=Nope"]), "No files found.");
    assert_eq!(emu.line(&["files", "folder=../.."]), "No files found.");
    assert_eq!(emu.lines(&["folders"]).len(), 11);
    assert_eq!(emu.line(&["folders", "folder=Archive"]), "Archive/2025");
    assert_eq!(
        emu.line(&["folders", "folder=Projects"]),
        "No folders found."
    );
    assert_eq!(emu.line(&["folders", "total"]), "11");
}

#[test]
fn file_info_table() {
    let emu = Emu::new();
    let out = emu.lines(&["file", "file=Café ☕"]);
    assert_eq!(out.len(), 6);
    assert_eq!(out[0], "path\tIdeas/Café ☕.md");
    assert_eq!(out[1], "name\tCafé ☕");
    assert_eq!(out[2], "extension\tmd");
    let size = std::fs::metadata(emu.vault.join("Ideas/Café ☕.md"))
        .unwrap()
        .len();
    assert_eq!(out[3], format!("size\t{size}"));
    for (row, key) in out[4..].iter().zip(["created", "modified"]) {
        let (k, v) = row.split_once('\t').unwrap();
        assert_eq!(k, key);
        assert!(v.trim().parse::<u64>().unwrap() > 1_600_000_000_000);
    }
    assert!(emu
        .ok(&["file", "path=Attachments/diagram.png"])
        .contains("extension\tpng\n"));
    assert_eq!(
        emu.line(&["file"]),
        "Error: No active file. Use file=<name> or path=<path> to specify a file."
    );
}

#[test]
fn search_lists_files() {
    let emu = Emu::new();
    assert_eq!(
        emu.lines(&["search", "query=launch"]),
        [
            "Daily/2026-03-01.md",
            "Meetings/2026-03-02 Kickoff.md",
            "People/Alice.md",
            "Projects/Launch plan.md",
            "Projects/Roadmap.md",
            "Welcome.md"
        ]
    );
    assert!(!emu
        .lines(&["search", "query=Launch", "case"])
        .contains(&"People/Alice.md".to_string()));
    assert_eq!(
        emu.line(&["search", "query=launch", "path=Projects", "limit=1"]),
        "Projects/Launch plan.md"
    );
    assert_eq!(emu.line(&["search", "query=launch", "total"]), "6");
    assert_eq!(
        emu.line(&["search", "query=\"press release\""]),
        "Projects/Launch plan.md"
    );
    assert_eq!(
        emu.line(&["search", "query=alice roadmap"]),
        "People/Bob.md\nProjects/Launch plan.md\nWelcome.md"
    );
    // Compact JSON, as the real CLI prints it.
    assert_eq!(
        emu.ok(&["search", "query=日本", "format=json"]),
        "[\"Ideas/Café ☕.md\"]\n"
    );
    assert_eq!(emu.ok(&["search", "query=zzzz"]), "\nNo matches found.\n");
    assert_eq!(
        emu.ok(&["search", "query=zzzz", "format=json"]),
        "\nNo matches found.\n",
        "not JSON even when JSON was asked for"
    );
    let all = emu.ok(&["search", "query=alice roadmap"]);
    for ignored in ["limit=x", "limit=0", "limit=-1"] {
        assert_eq!(emu.ok(&["search", "query=alice roadmap", ignored]), all);
    }
    assert_eq!(
        emu.line(&["search", "query=alice roadmap", "limit=1"]),
        "People/Bob.md"
    );
    assert!(emu.ok(&["search"]).starts_with(
        "Error: Missing required parameter: query=<text>\nUsage: search query=<text>"
    ));
}

#[test]
fn search_context_lines() {
    let emu = Emu::new();
    assert_eq!(
        emu.lines(&["search:context", "query=café"]),
        [
            "Ideas/Brainstorm.md:6: - A coffee corner: [[Café ☕]]",
            "Ideas/Café ☕.md:6: # Café ☕",
            "Ideas/Café ☕.md:8: Idées pour le café du lundi — コーヒーと日本茶. #idea/coffee",
            "Ideas/Café ☕.md:10: - [ ] Acheter du café en grains"
        ]
    );
    assert_eq!(emu.line(&["search:context", "query=café", "total"]), "4");
    let out = emu.ok(&["search:context", "query=alice", "path=Daily", "format=json"]);
    assert_eq!(out.lines().count(), 1, "compact JSON: {out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!([
            {"file": "Daily/2026-03-01.md", "matches": [{"line": 9, "text": "- [x] Call Alice about the [[Launch plan]]"}]},
            {"file": "Daily/2026-03-03.md", "matches": [{"line": 13, "text": "Meeting with Alice about CLI integration..."}]}
        ])
    );
    assert_eq!(
        emu.ok(&["search:context", "query=zzzz", "format=json"]),
        "\nNo matches found.\n"
    );
}

#[test]
fn tags_vault_and_file() {
    let mut emu = Emu::new();
    let all = emu.lines(&["tags"]);
    assert_eq!(
        all,
        [
            "#daily",
            "#idea",
            "#idea/coffee",
            "#journal",
            "#launch",
            "#meeting",
            "#meta",
            "#project",
            "#project/web",
            "#reading",
            "#roadmap",
            "#urgent"
        ]
    );
    assert_eq!(all, emu.lines(&["tags", "all"]));
    // "#2181" is a number, "#notatag" sits in a code block: neither is a tag.
    assert_eq!(emu.line(&["tags", "total"]), "12");
    assert_eq!(
        &emu.lines(&["tags", "counts", "sort=count"])[..3],
        ["#daily\t5", "#idea\t3", "#project\t3"]
    );
    assert_eq!(
        emu.lines(&["tags", "file=Launch plan"]),
        ["#launch", "#project", "#urgent"]
    );
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["tags", "path=Ideas/Café ☕.md", "counts", "format=json"]))
            .unwrap();
    assert_eq!(
        v,
        serde_json::json!([{"tag": "#idea", "count": 1}, {"tag": "#idea/coffee", "count": 1}])
    );
    assert_eq!(emu.line(&["tags", "file=Alice"]), "No tags found.");
    assert_eq!(
        emu.line(&["tags", "format=csv", "counts", "file=Roadmap"]),
        "tag,count\n#project,1\n#roadmap,1"
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "Welcome.md");
    assert_eq!(emu.line(&["tags", "active"]), "#meta");
}

#[test]
fn one_tag() {
    let emu = Emu::new();
    // The notes that carry the tag; `#idea/coffee` alone does not count.
    let notes = "Ideas/Brainstorm.md\nIdeas/Café ☕.md\nIdeas/Unlinked thought.md";
    assert_eq!(emu.line(&["tag", "name=idea"]), notes);
    assert_eq!(emu.line(&["tag", "name=#idea", "total"]), "3");
    assert_eq!(
        emu.line(&["tag", "name=idea", "verbose"]),
        format!("#idea\t3\n{notes}")
    );
    assert_eq!(
        emu.line(&["tag", "name=project/web", "verbose"]),
        "#project/web\t1\nProjects/Website Redesign.md"
    );
    // Case-sensitive, and a missing tag is an error.
    assert_eq!(
        emu.line(&["tag", "name=Idea"]),
        "Error: Tag \"#Idea\" not found."
    );
    assert_eq!(
        emu.line(&["tag", "name=zzz", "total"]),
        "Error: Tag \"#zzz\" not found."
    );
    assert!(emu
        .ok(&["tag"])
        .starts_with("Error: Missing required parameter: name=<tag>\n"));
}
