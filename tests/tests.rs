//! Integration tests: one binary made of modules (as ripgrep does).

mod util;

mod cases;
mod cli;
mod golden;
mod property;
