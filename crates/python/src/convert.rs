//! JSON values between Rust and Python, through Python's own `json`
//! module (so a dict, list, str, int, float, bool or None round-trips as
//! `json.loads(json.dumps(x))` would).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;

/// `v` as a Python object (`dict`, `list`, `str`, `int`, `float`, `bool`,
/// `None`).
pub(crate) fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(v).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// The JSON text of `obj`: a `str` is taken as JSON text as it is, any
/// other object is written by `json.dumps`.
pub(crate) fn json_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return s.extract::<String>();
    }
    let py = obj.py();
    py.import("json")?
        .call_method1("dumps", (obj,))
        .map_err(|e| {
            PyValueError::new_err(format!(
                "not JSON-serialisable ({}); give a dict, list, str, int, float, bool or None",
                e.value(py)
            ))
        })?
        .extract()
}

/// `obj` as a JSON value (a Python object, not JSON text: a `str` is a
/// JSON string).
pub(crate) fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let py = obj.py();
    let text: String = py
        .import("json")?
        .call_method1("dumps", (obj,))
        .map_err(|e| PyValueError::new_err(format!("not JSON-serialisable: {}", e.value(py))))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| PyValueError::new_err(e.to_string()))
}
