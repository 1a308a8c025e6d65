//! What the games' tuning tools share: a one-dimensional minimiser (the scale of a fit's sigmoid) and work
//! spread over threads (self-play games, positions sent to an outside engine).
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use tabula::tune::{golden_min, on_threads};
//!
//! let x = golden_min(0.0, 10.0, |x| (x - 3.0) * (x - 3.0));
//! assert!((x - 3.0).abs() < 1e-6);
//!
//! let done = AtomicUsize::new(0);
//! on_threads(2, || -> Result<(), String> {
//!     done.fetch_add(1, Ordering::Relaxed);
//!     Ok(())
//! })
//! .unwrap();
//! assert_eq!(done.into_inner(), 2);
//! ```

/// The `x` in `lo..hi` where `f`, assumed to have one minimum there, is least (golden-section search, 40
/// steps: the interval shrinks to 4 · 10⁻⁹ of its width).
pub fn golden_min(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..40 {
        let a = hi - (hi - lo) * 0.618;
        let b = lo + (hi - lo) * 0.618;
        if f(a) < f(b) {
            hi = b
        } else {
            lo = a
        }
    }
    (lo + hi) / 2.0
}

/// Runs `work` on `threads` scoped threads (at least one) and returns the first error any of them met (the
/// others run to their end first). A panic in one is raised again here.
///
/// # Errors
///
/// The first error of a thread, in the order they were started.
pub fn on_threads<E: Send>(threads: usize, work: impl Fn() -> Result<(), E> + Sync) -> Result<(), E> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1)).map(|_| s.spawn(&work)).collect();
        handles.into_iter().try_for_each(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// The next block of up to `size` items of `items` not yet taken, by whichever thread asks first, and where it
/// starts; `None` once all are taken. `next` counts what has been handed out.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicUsize;
/// use tabula::tune::next_block;
///
/// let next = AtomicUsize::new(0);
/// let items = [1, 2, 3, 4, 5];
/// assert_eq!(next_block(&items, &next, 2), Some((0, &items[..2])));
/// assert_eq!(next_block(&items, &next, 2), Some((2, &items[2..4])));
/// assert_eq!(next_block(&items, &next, 2), Some((4, &items[4..])));
/// assert_eq!(next_block(&items, &next, 2), None);
/// ```
pub fn next_block<'a, T>(
    items: &'a [T],
    next: &std::sync::atomic::AtomicUsize,
    size: usize,
) -> Option<(usize, &'a [T])> {
    let first = next.fetch_add(size, std::sync::atomic::Ordering::Relaxed);
    items.get(first..(first + size).min(items.len())).filter(|b| !b.is_empty()).map(|b| (first, b))
}
