//! The one dispatch of the API: every route, for the HTTP server and the
//! page built for WebAssembly alike, is written here once.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::api::ApiError;
use crate::limits::MAX_BODY;
use crate::{OpenRequest, PlayRequest, SaveOpenRequest, SaveRequest, Workbench};

/// `{"to": n}`: the move to go back before.
#[derive(Deserialize)]
struct BackRequest {
    to: usize,
}

/// The body as the type a route takes; an empty body is `{}`.
fn body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.len() > MAX_BODY {
        return Err(ApiError::too_much(format!(
            "the request is {} bytes; the workbench takes at most {MAX_BODY}",
            bytes.len()
        )));
    }
    let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad(format!("the request is not the JSON this route takes: {e}")))
}

fn index(text: &str) -> Result<usize, ApiError> {
    text.parse()
        .map_err(|_| ApiError::bad(format!("{text:?} is not a spec number")))
}

fn not_found(path: &str) -> ApiError {
    ApiError::with_status(404, format!("no route {path}"))
}

fn wrong_method(method: &str, path: &str) -> ApiError {
    ApiError::with_status(405, format!("{path} does not take {method}"))
}

impl Workbench {
    /// Answers one API request: `method` (`GET` or `POST`), `path` (from
    /// `/api/`, a query string is ignored), `body` (JSON, empty for `GET`)
    /// and `now_ms`, the time in milliseconds of any clock that does not go
    /// back (it only closes idle games). The answer is the JSON the route
    /// gives, or an error with its HTTP status.
    ///
    /// Never panics, whatever it is given; every request is bounded
    /// ([`crate::limits`]).
    pub fn handle(
        &self,
        method: &str,
        path: &str,
        body_bytes: &[u8],
        now_ms: u64,
    ) -> Result<Value, ApiError> {
        let path = path.split(['?', '#']).next().unwrap_or_default();
        let Some(rest) = path.strip_prefix("/api/") else {
            return Err(not_found(path));
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let get = method.eq_ignore_ascii_case("GET");
        let post = method.eq_ignore_ascii_case("POST");
        let answer = match parts.as_slice() {
            ["specs"] => get.then(|| Ok(self.list())),
            ["specs", i] => get.then(|| self.spec_details(index(i)?)),
            ["specs", i, "source"] => get.then(|| self.source(index(i)?)),
            ["specs", i, "scenarios"] => post.then(|| self.run_scenarios(index(i)?)),
            ["play"] => post.then(|| self.play(&body::<PlayRequest>(body_bytes)?)),
            ["scenario"] => post.then(|| self.save(&body::<SaveRequest>(body_bytes)?)),
            ["session"] => post.then(|| self.open(&body::<OpenRequest>(body_bytes)?, now_ms)),
            ["session", id, "move"] => post.then(|| self.play_move(id, &body(body_bytes)?, now_ms)),
            ["session", id, "back"] => {
                post.then(|| self.back(id, body::<BackRequest>(body_bytes)?.to, now_ms))
            }
            ["session", id, "save"] => {
                post.then(|| self.save_open(id, &body::<SaveOpenRequest>(body_bytes)?, now_ms))
            }
            ["check"] => post.then(|| self.check(&body(body_bytes)?)),
            ["diff"] => post.then(|| self.diff(&body(body_bytes)?)),
            ["draft"] => post.then(|| self.draft(&body(body_bytes)?)),
            ["spec", "save"] => post.then(|| self.save_spec(&body(body_bytes)?)),
            _ => return Err(not_found(path)),
        };
        answer.unwrap_or_else(|| Err(wrong_method(method, path)))
    }
}
