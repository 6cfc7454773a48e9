//! `postfacto serve`: a local web page that shows archives, games,
//! fragments and diagrams on boards. The page is one more client of the
//! library's requests (`src/request`): [`api`] turns its questions into
//! them, [`archive`] checks an archive while the page shows its rows,
//! [`routes`] maps addresses to questions, [`server`] speaks HTTP,
//! [`assets`] holds the page, compiled into the binary.

mod api;
mod archive;
mod assets;
mod routes;
mod server;

pub use routes::State;
pub use server::Server;
