//! Fuzz target `arguments`: The argument parser: ToolSpec::parse_call → invocation → to_argv.

use super::*;

#[derive(Clone, Debug)]
enum FieldKind {
    Text,
    Bool,
    Integer,
    Choice(Vec<Value>),
}

/// Per tool, per command: the declared fields and their kinds (from the
/// command's own JSON Schema, so new commands are fuzzed without changes here).
/// One command: its name and its declared fields.
type CommandShape = (&'static str, Vec<(String, FieldKind)>);

static SHAPES: LazyLock<Vec<Vec<CommandShape>>> = LazyLock::new(|| {
    TOOLS
        .iter()
        .map(|tool| {
            tool.commands
                .iter()
                .map(|command| {
                    let schema = command.arguments_schema();
                    let fields = schema["properties"]
                        .as_object()
                        .map(|props| {
                            props
                                .iter()
                                .map(|(name, prop)| (name.clone(), field_kind(prop)))
                                .collect()
                        })
                        .unwrap_or_default();
                    (command.name, fields)
                })
                .collect()
        })
        .collect()
});

fn field_kind(prop: &Value) -> FieldKind {
    if let Some(values) = prop["enum"].as_array() {
        return FieldKind::Choice(values.iter().filter(|v| !v.is_null()).cloned().collect());
    }
    let types: Vec<&str> = match &prop["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.contains(&"boolean") {
        FieldKind::Bool
    } else if types.contains(&"integer") || types.contains(&"number") {
        FieldKind::Integer
    } else {
        FieldKind::Text
    }
}

fn field_value(kind: &FieldKind) -> BoxedStrategy<Value> {
    match kind {
        FieldKind::Text => prop_oneof![
            6 => plain_name().prop_map(Value::from),
            6 => text().prop_map(Value::from),
            1 => json_any(),
        ]
        .boxed(),
        FieldKind::Bool => {
            prop_oneof![8 => any::<bool>().prop_map(Value::from), 1 => json_any()].boxed()
        }
        FieldKind::Integer => prop_oneof![
            6 => (0u64..300).prop_map(Value::from),
            1 => any::<i64>().prop_map(Value::from),
            1 => Just(json!(2.5)),
            1 => json_any(),
        ]
        .boxed(),
        FieldKind::Choice(values) => prop_oneof![
            8 => select(values.clone()),
            1 => text().prop_map(Value::from),
            1 => json_any(),
        ]
        .boxed(),
    }
}

fn other_command() -> impl Strategy<Value = String> {
    let mut names: Vec<String> = EXCLUDED_COMMANDS.iter().map(|c| c.to_string()).collect();
    names.extend(
        TOOLS
            .iter()
            .flat_map(|t| t.command_names())
            .map(String::from),
    );
    names.extend(
        [
            "plugin:enable",
            "dev:eval",
            "DELETE",
            "read ",
            " read",
            "read\n",
            "tasks;",
            "daily:read\u{0}",
        ]
        .map(String::from),
    );
    select(names)
}

/// (tool index, arguments): mostly a well-typed call of one of the tool's
/// commands, mixed with wrong types, undeclared keys and foreign commands.
fn tool_arguments() -> impl Strategy<Value = (usize, Value)> {
    (0..TOOLS.len())
        .prop_flat_map(|tool| (Just(tool), 0..SHAPES[tool].len()))
        .prop_flat_map(|(tool, command)| {
            let (name, fields) = &SHAPES[tool][command];
            let name: &'static str = name;
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
                .iter()
                .map(|(field, kind)| {
                    proptest::option::weighted(0.5, (Just(field.clone()), field_value(kind)))
                        .boxed()
                })
                .collect();
            let command = prop_oneof![
                14 => Just(Some(Value::from(name))),
                2 => other_command().prop_map(|c| Some(Value::from(c))),
                1 => text().prop_map(|c| Some(Value::from(c))),
                1 => json_leaf().prop_map(Some),
                1 => Just(None),
            ];
            let extra = prop_oneof![
                6 => Just(Vec::new()),
                1 => vec((select(ODD_KEYS).prop_map(String::from), json_any()), 1..3),
                1 => vec((text(), json_any()), 1..3),
            ];
            let object = prop_oneof![15 => Just(true), 1 => Just(false)];
            (Just(tool), command, fields, extra, object, json_any())
        })
        .prop_map(|(tool, command, fields, extra, object, other)| {
            if !object {
                return (tool, other);
            }
            let mut map = Map::new();
            if let Some(command) = command {
                map.insert("command".into(), command);
            }
            for (key, value) in fields.into_iter().flatten().chain(extra) {
                map.insert(key, value);
            }
            (tool, Value::Object(map))
        })
}

const PATH_KEYS: &[&str] = &["file", "path", "folder"];

fn check_tool_call(tool: &ToolSpec, args: &Value) -> TestCaseResult {
    let call = match tool.parse_call(args) {
        Ok(call) => call,
        Err(error) => {
            prop_assert!(!error.to_string().trim().is_empty());
            prop_assert!(!error.code().is_empty());
            return Ok(());
        }
    };
    reached("arguments.parsed");
    let allowed = tool.command_names();
    let name = call.command.name;
    prop_assert!(
        allowed.contains(&name),
        "{name} is not on {}'s allowlist",
        tool.id
    );
    prop_assert!(!is_excluded(name), "{name} is excluded");
    if let Some(Value::String(asked)) = args.get("command") {
        prop_assert_eq!(asked.as_str(), name);
    }
    let _ = call.access();
    let _ = call.args.write_target();
    if let Some(probe) = call.args.plan().probe() {
        prop_assert!(!is_excluded(&probe.command), "probe runs {}", probe.command);
        let _ = probe.to_argv();
    }
    if matches!(call.args.plan(), vault_agent::tools::Plan::NoteEdit(_)) {
        // An edit through Obsidian's vault (a memory line's): no CLI command
        // runs, so there is no argv to check.
        return Ok(());
    }
    let invocation = match call.invocation(None) {
        Ok(invocation) => invocation,
        Err(error) => {
            prop_assert!(!error.to_string().trim().is_empty());
            return Ok(());
        }
    };
    // A command that runs another CLI command (memory's `add`: `append` or
    // `create`) says so itself, and that one is never an excluded command.
    let runs = call.args.cli_command().unwrap_or(name);
    prop_assert!(
        !is_excluded(runs),
        "{name} runs {runs}, an excluded command"
    );
    prop_assert_eq!(invocation.command.as_str(), runs);
    prop_assert_eq!(&invocation.vault, &None);
    let argv = match invocation.to_argv() {
        Ok(argv) => argv,
        Err(error) => {
            prop_assert!(!error.to_string().trim().is_empty());
            return Ok(());
        }
    };
    reached("arguments.argv");
    prop_assert_eq!(argv[0].as_str(), runs);
    // What runs is the command itself, or a CLI command another tool's
    // allowlist already holds (memory's `add` runs obsidianEdit's `append`).
    prop_assert!(
        (allowed.contains(&argv[0].as_str())
            || vault_agent::tools::builtin_tools()
                .iter()
                .any(|t| t.command_names().contains(&argv[0].as_str())))
            && !is_excluded(&argv[0])
    );
    prop_assert_eq!(
        argv.len(),
        1 + invocation.parameters.len() + invocation.flags.len()
    );
    if call.args.cli_command().is_some() {
        // Composed by the core (memory's line): its keys are ones the tool
        // that declares `runs` takes, and no value carries a control character.
        let owner = vault_agent::tools::builtin_tools()
            .into_iter()
            .find(|t| t.command_names().contains(&runs))
            .expect("checked above");
        let owner_declared = owner.input_schema()["properties"].clone();
        for element in &argv[1..] {
            let (key, sent) = element.split_once('=').expect("key=value");
            prop_assert!(
                owner_declared.get(key).is_some(),
                "undeclared parameter {key}"
            );
            prop_assert!(!sent.chars().any(char::is_control), "{element:?}");
        }
        return Ok(());
    }
    let declared = tool.input_schema()["properties"].clone();
    let fields = args.as_object().cloned().unwrap_or_default();
    for (element, (key, value)) in argv[1..].iter().zip(&invocation.parameters) {
        prop_assert!(declared.get(key).is_some(), "undeclared parameter {key}");
        prop_assert!(
            key != "vault" && key != "command" && !UI_ONLY_PARAMETERS.contains(&key.as_str())
        );
        let (sent_key, sent) = element.split_once('=').expect("key=value");
        prop_assert_eq!(sent_key, key.as_str());
        prop_assert!(!sent.chars().any(char::is_control), "{element:?}");
        prop_assert_eq!(unescape_like_cli(sent), normalise_line_endings(value));
        if PATH_KEYS.contains(&key.as_str()) {
            // Every path-like parameter went through the one normalisation.
            let again = normalised(key, value, PathKind::File);
            prop_assert_eq!(
                again.as_deref(),
                Ok(value.as_str()),
                "`{}` reached argv without normalisation",
                key
            );
        }
        match fields.get(key) {
            Some(Value::String(given)) if !PATH_KEYS.contains(&key.as_str()) && key != "ref" => {
                let name_normalised = normalised(key, given, PathKind::NoteName).ok();
                prop_assert!(
                    given == value || name_normalised.as_deref() == Some(value.as_str()),
                    "`{key}`: {given:?} became {value:?}"
                );
            }
            // A search page asks the CLI for `offset + limit` results.
            Some(Value::Number(given)) if key == "limit" && fields.contains_key("offset") => {
                let offset = fields["offset"].as_u64().unwrap_or(0);
                prop_assert_eq!(
                    (given.as_u64().unwrap_or(0) + offset).to_string(),
                    value.clone()
                );
            }
            Some(Value::Number(given)) => prop_assert_eq!(&given.to_string(), value),
            _ => {}
        }
    }
    for flag in &argv[1 + invocation.parameters.len()..] {
        prop_assert!(declared.get(flag).is_some(), "undeclared flag {flag}");
        prop_assert!(!UI_ONLY_PARAMETERS.contains(&flag.as_str()));
        // `minCount` needs the counts, so it asks for them.
        if flag == "counts" && fields.contains_key("minCount") {
            continue;
        }
        prop_assert_eq!(fields.get(flag), Some(&Value::Bool(true)));
    }
    prop_assert!(argv.iter().all(|a| !a.starts_with("vault=")));
    for os in [Os::Linux, Os::Macos, Os::Windows, Os::Other] {
        let _ = check_size("/usr/bin/obsidian", &argv, os);
    }
    Ok(())
}

#[test]
fn fuzz_arguments() {
    let started = Instant::now();
    let files = replay("arguments", |name, bytes| {
        let value: Value =
            serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
        for tool in TOOLS.iter() {
            check_tool_call(tool, &value)?;
        }
        Ok(())
    });
    let cases = Property {
        target: "arguments",
        name: "parse_call, invocation, to_argv",
        share: 1.0,
        seeds: seeds!("arguments"),
        strategy: tool_arguments(),
        save: |(_, value)| ("json", serde_json::to_vec_pretty(value).expect("JSON")),
    }
    .run(|(tool, args)| check_tool_call(&TOOLS[tool], &args));
    report("arguments", files, cases, started);
}
