use mancala_core::afrika::Afrika;
use mancala_core::andada::Andada;
use mancala_core::kauri::Kauri;
use mancala_core::{Game, Moves, PositionText};
use std::collections::HashMap;

fn count<G: Game>(root: G, limit: usize) {
    let mut seen: HashMap<G, ()> = HashMap::new();
    let mut stack = vec![root];
    seen.insert(root, ());
    let mut per_mat: HashMap<u32, usize> = HashMap::new();
    let mut ms = Moves::new();
    let mut edges = 0usize;
    while let Some(g) = stack.pop() {
        *per_mat.entry(g.material()).or_default() += 1;
        g.legal_moves(&mut ms);
        for &m in &ms {
            edges += 1;
            let c = g.play(m);
            if !seen.contains_key(&c) {
                seen.insert(c, ());
                stack.push(c);
            }
        }
        if seen.len() > limit {
            println!("over {limit}");
            break;
        }
    }
    let mut v: Vec<_> = per_mat.into_iter().collect();
    v.sort();
    println!("positions {} edges {edges} by material {:?}", seen.len(), v);
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = &a[1];
    let limit: usize = a.get(2).map(|x| x.parse().unwrap()).unwrap_or(50_000_000);
    if text.starts_with("kauri") {
        count(Kauri::from_text(text).unwrap(), limit)
    } else if text.starts_with("andada:") {
        count(
            Andada::start(text[7..].parse().unwrap(), Default::default()),
            limit,
        )
    } else {
        count(Afrika::from_text(text).unwrap(), limit)
    }
}
