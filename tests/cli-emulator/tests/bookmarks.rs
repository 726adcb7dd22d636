//! bookmarks and bookmark.

mod common;
use common::Emu;

#[test]
fn list_default_verbose_total() {
    let emu = Emu::new();
    assert_eq!(
        emu.lines(&["bookmarks"]),
        [
            "Projects/Launch plan.md",
            "Projects/Roadmap.md#Q2",
            "Ideas",
            "tag:#meeting",
            "Ideas/Café ☕.md",
            "https://help.obsidian.md/cli"
        ]
    );
    assert_eq!(emu.line(&["bookmarks", "total"]), "6");
    assert_eq!(
        emu.line(&["bookmarks", "verbose"]),
        "file\tProjects/Launch plan.md\nfile\tProjects/Roadmap.md#Q2\tQ2 roadmap\nfolder\tIdeas\nsearch\ttag:#meeting\ngroup\tReading\n  file\tIdeas/Café ☕.md\n  url\thttps://help.obsidian.md/cli\tObsidian CLI help"
    );
}

#[test]
fn json_and_csv() {
    let emu = Emu::new();
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["bookmarks", "format=json"])).unwrap();
    assert_eq!(
        v[1],
        serde_json::json!({"type": "file", "path": "Projects/Roadmap.md", "subpath": "#Q2", "title": "Q2 roadmap"})
    );
    assert_eq!(v[4]["type"], "group");
    assert_eq!(v[4]["items"][1]["url"], "https://help.obsidian.md/cli");
    assert!(v[0].get("ctime").is_none());
    let csv = emu.lines(&["bookmarks", "format=csv"]);
    assert_eq!(csv[0], "type,target,title,group");
    assert_eq!(csv.len(), 8);
    assert_eq!(
        csv[7],
        "url,https://help.obsidian.md/cli,Obsidian CLI help,Reading"
    );
}

#[test]
fn empty() {
    let emu = Emu::new();
    std::fs::remove_file(emu.vault.join(".obsidian/bookmarks.json")).unwrap();
    assert_eq!(emu.line(&["bookmarks"]), "No bookmarks found.");
    assert_eq!(emu.line(&["bookmarks", "total"]), "0");
}

#[test]
fn add_each_kind_and_write_the_real_format() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["bookmark", "file=Reading List"]),
        "Bookmarked: Reading List.md"
    );
    assert_eq!(
        emu.line(&[
            "bookmark",
            "file=Projects/Roadmap.md",
            "subpath=Q1",
            "title=Q1 plan"
        ]),
        "Bookmarked: Projects/Roadmap.md#Q1"
    );
    assert_eq!(
        emu.line(&["bookmark", "folder=Archive/2025"]),
        "Bookmarked: Archive/2025"
    );
    assert_eq!(
        emu.line(&["bookmark", "search=tag:#idea"]),
        "Bookmarked: tag:#idea"
    );
    assert_eq!(
        emu.line(&["bookmark", "url=https://obsidian.md", "title=Home"]),
        "Bookmarked: https://obsidian.md"
    );
    assert_eq!(emu.line(&["bookmarks", "total"]), "11");
    let doc: serde_json::Value =
        serde_json::from_str(&emu.read(".obsidian/bookmarks.json")).unwrap();
    let items = doc["items"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    // Existing items survive untouched, ctime included.
    assert_eq!(items[0]["ctime"], 1772323200000u64);
    let added = &items[6];
    assert_eq!(added["type"], "file");
    assert_eq!(added["path"], "Projects/Roadmap.md");
    assert_eq!(added["subpath"], "#Q1");
    assert_eq!(added["title"], "Q1 plan");
    assert!(added["ctime"].as_u64().unwrap() > 1_700_000_000_000);
    assert_eq!(
        items[8],
        serde_json::json!({"type": "search", "ctime": items[8]["ctime"], "query": "tag:#idea"})
    );
    assert_eq!(items[9]["url"], "https://obsidian.md");
}

#[test]
fn add_errors() {
    let emu = Emu::new();
    let before = emu.read(".obsidian/bookmarks.json");
    assert_eq!(
        emu.line(&["bookmark", "file=Nobody"]),
        "Error: File \"Nobody\" not found."
    );
    assert_eq!(
        emu.line(&["bookmark", "folder=Nope"]),
        "Error: Folder \"Nope\" not found."
    );
    assert_eq!(
        emu.line(&["bookmark", "folder=../x"]),
        "Error: Folder \"../x\" not found."
    );
    assert!(emu.ok(&["bookmark", "title=x"]).starts_with("Error: Give exactly one of file=<path>, folder=<path>, search=<query>, url=<url>.\nUsage: bookmark "));
    assert!(emu
        .ok(&["bookmark", "url=a", "search=b"])
        .starts_with("Error: Give exactly one of"));
    assert_eq!(emu.read(".obsidian/bookmarks.json"), before);
}

#[test]
fn add_creates_the_file_when_missing() {
    let emu = Emu::new();
    std::fs::remove_file(emu.vault.join(".obsidian/bookmarks.json")).unwrap();
    emu.ok(&["bookmark", "search=x"]);
    let doc: serde_json::Value =
        serde_json::from_str(&emu.read(".obsidian/bookmarks.json")).unwrap();
    assert_eq!(doc["items"].as_array().unwrap().len(), 1);
    assert_eq!(emu.line(&["bookmarks"]), "x");
}
