//! Which unknowns of a damaged record are forced (`--explain` on a
//! solvable damaged record): for each damaged ply, is the move an answer
//! filled in the only one any answer can play there?

use std::fmt;

use varisat::{CnfFormula, ExtendFormula};

use crate::board::Color;
use crate::encode::{BoardFacts, EncodeOptions, Term};
use crate::notation::{MoveNumbers, MoveText, Record, WrittenMove};
use crate::rules::Variant;
use crate::solve::{solve_refining, Formula, SolveError};

/// What is known of one damaged ply's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVerdict {
    /// 1-based ply.
    pub ply: usize,
    /// The move as written.
    pub written: WrittenMove,
    /// The move the answer plays there.
    pub played: MoveText,
    /// Another move some other answer plays there, if there is one.
    pub other: Option<MoveText>,
    /// How the rule set writes moves.
    variant: Variant,
    /// How the game numbers its moves (a PDN game), with the side of its
    /// first ply: the ply is then named as the game numbers it.
    numbering: Option<(MoveNumbers, Color)>,
}

impl UnknownVerdict {
    /// True when every answer plays the same move at this ply.
    pub fn is_forced(&self) -> bool {
        self.other.is_none()
    }

    /// The same verdict naming its ply as a game numbered by `numbers`,
    /// whose first ply is `first`'s, numbers it (`3... ? (ply 6)`).
    #[must_use]
    pub fn numbered(mut self, numbers: MoveNumbers, first: Color) -> UnknownVerdict {
        self.numbering = Some((numbers, first));
        self
    }

    /// "ply 6 (?)", or in the game's numbering "3... ? (ply 6)".
    fn place(&self) -> String {
        let written = self.variant.write_written(&self.written);
        match &self.numbering {
            Some((numbers, first)) => format!(
                "{} {written} (ply {})",
                numbers.label_from(*first, self.ply),
                self.ply
            ),
            None => format!("ply {} ({written})", self.ply),
        }
    }
}

impl fmt::Display for UnknownVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let played = self.variant.write_move(&self.played);
        let place = self.place();
        match &self.other {
            None => write!(f, "{place}: forced to {played}"),
            Some(other) => write!(
                f,
                "{place}: not forced: {played} here, {} in another answer",
                self.variant.write_move(other)
            ),
        }
    }
}

/// For each damaged ply of `record`, whether the move `filled` plays there
/// is forced: the formula (with what is `known`) is solved once more per
/// damaged ply with that move ruled out (under an assumption), every
/// model replayed as always.
///
/// # Errors
/// [`SolveError`] if the record cannot be encoded or varisat fails.
pub fn forced_unknowns(
    record: &Record,
    variant: Variant,
    known: BoardFacts,
    filled: &Record,
) -> Result<Vec<UnknownVerdict>, SolveError> {
    let mut cnf = CnfFormula::new();
    let mut formula = Formula::encode(variant, record, known, &mut cnf, EncodeOptions::default())?;
    let mut solver = crate::sat::new_solver();
    solver.add_formula(&cnf);
    let written = record.written_moves();
    let mut learned = Vec::new();
    let mut verdicts = Vec::new();
    let plies: Vec<usize> = formula
        .encoded
        .layout
        .iter()
        .flat_map(|l| l.moves.iter().map(|mv| mv.ply))
        .collect();
    for ply in plies {
        let played = filled.moves[ply - 1].clone();
        // "Not this move", switched on by a fresh assumption.
        let other = solver.new_lit();
        let mut clause = vec![!other];
        // The move may take more steps than this formula has written yet.
        formula.deepen(&mut solver, ply, played.landings().len());
        let playing = formula
            .encoded
            .layout
            .iter()
            .flat_map(|l| &l.moves)
            .find(|mv| mv.ply == ply)
            .and_then(|mv| mv.playing(&played))
            .ok_or(SolveError::MoveOutsideFormula(ply))?;
        for term in playing {
            if let Term::Lit(l) = term {
                clause.push(!l);
            }
        }
        solver.add_clause(&clause);
        let found = solve_refining(&mut solver, &mut formula, &[other], &mut learned)?;
        verdicts.push(UnknownVerdict {
            ply,
            written: written[ply - 1].clone(),
            played,
            other: found.map(|f| f.filled.moves[ply - 1].clone()),
            variant,
            numbering: None,
        });
    }
    Ok(verdicts)
}
