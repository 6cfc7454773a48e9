//! Independent jobs over a list: on every core with the `parallel` feature
//! (rayon), one after the other without it; the results in input order
//! either way, so a front end built without the thread pool (the Python
//! module) runs the same batches.

/// `job` applied to every item, the results in the items' order.
#[cfg(feature = "parallel")]
pub fn map_in_order<T: Sync, R: Send>(items: &[T], job: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(job).collect()
}

/// `job` applied to every item, the results in the items' order.
#[cfg(not(feature = "parallel"))]
pub fn map_in_order<T: Sync, R: Send>(items: &[T], job: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    items.iter().map(job).collect()
}
