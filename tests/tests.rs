//! Integration tests: one binary made of modules (as ripgrep does).

mod util;

mod analysis;
mod archive;
mod cases;
mod cli;
mod comparing;
mod damaged;
mod docs;
mod every_rule_set;
mod explaining;
mod formats;
mod fuzz;
mod golden;
mod legal;
mod lenient;
mod limits;
mod oracle;
mod pawns;
mod property;
mod reach;
mod reading;
mod refining;
mod repair;
mod russian;
mod serve;
mod variants;
mod verifying;
