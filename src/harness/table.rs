//! The tables of `bench` as typed values: a title, named and sized
//! columns, rows of [`Cell`]s and notes after them. A [`Table`] writes
//! itself as aligned text for people or as JSON Lines for programs
//! (`--format json`) from the same cells, so both carry the same figures;
//! the binary only chooses the tables and prints them.

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

/// A line after a table's rows: its text, and the figures it states
/// (JSON's keys besides `table`, `note` and `text`).
#[derive(Clone, Debug)]
pub struct Note {
    /// JSON's `note`.
    pub key: &'static str,
    /// The line of text.
    pub text: String,
    /// An object of the figures.
    pub fields: Value,
}

impl Note {
    /// A note `key` saying `text`, with `fields` (an object).
    pub fn new(key: &'static str, text: impl Into<String>, fields: Value) -> Note {
        Note {
            key,
            text: text.into(),
            fields,
        }
    }
}

/// One table: `# title`, a header line, a line per row, then its notes.
#[derive(Clone, Debug)]
pub struct Table {
    /// JSON's `table`, on every line of it.
    pub key: &'static str,
    /// The title line.
    pub title: String,
    /// The columns: name (JSON's key) and width (the first is left-aligned).
    pub columns: Vec<(&'static str, usize)>,
    /// A cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// Lines after the rows.
    pub notes: Vec<Note>,
}

impl Table {
    /// An empty table `key` titled `title`, with `columns`.
    pub fn new(key: &'static str, title: String, columns: &[(&'static str, usize)]) -> Table {
        Table {
            key,
            title,
            columns: columns.to_vec(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The columns of a table of times in milliseconds: `lead`, the
    /// median, p90 and max, then `tail`.
    pub fn timed(
        key: &'static str,
        title: String,
        lead: &[(&'static str, usize)],
        tail: &[(&'static str, usize)],
    ) -> Table {
        let millis = [("median_ms", 10), ("p90_ms", 10), ("max_ms", 10)];
        Table::new(key, title, &[lead, &millis, tail].concat())
    }

    /// Adds a row of such a table: `lead`, `times` in milliseconds (one
    /// decimal), then `tail`.
    pub fn timed_row(&mut self, lead: Vec<Cell>, times: &super::Summary, tail: Vec<Cell>) {
        let ms = |d: Duration| Cell::Num(d.as_secs_f64() * 1000.0, 1);
        let times = [ms(times.median), ms(times.p90), ms(times.max)];
        self.rows
            .push(lead.into_iter().chain(times).chain(tail).collect());
    }

    /// Adds a note.
    pub fn note(&mut self, key: &'static str, text: impl Into<String>, fields: Value) {
        self.notes.push(Note::new(key, text, fields));
    }

    /// The aligned line of `cells`.
    fn line(&self, cells: &[Cell]) -> String {
        let mut line = String::new();
        for (i, (cell, (_, width))) in cells.iter().zip(&self.columns).enumerate() {
            let text = cell.text();
            if i == 0 {
                line.push_str(&format!("{text:<width$}"));
            } else {
                line.push_str(&format!(" {text:>width$}"));
            }
        }
        line
    }

    /// The table as text: title, header, rows, notes, a line each.
    pub fn text(&self) -> String {
        let header: Vec<Cell> = self
            .columns
            .iter()
            .map(|(n, _)| Cell::Text(n.to_string()))
            .collect();
        let mut lines = vec![format!("# {}", self.title), self.line(&header)];
        lines.extend(self.rows.iter().map(|row| self.line(row)));
        lines.extend(self.notes.iter().map(|note| note.text.clone()));
        lines.iter().map(|l| format!("{l}\n")).collect()
    }

    /// The table as JSON Lines: `{"table", "title"}`, an object per row
    /// whose keys are the column names, then `{"table", "note", ...fields,
    /// "text"}` per note.
    pub fn json_lines(&self) -> String {
        let mut lines = vec![serde_json::json!({"table": self.key, "title": self.title})];
        for row in &self.rows {
            let mut object = Map::new();
            object.insert("table".into(), Value::from(self.key));
            for ((name, _), cell) in self.columns.iter().zip(row) {
                object.insert((*name).to_string(), cell.json());
            }
            lines.push(Value::Object(object));
        }
        for note in &self.notes {
            let mut object = Map::new();
            object.insert("table".into(), Value::from(self.key));
            object.insert("note".into(), Value::from(note.key));
            if let Value::Object(fields) = &note.fields {
                object.extend(fields.clone());
            }
            object.insert("text".into(), Value::from(note.text.clone()));
            lines.push(Value::Object(object));
        }
        lines.iter().map(|l| format!("{l}\n")).collect()
    }
}

/// Where tables are written, one after another: as text with a blank
/// line between them, or as JSON Lines.
pub struct Tables<'o> {
    out: &'o mut dyn Write,
    json: bool,
    written: bool,
}

impl<'o> Tables<'o> {
    /// Tables written to `out`, as JSON Lines when `json`.
    pub fn new(out: &'o mut dyn Write, json: bool) -> Tables<'o> {
        Tables {
            out,
            json,
            written: false,
        }
    }

    /// Writes `table`.
    ///
    /// # Errors
    /// The output cannot be written.
    pub fn write(&mut self, table: &Table) -> io::Result<()> {
        if self.json {
            return self.out.write_all(table.json_lines().as_bytes());
        }
        if std::mem::replace(&mut self.written, true) {
            writeln!(self.out)?;
        }
        self.out.write_all(table.text().as_bytes())
    }
}

impl std::fmt::Debug for Tables<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables").field("json", &self.json).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_as_text_and_as_json_lines() {
        let mut table = Table::new(
            "engines",
            "two engines".into(),
            &[("engine", 6), ("median_us", 10)],
        );
        table
            .rows
            .push(vec![Cell::Text("sat".into()), Cell::Num(96.66, 1)]);
        table.note("ratio", "ratio 0.18", serde_json::json!({"ratio": 0.18}));
        let write = |json: bool| {
            let mut bytes = Vec::new();
            let mut tables = Tables::new(&mut bytes, json);
            tables.write(&table).unwrap();
            tables.write(&table).unwrap();
            String::from_utf8(bytes).unwrap()
        };
        let text = "# two engines\nengine  median_us\nsat          96.7\nratio 0.18\n";
        assert_eq!(write(false), format!("{text}\n{text}"));
        let lines: Vec<Value> = write(true)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["title"], "two engines");
        assert_eq!(lines[1]["engine"], "sat");
        assert_eq!(lines[1]["median_us"], 96.7);
        assert_eq!(lines[2]["ratio"], 0.18);
        assert_eq!(lines[2]["table"], "engines");
        assert_eq!(lines.len(), 6);
    }
}
