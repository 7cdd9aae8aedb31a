//! JSON values and thrown `Error`s (with a name and code) across the JavaScript boundary.

use js_sys::{JSON, Reflect};
use serde::Serialize;
use serde::de::DeserializeOwned;
use turnspec_protocol::ErrorBody;
use turnspec_spec::Report;
use wasm_bindgen::prelude::*;

use crate::shapes::{self, ErrorInfo, ErrorName};

/// A Rust value as the JavaScript value `JSON.parse` gives for its JSON.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    JSON::parse(&text)
}

/// A JavaScript value read through `JSON.stringify` (`undefined` is
/// `null`); a value that is not JSON, or not of the shape, is a
/// `MoveError` (`protocol::bad_request`).
pub(crate) fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    let text = if value.is_undefined() {
        "null".to_string()
    } else {
        match JSON::stringify(value) {
            Ok(s) => s.as_string().unwrap_or_else(|| "null".to_string()),
            Err(e) => return Err(e),
        }
    };
    serde_json::from_str(&text).map_err(|e| {
        error_value(
            &ErrorInfo {
                name: ErrorName::MoveError,
                code: "protocol::bad_request".into(),
                rule: None,
                reason: None,
            },
            &format!("{what}: {e}"),
        )
    })
}

/// An `Error` with `name`, `code`, `rule` and `reason` set.
fn error_value(info: &ErrorInfo, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name(info.name.as_str());
    let opt = |s: &Option<String>| s.as_deref().map_or(JsValue::NULL, JsValue::from_str);
    let _ = Reflect::set(&e, &"code".into(), &info.code.as_str().into());
    let _ = Reflect::set(&e, &"rule".into(), &opt(&info.rule));
    let _ = Reflect::set(&e, &"reason".into(), &opt(&info.reason));
    e.into()
}

pub(crate) fn protocol_error(e: &ErrorBody) -> JsValue {
    error_value(&ErrorInfo::of(e), &e.message)
}

pub(crate) fn named_error(name: ErrorName, code: &str, message: &str) -> JsValue {
    error_value(
        &ErrorInfo {
            name,
            code: code.to_string(),
            rule: None,
            reason: None,
        },
        message,
    )
}

/// A `SpecError` carrying every diagnostic, and the first error's place.
pub(crate) fn spec_error(report: &Report) -> JsValue {
    let diagnostics = shapes::diagnostics(report);
    let first = diagnostics
        .iter()
        .find(|d| d.severity == shapes::Severity::Error)
        .or(diagnostics.first());
    let message = match first {
        Some(d) => format!("{}:{}:{}: {}", d.file, d.line, d.column, d.message),
        None => "the spec has errors".to_string(),
    };
    let code = first.map_or("turnspec::error", |d| d.code.as_str());
    let e = error_value(
        &ErrorInfo {
            name: ErrorName::SpecError,
            code: code.to_string(),
            rule: None,
            reason: None,
        },
        &message,
    );
    if let Some(d) = first {
        let _ = Reflect::set(&e, &"file".into(), &d.file.as_str().into());
        let _ = Reflect::set(&e, &"line".into(), &(d.line as f64).into());
        let _ = Reflect::set(&e, &"column".into(), &(d.column as f64).into());
        let help = d.help.as_deref().map_or(JsValue::NULL, JsValue::from_str);
        let _ = Reflect::set(&e, &"help".into(), &help);
    }
    let list = to_js(&diagnostics).unwrap_or(JsValue::NULL);
    let _ = Reflect::set(&e, &"diagnostics".into(), &list);
    e
}
