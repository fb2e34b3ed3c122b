//! The transposition table's memory, on 2 MiB pages where the system gives them.
//!
//! Every probe of the table lands on a random cluster, so with 4 KiB pages nearly every
//! probe also misses the TLB: a 16 MiB table spans 4,096 pages, more than the TLB holds,
//! and the search stalls on the prefetch of the child's cluster. Aligned to 2 MiB and marked with `madvise(MADV_HUGEPAGE)` (Linux
//! with transparent huge pages in `madvise` or `always` mode, the usual default), the
//! same table spans 8 pages. Elsewhere, or when the kernel declines, the memory is
//! ordinary and the table works the same, only slower.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a huge page on x86-64 and most aarch64 Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length array of `T`, allocated on huge-page boundaries when it is large.
pub struct PagedArray<T: Copy + Default> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// Safety: a PagedArray owns its elements exactly like a `Box<[T]>` does.
#[allow(unsafe_code)]
unsafe impl<T: Copy + Default + Send> Send for PagedArray<T> {}
#[allow(unsafe_code)]
unsafe impl<T: Copy + Default + Sync> Sync for PagedArray<T> {}

impl<T: Copy + Default> PagedArray<T> {
    /// `len` (at least one) default elements.
    ///
    /// # Panics
    /// When the size overflows `isize` (a table larger than the address space) or `T`
    /// is zero-sized.
    #[must_use]
    #[allow(unsafe_code)]
    pub fn new(len: usize) -> PagedArray<T> {
        let len = len.max(1);
        let bytes = len
            .checked_mul(size_of::<T>())
            .expect("table size overflows");
        let (size, align) = if bytes >= HUGE_PAGE {
            (bytes.next_multiple_of(HUGE_PAGE), HUGE_PAGE)
        } else {
            (bytes, align_of::<T>())
        };
        let layout = Layout::from_size_align(size, align).expect("table size overflows");
        assert!(layout.size() > 0, "zero-sized table elements");
        // Safety: the layout has a non-zero size.
        let raw = unsafe { alloc(layout) }.cast::<T>();
        let Some(ptr) = NonNull::new(raw) else {
            handle_alloc_error(layout)
        };
        if align == HUGE_PAGE {
            advise_huge_pages(ptr.as_ptr().cast(), size);
        }
        // Safety: `ptr` points to `len` properly aligned, uninitialised slots of T,
        // written once each before any reference to them exists. Writing them now (after
        // the advice) is also what faults the pages in, as huge pages.
        for i in 0..len {
            unsafe { ptr.as_ptr().add(i).write(T::default()) };
        }
        PagedArray { ptr, len, layout }
    }
}

impl<T: Copy + Default> Deref for PagedArray<T> {
    type Target = [T];

    #[inline]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[T] {
        // Safety: `len` initialised elements live at `ptr` for the array's lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy + Default> DerefMut for PagedArray<T> {
    #[inline]
    #[allow(unsafe_code)]
    fn deref_mut(&mut self) -> &mut [T] {
        // Safety: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy + Default> Drop for PagedArray<T> {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // Safety: allocated in `new` with exactly this layout; T: Copy needs no drop.
        unsafe { dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

impl<T: Copy + Default> fmt::Debug for PagedArray<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PagedArray({} elements)", self.len)
    }
}

/// Asks Linux to back `[start, start + len)` with huge pages (a hint; failure is harmless).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: *mut core::ffi::c_void, len: usize) {
    const MADV_HUGEPAGE: core::ffi::c_int = 14;
    extern "C" {
        fn madvise(
            addr: *mut core::ffi::c_void,
            len: usize,
            advice: core::ffi::c_int,
        ) -> core::ffi::c_int;
    }
    // Safety: the range is one live allocation of ours, page aligned; madvise with this
    // advice changes no contents and only returns an error code on failure.
    let _ = unsafe { madvise(start, len, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut core::ffi::c_void, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_arrays_start_at_default_and_keep_writes() {
        for len in [1, 1000, (3 << 20) / 8 + 5] {
            let mut array = PagedArray::<u64>::new(len);
            assert_eq!(array.len(), len);
            assert!(array.iter().all(|&x| x == 0));
            array[len - 1] = 7;
            assert_eq!(array[len - 1], 7);
        }
        let large = PagedArray::<u64>::new(HUGE_PAGE);
        assert_eq!(large.as_ptr() as usize % HUGE_PAGE, 0);
    }
}
