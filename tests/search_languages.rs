//! The ranked search in other languages: each note stemmed in the language
//! its text shows (or its `lang` property names), a query read in every
//! language the vault holds, and scripts without spaces cut into bigrams.
//! The notes here are written for these tests.

use serde_json::json;
use vault_agent::base::host::ProcessOutcome;
use vault_agent::search::query::SearchQuery;
use vault_agent::search::{Index, Language};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

fn all(_: &str) -> bool {
    true
}

/// A vault whose default language is English, as most are, with an
/// English note about the same topic as every other note.
fn vault(notes: &[(&str, &str)]) -> Index {
    let mut index = Index::new(".obsidian", Language::English);
    index
        .upsert(
            "Garden/Tomatoes.md",
            "We plant the tomatoes in the large beds in spring, and the plants need a lot of water. \
             The mountains and lakes trip is planned for the summer.",
        )
        .unwrap();
    for (path, text) in notes {
        index.upsert(path, text).unwrap();
    }
    index
}

fn first(index: &Index, query: &str) -> String {
    let ranked = index.search(&SearchQuery::new(query), &all).unwrap();
    ranked
        .hits
        .first()
        .map(|h| h.path.clone())
        .unwrap_or_default()
}

#[test]
fn a_german_question_finds_a_german_note_by_its_inflected_forms() {
    let index = vault(&[
        (
            "Garten/Beete.md",
            "Im Frühling pflanzen wir die Tomaten in die großen Beete. Die Beete werden mit \
             Kompost gedüngt, und die Pflanzen brauchen viel Wasser, das wir am Morgen holen.",
        ),
        (
            "Garten/Zaun.md",
            "Der Zaun ist alt und wird im Herbst gestrichen.",
        ),
    ]);
    assert_eq!(index.languages(), [Language::English, Language::German]);
    assert_eq!(first(&index, "großes Beet Tomate"), "Garten/Beete.md");
    // English questions are answered as before.
    assert_eq!(first(&index, "planting tomato beds"), "Garden/Tomatoes.md");
}

#[test]
fn a_french_question_finds_a_french_note() {
    let index = vault(&[
        (
            "Cuisine/Pain.md",
            "Nous préparons le pain chaque semaine. La pâte doit reposer pendant deux heures, \
             puis nous la mettons dans un four très chaud. Les pains sont meilleurs quand la \
             farine est fraîche.",
        ),
        (
            "Cuisine/Marché.md",
            "Le marché du samedi vend des œufs et du fromage pour vous.",
        ),
    ]);
    assert_eq!(first(&index, "pâtes reposées"), "Cuisine/Pain.md");
    assert_eq!(first(&index, "farines fraiches"), "Cuisine/Pain.md");
}

#[test]
fn a_russian_question_finds_a_russian_note_by_its_inflected_forms() {
    let index = vault(&[
        (
            "Путешествия/Лето.md",
            "Летом мы поехали в горы. В горах было холодно, но мы видели красивые озера и \
             долго гуляли по берегу.",
        ),
        (
            "Путешествия/Город.md",
            "Город большой, в нём много музеев и театров.",
        ),
    ]);
    assert!(index.languages().contains(&Language::Russian));
    assert_eq!(first(&index, "горы озеро"), "Путешествия/Лето.md");
}

#[test]
fn chinese_is_found_by_character_bigrams() {
    let index = vault(&[
        (
            "笔记/知识管理.md",
            "我们用双向链接来整理个人知识，每天写一篇读书笔记。",
        ),
        ("笔记/旅行.md", "去年夏天我们去了山里旅行，看到了很多湖泊。"),
    ]);
    assert_eq!(first(&index, "读书笔记 链接"), "笔记/知识管理.md");
    assert_eq!(first(&index, "湖泊旅行"), "笔记/旅行.md");
}

#[test]
fn japanese_kana_and_kanji_are_found_together() {
    let index = vault(&[
        (
            "会議/週次.md",
            "毎週の会議では議事録をとり、チームで共有します。タスクはカンバンで管理します。",
        ),
        (
            "会議/料理.md",
            "週末はカレーを作ります。野菜をたくさん入れます。",
        ),
    ]);
    assert_eq!(first(&index, "議事録 共有"), "会議/週次.md");
    assert_eq!(first(&index, "カンバン"), "会議/週次.md");
    assert_eq!(first(&index, "カレーの野菜"), "会議/料理.md");
}

#[test]
fn thai_written_without_spaces_is_found_by_bigrams() {
    let index = vault(&[
        ("บันทึก/งาน.md", "การจัดการงานประจำวันด้วยรายการสิ่งที่ต้องทำ"),
        ("บันทึก/อาหาร.md", "สูตรอาหารไทยที่ทำง่ายในบ้าน"),
    ]);
    assert_eq!(first(&index, "จัดการงาน"), "บันทึก/งาน.md");
    assert_eq!(first(&index, "สูตรอาหาร"), "บันทึก/อาหาร.md");
}

