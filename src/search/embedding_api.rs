//! The embedding server's protocol: OpenAI's `POST /v1/embeddings`, which
//! Ollama, LM Studio, llama.cpp's server, OpenAI and OpenRouter speak. Pure:
//! the engine sends the request and hands back the answer.

use serde_json::{json, Value};

use super::vectors::MAX_DIMS;
use crate::base::host::HttpRequest;
use crate::settings::embeddings::{task_prefixes, EmbeddingSettings};

/// The tag of every request of an embedding run, so Stop ends them
/// (`abortHttp`).
pub const TAG: &str = "embeddings";

/// The tag of a search's own request (its query's vector): apart from the
/// runs', so Stop in the settings never cuts off a search in a chat.
pub const QUERY_TAG: &str = "embeddings-query";

/// How long a search waits for its query's vector: a search in a chat must
/// not hang on a slow server (a run waits minutes, for a model on a CPU).
pub const QUERY_WAIT_MS: u32 = 8_000;

/// The longest answer read (a batch of 32 vectors of 4 096 numbers as JSON
/// is about 3 MB).
pub const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// The request that embeds `inputs`. A model on a CPU may take long to
/// load and to answer a batch, so the waits are long; a query's are short,
/// because a search waits for it.
pub fn request(
    settings: &EmbeddingSettings,
    api_key: Option<&str>,
    inputs: &[String],
    for_query: bool,
) -> HttpRequest {
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    if let Some(key) = api_key {
        headers.push(("Authorization".to_string(), format!("Bearer {key}")));
    }
    let wait = if for_query { QUERY_WAIT_MS } else { 180_000 };
    HttpRequest {
        method: "POST".into(),
        url: format!("{}/embeddings", settings.base_url.trim_end_matches('/')),
        headers,
        body: Some(
            json!({ "model": settings.model, "input": with_prefix(settings, inputs, for_query) })
                .to_string(),
        ),
        timeout_ms: wait,
        first_byte_timeout_ms: wait,
        idle_timeout_ms: 60_000,
        connect_address: None,
        expected_host: String::new(),
        tag: Some(if for_query { QUERY_TAG } else { TAG }.to_string()),
    }
}

/// The texts as the model is sent them: after the task prefix its card
/// asks for, if any (`settings::embeddings::task_prefixes`).
fn with_prefix(settings: &EmbeddingSettings, inputs: &[String], for_query: bool) -> Vec<String> {
    let (query, document) = task_prefixes(&settings.model);
    let prefix = if for_query { query } else { document };
    inputs
        .iter()
        .map(|text| format!("{prefix}{text}"))
        .collect()
}

/// What went wrong, in words that say what to do (`status` 0: no answer).
pub fn failure(settings: &EmbeddingSettings, status: u16, body: &str) -> String {
    let said = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| {
            v["error"]["message"]
                .as_str()
                .or_else(|| v["error"].as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| body.chars().take(200).collect());
    let said = if said.trim().is_empty() {
        String::new()
    } else {
        format!(" It said: {}", said.trim())
    };
    let url = format!("{}/embeddings", settings.base_url);
    match status {
        401 | 403 => format!("The embedding server at {url} refused the API key ({status}). Check the key's secret in Settings → Vault Agent → Search by meaning.{said}"),
        404 => format!("The embedding server at {url} answered 404: the address should end in /v1, and the model \"{}\" must be one it serves (Ollama: `ollama pull {}`).{said}", settings.model, settings.model),
        _ => format!("The embedding server at {url} answered {status}.{said}"),
    }
}

/// The vectors of an answer, one per input in their order; anything else
/// (not JSON, another count, numbers missing) is refused with why.
pub fn parse(body: &str, inputs: usize) -> Result<Vec<Vec<f32>>, String> {
    let value: Value = serde_json::from_str(body)
        .map_err(|_| "the embedding server's answer is not JSON".to_string())?;
    let Some(data) = value["data"].as_array() else {
        return Err("the embedding server's answer has no `data` list of vectors".into());
    };
    if data.len() != inputs {
        return Err(format!(
            "the embedding server sent {} vectors for {inputs} sections",
            data.len()
        ));
    }
    let mut vectors: Vec<Option<Vec<f32>>> = vec![None; inputs];
    for (at, item) in data.iter().enumerate() {
        let place = item["index"].as_u64().map_or(at, |i| i as usize);
        let Some(numbers) = item["embedding"].as_array() else {
            return Err("an entry of the embedding server's answer has no `embedding` list".into());
        };
        if numbers.len() > MAX_DIMS {
            return Err(format!(
                "a vector of {} numbers (expected at most {MAX_DIMS})",
                numbers.len()
            ));
        }
        let vector: Option<Vec<f32>> = numbers
            .iter()
            .map(|n| n.as_f64().map(|n| n as f32))
            .collect();
        let Some(vector) = vector else {
            return Err(
                "a vector of the embedding server's answer holds something other than numbers"
                    .into(),
            );
        };
        match vectors.get_mut(place) {
            Some(slot @ None) => *slot = Some(vector),
            _ => return Err("the embedding server's answer numbers its vectors wrongly".into()),
        }
    }
    Ok(vectors
        .into_iter()
        .map(|v| v.expect("every place filled"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_that_wants_task_prefixes_is_sent_them() {
        let body = |settings: &EmbeddingSettings, for_query| -> Value {
            let request = request(settings, None, &["Brake pads".to_string()], for_query);
            serde_json::from_str(request.body.as_deref().unwrap()).unwrap()
        };
        let nomic = EmbeddingSettings::default();
        assert_eq!(body(&nomic, true)["input"][0], "search_query: Brake pads");
        assert_eq!(
            body(&nomic, false)["input"][0],
            "search_document: Brake pads"
        );
        let plain = EmbeddingSettings {
            model: "all-minilm".into(),
            ..EmbeddingSettings::default()
        };
        assert_eq!(body(&plain, true)["input"][0], "Brake pads");
        assert_eq!(body(&plain, false)["input"][0], "Brake pads");
    }

    #[test]
    fn the_answers_vectors_follow_their_index() {
        let body = r#"{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0.5]}]}"#;
        assert_eq!(parse(body, 2), Ok(vec![vec![1.0, 0.5], vec![0.0, 1.0]]));
    }

    #[test]
    fn garbage_says_what_was_wrong() {
        assert!(parse("<html>", 1).unwrap_err().contains("not JSON"));
        assert!(parse(r#"{"data":[]}"#, 1)
            .unwrap_err()
            .contains("0 vectors for 1"));
        assert!(parse(r#"{"data":[{"embedding":["a"]}]}"#, 1)
            .unwrap_err()
            .contains("other than numbers"));
        assert!(parse(
            r#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}"#,
            2
        )
        .unwrap_err()
        .contains("wrongly"));
    }

    #[test]
    fn a_missing_model_says_how_to_get_it() {
        let settings = EmbeddingSettings::default();
        let text = failure(
            &settings,
            404,
            r#"{"error":"model \"nomic-embed-text\" not found"}"#,
        );
        assert!(text.contains("ollama pull nomic-embed-text"), "{text}");
        assert!(text.contains("not found"), "{text}");
    }
}
