//! Collectors: public sources the service reads by itself and turns into signals.

pub mod sec_form_d;
