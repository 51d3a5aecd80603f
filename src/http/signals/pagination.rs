//! The page-number pagination object of the signal and company lists.

use serde::Serialize;
use utoipa::ToSchema;

/// `{currentPage, totalPages, totalCount, hasNextPage, hasPreviousPage}`.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PagePagination {
    pub current_page: i64,
    pub total_pages: i64,
    pub total_count: i64,
    pub has_next_page: bool,
    pub has_previous_page: bool,
}

impl PagePagination {
    /// The pagination of page `page` of `limit` rows out of `total`.
    pub fn new(page: i64, limit: i64, total: i64) -> PagePagination {
        let total_pages = (total + limit - 1) / limit;
        PagePagination {
            current_page: page,
            total_pages,
            total_count: total,
            has_next_page: page < total_pages,
            has_previous_page: page > 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_result_has_no_pages() {
        let p = PagePagination::new(1, 20, 0);
        assert_eq!(
            (p.total_pages, p.has_next_page, p.has_previous_page),
            (0, false, false)
        );
    }

    #[test]
    fn a_page_past_the_end_echoes_the_request_and_looks_back() {
        let p = PagePagination::new(9, 20, 41);
        assert_eq!(
            (
                p.current_page,
                p.total_pages,
                p.has_next_page,
                p.has_previous_page
            ),
            (9, 3, false, true)
        );
    }
}
