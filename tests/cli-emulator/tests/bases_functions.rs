//! Bases as real vaults write them (kepano's template vault: `link()` in
//! filters, `this`, `list()`, formulas with dates and durations, lists
//! indexed and mapped), in small notes written for this test. The rules are
//! the help vault's "Bases syntax" and "Functions" pages.

mod common;
use common::Emu;

fn library() -> Emu {
    let emu = Emu::new();
    emu.write("Categories/Books.md", "Every book.\n");
    emu.write(
        "Library/Dune.md",
        "---\ncategories:\n  - \"[[Books]]\"\nauthor: \"[[Frank Herbert]]\"\nrating: 5\nlast: 2026-02-20\n---\nRead again.\n",
    );
    emu.write(
        "Library/Emma.md",
        "---\ncategories: [\"[[Books]]\"]\nauthor: \"[[Jane Austen]]\"\nrating: 3\nlast: 2025-06-01\n---\n",
    );
    emu.write(
        "Library/Book Template.md",
        "---\ncategories:\n  - \"[[Books]]\"\nrating:\n---\n",
    );
    emu.write(
        "Library/Frank Herbert.md",
        "---\ncategories:\n  - \"[[People]]\"\nborn: 1920-10-08\n---\n",
    );
    emu.write(
        "Library/Books.base",
        r#"filters:
  and:
    - categories.contains(link("Books"))
    - '!file.name.contains("Template")'
formulas:
  Stars: rating * 2
  Label: 'if(rating >= 4, "great", "ok")'
  Days: (today() - date("2026-01-01")).days
  Born: list(author)[0].asFile().properties.born
  Short: file.basename.lower().slice(0, 3) + "…"
  Authors: list(author).map(value.asFile().basename)
properties:
  formula.Label:
    displayName: Verdict
views:
  - type: table
    name: All
    order: [file.basename, formula.Label, formula.Stars]
    sort:
      - property: formula.Stars
        direction: DESC
  - type: table
    name: Recent
    filters:
      and:
        - last > now() - "60d"
    order: [file.basename, last]
  - type: table
    name: Computed
    order: [file.basename, formula.Born, formula.Days, formula.Short, formula.Authors]
    sort:
      - property: file.basename
        direction: ASC
"#,
    );
    emu.write(
        "Library/People.base",
        "filters:\n  and:\n    - file.inFolder(this.file.folder)\n    - categories.contains(link(\"People\"))\nformulas:\n  Age: (now() - born).years.floor()\nviews:\n  - type: table\n    name: People\n    order: [file.basename, formula.Age]\n",
    );
    emu
}

#[test]
fn link_filters_formulas_and_sorting_by_a_formula() {
    let emu = library();
    assert_eq!(
        emu.line(&["base:query", "path=Library/Books.base", "format=csv"]),
        "file.basename,Verdict,formula.Stars\nDune,great,10\nEmma,ok,6"
    );
}

#[test]
fn dates_compare_with_now_minus_a_duration() {
    let emu = library();
    assert_eq!(
        emu.line(&[
            "base:query",
            "path=Library/Books.base",
            "view=Recent",
            "format=csv"
        ]),
        "file.basename,last\nDune,2026-02-20"
    );
    assert_eq!(
        emu.line(&["base:query", "path=Library/People.base", "format=csv"]),
        "file.basename,formula.Age\nFrank Herbert,105",
        "`this` is the base file when the CLI queries it; ages in whole years"
    );
}

#[test]
fn lists_links_files_and_strings_in_formulas() {
    let emu = library();
    let rows: serde_json::Value =
        serde_json::from_str(&emu.ok(&["base:query", "path=Library/Books.base", "view=Computed"]))
            .unwrap();
    assert_eq!(
        rows,
        serde_json::json!([
            {"path": "Library/Dune.md", "file.basename": "Dune", "formula.Born": "1920-10-08", "formula.Days": 61, "formula.Short": "dun…", "formula.Authors": ["Frank Herbert"]},
            {"path": "Library/Emma.md", "file.basename": "Emma", "formula.Born": null, "formula.Days": 61, "formula.Short": "emm…", "formula.Authors": [null]}
        ])
    );
}

#[test]
fn what_the_functions_page_does_not_define_is_a_clear_error() {
    let emu = library();
    for (filter, named) in [
        ("'not(empty(rating))'", "before Obsidian 1.9.2"),
        ("'/dune/.matches(file.name)'", "regular expression"),
        ("'rating.nosuch()'", "nosuch()"),
    ] {
        emu.write(
            "Library/Odd.base",
            &format!("filters: {filter}\nviews:\n  - type: table\n    name: X\n"),
        );
        let out = emu.line(&["base:query", "path=Library/Odd.base"]);
        assert!(
            out.starts_with("Error: Unsupported base filter:") && out.contains(named),
            "{filter}: {out}"
        );
    }
}
