use postfacto::encode::BoardFacts;
use postfacto::random::{damage, random_fragment, Damage, Rng};
use postfacto::replay::replay;
use postfacto::rules::Variant;
use postfacto::solve::{solve_knowing, Engine, Outcome};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let vi: usize = args[1].parse().unwrap();
    let um: usize = args[2].parse().unwrap();
    let us: usize = args[3].parse().unwrap();
    let short = args[4] == "1";
    let plies: usize = args[5].parse().unwrap();
    let n: u64 = args[6].parse().unwrap();
    let variant = Variant::ALL[vi];
    let rules = variant.rules();
    for seed in 0..n {
        let mut rng = Rng::new(seed);
        let Some((origin, record)) = random_fragment(rules, &mut rng, 5, plies) else {
            continue;
        };
        let _end = replay(rules, &origin, &record).unwrap();
        let damaged = damage(
            &record,
            &mut rng,
            Damage {
                unknown_moves: um,
                unknown_squares: us,
                short_captures: short,
            },
        );
        let t = Instant::now();
        let r = solve_knowing(&damaged, Engine::Sat, variant, BoardFacts::none());
        let el = t.elapsed();
        let what = match &r {
            Ok(Outcome::Solved(s)) => {
                format!("solved vars {} clauses {}", s.stats.vars, s.stats.clauses)
            }
            Ok(o) => format!("{o:?}"),
            Err(e) => format!("ERR {e}"),
        };
        println!("seed {seed} {:?} {}", el, &what[..what.len().min(200)]);
    }
}
