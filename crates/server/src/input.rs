//! Reading requests: the body as UTF-8 text and the query string, each
//! refused with the API's JSON error rather than axum's plain-text
//! rejection (issue 23: every error body is JSON, as the OpenAPI document
//! says).

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

use crate::http::{Finding, Refused};

/// A refused body: `status` with the findings JSON of every refused
/// request (one finding at `$`).
pub(crate) fn body_refused(status: StatusCode, code: &str, message: String) -> Response {
    (
        status,
        Json(Refused {
            findings: vec![Finding {
                code: code.into(),
                path: "$".into(),
                message,
            }],
        }),
    )
        .into_response()
}

/// The request body as text. A body that is not UTF-8 is refused with
/// `400` and `request.bad-utf8` (naming the first bad byte's offset); one
/// that cannot be read (over the size limit, a broken upload) with its
/// status and `request.too-large` or `request.unreadable`.
pub struct Text(pub String);

impl<S: Send + Sync> FromRequest<S> for Text {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Response> {
        let bytes = match Bytes::from_request(req, state).await {
            Ok(b) => b,
            Err(e) => {
                let status = e.status();
                let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
                    "request.too-large"
                } else {
                    "request.unreadable"
                };
                return Err(body_refused(status, code, e.body_text()));
            }
        };
        match String::from_utf8(bytes.to_vec()) {
            Ok(t) => Ok(Text(t)),
            Err(e) => Err(body_refused(
                StatusCode::BAD_REQUEST,
                "request.bad-utf8",
                format!(
                    "the body is not UTF-8 text: byte {} starts an invalid sequence",
                    e.utf8_error().valid_up_to()
                ),
            )),
        }
    }
}

/// A query string read into `T`; a bad one (a wrong value type, a
/// repeated parameter, bad percent-encoding) is refused with `400` and the
/// API error `query.invalid`.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(q)) => Ok(ApiQuery(q)),
            Err(e) => Err(crate::http::error(
                StatusCode::BAD_REQUEST,
                "query.invalid",
                e.body_text(),
            )),
        }
    }
}
