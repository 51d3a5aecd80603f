//! `sqlx::migrate!` embeds the migration directories when the crate is compiled; without this a
//! migration added to them would not be in the next build until some source file changed.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
