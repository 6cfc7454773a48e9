//! The tables of `bench`: aligned columns for people, or JSON Lines for
//! programs (`--format json`), written by the same calls so both carry
//! the same figures.

use std::io::{self, Write};
use std::time::Duration;

use serde_json::{Map, Value};

/// One figure of a row.
#[derive(Clone, Debug)]
pub enum Cell {
    /// A count.
    Int(usize),
    /// A measure printed with this many decimals.
    Num(f64, usize),
    /// A name.
    Text(String),
    /// Nothing to give: `-` in text, null in JSON.
    Missing,
}

impl Cell {
    /// A time in microseconds, one decimal (the unit of most columns).
    pub fn micros(d: Duration) -> Cell {
        Cell::Num(d.as_secs_f64() * 1e6, 1)
    }

    /// A time in milliseconds, three decimals.
    pub fn millis(d: Duration) -> Cell {
        Cell::Num(d.as_secs_f64() * 1e3, 3)
    }

    fn text(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Num(x, decimals) => format!("{x:.decimals$}"),
            Cell::Text(t) => t.clone(),
            Cell::Missing => "-".to_string(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Int(n) => Value::from(*n),
            // Rounded as printed: the JSON says what the table says.
            Cell::Num(x, decimals) => {
                let scale = 10f64.powi(i32::try_from(*decimals).unwrap_or(0));
                Value::from((x * scale).round() / scale)
            }
            Cell::Text(t) => Value::from(t.clone()),
            Cell::Missing => Value::Null,
        }
    }
}

/// Where `bench` writes: sections, each a title, columns and rows, and
/// notes between them.
pub struct Tables<'o> {
    out: &'o mut dyn Write,
    json: bool,
    /// The current section's key (JSON's `table`).
    section: String,
    /// Its columns: name and width (the first is left-aligned).
    columns: Vec<(&'static str, usize)>,
    written: bool,
}

impl<'o> Tables<'o> {
    /// Tables written to `out`, as JSON Lines when `json`.
    pub fn new(out: &'o mut dyn Write, json: bool) -> Tables<'o> {
        Tables {
            out,
            json,
            section: String::new(),
            columns: Vec::new(),
            written: false,
        }
    }

    /// Starts section `key`: `# title` (after a blank line unless it is the
    /// first), or `{"table": key, "title": title}`.
    pub fn section(&mut self, key: &str, title: &str) -> io::Result<()> {
        self.section = key.to_string();
        self.columns.clear();
        if self.json {
            let object = serde_json::json!({"table": key, "title": title});
            return writeln!(self.out, "{object}");
        }
        if self.written {
            writeln!(self.out)?;
        }
        self.written = true;
        writeln!(self.out, "# {title}")
    }

    /// The section's columns, named and sized; the header line (text only).
    pub fn columns(&mut self, columns: &[(&'static str, usize)]) -> io::Result<()> {
        self.columns = columns.to_vec();
        if self.json {
            return Ok(());
        }
        let names: Vec<Cell> = columns
            .iter()
            .map(|(n, _)| Cell::Text(n.to_string()))
            .collect();
        self.line(&names)
    }

    /// One row, a cell per column: aligned, or an object of the section
    /// whose keys are the column names.
    pub fn row(&mut self, cells: &[Cell]) -> io::Result<()> {
        if !self.json {
            return self.line(cells);
        }
        let mut object = Map::new();
        object.insert("table".into(), Value::from(self.section.clone()));
        for ((name, _), cell) in self.columns.iter().zip(cells) {
            object.insert((*name).to_string(), cell.json());
        }
        writeln!(self.out, "{}", Value::Object(object))
    }

    /// A line between the rows: the text, or `{"table", "note": key,
    /// "text", ...fields}` with the figures it states.
    pub fn note(&mut self, key: &str, text: &str, fields: Value) -> io::Result<()> {
        if !self.json {
            self.written = true;
            return writeln!(self.out, "{text}");
        }
        let mut object = Map::new();
        object.insert("table".into(), Value::from(self.section.clone()));
        object.insert("note".into(), Value::from(key));
        if let Value::Object(fields) = fields {
            object.extend(fields);
        }
        object.insert("text".into(), Value::from(text));
        writeln!(self.out, "{}", Value::Object(object))
    }

    fn line(&mut self, cells: &[Cell]) -> io::Result<()> {
        let mut line = String::new();
        for (i, (cell, (_, width))) in cells.iter().zip(&self.columns).enumerate() {
            let text = cell.text();
            if i == 0 {
                line.push_str(&format!("{text:<width$}"));
            } else {
                line.push_str(&format!(" {text:>width$}"));
            }
        }
        self.written = true;
        writeln!(self.out, "{line}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_as_text_and_as_json_lines() {
        let write = |json: bool| {
            let mut bytes = Vec::new();
            let mut tables = Tables::new(&mut bytes, json);
            tables.section("engines", "two engines").unwrap();
            tables.columns(&[("engine", 6), ("median_us", 10)]).unwrap();
            tables
                .row(&[Cell::Text("sat".into()), Cell::Num(96.66, 1)])
                .unwrap();
            tables
                .note("ratio", "ratio 0.18", serde_json::json!({"ratio": 0.18}))
                .unwrap();
            String::from_utf8(bytes).unwrap()
        };
        assert_eq!(
            write(false),
            "# two engines\nengine  median_us\nsat          96.7\nratio 0.18\n"
        );
        let lines: Vec<Value> = write(true)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[1]["engine"], "sat");
        assert_eq!(lines[1]["median_us"], 96.7);
        assert_eq!(lines[2]["ratio"], 0.18);
        assert_eq!(lines[2]["table"], "engines");
    }
}
