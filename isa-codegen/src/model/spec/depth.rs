//! The bound on what the evaluator recurses through: no function nests deeper than the read
//! stage's limit with its callees inlined, and none calls itself.

use super::{callees, children, Expr, ExprKind, SpecFn};
use crate::diag::Sink;

/// Checks that no function nests deeper than [`crate::read::spec::MAX_SPEC_DEPTH`] with the
/// bodies of the functions it calls inlined (the partial evaluator and the instance search
/// recurse through calls), and that no function calls itself, directly or not (the language has
/// no recursion). Each violation is an error at the function's line. Runs before any evaluation;
/// the walks here recurse at most as deep as one body, which the read stage bounded.
pub fn check_depth(fns: &[SpecFn], sink: &mut Sink) {
    use crate::read::spec::MAX_SPEC_DEPTH;
    /// Depth of `e` with calls inlined, given the inlined depths of the functions called.
    fn depth(e: &Expr, inlined: &[Option<usize>]) -> usize {
        let own = match &e.kind {
            ExprKind::Call(f, _) => inlined[*f].unwrap_or(0),
            _ => 0,
        };
        1 + children(e)
            .into_iter()
            .map(|c| depth(c, inlined))
            .max()
            .unwrap_or(0)
            .max(own)
    }
    let calls: Vec<Vec<usize>> = fns
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            callees(&f.body, &mut out);
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    // Callees first (an explicit stack, not recursion: call chains may be long); a function on
    // the current path again is a cycle.
    let mut inlined: Vec<Option<usize>> = vec![None; fns.len()];
    let mut state = vec![0u8; fns.len()]; // 0 new, 1 on the path, 2 done
    let mut cyclic = vec![false; fns.len()];
    for root in 0..fns.len() {
        if state[root] == 2 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            state[f] = 1;
            if let Some(&g) = calls[f].get(*next) {
                *next += 1;
                match state[g] {
                    0 => stack.push((g, 0)),
                    1 if !cyclic[f] => {
                        cyclic[f] = true;
                        let path: Vec<&str> = stack
                            .iter()
                            .skip_while(|(h, _)| *h != g)
                            .map(|(h, _)| fns[*h].name.as_str())
                            .chain([fns[g].name.as_str()])
                            .collect();
                        sink.push(
                                fns[f].loc.clone(),
                                format!(
                                    "spec function `{}` calls itself ({}); the spec language has no recursion",
                                    fns[f].name,
                                    path.join(" -> ")
                                ),
                            );
                    }
                    _ => {}
                }
                continue;
            }
            stack.pop();
            state[f] = 2;
            let d = depth(&fns[f].body, &inlined);
            inlined[f] = Some(d);
            if d > MAX_SPEC_DEPTH {
                sink.push(
                    fns[f].loc.clone(),
                    format!(
                        "spec function `{}` nests {d} levels deep with the functions it calls inlined; the limit is {MAX_SPEC_DEPTH} (docs/spec-language.md, \"Limits\")",
                        fns[f].name
                    ),
                );
            }
        }
    }
}
