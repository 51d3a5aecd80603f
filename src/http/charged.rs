//! Answering a credit-consuming list page: the rows with the page object, and `meta` with the
//! credits used and the balance after.

use axum::response::Response;
use serde::Serialize;

use crate::http::envelope::charged_page;
use crate::http::signals::pagination::PagePagination;
use crate::service::credits::ChargedPage;

/// The answer of one charged list page.
pub fn charged_list<T: Serialize>(
    endpoint: &str,
    pagination: PagePagination,
    page: ChargedPage<T>,
) -> Response {
    charged_page(
        endpoint,
        page.rows,
        pagination,
        page.credits_used,
        page.credits_remaining,
    )
}