#[test]
fn a_lang_property_wins_over_the_text_and_a_dropped_note_leaves_its_language() {
    let mut index = vault(&[("Notes/Kurz.md", "---\nlang: de\n---\nHäuser am See")]);
    assert_eq!(index.languages(), [Language::English, Language::German]);
    // "Haus" meets "Häuser" only through the German stemmer.
    assert_eq!(first(&index, "Haus"), "Notes/Kurz.md");
    index.remove("Notes/Kurz.md");
    assert_eq!(index.languages(), [Language::English]);
}

#[test]
fn obsidians_app_language_is_the_default_of_notes_too_short_to_tell() {
    // A note too short for its common words to show German: read in the
    // app's language when Obsidian is in German, in English when it is not.
    let notes = || {
        let mut host = FakeHost::linux_with_cli("");
        *host.notes.borrow_mut() = [
            ("Notizen/Kurz.md", "Häuser am See"),
            ("Notes/Garden.md", "Tomatoes in the large beds."),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        host.respond_with(|request| {
            ProcessOutcome::success(match request.args[0].as_str() {
                "files" => "Notizen/Kurz.md\nNotes/Garden.md",
                _ => "",
            })
        });
        host
    };
    let find = |core: &VaultAgent<FakeHost>| {
        block_on(core.build_search_index(&|_| {}));
        let result = block_on(core.call_tool(
            "obsidianSearch",
            &json!({"command": "find", "query": "Haus"}),
        ));
        result.text
    };
    let mut german = notes();
    german.facts.app_language = Some("de".into());
    let text = find(&VaultAgent::new(german, &json!({})).0);
    assert!(text.contains("Notizen/Kurz.md"), "{text}");

    let text = find(&VaultAgent::new(notes(), &json!({})).0);
    assert!(!text.contains("Notizen/Kurz.md"), "{text}");

    // The user's setting wins over the app's language.
    let settings = json!({"search": {"languages": ["de", "en"]}});
    let text = find(&VaultAgent::new(notes(), &settings).0);
    assert!(text.contains("Notizen/Kurz.md"), "{text}");
}

#[test]
fn a_word_written_with_its_accents_ranks_above_the_same_word_without() {
    // "A" sorts first, so only the exact form can put "B" above it.
    let index = vault(&[
        (
            "Jobs/A resume.md",
            "Le resume de ma carriere, envoye avec la lettre pour le poste.",
        ),
        (
            "Jobs/B résumé.md",
            "Le résumé de ma carrière, envoyé avec la lettre pour le poste.",
        ),
    ]);
    let order = |query: &str| -> Vec<String> {
        let ranked = index.search(&SearchQuery::new(query), &all).unwrap();
        ranked.hits.iter().map(|h| h.path.clone()).collect()
    };
    assert_eq!(
        order("résumé carrière"),
        ["Jobs/B résumé.md", "Jobs/A resume.md"]
    );
    assert_eq!(
        order("resume carriere"),
        ["Jobs/A resume.md", "Jobs/B résumé.md"]
    );
    // Folding still finds both, whichever way the query is written.
    assert_eq!(order("carrière").len(), 2);
}

#[test]
fn languages_the_user_fixed_are_the_ones_notes_and_queries_are_read_in() {
    // Terse notes show no language plainly: on an English app they are read
    // as English, and a German inflection then finds nothing.
    let terse = [
        ("Garten/Pflanzungen.md", "Pflanzungen: Tomaten, Gurken."),
        ("Garten/Zaun.md", "Zaun streichen."),
    ];
    let automatic = vault(&terse);
    assert_eq!(automatic.languages(), [Language::English]);
    assert_eq!(first(&automatic, "Pflanzung"), "");
    // Fixed to German then English: German is the main language, every
    // note is read in one of the two, and a query in both.
    let mut fixed = Index::new(".obsidian", Language::English);
    fixed.fix_languages(&[Language::German, Language::English]);
    for (path, text) in terse {
        fixed.upsert(path, text).unwrap();
    }
    fixed
        .upsert(
            "Cuisine/Pain.md",
            "Nous préparons le pain chaque semaine. La pâte doit reposer pendant deux heures.",
        )
        .unwrap();
    assert_eq!(fixed.languages(), [Language::German, Language::English]);
    assert_eq!(first(&fixed, "Pflanzung"), "Garten/Pflanzungen.md");
}

#[test]
fn every_language_the_settings_offer_is_one_the_search_stems() {
    let mut seen = Vec::new();
    for (code, name) in vault_agent::settings::search::LANGUAGE_CHOICES {
        let language =
            Language::parse(code).unwrap_or_else(|| panic!("{code} ({name}) is not parsed"));
        assert_ne!(language, Language::None, "{code} is stemmed");
        assert!(!seen.contains(&language), "{code} twice");
        seen.push(language);
    }
    // Every stemmed language is offered.
    assert_eq!(seen.len(), Language::ALL.len() - 1);
}
