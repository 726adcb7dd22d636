//! How stored settings are read: defaults, repairs, migrations, ranges.

use super::*;
use serde_json::json;

const TOOLS: &[&str] = &["obsidianDailyNote", "obsidianRandomRead"];

#[test]
fn missing_data_gives_defaults_without_repairs() {
    let n = normalise(&Value::Null, TOOLS);
    assert_eq!(n.settings, Settings::default());
    assert!(n.repairs.is_empty());
    assert_eq!(n.settings.permission_mode, PermissionMode::ReadOnly);
}

#[test]
fn anthropic_thinking_is_off_by_default_and_its_budget_stays_in_range() {
    let chat = normalise(&Value::Null, TOOLS).settings.chat;
    assert_eq!(
        (chat.anthropic_thinking, chat.anthropic_thinking_budget),
        (false, DEFAULT_THINKING_BUDGET)
    );
    let stored = json!({"chat": {"anthropicThinking": true, "anthropicThinkingBudget": 8000}});
    let n = normalise(&stored, TOOLS);
    assert!(n.repairs.is_empty(), "{:?}", n.repairs);
    assert!(n.settings.chat.anthropic_thinking);
    assert_eq!(n.settings.chat.anthropic_thinking_budget, 8000);
    // Anthropic refuses a budget under 1 024; "yes" is not consent.
    let stored = json!({"chat": {"anthropicThinking": "yes", "anthropicThinkingBudget": 10}});
    let n = normalise(&stored, TOOLS);
    assert!(!n.settings.chat.anthropic_thinking);
    assert_eq!(n.settings.chat.anthropic_thinking_budget, 1_024);
    assert_eq!(n.repairs.len(), 2, "{:?}", n.repairs);
}

#[test]
fn good_values_are_kept() {
    let stored = json!({
        "cliPath": " /opt/obsidian-cli ", "vaultName": "Work", "timeoutMs": 3000,
        "outputCapBytes": 65536, "permissionMode": "askEveryChange",
        "confirmationExpiryMs": 60000, "tools": {"obsidianRandomRead": false}
    });
    let n = normalise(&stored, TOOLS);
    assert!(n.repairs.is_empty(), "{:?}", n.repairs);
    let s = n.settings;
    assert_eq!(s.cli_path, "/opt/obsidian-cli");
    assert_eq!(s.vault(), Some("Work"));
    assert_eq!((s.timeout_ms, s.output_cap_bytes), (3000, 65536));
    assert_eq!(s.permission_mode, PermissionMode::AskEveryChange);
    assert!(!s.tool_enabled("obsidianRandomRead"));
    assert!(s.tool_enabled("obsidianDailyNote"));
}

#[test]
fn wrong_types_out_of_range_and_unknown_keys_are_repaired() {
    let stored = json!({
        "cliPath": 42, "timeoutMs": -5, "outputCapBytes": 1e12,
        "allowVaultChanges": "yes", "confirmationExpiryMs": "soon",
        "tools": {"obsidianDailyNote": "off", "oldTool": false},
        "legacyOption": 1, "vaultName": "bad\u{0}name"
    });
    let n = normalise(&stored, TOOLS);
    let s = &n.settings;
    assert_eq!(s.cli_path, "");
    assert_eq!(s.vault_name, "");
    assert_eq!(s.timeout_ms, TIMEOUT_RANGE_MS.0);
    assert_eq!(s.output_cap_bytes, OUTPUT_CAP_RANGE_BYTES.1);
    assert_eq!(
        s.permission_mode,
        PermissionMode::ReadOnly,
        "a string must never turn writes on"
    );
    assert_eq!(s.confirmation_expiry_ms, DEFAULT_CONFIRMATION_EXPIRY_MS);
    assert!(s.tools.is_empty());
    assert_eq!(n.repairs.len(), 9, "{:#?}", n.repairs);
    assert!(n.repairs.iter().any(|r| r.contains("legacyOption")));
}

