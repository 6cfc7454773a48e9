//! `compare --against` keeps its columns whatever the command's length
//! (issue 44, item 29).

use crate::util::{postfacto, scratch};

#[test]
fn a_long_outside_command_keeps_the_columns_aligned() {
    let records = postfacto(&["generate", "--count", "2", "--plies", "10"], "");
    let file = scratch("compare-long-command.in", &records.stdout);
    // Longer than the 40 characters the command column had.
    let dfs = format!(
        "{} solve --engine dfs --quiet --rules english --limit 60s",
        env!("CARGO_BIN_EXE_postfacto")
    );
    assert!(dfs.len() > 40);
    let run = postfacto(&["compare", "--against", &dfs, file.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let table: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("command"))
        .take(4)
        .collect();
    assert_eq!(table.len(), 4, "{}", run.stdout);
    assert!(table[3].starts_with(&dfs), "{}", run.stdout);
    // Every row's numbers end where the header's column names end.
    for row in &table[1..] {
        assert_eq!(row.len(), table[0].len(), "{}", run.stdout);
    }
}
