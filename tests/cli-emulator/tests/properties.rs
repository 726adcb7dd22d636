//! properties, property:read, property:set, property:remove.

mod common;
use common::Emu;

#[test]
fn vault_wide_names_counts_total() {
    let emu = Emu::new();
    let names = emu.lines(&["properties"]);
    assert_eq!(names.len(), 20);
    assert_eq!(
        &names[..4],
        ["aliases", "attendees", "budget", "cssclasses"]
    );
    assert_eq!(names, emu.lines(&["properties", "all"]));
    assert_eq!(emu.line(&["properties", "total"]), "20");
    let counted = emu.lines(&["properties", "counts", "sort=count"]);
    assert_eq!(&counted[..3], ["tags: 12", "date: 7", "status: 4"]);
    assert_eq!(emu.line(&["properties", "name=owner"]), "3");
    assert_eq!(emu.line(&["properties", "name=missing"]), "0");
    assert!(emu
        .lines(&["properties", "counts", "format=tsv"])
        .contains(&"priority\t3".to_string()));
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["properties", "format=json", "sort=count"])).unwrap();
    assert_eq!(
        v[0],
        serde_json::json!({"name": "tags", "type": "tags", "count": 12})
    );
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["properties", "format=json"])).unwrap();
    let type_of = |name: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| p["type"].as_str().unwrap().to_string())
            .unwrap()
    };
    for (name, ty) in [
        ("aliases", "aliases"),
        ("cssclasses", "multitext"),
        ("quarters", "multitext"),
        ("priority", "number"),
        ("reviewed", "checkbox"),
        ("status", "text"),
        // A date without a saved type stays text, as in the app.
        ("due", "text"),
    ] {
        assert_eq!(type_of(name), ty, "{name}");
    }
    emu.write(".obsidian/types.json", r#"{"types": {"due": "date"}}"#);
    assert!(emu
        .ok(&["properties", "format=json"])
        .contains("\"name\": \"due\",\n    \"type\": \"date\""));
}

#[test]
fn one_file_yaml_json_tsv() {
    let mut emu = Emu::new();
    assert_eq!(
        emu.ok(&["properties", "file=Launch plan"]),
        "title: Launch plan\nstatus: active\nowner: Alice\npriority: 2\nbudget: 12500.5\nreviewed: false\ndue: 2026-03-15\ntags:\n  - project\n  - launch\naliases:\n  - Launch\n"
    );
    assert_eq!(
        emu.ok(&["properties", "path=Projects/Roadmap.md"]),
        "status: planning\nowner: Bob\npriority: 1\ntags:\n  - project\n  - roadmap\nquarters:\n  - Q1\n  - Q2\nrelated: \"[[Launch plan]]\"\n"
    );
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["properties", "file=Launch plan", "format=json"])).unwrap();
    assert_eq!(v["priority"], 2);
    assert_eq!(v["budget"], 12500.5);
    assert_eq!(v["reviewed"], false);
    assert_eq!(v["tags"], serde_json::json!(["project", "launch"]));
    assert_eq!(
        emu.line(&["properties", "file=Alice", "format=tsv"]),
        "role\tProduct manager\nemail\talice@example.com"
    );
    assert_eq!(emu.line(&["properties", "file=Alice", "total"]), "2");
    assert_eq!(
        emu.line(&["properties", "file=Unlinked thought"]),
        "No frontmatter found."
    );
    assert_eq!(
        emu.line(&["properties", "file=Unlinked thought", "format=json"]),
        "No frontmatter found."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "People/Bob.md");
    assert_eq!(emu.line(&["properties", "active"]), "role: Engineer");
}

#[test]
fn read_values() {
    let emu = Emu::new();
    let read = |name: &str, file: &str| {
        emu.line(&[
            "property:read",
            &format!("name={name}"),
            &format!("file={file}"),
        ])
    };
    // A list prints one item per line.
    assert_eq!(read("tags", "Launch plan"), "project\nlaunch");
    assert_eq!(read("priority", "Launch plan"), "2");
    assert_eq!(read("budget", "Launch plan"), "12500.5");
    assert_eq!(read("reviewed", "Launch plan"), "false");
    assert_eq!(read("due", "Launch plan"), "2026-03-15");
    assert_eq!(read("related", "Roadmap"), "[[Launch plan]]");
    assert_eq!(read("tags", "Brainstorm"), "idea");
    assert_eq!(read("lang", "Café ☕"), "fr");
    emu.write("Shapes.md", "---\nempty:\nmap: {a: 1}\nyes: true\n---\n");
    assert_eq!(
        emu.ok(&["property:read", "name=empty", "file=Shapes"]),
        "",
        "null prints nothing"
    );
    assert_eq!(read("map", "Shapes"), "[object Object]");
    assert_eq!(read("yes", "Shapes"), "true");
    assert_eq!(
        read("nope", "Launch plan"),
        "Error: Property \"nope\" not found."
    );
    assert_eq!(read("x", "Nobody"), "Error: File \"Nobody\" not found.");
    assert_eq!(
        emu.ok(&["property:read", "file=Alice"]),
        "Error: Missing required parameter: name=<name>\nUsage: property:read name=<name> [file=<name>] [path=<path>]\n"
    );
}

