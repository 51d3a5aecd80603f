//! Static assets compiled into the binary: the stylesheet and the vendored htmx.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::page::not_found;

const STYLE: &str = include_str!("../../assets/dashboard.css");
const HTMX: &str = include_str!("../../assets/htmx.min.js");

/// `GET /app/assets/{name}`.
pub async fn serve(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "dashboard.css" => (STYLE, "text/css; charset=utf-8"),
        "htmx.min.js" => (HTMX, "text/javascript; charset=utf-8"),
        _ => return not_found().await,
    };
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}