#[test]
fn an_older_allow_vault_changes_switch_becomes_a_mode() {
    let mode = |stored: Value| {
        let n = normalise(&stored, TOOLS);
        (n.settings.permission_mode, n.repairs.len())
    };
    // On was: additions at once, property and task changes asked.
    assert_eq!(
        mode(json!({"allowVaultChanges": true})),
        (PermissionMode::AskBeforeEdits, 0)
    );
    assert_eq!(
        mode(json!({"allowVaultChanges": false})),
        (PermissionMode::ReadOnly, 0)
    );
    assert_eq!(mode(json!({})), (PermissionMode::ReadOnly, 0));
    // A wrong type never turns changes on, and says so.
    for wrong in [json!("yes"), json!(1), json!("true"), json!([true])] {
        assert_eq!(
            mode(json!({ "allowVaultChanges": wrong })),
            (PermissionMode::ReadOnly, 1),
            "{wrong}"
        );
    }
    // A stored mode wins over the old switch, in both directions.
    assert_eq!(
        mode(json!({"allowVaultChanges": true, "permissionMode": "readOnly"})),
        (PermissionMode::ReadOnly, 0)
    );
    assert_eq!(
        mode(json!({"allowVaultChanges": false, "permissionMode": "askEveryChange"})),
        (PermissionMode::AskEveryChange, 0)
    );
    // The old switch is not saved again: the mode replaces it.
    let saved = normalise(&json!({"allowVaultChanges": true}), TOOLS)
        .settings
        .to_json();
    assert_eq!(saved["permissionMode"], "askBeforeEdits");
    assert!(saved.get("allowVaultChanges").is_none(), "{saved}");
}

#[test]
fn a_wrong_permission_mode_is_read_only() {
    for (stored, fragment) in [
        (json!("AskEveryChange"), "\"AskEveryChange\""),
        (json!("yes"), "\"yes\""),
        (json!(true), "true/false"),
        (json!(2), "a number"),
        (json!({"mode": "askEveryChange"}), "an object"),
    ] {
        // Even next to an old switch that was on: a mode was given, and it was wrong.
        let n = normalise(
            &json!({"permissionMode": stored, "allowVaultChanges": true}),
            TOOLS,
        );
        assert_eq!(
            n.settings.permission_mode,
            PermissionMode::ReadOnly,
            "{stored}"
        );
        assert_eq!(n.repairs.len(), 1, "{:?}", n.repairs);
        assert!(n.repairs[0].contains(fragment), "{:?}", n.repairs);
    }
    for mode in PermissionMode::ALL {
        let n = normalise(&json!({ "permissionMode": mode.key() }), TOOLS);
        assert_eq!((n.settings.permission_mode, n.repairs.len()), (mode, 0));
        assert_eq!(serde_json::to_value(mode).unwrap(), mode.key());
    }
}

#[test]
fn folder_scopes_are_normalised_and_a_broken_list_reaches_nothing() {
    // An older data.json has none: the whole vault, as before.
    let n = normalise(&json!({"permissionMode": "askBeforeEdits"}), TOOLS);
    assert!(n.settings.read_folders.is_empty() && n.settings.write_folders.is_empty());
    assert!(n.repairs.is_empty());
    let n = normalise(
        &json!({"readFolders": [" Projects/ ", "Cafe\u{301}", "Projects", "../up", 7], "writeFolders": []}),
        TOOLS,
    );
    assert_eq!(n.settings.read_folders, ["Projects", "Caf\u{e9}"]);
    assert!(n.settings.write_folders.is_empty());
    assert_eq!(n.repairs.len(), 2, "{:?}", n.repairs);
    // Never widened by a bad value: a list that names no usable folder,
    // or is not a list, reaches nothing, and still does after a save.
    for broken in [json!(["/abs", ".."]), json!("Projects"), json!({"a": 1})] {
        let n = normalise(&json!({ "writeFolders": broken }), TOOLS);
        assert_eq!(
            n.settings.write_folders,
            [crate::settings::NO_FOLDER],
            "{broken}"
        );
        let again = normalise(&n.settings.to_json(), TOOLS);
        assert_eq!(again.settings.write_folders, [crate::settings::NO_FOLDER]);
    }
}