#[test]
fn set_replaces_in_place_and_keeps_the_rest() {
    let emu = Emu::new();
    let before = emu.read("Projects/Launch plan.md");
    assert_eq!(
        emu.line(&[
            "property:set",
            "name=status",
            "value=paused",
            "file=Launch plan"
        ]),
        "Set status: paused"
    );
    assert_eq!(
        emu.read("Projects/Launch plan.md"),
        before.replace("status: active", "status: paused")
    );
    assert_eq!(
        emu.line(&[
            "property:set",
            "name=tags",
            "value=project, launch, q2",
            "type=list",
            "file=Launch plan",
        ]),
        "Set tags: project, launch, q2",
        "the value as given"
    );
    assert!(emu
        .read("Projects/Launch plan.md")
        .contains("tags:\n  - project\n  - launch\n  - q2\naliases:"));
    assert_eq!(
        emu.line(&["property:read", "name=tags", "file=Launch plan"]),
        "project\nlaunch\nq2"
    );
    // The body is untouched.
    let body_before = before.split_once("\n---\n").unwrap().1;
    assert!(emu.read("Projects/Launch plan.md").ends_with(body_before));
}

#[test]
fn set_types() {
    let emu = Emu::new();
    let set = |args: &[&str]| {
        let mut a = vec!["property:set", "file=Alice"];
        a.extend_from_slice(args);
        emu.line(&a)
    };
    set(&["name=score", "value=7.5", "type=number"]);
    set(&["name=active", "value=TRUE", "type=checkbox"]);
    set(&["name=born", "value=1990-05-17", "type=date"]);
    set(&["name=seen", "value=2026-03-03T10:15", "type=datetime"]);
    set(&["name=code", "value=42"]);
    set(&["name=aliases", "value=Al, A."]);
    set(&["name=link", "value=[[Bob]]"]);
    assert_eq!(
        emu.read("People/Alice.md"),
        "---\nrole: Product manager\nemail: alice@example.com\nscore: 7.5\nactive: true\nborn: 1990-05-17\nseen: 2026-03-03T10:15\ncode: \"42\"\naliases:\n  - Al\n  - A.\nlink: \"[[Bob]]\"\n---\n# Alice\n\nOwns the launch.\n"
    );
    // The quoted link is now a link in the graph.
    assert!(emu
        .lines(&["backlinks", "file=Bob"])
        .contains(&"People/Alice.md".to_string()));
    assert_eq!(
        set(&["name=x", "value=abc", "type=number"]),
        "Error: Invalid number: abc"
    );
    assert_eq!(
        set(&["name=x", "value=maybe", "type=checkbox"]),
        "Error: Invalid checkbox: maybe"
    );
    assert_eq!(
        set(&["name=x", "value=2026-13-01", "type=date"]),
        "Error: Invalid date format. Use YYYY-MM-DD"
    );
    assert!(set(&["name=x", "value=y", "type=weird"]).starts_with("Error: Invalid type \"weird\"."));
    assert!(set(&["name=x"])
        .starts_with("Error: Missing required parameter: value=<value>\nUsage: property:set "));
    assert!(!emu.read("People/Alice.md").contains("x:"));
}

#[test]
fn set_empty_lists() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["property:set", "name=labels", "value=[]", "file=Bob"]),
        "Set labels: []"
    );
    assert!(emu.read("People/Bob.md").contains("labels: []\n"));
    assert_eq!(
        emu.line(&[
            "property:set",
            "name=labels",
            "value=",
            "type=list",
            "file=Bob"
        ]),
        "Set labels: "
    );
    assert!(emu.read("People/Bob.md").contains("labels:\n  - \"\"\n"));
}

#[test]
fn set_creates_frontmatter() {
    let emu = Emu::new();
    emu.ok(&[
        "property:set",
        "name=seen",
        "value=true",
        "type=checkbox",
        "file=Unlinked thought",
    ]);
    assert_eq!(
        emu.read("Ideas/Unlinked thought.md"),
        "---\nseen: true\n---\nNobody links here and this note links nowhere. #idea\n"
    );
}

#[test]
fn set_on_non_markdown_is_refused() {
    let emu = Emu::new();
    let out = emu.line(&[
        "property:set",
        "name=a",
        "value=b",
        "path=Canvas/Plan.canvas",
    ]);
    assert!(
        out.starts_with("Error: \"Canvas/Plan.canvas\" is not a markdown file"),
        "{out}"
    );
}

#[test]
fn remove() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["property:remove", "name=tags", "file=Launch plan"]),
        "Property \"tags\" removed from Projects/Launch plan.md"
    );
    let text = emu.read("Projects/Launch plan.md");
    assert!(
        text.contains("due: 2026-03-15\naliases:\n  - Launch\n---\n# Launch plan\n"),
        "{text}"
    );
    assert_eq!(
        emu.line(&["property:remove", "name=tags", "file=Launch plan"]),
        "Error: Property \"tags\" not found."
    );
    // Removing the last property removes the block.
    emu.ok(&["property:remove", "name=role", "file=Bob"]);
    assert_eq!(
        emu.read("People/Bob.md"),
        "# Bob\n\nWorks with [[Alice]] on the roadmap.\n"
    );
    assert_eq!(
        emu.line(&["property:remove", "name=role", "file=Bob"]),
        "Error: Property \"role\" not found."
    );
}
