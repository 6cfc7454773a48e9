//! The exact engine: a minimum vertex cover of the attack graph by maximum
//! bipartite matching (Hopcroft-Karp) and König's theorem, with the pawns
//! that attack nobody kept and their attackers forced.
//!
//! Why it is optimal and why its captures can be played: see
//! `encodings/pawns.md` and [`super::Roles`].

use super::board::PawnBoard;
use super::Roles;

const NONE: u32 = u32::MAX;
const FAR: u32 = u32::MAX;

/// The attack graph between free pawns: left = free pawns on even rows,
/// right = free pawns on odd rows (attacks join neighbouring rows only).
struct Bipartite {
    left_cells: Vec<usize>,
    right_cells: Vec<usize>,
    /// Right neighbours of each left vertex (up to four), `NONE`-padded.
    adjacent: Vec<[u32; 4]>,
}

impl Bipartite {
    fn of(board: &PawnBoard, free: &[bool]) -> Bipartite {
        let n = board.size();
        let mut id = vec![NONE; free.len()];
        let (mut left_cells, mut right_cells) = (Vec::new(), Vec::new());
        for (i, _) in free.iter().enumerate().filter(|(_, &f)| f) {
            let side = if (i / n).is_multiple_of(2) {
                &mut left_cells
            } else {
                &mut right_cells
            };
            id[i] = side.len() as u32;
            side.push(i);
        }
        let adjacent = left_cells
            .iter()
            .map(|&i| {
                let (r, c) = (i / n, i % n);
                let mut out = [NONE; 4];
                let mut k = 0;
                for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                    let (rr, cc) = (r as isize + dr, c as isize + dc);
                    if rr < 0 || cc < 0 || rr as usize >= n || cc as usize >= n {
                        continue;
                    }
                    let j = rr as usize * n + cc as usize;
                    if free[j] {
                        out[k] = id[j];
                        k += 1;
                    }
                }
                out
            })
            .collect();
        Bipartite {
            left_cells,
            right_cells,
            adjacent,
        }
    }

    fn neighbours(&self, u: usize) -> impl Iterator<Item = u32> + '_ {
        self.adjacent[u].iter().copied().take_while(|&v| v != NONE)
    }
}

/// A maximum matching by Hopcroft-Karp, with an iterative search (paths
/// can be as long as the board is big).
struct Matching<'g> {
    graph: &'g Bipartite,
    of_left: Vec<u32>,
    of_right: Vec<u32>,
    layer: Vec<u32>,
    next_edge: Vec<u8>,
}

impl<'g> Matching<'g> {
    fn maximum(graph: &'g Bipartite) -> Matching<'g> {
        let mut m = Matching {
            graph,
            of_left: vec![NONE; graph.left_cells.len()],
            of_right: vec![NONE; graph.right_cells.len()],
            layer: vec![FAR; graph.left_cells.len()],
            next_edge: vec![0; graph.left_cells.len()],
        };
        // A greedy start leaves Hopcroft-Karp little to do on grids.
        for u in 0..graph.left_cells.len() {
            if let Some(v) = graph
                .neighbours(u)
                .find(|&v| m.of_right[v as usize] == NONE)
            {
                m.of_left[u] = v;
                m.of_right[v as usize] = u as u32;
            }
        }
        let mut queue = Vec::new();
        let (mut stack, mut via) = (Vec::new(), Vec::new());
        while m.layer_from_free(&mut queue) {
            m.next_edge.fill(0);
            for u in 0..graph.left_cells.len() {
                if m.of_left[u] == NONE {
                    m.augment_from(u as u32, &mut stack, &mut via);
                }
            }
        }
        m
    }

    /// Breadth-first layers of left vertices from the free ones; true if
    /// some free right vertex can be reached (an augmenting path exists).
    fn layer_from_free(&mut self, queue: &mut Vec<u32>) -> bool {
        queue.clear();
        for (u, layer) in self.layer.iter_mut().enumerate() {
            if self.of_left[u] == NONE {
                *layer = 0;
                queue.push(u as u32);
            } else {
                *layer = FAR;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head] as usize;
            head += 1;
            for v in self.graph.neighbours(u) {
                match self.of_right[v as usize] {
                    NONE => found = true,
                    w if self.layer[w as usize] == FAR => {
                        self.layer[w as usize] = self.layer[u] + 1;
                        queue.push(w);
                    }
                    _ => {}
                }
            }
        }
        found
    }

    /// Looks for an augmenting path from the free left vertex `root` along
    /// the layers, and flips it if found.
    fn augment_from(&mut self, root: u32, stack: &mut Vec<u32>, via: &mut Vec<u32>) -> bool {
        stack.clear();
        via.clear();
        stack.push(root);
        while let Some(&u) = stack.last() {
            let u = u as usize;
            let edge = self.next_edge[u] as usize;
            match self.graph.adjacent[u].get(edge).copied() {
                Some(v) if v != NONE => {
                    self.next_edge[u] += 1;
                    match self.of_right[v as usize] {
                        NONE => {
                            via.push(v);
                            for (&l, &r) in stack.iter().zip(via.iter()) {
                                self.of_left[l as usize] = r;
                                self.of_right[r as usize] = l;
                            }
                            return true;
                        }
                        w if self.layer[w as usize] == self.layer[u] + 1 => {
                            via.push(v);
                            stack.push(w);
                        }
                        _ => {}
                    }
                }
                _ => {
                    // A dead end this phase.
                    self.layer[u] = FAR;
                    stack.pop();
                    via.pop();
                }
            }
        }
        false
    }

    /// König: from the free left vertices, walk alternating paths; the cover
    /// is the left vertices not reached and the right vertices reached.
    fn cover(&self) -> (Vec<bool>, Vec<bool>) {
        let graph = self.graph;
        let mut seen_left = vec![false; graph.left_cells.len()];
        let mut seen_right = vec![false; graph.right_cells.len()];
        let mut queue: Vec<usize> = (0..graph.left_cells.len())
            .filter(|&u| self.of_left[u] == NONE)
            .collect();
        for &u in &queue {
            seen_left[u] = true;
        }
        while let Some(u) = queue.pop() {
            for v in graph.neighbours(u) {
                let v = v as usize;
                if seen_right[v] {
                    continue;
                }
                seen_right[v] = true;
                let w = self.of_right[v];
                if w != NONE && !seen_left[w as usize] {
                    seen_left[w as usize] = true;
                    queue.push(w as usize);
                }
            }
        }
        let left = seen_left.iter().map(|&s| !s).collect();
        (left, seen_right)
    }

    fn size(&self) -> usize {
        self.of_left.iter().filter(|&&v| v != NONE).count()
    }
}

/// The pawns that capture (leave their square) in a solution with the
/// fewest captures, one entry per square, and the size of the maximum
/// matching of the free pawns (the König lower bound for them).
pub fn fewest_captures(board: &PawnBoard, roles: &Roles) -> (Vec<bool>, usize) {
    let graph = Bipartite::of(board, &roles.free);
    let matching = Matching::maximum(&graph);
    let (left, right) = matching.cover();
    let mut captures = roles.forced.clone();
    for (u, &i) in graph.left_cells.iter().enumerate() {
        captures[i] |= left[u];
    }
    for (v, &i) in graph.right_cells.iter().enumerate() {
        captures[i] |= right[v];
    }
    (captures, matching.size())
}