#[test]
fn a_non_object_is_replaced_by_defaults_that_reach_no_folder() {
    let n = normalise(&json!([1, 2]), TOOLS);
    let closed = Settings {
        read_folders: vec![crate::settings::NO_FOLDER.into()],
        write_folders: vec![crate::settings::NO_FOLDER.into()],
        ..Settings::default()
    };
    assert_eq!(n.settings, closed);
    assert_eq!(n.repairs.len(), 2, "{:?}", n.repairs);
    assert!(n.repairs[1].contains("no folder"), "{:?}", n.repairs);
}

/// An unreadable scope is no scope at all: whatever the bounded reader
/// could not keep (a list too long, a text too long, a value too deep, a
/// whole data.json too large or not JSON) reaches no folder, never the
/// whole vault that nothing stored means.
#[test]
fn a_scope_the_bounded_reader_could_not_keep_reaches_no_folder() {
    use crate::base::input::{parse_lenient, SETTINGS};
    let none = [crate::settings::NO_FOLDER];
    let many: Vec<String> = (0..20_000).map(|i| format!("F{i}")).collect();
    let long = "x".repeat(70 * 1024);
    let deep = format!("{}\"Projects\"{}", "[".repeat(80), "]".repeat(80));
    for (key, value) in [
        ("readFolders", json!(many).to_string()),
        ("writeFolders", json!(many).to_string()),
        ("readFolders", json!(long).to_string()),
        ("readFolders", deep.clone()),
        ("writeFolders", deep),
        ("readFolders", "null".into()),
        ("readFolders", "true".into()),
    ] {
        let text = format!(r#"{{"permissionMode": "askBeforeEdits", "{key}": {value}}}"#);
        let read = parse_lenient(&text, &SETTINGS);
        assert!(!read.unreadable, "{key}");
        let n = normalise_loaded(&read, TOOLS);
        let (broken, other) = match key {
            "readFolders" => (&n.settings.read_folders, &n.settings.write_folders),
            _ => (&n.settings.write_folders, &n.settings.read_folders),
        };
        assert_eq!(broken, &none, "{key} = {}", &value[..value.len().min(40)]);
        assert!(other.is_empty(), "the other list is as stored");
        assert!(
            n.repairs
                .iter()
                .any(|r| r.contains(key) && r.contains("no folder")),
            "{key}: {:?}",
            n.repairs
        );
        // Saved and read again, it still reaches nothing.
        let again = normalise(&n.settings.to_json(), TOOLS);
        assert_eq!(
            (&again.settings.read_folders, &again.settings.write_folders),
            (&n.settings.read_folders, &n.settings.write_folders)
        );
    }
    // A whole data.json too large, or not JSON: Read only, and no folder.
    let huge = format!(r#"{{"readFolders": [], "pad": "{}"}}"#, "x".repeat(5 << 20));
    for text in [huge.as_str(), "{not json"] {
        let n = normalise_loaded(&parse_lenient(text, &SETTINGS), TOOLS);
        assert_eq!(n.settings.permission_mode, PermissionMode::ReadOnly);
        assert_eq!(n.settings.read_folders, none);
        assert_eq!(n.settings.write_folders, none);
    }
    // Nothing stored (a first run) is the whole vault, as before.
    let first = normalise_loaded(&parse_lenient("null", &SETTINGS), TOOLS);
    assert!(first.settings.read_folders.is_empty() && first.repairs.is_empty());
}

#[test]
fn round_trip_through_json() {
    let mut s = Settings::default();
    s.tools.insert("obsidianDailyNote".into(), false);
    s.vault_name = "V".into();
    s.permission_mode = PermissionMode::AskBeforeEdits;
    let n = normalise(&s.to_json(), TOOLS);
    assert_eq!(n.settings, s);
    assert!(n.repairs.is_empty());
}

/// An old data.json: one server per kind and `provider` picking one.
fn old_chat(chat: Value) -> ChatSettings {
    let n = normalise(&json!({ "chat": chat }), TOOLS);
    assert!(n.repairs.is_empty(), "{:?}", n.repairs);
    n.settings.chat
}

#[test]
fn an_old_single_server_becomes_one_profile_in_use() {
    let chat = old_chat(json!({
        "provider": "openAi",
        "openai": {"baseUrl": "http://localhost:1234/v1/", "model": "qwen", "apiKeySecret": "lm-key", "contextWindow": 32768},
        "maxToolRounds": 7
    }));
    assert_eq!(chat.profiles.len(), 1, "{:?}", chat.profiles);
    let profile = chat.profile();
    assert_eq!(profile.provider, ProviderKind::OpenAi);
    assert_eq!(profile.name, "LM Studio (local)");
    assert_eq!(
        profile.server,
        ProviderSettings {
            base_url: "http://localhost:1234/v1".into(),
            model: "qwen".into(),
            api_key_secret: "lm-key".into(),
            context_window: 32768,
            // Not in a data.json from before the switch: off.
            text_tool_calls: false,
            instructions: String::new(),
            images: None,
            pdf_documents: false,
        }
    );
    assert_eq!(chat.active_profile, profile.id);
    assert_eq!(chat.max_tool_rounds, 7);
    // What the agent reads is what it read before.
    assert_eq!(chat.provider(), ProviderKind::OpenAi);
    assert_eq!(chat.active().model, "qwen");
}

#[test]
fn an_old_anthropic_choice_stays_in_use_and_a_changed_other_server_is_kept() {
    let chat = old_chat(json!({
        "provider": "anthropic",
        "anthropic": {"model": "claude-test", "apiKeySecret": "anthropic-key"},
        "openai": {"baseUrl": "http://gpu.lan:8000/v1", "model": "mixtral"}
    }));
    let names: Vec<_> = chat.profiles.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Anthropic", "gpu.lan:8000"]);
    assert_eq!(chat.provider(), ProviderKind::Anthropic);
    assert_eq!(chat.active().api_key_secret, "anthropic-key");
    assert_eq!(chat.profiles[1].server.model, "mixtral");
    // The other side left at its defaults is not turned into a profile.
    let chat = old_chat(json!({"provider": "anthropic"}));
    assert_eq!(chat.profiles.len(), 1);
    assert_eq!(
        chat.profile().server,
        ProviderSettings::defaults(ProviderKind::Anthropic)
    );
}

#[test]
fn migrated_profiles_are_saved_as_profiles_and_read_back_unchanged() {
    let first = normalise(
        &json!({"chat": {"openai": {"baseUrl": "https://openrouter.ai/api/v1", "model": "x/y"}}}),
        TOOLS,
    );
    let saved = first.settings.to_json();
    assert!(saved["chat"].get("openai").is_none(), "{saved}");
    assert!(saved["chat"].get("provider").is_none(), "{saved}");
    assert_eq!(saved["chat"]["profiles"][0]["name"], "OpenRouter");
    assert_eq!(
        saved["chat"]["profiles"][0]["baseUrl"],
        "https://openrouter.ai/api/v1"
    );
    let again = normalise(&saved, TOOLS);
    assert!(again.repairs.is_empty(), "{:?}", again.repairs);
    assert_eq!(again.settings, first.settings);
}

#[test]
fn broken_profiles_are_repaired_one_by_one() {
    let n = normalise(
        &json!({"chat": {
            "activeProfile": "gone",
            "profiles": [
                {"id": "a", "name": "  Work  ", "provider": "anthropic", "model": "c"},
                "nonsense",
                {"id": "a", "name": "", "baseUrl": "ftp://x", "apiKeySecret": "Bad Key"},
                {"id": "UPPER", "provider": "martian"}
            ]
        }}),
        TOOLS,
    );
    let chat = &n.settings.chat;
    let ids: Vec<_> = chat.profiles.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["a", "profile-1", "profile-2"]);
    assert_eq!(chat.profiles[0].name, "Work");
    assert_eq!(
        chat.profiles[0].server.base_url,
        "https://api.anthropic.com"
    );
    assert_eq!(
        chat.profiles[1].name, "Ollama (local)",
        "a missing name is derived"
    );
    assert_eq!(
        chat.profiles[1].server.base_url,
        "http://localhost:11434/v1"
    );
    assert_eq!(chat.profiles[1].server.api_key_secret, "");
    assert_eq!(chat.profiles[2].provider, ProviderKind::OpenAi);
    assert_eq!(
        chat.active_profile, "a",
        "an unknown profile in use falls back to the first"
    );
    for fragment in [
        "profile 2 was text, not an object",
        "baseUrl",
        "apiKeySecret",
        "\"a\" was not a unique",
        "\"UPPER\"",
        "martian",
        "\"gone\"",
    ] {
        assert!(
            n.repairs.iter().any(|r| r.contains(fragment)),
            "{fragment}: {:#?}",
            n.repairs
        );
    }
    for empty in [json!([]), json!("x"), json!([1, 2])] {
        let n = normalise(&json!({"chat": {"profiles": empty}}), TOOLS);
        assert_eq!(n.settings.chat.profiles, [ModelProfile::first()], "{empty}");
        assert_eq!(n.settings.chat.active_profile, "profile-1");
    }
}

#[test]
fn the_mcp_section_is_off_and_read_only_until_set() {
    let n = normalise(&json!({"permissionMode": "askBeforeEdits"}), TOOLS);
    assert_eq!(n.settings.mcp, McpSettings::default());
    assert!(!n.settings.mcp.enabled);
    // The chat's mode is not the MCP server's.
    assert_eq!(n.settings.mcp.permission_mode, PermissionMode::ReadOnly);
    let n = normalise(
        &json!({"mcp": {"enabled": true, "port": 80, "permissionMode": "askEveryChange"}}),
        TOOLS,
    );
    assert!(n.settings.mcp.enabled);
    assert_eq!(n.settings.mcp.port, MCP_PORT_RANGE.0, "{:?}", n.repairs);
    assert_eq!(
        n.settings.mcp.permission_mode,
        PermissionMode::AskEveryChange
    );
    for wrong in [
        json!({"enabled": "yes"}),
        json!({"permissionMode": "all"}),
        json!("on"),
    ] {
        let n = normalise(&json!({ "mcp": wrong }), TOOLS);
        assert!(!n.settings.mcp.enabled);
        assert_eq!(n.settings.mcp.permission_mode, PermissionMode::ReadOnly);
        assert!(!n.repairs.is_empty());
    }
    // Saved and read back unchanged.
    let saved = n.settings.to_json();
    assert_eq!(normalise(&saved, TOOLS).settings.mcp, n.settings.mcp);
    assert!(
        saved.get("processTag").is_none(),
        "a call's tag is never stored"
    );
}

#[test]
fn a_door_can_narrow_the_mode_but_never_widen_it() {
    use PermissionMode::*;
    for (mode, cap, expected) in [
        (AskBeforeEdits, ReadOnly, ReadOnly),
        (AskBeforeEdits, AskEveryChange, AskEveryChange),
        (AskEveryChange, AskBeforeEdits, AskEveryChange),
        (ReadOnly, AskBeforeEdits, ReadOnly),
        (ReadOnly, AskEveryChange, ReadOnly),
    ] {
        assert_eq!(mode.at_most(cap), expected, "{mode:?} capped at {cap:?}");
    }
}

#[test]
fn the_instructions_note_is_a_note_path_or_nothing() {
    let note = |value: Value| {
        let n = normalise(&json!({"chat": {"instructionsNote": value}}), &[]);
        (n.settings.chat.instructions_note, n.repairs)
    };
    assert_eq!(note(Value::Null), (String::new(), Vec::<String>::new()));
    assert_eq!(
        note(json!(" Vault Agent/Instructions.md ")).0,
        "Vault Agent/Instructions.md"
    );
    for (wrong, why) in [
        (json!("../Outside.md"), "instructionsNote"),
        (json!("/etc/passwd.md"), "instructionsNote"),
        (json!("Projects/Plan.canvas"), "is not a note"),
        (json!(12), "not text"),
    ] {
        let (path, repairs) = note(wrong.clone());
        assert_eq!(path, "", "{wrong} is cleared");
        assert!(
            repairs
                .iter()
                .any(|r| r.contains(why) && r.contains("chat")),
            "{wrong}: {repairs:?}"
        );
    }
}

#[test]
fn a_profiles_instructions_keep_their_lines_and_are_capped() {
    let profile = |value: Value| {
        let n = normalise(
            &json!({"chat": {"profiles": [{"id": "a", "provider": "openAi", "instructions": value}]}}),
            &[],
        );
        (
            n.settings.chat.profile().server.instructions.clone(),
            n.repairs,
        )
    };
    assert_eq!(
        profile(json!("  Answer briefly.\r\n\tUse metric units.  ")).0,
        "Answer briefly.\n\tUse metric units."
    );
    let (long, repairs) = profile(json!("x".repeat(2_100)));
    assert_eq!(long.chars().count(), 2_000);
    assert!(
        repairs.iter().any(|r| r.contains("longer than 2000")),
        "{repairs:?}"
    );
    let (bell, repairs) = profile(json!("ding\u{7}"));
    assert_eq!(bell, "");
    assert!(
        repairs.iter().any(|r| r.contains("control characters")),
        "{repairs:?}"
    );
}

#[test]
fn an_anthropic_address_pasted_with_v1_loses_it_and_the_repair_is_said() {
    let profile = |base_url: &str| {
        json!({"chat": {"profiles": [{"id": "a", "name": "Gateway", "provider": "anthropic",
            "baseUrl": base_url, "model": "claude-test", "apiKeySecret": "k"}], "activeProfile": "a"}})
    };
    let got = normalise(&profile("https://gateway.example/anthropic/v1/"), TOOLS);
    assert_eq!(
        got.settings.chat.active().base_url,
        "https://gateway.example/anthropic"
    );
    assert!(
        got.repairs.iter().any(|r| r.contains("ends in /v1")),
        "{:?}",
        got.repairs
    );
    // A host named v1 is not a path; an OpenAI-compatible address keeps its /v1.
    let got = normalise(&profile("http://v1"), TOOLS);
    assert_eq!(got.settings.chat.active().base_url, "http://v1");
    let openai = json!({"chat": {"profiles": [{"id": "o", "name": "Local", "provider": "openAi",
        "baseUrl": "http://localhost:8080/v1", "model": "m"}], "activeProfile": "o"}});
    let got = normalise(&openai, TOOLS);
    assert_eq!(
        got.settings.chat.active().base_url,
        "http://localhost:8080/v1"
    );
    assert!(got.repairs.is_empty(), "{:?}", got.repairs);
}

#[test]
fn the_prompts_folder_and_its_palette_commands_are_paths_or_nothing() {
    let chat = |value: Value| {
        let n = normalise(&json!({ "chat": value }), &[]);
        (
            n.settings.chat.prompts_folder,
            n.settings.chat.prompt_commands,
            n.repairs,
        )
    };
    // A data.json from before them: none.
    assert_eq!(chat(json!({})), (String::new(), Vec::new(), Vec::new()));
    let (folder, commands, repairs) = chat(json!({
        "promptsFolder": " Vault Agent/Prompts/ ",
        "promptCommands": ["Vault Agent/Prompts/Summarise.md", "Vault Agent/Prompts/Summarise.md", "../Out.md", "Plan.canvas", 7]
    }));
    assert_eq!(folder, "Vault Agent/Prompts");
    assert_eq!(
        commands,
        vec!["Vault Agent/Prompts/Summarise.md".to_string()]
    );
    assert_eq!(repairs.len(), 3, "{repairs:?}");
    let (folder, commands, repairs) =
        chat(json!({"promptsFolder": "../Elsewhere", "promptCommands": "Summarise.md"}));
    assert_eq!((folder.as_str(), commands.len()), ("", 0));
    assert!(
        repairs.iter().any(|r| r.contains("promptsFolder"))
            && repairs.iter().any(|r| r.contains("not a list of notes")),
        "{repairs:?}"
    );
}

#[test]
fn the_skills_folder_is_a_folder_or_nothing() {
    let chat = |value: Value| {
        let n = normalise(&json!({ "chat": value }), &[]);
        (n.settings.chat.skills_folder, n.repairs)
    };
    // A data.json from before it: none (skills off).
    assert_eq!(chat(json!({})), (String::new(), Vec::new()));
    assert_eq!(
        chat(json!({"skillsFolder": " Vault Agent/Skills/ "})).0,
        "Vault Agent/Skills"
    );
    for wrong in [json!("../Elsewhere"), json!("/etc"), json!(7)] {
        let (folder, repairs) = chat(json!({ "skillsFolder": wrong }));
        assert_eq!(folder, "", "{wrong}");
        assert!(
            repairs.iter().any(|r| r.contains("skillsFolder")),
            "{wrong}: {repairs:?}"
        );
    }
}

#[test]
fn the_web_is_off_until_turned_on_and_its_section_is_read_leniently() {
    // A data.json from before the web section: off, SearXNG, its usual address.
    let old = normalise(&json!({"localOnly": true}), TOOLS);
    assert!(old.repairs.is_empty(), "{:?}", old.repairs);
    assert_eq!(old.settings.web, web::WebSettings::default());
    assert!(!old.settings.tool_enabled(web::WEB_TOOL));
    let on = normalise(
        &json!({"web": {"enabled": true, "provider": "brave", "searxngUrl": "http://nas.lan:8080/", "apiKeySecret": "brave-key"}}),
        TOOLS,
    );
    assert!(on.repairs.is_empty(), "{:?}", on.repairs);
    let web = &on.settings.web;
    assert!(web.enabled && on.settings.tool_enabled(web::WEB_TOOL));
    assert_eq!(web.provider, web::WebProvider::Brave);
    assert_eq!(web.searxng_url, "http://nas.lan:8080");
    assert_eq!(web.api_key_secret, "brave-key");
    // "yes" is not on; an unknown provider, a file: address and a key that is
    // no secret name are each repaired and said.
    let wrong = normalise(
        &json!({"web": {"enabled": "yes", "provider": "google", "searxngUrl": "file:///etc", "apiKeySecret": "sk-LIVE KEY"}}),
        TOOLS,
    );
    assert_eq!(wrong.settings.web, web::WebSettings::default());
    assert_eq!(wrong.repairs.len(), 4, "{:?}", wrong.repairs);
    assert!(!wrong.settings.tool_enabled(web::WEB_TOOL));
}

#[test]
fn memory_and_the_web_have_one_switch_each_and_an_old_tools_switch_off_keeps_them_off() {
    let known = &["obsidianNotes", MEMORY_TOOL, web::WEB_TOOL];
    let on = json!({"chat": {"memory": true}, "web": {"enabled": true}});
    let n = normalise(&on, known);
    assert!(n.repairs.is_empty(), "{:?}", n.repairs);
    assert!(n.settings.tool_enabled(MEMORY_TOOL) && n.settings.tool_enabled(web::WEB_TOOL));
    // Their own switch alone: one under `tools` cannot turn them on…
    let n = normalise(
        &json!({"tools": {MEMORY_TOOL: true, web::WEB_TOOL: true}}),
        known,
    );
    assert!(!n.settings.tool_enabled(MEMORY_TOOL) && !n.settings.tool_enabled(web::WEB_TOOL));
    assert!(
        n.settings.tools.is_empty(),
        "dropped: {:?}",
        n.settings.tools
    );
    // …and one that was off, from before, keeps them off (it had them off).
    let old = json!({
        "tools": {MEMORY_TOOL: false, web::WEB_TOOL: false, "obsidianNotes": false},
        "chat": {"memory": true}, "web": {"enabled": true}
    });
    let n = normalise(&old, known);
    assert!(!n.settings.chat.memory && !n.settings.web.enabled);
    assert_eq!(
        n.settings.tools,
        BTreeMap::from([("obsidianNotes".to_string(), false)])
    );
    // Saved again, the memory and web switches turn them on.
    let mut again = n.settings.to_json();
    again["chat"]["memory"] = json!(true);
    again["web"]["enabled"] = json!(true);
    let n = normalise(&again, known);
    assert!(n.settings.tool_enabled(MEMORY_TOOL) && n.settings.tool_enabled(web::WEB_TOOL));
    assert!(!n.settings.tool_enabled("obsidianNotes"));
}

#[test]
fn a_tool_with_its_own_switch_names_it_and_its_page() {
    assert_eq!(
        switch_place(MEMORY_TOOL),
        "with the Memory switch in Settings → Vault Agent → Model"
    );
    assert_eq!(
        switch_place(web::WEB_TOOL),
        "with the Web search and pages switch in Settings → Vault Agent → Web"
    );
    assert_eq!(
        switch_place("obsidianNotes"),
        "in Settings → Vault Agent → Tools"
    );
    assert_eq!(own_switch("obsidianNotes"), None);
}
