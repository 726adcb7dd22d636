//! Settings → Safety → Local only: a destination off this computer and the
//! private network is refused before anything is sent, a host name is
//! checked by every address it has and connected to by the one checked, and
//! every attempt is in the connection log.

use super::*;

fn profile(base_url: &str, local_only: bool) -> Value {
    json!({"localOnly": local_only, "chat": {"profiles": [
        {"id": "p", "provider": "openAi", "baseUrl": base_url, "model": "m", "contextWindow": 8192}
    ]}})
}

#[test]
fn a_public_server_is_refused_before_anything_is_sent() {
    let core = agent(profile("https://api.example.com/v1", true));
    core.host()
        .dns
        .borrow_mut()
        .insert("api.example.com".into(), vec!["93.184.215.14".into()]);
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Failed
    );
    let (code, message) = failure(&events);
    assert_eq!(code, "local_only", "{message}");
    assert!(
        message.contains("api.example.com is 93.184.215.14")
            && message.contains("Safety → Local only"),
        "{message}"
    );
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "nothing was sent"
    );
    assert!(
        !retryable(&events),
        "Retry cannot help while Local only refuses"
    );
    let log = core.engine.connection_log();
    assert!(!log.is_empty());
    assert!(
        log.iter()
            .all(|e| e.refused && e.destination == "api.example.com:443"),
        "{log:?}"
    );
    assert!(log.iter().any(|e| e.purpose == "chat answer"), "{log:?}");
}

#[test]
fn loopback_and_the_private_network_are_reached_at_the_address_checked() {
    for (url, address, looked_up) in [
        ("http://localhost:11434/v1", "127.0.0.1", true),
        ("http://192.168.1.20:1234/v1", "192.168.1.20", false),
        ("http://[::1]:8080/v1", "::1", false),
    ] {
        let core = agent(profile(url, true));
        core.host().script_http(ok(openai_sse("Hello.", &[], 1)));
        let end = block_on(
            core.chat
                .send(&mut conversation(), "hi", &Recorder::default()),
        );
        assert_eq!(end, TurnEnd::Done, "{url}");
        let sent = core.host().http_requests.borrow()[0].clone();
        assert_eq!(sent.connect_address.as_deref(), Some(address), "{url}");
        assert_eq!(
            !core.host().resolved.borrow().is_empty(),
            looked_up,
            "{url}"
        );
        let log = core.engine.connection_log();
        assert!(log.iter().all(|e| !e.refused), "{url}: {log:?}");
        assert_eq!(log.last().unwrap().address.as_deref(), Some(address));
    }
}

#[test]
fn a_name_with_one_public_address_among_private_ones_is_refused() {
    let core = agent(profile("http://models.lan:8000/v1", true));
    core.host().dns.borrow_mut().insert(
        "models.lan".into(),
        vec!["10.0.0.7".into(), "203.0.113.9".into()],
    );
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    assert_eq!(failure(&events).0, "local_only");
    assert!(core.host().http_requests.borrow().is_empty());
    // A name that cannot be looked up cannot be checked: refused too.
    let core = agent(profile("http://nowhere.invalid/v1", true));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    let (code, message) = failure(&events);
    assert_eq!(code, "local_only");
    assert!(message.contains("could not be looked up"), "{message}");
}

#[test]
fn with_local_only_off_nothing_is_looked_up_and_every_connection_is_still_logged() {
    let core = agent(profile("https://api.example.com/v1", false));
    core.host().script_http(ok(openai_sse("Hello.", &[], 1)));
    block_on(
        core.chat
            .send(&mut conversation(), "hi", &Recorder::default()),
    );
    let sent = core.host().http_requests.borrow()[0].clone();
    assert_eq!(sent.connect_address, None);
    assert!(core.host().resolved.borrow().is_empty());
    let log = core.engine.connection_log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(
        (
            log[0].destination.as_str(),
            log[0].purpose.as_str(),
            log[0].refused
        ),
        ("api.example.com:443", "chat answer", false)
    );
}
